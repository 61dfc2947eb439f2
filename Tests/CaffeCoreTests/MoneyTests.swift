import CaffeProtocol
import Foundation
import Testing

@testable import CaffeCore

@Suite("Money")
struct MoneyTests {
    @Test("decimal strings parse exactly or not at all")
    func parsing() throws {
        #expect(
            try DecimalAmount.parse("12.50").get()
                == DecimalAmount.Parsed(value: Decimal(string: "12.5")!, fractionDigits: 2, digits: 1250)
        )
        #expect(try DecimalAmount.parse("-0.75").get().value == Decimal(string: "-0.75"))
        #expect(try DecimalAmount.parse("-0.75").get().digits == -75)
        #expect(try DecimalAmount.parse("999999999999999999").get().digits == 999_999_999_999_999_999)
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

    /// Amounts as the wire writes them, for values parsed, multiplied, summed and rounded as the
    /// core does, against the text written out by hand; large values take Foundation's path.
    @Test("amounts are written exactly, however the decimal was made")
    func wireStrings() throws {
        var state: UInt64 = 12_345
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        for _ in 0..<2000 {
            let digits = Int(next(4))
            let integer = String(next(1_000_000_000_000))
            let fraction = String(repeating: "0", count: 3) + String(next(1000))
            let fractionText = digits == 0 ? "" : String(fraction.suffix(digits))
            let negative = next(5) == 0
            let text = (negative ? "-" : "") + integer + (digits == 0 ? "" : "." + fractionText)
            let value = try #require(Decimal(string: text))
            for wanted in digits...3 {
                let padded = fractionText + String(repeating: "0", count: wanted - digits)
                var expected = integer + (wanted == 0 ? "" : "." + padded)
                if negative, expected.contains(where: { $0 != "0" && $0 != "." }) { expected = "-" + expected }
                #expect(DecimalAmount.string(value, fractionDigits: wanted) == expected, "\(text) to \(wanted)")
            }
        }
        let made: [(Decimal, Int, String)] = [
            (Decimal(string: "12.50")! * 3, 2, "37.50"),
            (Decimal(1800) * 21, 0, "37800"),
            (Decimal(string: "0.125")! + Decimal(string: "0.875")!, 2, "1.00"),
            (DecimalAmount.rounded(Decimal(string: "18.60")! * Decimal(string: "0.19")!, fractionDigits: 2), 2, "3.53"),
            (Decimal(string: "3.250")!, 3, "3.250"),
            (0, 2, "0.00"),
            (Decimal(string: "123456789012345678901234")!, 2, "123456789012345678901234.00"),
            (Decimal(string: "-0.5")!, 3, "-0.500"),
        ]
        for (value, digits, expected) in made {
            #expect(DecimalAmount.string(value, fractionDigits: digits) == expected)
        }
    }

    @Test("money in minor units: exact conversion, wire text, overflow refused")
    func minorUnits() throws {
        let price = try #require(Money(try DecimalAmount.parse("12.5").get(), fractionDigits: 2))
        #expect(price.minorUnits == 1250 && price.wireText == "12.50")
        #expect(price.decimal == Decimal(string: "12.50"))
        #expect(Money(try DecimalAmount.parse("1.005").get(), fractionDigits: 2) == nil)
        #expect(Money(try DecimalAmount.parse("999999999999999999").get(), fractionDigits: 2) == nil)
        #expect(Money(minorUnits: 5, fractionDigits: 3).wireText == "0.005")
        #expect(Money(minorUnits: -50, fractionDigits: 2).wireText == "-0.50")
        #expect(Money(minorUnits: 1800, fractionDigits: 0).wireText == "1800")
        #expect(Money(minorUnits: 0, fractionDigits: 0).wireText == "0")
        #expect(Money(minorUnits: .max, fractionDigits: 2).wireText == "92233720368547758.07")
        #expect(Money(minorUnits: .min, fractionDigits: 4).wireText == "-922337203685477.5808")
        #expect(Money(minorUnits: .max, fractionDigits: 2).adding(Money(minorUnits: 1, fractionDigits: 2)) == nil)
        #expect(Money(minorUnits: .max / 2, fractionDigits: 2).multiplied(by: 3) == nil)
    }

    /// Integer minor units against `Decimal` for the same values: wire text, and the tax's
    /// half-away-from-zero rounding at rates with up to 6 decimals, on amounts up to 10^17.
    @Test("integer money agrees with Decimal arithmetic")
    func integerAgreesWithDecimal() throws {
        var state: UInt64 = 99
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        for round in 0..<3000 {
            let digits = Int(next(4))
            let magnitude =
                Int64(next(round.isMultiple(of: 3) ? 1_000 : 4_000_000_000))
                * (round.isMultiple(of: 7) ? 25_000_000 : 1)
            let amount = Money(minorUnits: round.isMultiple(of: 11) ? -magnitude : magnitude, fractionDigits: digits)
            #expect(amount.wireText == DecimalAmount.string(amount.decimal, fractionDigits: digits), "\(amount)")
            let rateScale = Int(next(6)) + 1
            let rateDigits = Int64(next(UInt64(Money.powerOfTen(rateScale)!)))
            let rateText =
                "0."
                + String(String(rateDigits).reversed()).padding(toLength: rateScale, withPad: "0", startingAt: 0)
                .reversed()
            let rate = try DecimalAmount.parse(String(rateText)).get()
            #expect(rate.digits == rateDigits)
            let tax = amount.multiplied(byRate: rate)
            let expected = DecimalAmount.rounded(amount.decimal * rate.value, fractionDigits: digits)
            #expect(tax.decimal == expected, "\(amount.wireText) × \(rateText)")
        }
        // Exactly half a minor unit rounds away from zero.
        let half = try DecimalAmount.parse("0.125").get()
        #expect(Money(minorUnits: 100, fractionDigits: 2).multiplied(byRate: half).minorUnits == 13)
        #expect(Money(minorUnits: -100, fractionDigits: 2).multiplied(byRate: half).minorUnits == -13)
        #expect(
            Money(minorUnits: .max, fractionDigits: 2).multiplied(byRate: try DecimalAmount.parse("0.99").get())
                .minorUnits
                == 9_131_138_316_486_228_049
        )
    }
}
