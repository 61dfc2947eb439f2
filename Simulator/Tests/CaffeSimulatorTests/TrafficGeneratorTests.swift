// Caffe — simulator tests.
import CaffeCore
import CaffeProtocol
import CaffeSimulator
import CaffeTestKit
import Foundation
import SwiftProtobuf
import Testing

@Suite("Generated traffic")
struct TrafficGeneratorTests {
    static let core: RenderingCore = {
        do {
            return try RenderingCore(configurationDirectory: CatalogBenchmarkTests.configuration)
        } catch {
            fatalError("config/ does not load: \(error)")
        }
    }()

    @Test func theSameSeedGivesTheSameOrdersByteForByte() throws {
        let markets = try TestMarkets.mix()
        var first = try OrderGenerator(menu: Self.core.menu, configuration: .init(seed: 42, markets: markets))
        var second = try OrderGenerator(menu: Self.core.menu, configuration: .init(seed: 42, markets: markets))
        var other = try OrderGenerator(menu: Self.core.menu, configuration: .init(seed: 43, markets: markets))
        let orders = first.next(200)
        #expect(
            try orders.map { try $0.serializedBytes() as [UInt8] } == second.next(200).map { try $0.serializedBytes() }
        )
        #expect(orders != other.next(200))
        #expect(orders.map(\.sequence) == Array(1...200))
        #expect(orders[0].orderID == "sim-1-1" && orders[0].sourceID == "sim-1")
    }

    /// The stream exercises what the core must handle: every configured market, every term of
    /// address, empty lines and crowds, tips and none, pickup times and none, nameless customers.
    @Test func aThousandOrdersCoverTheCasesAndAllRender() throws {
        var generator = try OrderGenerator(menu: Self.core.menu, configuration: .init(markets: TestMarkets.mix("all")))
        let orders = generator.next(1000)
        let quantities = orders.flatMap(\.lines).map(\.quantity)
        #expect(quantities.contains(0) && quantities.contains(1) && quantities.contains { $0 > 5 })
        #expect(quantities.allSatisfy { $0 <= 21 })
        #expect(
            Set(orders.map(\.customer.locale))
                == [
                    "en-US", "es-ES", "es-MX", "fr-FR", "de-DE", "it-IT", "pl-PL", "ru-RU", "pt-BR", "ja-JP", "ar-EG",
                    "ar-BH",
                ]
        )
        #expect(Set(orders.map(\.customer.termOfAddress)) == [.feminine, .masculine, .unspecified])
        #expect(orders.contains { $0.tip.isEmpty } && orders.contains { !$0.tip.isEmpty })
        #expect(orders.contains { $0.hasPickupAt } && orders.contains { !$0.hasPickupAt })
        #expect(orders.contains { $0.customer.name.isEmpty })
        #expect(orders.allSatisfy { (1...4).contains($0.lines.count) })
        #expect(orders.allSatisfy { Set($0.lines.map(\.itemID)).count == $0.lines.count })
        let session = Self.core.makeSession()
        for order in orders {
            let rendered = try session.render(order)
            #expect(rendered.receipt.notes.isEmpty, "\(order.orderID): \(rendered.receipt.notes)")
        }
    }

    @Test func tipsHaveTheCurrencysMinorUnits() throws {
        var generator = try OrderGenerator(menu: Self.core.menu, configuration: .init(markets: TestMarkets.mix("all")))
        for order in generator.next(500) where !order.tip.isEmpty {
            let decimals = order.tip.split(separator: ".").dropFirst().first?.count ?? 0
            let expected = ["JPY": 0, "BHD": 3][order.currencyCode] ?? 2
            #expect(decimals == expected, "\(order.currencyCode) \(order.tip)")
        }
    }

    @Test func aMarketTheMenuCannotServeIsRefused() {
        let nowhere = Market(
            locale: "sv-SE",
            storeID: "store-se-sto",
            currencyCode: "SEK",
            timeZone: "Europe/Stockholm",
            customers: [.init("Elsa", .feminine)]
        )
        #expect(throws: OrderGenerator.MarketError.self) {
            try OrderGenerator(menu: Self.core.menu, configuration: .init(markets: [(nowhere, 1)]))
        }
        #expect(throws: OrderGenerator.MarketError.self) {
            try OrderGenerator(
                menu: Self.core.menu,
                configuration: .init(markets: [(TestMarkets.directory.markets[0], 0)])
            )
        }
    }

    @Test func complicationRequestsAreDeterministicAndSpreadAroundTheAnchors() throws {
        var first = ComplicationGenerator(configuration: .init(seed: 7, markets: try TestMarkets.mix("all")))
        var second = ComplicationGenerator(configuration: .init(seed: 7, markets: try TestMarkets.mix("all")))
        let requests = first.next(500)
        #expect(requests == second.next(500))
        #expect(Set(requests.map(\.hourCycle)) == ["", "h12", "h23"])
        #expect(requests.contains { $0.families.isEmpty } && requests.contains { $0.families.count == 1 })
        #expect(Set(requests.map(\.locale)) == Set(TestMarkets.directory.markets.map(\.locale)))
        let anchors = ComplicationGenerator.Configuration.defaultAnchors.map { Int64($0.timeIntervalSince1970) }
        for request in requests {
            let seconds = request.nextFreeCoffee.seconds
            #expect(seconds % 60 == 0)
            #expect(anchors.contains { abs($0 - seconds) <= 2 * 86_400 })
        }
        let session = Self.core.makeSession()
        for request in requests {
            #expect(try session.complication(request).entries.isEmpty == false)
        }
    }

    /// Markets come from the configuration now; the seven of 0.30.0's built-in list must still get
    /// the same traffic, byte for byte, so journals and figures stay comparable. The fingerprints
    /// are 0.30.0's `caffe-sim journal export --jsonl` of these commands (the offset column removed,
    /// since the header names the command line), FNV-1a 64.
    @Test("the seven markets of 0.30.0 get the same journals from the same seed, orders and complications")
    func theSevenOriginalMarketsKeepTheirTraffic() throws {
        let sim = try #require(ExecutableRunner.locate("caffe-sim"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traffic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = ["--config", CatalogBenchmarkTests.configuration.path]
        let runs: [(arguments: [String], fingerprint: String)] = [
            (["generate", "--orders", "5000", "--seed", "7"], "c3aa8605d90c858c"),
            (
                [
                    "generate", "--orders", "5000", "--seed", "3", "--locales",
                    "en-US:40,es-MX:20,ja-JP:10,ar-EG:5,fr-FR:3,de-DE:2,es-ES:1",
                ],
                "b82f02656379256b"
            ),
            (["complications", "--count", "200"], "0803d018672ac98f"),
        ]
        for (index, run) in runs.enumerated() {
            let journal = folder.appendingPathComponent("\(index).journal").path
            let written = try ExecutableRunner.run(sim, run.arguments + ["-o", journal] + config)
            #expect(written.status == 0, "\(run.arguments): \(written.standardError)")
            let exported = try ExecutableRunner.run(sim, ["journal", "export", "--jsonl", journal])
            let lines = exported.standardOutput.split(separator: "\n").map { line in
                line.replacing(/^\{"offset":[0-9]+,/, with: "{")
            }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in lines.joined(separator: "\n").utf8 + [UInt8(ascii: "\n")] {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            #expect(String(format: "%016llx", hash) == run.fingerprint, "\(run.arguments)")
        }
    }

    @Test("a market is a store of the menu; --locales all covers them; an unknown one names those there are")
    func marketsComeFromTheConfiguration() throws {
        let directory = TestMarkets.directory
        #expect(
            directory.markets.map { "\($0.locale) \($0.storeID) \($0.currencyCode) \($0.timeZone)" } == [
                "en-US store-us-sfo USD America/Los_Angeles", "es-ES store-es-mad EUR Europe/Madrid",
                "es-MX store-mx-cdmx MXN America/Mexico_City", "fr-FR store-fr-par EUR Europe/Paris",
                "de-DE store-de-ber EUR Europe/Berlin", "it-IT store-it-rom EUR Europe/Rome",
                "pl-PL store-pl-waw PLN Europe/Warsaw", "ru-RU store-ru-mow RUB Europe/Moscow",
                "pt-BR store-br-sao BRL America/Sao_Paulo", "ja-JP store-jp-tyo JPY Asia/Tokyo",
                "ar-EG store-eg-cai EGP Africa/Cairo", "ar-BH store-bh-bah BHD Asia/Bahrain",
            ]
        )
        #expect(directory.notes.isEmpty)
        #expect(directory.localizationsWithoutMarket.isEmpty)
        // Customers by locale, else by language (ar-BH takes the Arabic list, it-IT the Italian one).
        #expect(directory.market("it-IT")?.customers.map(\.name) == ["Giulia", "Marco", "Alex", ""])
        #expect(directory.market("ar-BH")?.customers.map(\.name) == ["فاطمة", "خالد", "ريان"])
        #expect(
            try directory.mix(nil).map(\.market.locale) == [
                "en-US", "es-ES", "es-MX", "fr-FR", "de-DE", "ja-JP", "ar-EG",
            ]
        )
        #expect(try directory.mix("all").count == 12)
        #expect(try directory.mix("all,en-US:5").map(\.weight) == [5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        #expect(
            try directory.mix("it-IT:2,pt-BR").map { "\($0.market.locale):\($0.weight)" } == ["it-IT:2", "pt-BR:1"]
        )
        #expect(throws: MarketDirectory.Failure.self) { try directory.mix("it-IT:0") }
        do {
            _ = try directory.mix("cs-CZ:1")
            Issue.record("cs-CZ is no market of config/")
        } catch {
            #expect(
                error.description
                    == "no market for cs-CZ; the configured markets are en-US, es-ES, es-MX, fr-FR, de-DE, it-IT, "
                    + "pl-PL, ru-RU, pt-BR, ja-JP, ar-EG, ar-BH. A market is a store in menu.json with \"locale\", \"currency\" "
                    + "and \"timeZone\" (README: Adding a language)"
            )
        }
    }

    @Test("a store without locale, currency or time zone is no market, and a localization without one is named")
    func whatTheDirectoryCannotTell() throws {
        let menu = try Menu(
            json: Data(
                """
                {"version": 1, "nameTable": "Menu", "sizes": [{"id": "small", "nameKey": "small"}],
                 "stores": [{"id": "store-pl-waw", "locale": "pl-PL", "currency": "PLN", "timeZone": "Europe/Warsaw",
                             "taxRate": "0.23"},
                            {"id": "store-nl-ams", "locale": "nl-NL", "taxRate": "0.09"}],
                 "items": [{"id": "juice", "nameKey": "juice", "category": "drink", "ingredientKeys": [],
                            "prices": {"small": {"PLN": "9.00"}}}]}
                """.utf8
            )
        )
        let traffic = TrafficSettings(customers: ["de": [.init("Anna", .feminine)]])
        let directory = MarketDirectory(menu: menu, traffic: traffic, catalog: Self.core.catalog)
        #expect(directory.markets.map(\.locale) == ["pl-PL"])
        #expect(directory.market("pl-PL")?.customers == [.init("", .unspecified)])
        #expect(
            directory.notes == [
                "pl-PL: traffic.json lists no customers for it or its language; its orders carry no name",
                "store-nl-ams is no market: menu.json gives it no currency, timeZone",
            ]
        )
        // config/'s catalogs: every localization but en's fallbacks is now without a market.
        #expect(directory.localizationsWithoutMarket.contains("it"))
        do {
            _ = try directory.mix("it-IT")
            Issue.record("it-IT is no market of this menu")
        } catch {
            #expect(
                error.description.contains(
                    "The catalogs have the localization it, but no store of menu.json sells in it"
                )
            )
        }
        var generator = try OrderGenerator(menu: menu, configuration: .init(markets: directory.mix(nil)))
        #expect(generator.next(5).allSatisfy { $0.customer.locale == "pl-PL" && $0.currencyCode == "PLN" })
    }

    @Test func seededRandomIsStableAcrossRuns() {
        var random = SeededRandom(seed: 1)
        // SplitMix64's first outputs for seed 1, fixed here so the generated traffic never drifts.
        #expect(random.next() == 0x910A_2DEC_8902_5CC1)
        #expect(random.next() == 0xBEEB_8DA1_658E_EC67)
        var bounded = SeededRandom(seed: 9)
        #expect((0..<1000).allSatisfy { _ in (0..<7).contains(bounded.below(7)) })
    }
}
