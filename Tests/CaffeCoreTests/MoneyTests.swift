import CaffeCore
import CaffeProtocol
import Foundation
import Testing

@Suite("Money")
struct MoneyTests {
    @Test("decimal strings parse exactly or not at all")
    func parsing() throws {
        #expect(
            try DecimalAmount.parse("12.50").get()
                == DecimalAmount.Parsed(value: Decimal(string: "12.5")!, fractionDigits: 2)
        )
        #expect(try DecimalAmount.parse("-0.75").get().value == Decimal(string: "-0.75"))
        #expect(try DecimalAmount.parse("1500").get().fractionDigits == 0)
        for bad in ["", "1.", ".5", "1e3", "+1", "1,5", " 1", "1 ", "--1", "1.2.3", "١٢"] {
            #expect((try? DecimalAmount.parse(bad).get()) == nil, "\(bad.debugDescription)")
        }
        #expect(DecimalAmount.parse("1234567890123456789") == .failure(.tooLong))
    }

    @Test("rounding is half away from zero")
    func rounding() {
        let cases: [(String, Int, String)] = [
            ("0.125", 2, "0.13"), ("-0.125", 2, "-0.13"), ("0.124", 2, "0.12"), ("2.5", 0, "3"), ("3.5", 0, "4"),
            ("1.0005", 3, "1.001"), ("123.4", 0, "123"),
        ]
        for (input, digits, expected) in cases {
            #expect(
                DecimalAmount.rounded(Decimal(string: input)!, fractionDigits: digits) == Decimal(string: expected)!
            )
        }
    }

    @Test("amounts are written with the currency's minor units")
    func writing() {
        #expect(DecimalAmount.string(Decimal(25), fractionDigits: 2) == "25.00")
        #expect(DecimalAmount.string(Decimal(string: "3.2")!, fractionDigits: 2) == "3.20")
        #expect(DecimalAmount.string(Decimal(1800), fractionDigits: 0) == "1800")
        #expect(DecimalAmount.string(Decimal(string: "5.25")!, fractionDigits: 3) == "5.250")
        #expect(DecimalAmount.string(Decimal(0), fractionDigits: 2) == "0.00")
    }

    @Test("tax is rounded once, per currency: USD 2, JPY 0, BHD 3 digits")
    func taxByCurrency() throws {
        let session = CoreFixture.core.makeSession()
        // 2 × 14.25 + 9.50 = 38.00 USD at 8.625 % = 3.2775 → 3.28
        var usd = CoreFixture.order(lines: [
            CoreFixture.line("pizza", "large", 2), CoreFixture.line("pizza", "small", 1),
        ])
        usd.tip = "1.25"
        let receipt = try session.render(usd).receipt
        #expect([receipt.subtotal, receipt.tax, receipt.tip, receipt.total] == ["38.00", "3.28", "1.25", "42.53"])
        // 3 × 380 JPY = 1140 at 10 % = 114; 1 × 1200 = 1200 → 120; 2340 + 234
        var yen = CoreFixture.order(
            market: CoreFixture.markets[5],
            lines: [CoreFixture.line("coffee", "small", 3), CoreFixture.line("pizza", "small", 1)]
        )
        yen.tip = "100"
        let yenReceipt = try session.render(yen).receipt
        #expect([yenReceipt.subtotal, yenReceipt.tax, yenReceipt.total] == ["2340", "234", "2674"])
        #expect(yenReceipt.text.plain.contains("合計：￥2,674") || yenReceipt.text.plain.contains("合計：¥2,674"))
        // 0.950 × 3 = 2.850 BHD at 10 % = 0.285; with a 0.005 tip
        var dinar = CoreFixture.order(lines: [CoreFixture.line("coffee", "small", 3)])
        dinar.currencyCode = "BHD"
        dinar.storeID = "store-bh-bah"
        dinar.tip = "0.005"
        let dinarReceipt = try session.render(dinar).receipt
        #expect(
            [dinarReceipt.subtotal, dinarReceipt.tax, dinarReceipt.tip, dinarReceipt.total] == [
                "2.850", "0.285", "0.005", "3.140",
            ]
        )
        #expect(dinarReceipt.text.plain.contains("Total: BHD\u{00A0}3.140"))
    }
}
