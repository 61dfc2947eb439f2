import CaffeCore
import CaffeProtocol
import Foundation
import Testing

/// Checked-in outputs for the same orders in nine locales. `CAFFE_UPDATE_GOLDENS=1 swift test
/// --filter GoldenOutputTests` rewrites them; review the diff like code.
@Suite("Golden outputs")
struct GoldenOutputTests {
    static let update = ProcessInfo.processInfo.environment["CAFFE_UPDATE_GOLDENS"] == "1"

    /// The orders: quantities 0, 1, 2 and 21; feminine, masculine and unknown terms of address;
    /// a tip; a night across Europe's 2026 DST change; a pickup across the year boundary.
    static let orders: [(name: String, make: @Sendable (CoreFixture.Market) -> Caffe_V1_OrderEvent)] = [
        (
            "quantities",
            { market in
                CoreFixture.order(
                    id: "A-1042",
                    market: market,
                    name: "Ana",
                    term: .feminine,
                    lines: [
                        CoreFixture.line("pizza", "large", 2), CoreFixture.line("juice", "small", 1),
                        CoreFixture.line("salad", "small", 21), CoreFixture.line("coffee", "large", 0),
                    ],
                    tip: "2",
                    placedAt: "2026-11-18T11:06:40Z",
                    pickupAt: "2026-11-18T11:25:00Z"
                )
            }
        ),
        (
            "dst-night",
            { market in
                CoreFixture.order(
                    id: "B-7",
                    market: market,
                    name: "Luis",
                    term: .masculine,
                    lines: [CoreFixture.line("cafe_au_lait", "small", 1), CoreFixture.line("sandwich", "large", 1)],
                    placedAt: "2026-03-29T00:50:00Z",
                    pickupAt: "2026-03-29T01:10:00Z"
                )
            }
        ),
        (
            "new-year",
            { market in
                CoreFixture.order(
                    id: "C-2026",
                    market: market,
                    name: "",
                    term: .unspecified,
                    lines: [CoreFixture.line("sandwich", "small", 2), CoreFixture.line("coffee", "small", 1)],
                    placedAt: "2026-12-31T22:59:00Z",
                    pickupAt: "2027-01-01T00:20:00Z"
                )
            }
        ),
    ]

    static let cases = orders.flatMap { order in CoreFixture.markets.map { (order.name, $0.locale) } }

    @Test("order output", arguments: cases)
    func golden(order name: String, locale: String) throws {
        let market = try #require(CoreFixture.markets.first { $0.locale == locale })
        let make = try #require(Self.orders.first { $0.name == name }).make
        let rendered = try CoreFixture.core.makeSession().render(make(market))
        let actual = GoldenText.render(rendered)
        try Self.check(actual, against: "\(name).\(locale).txt")
    }

    /// Complication requests: each locale at a time across the DST change and one at the year's end,
    /// the locale's hour cycle and both forced ones.
    @Test("complication output")
    func complications() throws {
        let session = CoreFixture.core.makeSession()
        var actual = ""
        let dates = ["2026-03-29T00:50:00Z", "2026-03-29T01:10:00Z", "2026-12-31T23:45:00Z"]
        for market in CoreFixture.markets {
            for date in dates {
                for hourCycle in ["", "h12", "h23"] {
                    var request = Caffe_V1_ComplicationRequest()
                    request.requestID = "r"
                    request.userID = "u"
                    request.locale = market.locale
                    request.timeZone = market.timeZone
                    request.hourCycle = hourCycle
                    request.nextFreeCoffee = CoreFixture.timestamp(date)
                    let payload = try session.complication(request)
                    actual +=
                        "== \(market.locale) \(market.timeZone) \(date) \(hourCycle.isEmpty ? "locale" : hourCycle)\n"
                    for entry in payload.entries {
                        actual += "\(entry.family.name): \(entry.text.plain)\n" + GoldenText.runs(entry.text) + "\n"
                    }
                }
            }
        }
        try Self.check(actual, against: "complications.txt")
    }

    /// Compares with the checked-in file, or rewrites it when updating.
    static func check(_ actual: String, against name: String) throws {
        let file = CoreFixture.goldens.appendingPathComponent(name)
        if update {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "\(name) differs; rerun with CAFFE_UPDATE_GOLDENS=1 and review")
    }
}
