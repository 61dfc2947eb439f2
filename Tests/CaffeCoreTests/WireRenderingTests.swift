import CaffeCore
import CaffeProtocol
import CaffeTestKit
import Foundation
import SwiftProtobuf
import Testing

/// Rendering from an order's bytes to its outputs' bytes gives exactly what rendering the decoded
/// message and encoding the outputs gives: every golden order, and a seeded stream of orders in
/// every market with every term of address, names, tips, missing pickups and unusual shapes.
@Suite("Orders from bytes to bytes")
struct WireRenderingTests {
    /// The bytes path against the message path, on one session each.
    struct Comparison {
        let wire = CoreFixture.core.makeSession()
        let messages = CoreFixture.core.makeSession()

        func check(_ order: Caffe_V1_OrderEvent, _ name: String) throws {
            let body = try order.serializedBytes() as [UInt8]
            let rendered = try messages.render(order)
            let outputs = try body.withUnsafeBytes { try wire.renderOrder(bytes: $0) }
            #expect(Array(outputs.confirmation) == rendered.confirmation.singlePassBytes(), "\(name): confirmation")
            #expect(Array(outputs.receipt) == rendered.receipt.singlePassBytes(), "\(name): receipt")
            #expect(outputs.localization == rendered.confirmation.locale)
            #expect(outputs.customerLocale == order.customer.locale && outputs.storeID == order.storeID)
        }
    }

    @Test("golden orders", arguments: GoldenOutputTests.cases)
    func goldenOrders(name: String, locale: String) throws {
        let market = try #require(CoreFixture.markets.first { $0.locale == locale })
        let make = try #require(GoldenOutputTests.orders.first { $0.name == name }).make
        let order = make(market)
        try Comparison().check(order, "\(name) \(locale)")
        // The decoded outputs are the checked-in goldens.
        let session = CoreFixture.core.makeSession()
        let body = try order.serializedBytes() as [UInt8]
        let outputs = try body.withUnsafeBytes { try session.renderOrder(bytes: $0) }
        let decoded = RenderedOrder(
            confirmation: try Caffe_V1_Confirmation(serializedBytes: Array(outputs.confirmation)),
            receipt: try Caffe_V1_Receipt(serializedBytes: Array(outputs.receipt))
        )
        let golden = try String(
            contentsOf: CoreFixture.goldens.appendingPathComponent("\(name).\(locale).txt"),
            encoding: .utf8
        )
        #expect(GoldenText.render(decoded) == golden)
        #expect(session.wireStatistics.wireRenders == 1 && session.wireStatistics.messageRenders == 0)
    }

    @Test("a seeded stream of orders in every market")
    func seededStream() throws {
        let comparison = Comparison()
        var random = SplitMix64(seed: 20)
        let items = CoreFixture.core.menu.items
        let names = ["Ana", "Luis", "", "José María", "さくら", "مريم", "O'Brien & <Co>", "Ignacio", "Hiro"]
        for index in 0..<400 {
            let market = CoreFixture.markets[random.next(below: CoreFixture.markets.count)]
            var lines: [Caffe_V1_OrderLine] = []
            for _ in 0..<(1 + random.next(below: 5)) {
                let item = items[random.next(below: items.count)]
                let sizes = item.prices.filter { $0.value[market.currency] != nil }.keys.sorted()
                guard let size = sizes.isEmpty ? nil : sizes[random.next(below: sizes.count)] else { continue }
                let quantity = [0, 1, 1, 2, 3, 11, 21][random.next(below: 7)]
                lines.append(CoreFixture.line(item.id, size, UInt32(quantity)))
            }
            guard !lines.isEmpty else { continue }
            let seconds = 1_767_225_600 + random.next(below: 63_000_000)
            let tips = ["", "", "2", "0.50", "10", "0"]
            let order = CoreFixture.order(
                id: "S-\(index)<&>",
                market: market,
                name: names[random.next(below: names.count)],
                term: [.unspecified, .feminine, .masculine, .neutral][random.next(below: 4)],
                lines: lines,
                tip: market.currency == "JPY" ? "" : tips[random.next(below: tips.count)],
                placedAt: ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(seconds))),
                pickupAt: random.next(below: 5) == 0
                    ? nil : ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(seconds + 1200)))
            )
            try comparison.check(order, "order \(index) \(market.locale)")
        }
        #expect(comparison.wire.wireStatistics.messageRenders == 0)
        #expect(comparison.wire.wireStatistics.wireRenders > 350)
    }

    @Test("what the programs refuse goes the message way, with the same outputs or errors")
    func unusualOrders() throws {
        let comparison = Comparison()
        var sweden = CoreFixture.order()
        sweden.customer.locale = "sv-SE"
        var defaulted = CoreFixture.order()
        defaulted.customer.timeZone = ""
        var nanos = CoreFixture.order()
        nanos.placedAt.nanos = 999_999_999
        var unknown = Caffe_V1_OrderEvent()
        unknown.orderID = "u"
        try comparison.check(sweden, "a locale with no localization")
        try comparison.check(defaulted, "a defaulted time zone")
        try comparison.check(nanos, "nanoseconds")
        for (broken, name) in [(unknown, "no placedAt"), (Self.withLine(item: "caviar"), "unknown item")] {
            let body = try broken.serializedBytes() as [UInt8]
            let expected = #expect(throws: RenderError.self) { try comparison.messages.render(broken) }
            let actual = #expect(throws: RenderError.self) {
                try body.withUnsafeBytes { _ = try comparison.wire.renderOrder(bytes: $0) }
            }
            #expect(actual == expected, "\(name)")
        }
        // A malformed body is the decoder's error, as before.
        let garbage: [UInt8] = [0x0A, 0xFF]
        #expect(throws: CaffeProtocolError.self) {
            try garbage.withUnsafeBytes { _ = try comparison.wire.renderOrder(bytes: $0) }
        }
        // The identity is checked before anything is rendered.
        let body = try Self.withLine(item: "caviar").serializedBytes() as [UInt8]
        #expect(throws: OrderRejection.self) {
            try body.withUnsafeBytes {
                _ = try comparison.wire.renderOrder(bytes: $0) { $0.hasOrderID("A-1042") ? "refused" : nil }
            }
        }
    }

    @Test("a locale whose list does not compile renders the message way and is named")
    func listLeftToICU() throws {
        let comparison = Comparison()
        var malayalam = CoreFixture.order()
        malayalam.customer.locale = "ml-IN"
        try comparison.check(malayalam, "ml-IN")
        #expect(comparison.wire.wireStatistics.messageRenders == 1)
        #expect(comparison.wire.wireFallbacks == ["ml-IN list"])
    }

    static func withLine(item: String) -> Caffe_V1_OrderEvent {
        CoreFixture.order(lines: [CoreFixture.line(item, "large", 1)])
    }
}

