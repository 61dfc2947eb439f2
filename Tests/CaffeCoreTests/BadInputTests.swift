import CaffeCore
import CaffeProtocol
import Testing

/// Every kind of bad order gets its own error naming the field; nothing is rendered from it.
@Suite("Bad input")
struct BadInputTests {
    func error(_ change: (inout Caffe_V1_OrderEvent) -> Void) -> RenderError? {
        var order = CoreFixture.order()
        change(&order)
        do {
            _ = try CoreFixture.core.makeSession().render(order)
            return nil
        } catch {
            return error
        }
    }

    @Test("each case has a typed error")
    func cases() {
        let cases: [(String, RenderError.Code, String?, (inout Caffe_V1_OrderEvent) -> Void)] = [
            ("unknown item", .unknownItem, "lines[1].itemId", { $0.lines[1].itemID = "calzone" }),
            ("unknown size", .unknownSize, "lines[0].size", { $0.lines[0].size = "venti" }),
            ("unknown currency", .unknownCurrency, "currencyCode", { $0.currencyCode = "XYZ" }),
            ("lower-case currency", .unknownCurrency, "currencyCode", { $0.currencyCode = "usd" }),
            ("no menu price", .missingPrice, "lines[0]", { $0.currencyCode = "GBP" }),
            ("absurd quantity", .quantityOutOfRange, "lines[0].quantity", { $0.lines[0].quantity = 4_000_000_000 }),
            (
                "too many lines", .quantityOutOfRange, "lines",
                { $0.lines = Array(repeating: CoreFixture.line("coffee", "small", 1), count: 101) }
            ),
            ("negative tip", .invalidAmount, "tip", { $0.tip = "-1.00" }),
            ("tip not a number", .invalidAmount, "tip", { $0.tip = "1,50" }),
            ("absurd tip", .invalidAmount, "tip", { $0.tip = "99999999999" }),
            ("tip too precise", .tooManyDecimals, "tip", { $0.tip = "1.005" }),
            (
                "yen tip with cents", .tooManyDecimals, "tip",
                {
                    $0.currencyCode = "JPY"; $0.tip = "100.5"
                }
            ),
            ("unknown store", .unknownStore, "storeId", { $0.storeID = "store-mars" }),
            ("no lines", .missingField, "lines", { $0.lines = [] }),
            ("no order id", .missingField, "orderId", { $0.orderID = "" }),
            ("no customer", .missingField, "customer", { $0.clearCustomer() }),
            ("no placed-at", .missingField, "placedAt", { $0.clearPlacedAt() }),
        ]
        for (name, code, field, change) in cases {
            let found = error(change)
            #expect(found?.code == code, "\(name): \(String(describing: found))")
            #expect(found?.field == field, "\(name)")
        }
    }

    @Test("a missing locale or time zone uses the defaults and says so")
    func defaults() throws {
        var order = CoreFixture.order()
        order.customer.locale = ""
        order.customer.timeZone = "Mars/Olympus_Mons"
        let rendered = try CoreFixture.core.makeSession().render(order)
        #expect(rendered.confirmation.notes.map(\.code) == ["locale-defaulted", "time-zone-defaulted"])
        #expect(
            rendered.receipt.notes.map(\.detail) == [
                "customer has no locale; used en-US from the configuration",
                "customer time zone 'Mars/Olympus_Mons' is not an IANA zone; used UTC",
            ]
        )
        #expect(rendered.confirmation.text.plain.hasSuffix("Your order will be ready at 11:25\u{202F}AM"))
    }

    @Test("IANA aliases ICU knows are time zones (Foundation's list on Linux lacks them); custom offsets are not")
    func timeZoneAliases() throws {
        for (zone, ready) in [
            ("Asia/Kolkata", "4:55\u{202F}PM"), ("Etc/UTC", "11:25\u{202F}AM"), ("US/Hawaii", "1:25\u{202F}AM"),
        ] {
            var order = CoreFixture.order()
            order.customer.locale = "en-US"
            order.customer.timeZone = zone
            let rendered = try CoreFixture.core.makeSession().render(order)
            #expect(rendered.confirmation.notes.isEmpty, "\(zone): \(rendered.confirmation.notes)")
            #expect(rendered.confirmation.text.plain.hasSuffix("Your order will be ready at \(ready)"), "\(zone)")
        }
        var custom = CoreFixture.order()
        custom.customer.locale = "en-US"
        custom.customer.timeZone = "GMT+5"
        let rendered = try CoreFixture.core.makeSession().render(custom)
        #expect(rendered.confirmation.notes.map(\.code) == ["time-zone-defaulted"])
    }

    @Test("a locale without a localization falls back to the development language and says so")
    func fallback() throws {
        var order = CoreFixture.order()
        order.customer.locale = "sv-SE"
        let rendered = try CoreFixture.core.makeSession().render(order)
        #expect(rendered.confirmation.locale == "en")
        #expect(rendered.confirmation.notes.map(\.code) == ["localization-fallback"])
        // Swedish formatting, English words.
        #expect(rendered.receipt.text.plain.contains("2 large pizzas (14,25\u{00A0}US$ each): 28,50\u{00A0}US$"))
    }

    @Test("a malformed locale is replaced by the default")
    func malformedLocale() throws {
        var order = CoreFixture.order()
        order.customer.locale = "english please"
        let rendered = try CoreFixture.core.makeSession().render(order)
        #expect(rendered.confirmation.notes.first?.code == "locale-defaulted")
        #expect(rendered.confirmation.greeting.plain == "Welcome, Ana!")
    }
}