/// Complication requests from bytes to bytes equal the message path's payloads, byte for byte.
@Suite("Complications from bytes to bytes")
struct WireComplicationTests {
    @Test func everyMarketCycleAndFamily() throws {
        let wire = CoreFixture.core.makeSession()
        let messages = CoreFixture.core.makeSession()
        var random = SplitMix64(seed: 7)
        let locales =
            CoreFixture.markets.map { ($0.locale, $0.timeZone) } + [
                ("zh-Hant-TW", "Asia/Taipei"), ("ko-KR", "Asia/Seoul"), ("hi-IN", "Asia/Calcutta"),
                ("he-IL", "Asia/Jerusalem"),
                ("en-AU", "Australia/Lord_Howe"), ("th-TH", "Asia/Bangkok"), ("ar-SA-u-nu-latn", "Asia/Riyadh"),
            ]
        for (locale, zone) in locales {
            for hourCycle in ["", "h11", "h12", "h23", "h24"] {
                for _ in 0..<12 {
                    let seconds = Int64(1_767_225_600 + random.next(below: 63_000_000) / 60 * 60)
                    var request = CoreFixture.request(
                        locale: locale,
                        timeZone: zone,
                        hourCycle: hourCycle,
                        at: Google_Protobuf_Timestamp(seconds: seconds, nanos: 0),
                        user: "u-\(locale)"
                    )
                    if random.next(below: 3) == 0 {
                        request.families = (0..<(1 + random.next(below: 3))).map { _ in
                            Caffe_V1_ComplicationFamily.rendered[random.next(below: 7)]
                        }
                    }
                    let body = try request.serializedBytes() as [UInt8]
                    let expected = try messages.complication(request).singlePassBytes()
                    let actual = try body.withUnsafeBytes { try wire.renderComplication(bytes: $0) }
                    #expect(
                        Array(actual.payload) == expected,
                        "\(locale) \(zone) '\(hourCycle)' \(request.nextFreeCoffee)"
                    )
                    #expect(actual.userID == request.userID)
                }
            }
        }
        #expect(wire.wireStatistics.messageRenders == 0)
    }

    @Test func unusualRequestsGoTheMessageWay() throws {
        let session = CoreFixture.core.makeSession()
        var request = CoreFixture.request(
            locale: "en-US",
            timeZone: "Nowhere/Atlantis",
            at: CoreFixture.timestamp("2026-12-31T23:45:00Z")
        )
        let defaulted = try request.serializedBytes() as [UInt8]
        let payload = try defaulted.withUnsafeBytes { try session.renderComplication(bytes: $0) }
        #expect(Array(payload.payload) == (try CoreFixture.core.makeSession().complication(request).singlePassBytes()))
        request.hourCycle = "h99"
        let refused = try request.serializedBytes() as [UInt8]
        let error = #expect(throws: RenderError.self) {
            try refused.withUnsafeBytes { _ = try session.renderComplication(bytes: $0) }
        }
        #expect(error?.code == .invalidHourCycle)
        #expect(session.wireStatistics.messageRenders == 1)
    }
}
