import CaffeTestKit
import Glibc
import Testing
import _FoundationICU

@testable import Localization

/// The compiled number formats write exactly what ICU writes: every amount up to 100,000.00 in
/// locales covering every grouping and digit style, random amounts up to the 64-bit limit and
/// negatives in every ICU locale with a currency, and percentages in every locale.
@Suite("Compiled number formats equal ICU")
struct CompiledNumberFormatTests {
    /// Grouping by 3 with Latin digits and a prefixed symbol (en-US), minimum grouping 2 and a
    /// suffixed symbol (es-ES), a narrow no-break space (fr-FR), Indian 3;2 grouping in Devanagari
    /// digits (ne-NP), Arabic-Indic digits with bidi marks (ar-EG), extended Arabic-Indic and Myanmar
    /// digits and no minor units (fa-IR, my-MM, ja-JP).
    static let exhaustive: [(locale: String, currency: String)] = [
        ("en-US", "USD"), ("es-ES", "EUR"), ("fr-FR", "EUR"), ("ne-NP", "NPR"), ("ar-EG", "EGP"), ("fa-IR", "IRR"),
        ("my-MM", "MMK"), ("ja-JP", "JPY"),
    ]

    @Test("every amount from 0 to 100,000.00", arguments: exhaustive.map { "\($0.locale) \($0.currency)" })
    func everyAmount(_ pair: String) throws {
        let parts = pair.split(separator: " ").map(String.init)
        let currency = try #require(Currency(code: parts[1]))
        let formatter = try CurrencyFormatter(locale: parts[0], currency: currency)
        let compiled = try #require(formatter.compiled(), "\(pair) does not compile")
        var comparison = ICUComparison(compiled: compiled, formatter: formatter)
        // 100,000.00 in minor units: 10,000,000 cents, 100,000 yen, 100,000,000 fils.
        var limit: Int64 = 100_000
        for _ in 0..<currency.fractionDigits { limit *= 10 }
        var mismatches = 0
        var counter = DecimalCounter(scale: currency.fractionDigits)
        var amount: Int64 = 0
        while amount <= limit {
            let difference = counter.withText { text, length in
                comparison.difference(text: text, length: length, minorUnits: amount, scale: currency.fractionDigits)
            }
            if let difference {
                mismatches += 1
                if mismatches <= 3 { Issue.record("\(pair): \(difference)") }
            }
            amount += 1
            counter.increment()
        }
        #expect(mismatches == 0, "\(pair): \(mismatches) amounts differ from ICU")
    }

    @Test("random amounts and negatives in every ICU locale with a currency")
    func everyLocale() throws {
        var random = SplitMix64(seed: 20)
        var compiled = 0
        var fallbacks: [String] = []
        for locale in ICUInventory.locales() {
            guard let currency = ICUInventory.currency(of: locale) else { continue }
            let formatter = try CurrencyFormatter(locale: locale, currency: currency)
            guard let format = formatter.compiled() else {
                fallbacks.append("\(locale) \(currency.code)")
                continue
            }
            compiled += 1
            var comparison = ICUComparison(compiled: format, formatter: formatter)
            for round in 0..<200 {
                // Every magnitude: a random digit count, then random digits.
                let digits = 1 + random.next(below: 19)
                var value = Int64(truncatingIfNeeded: random.next() >> 1)
                var cap: Int64 = 1
                for _ in 0..<digits where cap <= Int64.max / 10 { cap *= 10 }
                value %= cap
                let amount = round % 2 == 0 ? value : -value
                if let difference = comparison.difference(minorUnits: amount, scale: currency.fractionDigits) {
                    Issue.record("\(locale) \(currency.code): \(difference)")
                    break
                }
            }
            for edge in [Int64.max, -Int64.max, 0] {
                if let difference = comparison.difference(minorUnits: edge, scale: currency.fractionDigits) {
                    Issue.record("\(locale) \(currency.code): \(difference)")
                }
            }
        }
        // Every ICU locale's currency format compiles today; one that stops compiling is named here.
        #expect(compiled > 300)
        #expect(fallbacks.isEmpty, "ICU formats these: \(fallbacks)")
    }

    @Test("percentages in every ICU locale")
    func percentages() throws {
        var random = SplitMix64(seed: 21)
        var fallbacks: [String] = []
        for locale in ICUInventory.locales() {
            let formatter = try PercentFormatter(locale: locale)
            guard let compiled = formatter.compiled() else {
                fallbacks.append(locale)
                continue
            }
            var rates = CompiledNumberFormat.decimalBattery
            for _ in 0..<50 {
                let digits = String(random.next() % 10_000_000)
                rates.append("0." + String(repeating: "0", count: random.next(below: 3)) + digits)
            }
            for rate in rates {
                let expected = formatter.string(decimal: rate)
                if let actual = compiled.string(decimal: rate), actual != expected {
                    Issue.record("\(locale) \(rate): compiled \(actual), ICU \(expected)")
                }
            }
        }
        #expect(fallbacks.isEmpty, "ICU formats these: \(fallbacks)")
    }

    @Test func roundingHalfToEven() throws {
        let compiled = try #require(try PercentFormatter(locale: "en-US").compiled())
        #expect(compiled.string(decimal: "0.0000005") == "0%")
        #expect(compiled.string(decimal: "0.0000155") == "0.002%")
        #expect(compiled.string(decimal: "0.000025") == "0.002%")
        #expect(compiled.string(decimal: "0.000035") == "0.004%")
        #expect(compiled.string(decimal: "0.9999996") == "100%")
        #expect(compiled.string(decimal: "0.08625") == "8.625%")
        // ICU keeps the sign of a negative amount rounded to zero: that is ICU's to write.
        #expect(compiled.string(decimal: "-0.0000001") == nil)
        #expect(compiled.string(decimal: "1e5") == nil)
    }

    @Test func indianGroupingNativeDigitsAndBidiMarks() throws {
        let rupees = try #require(try Self.compiled("ne-NP", "NPR"))
        #expect(
            rupees.string(minorUnits: -1_234_567_890, scale: 2) == "-\u{928}\u{947}\u{930}\u{942}\u{A0}१,२३,४५,६७८.९०"
        )
        let pounds = try #require(try Self.compiled("ar-EG", "EGP"))
        #expect(pounds.string(minorUnits: -123_450, scale: 2) == "\u{61C}-\u{200F}١٬٢٣٤٫٥٠\u{A0}ج.م.\u{200F}")
        let euros = try #require(try Self.compiled("es-ES", "EUR"))
        #expect(euros.string(minorUnits: 123_456, scale: 2) == "1234,56\u{A0}€")
        #expect(euros.string(minorUnits: 1_234_567, scale: 2) == "12.345,67\u{A0}€")
        let yen = try #require(try Self.compiled("ja-JP", "JPY"))
        #expect(yen.string(minorUnits: 1_800, scale: 0) == "¥1,800")
    }

    static func compiled(_ locale: String, _ code: String) throws -> CompiledNumberFormat? {
        guard let currency = Currency(code: code) else { return nil }
        return try CurrencyFormatter(locale: locale, currency: currency).compiled()
    }
}

/// Formats one amount with ICU and with the compiled format into reused buffers and compares the
/// bytes: quick enough to run ten million times in a debug build.
struct ICUComparison {
    let compiled: CompiledNumberFormat
    /// Held so ICU's format stays open.
    let owner: CurrencyFormatter
    private var text = [CChar](repeating: 0, count: 48)
    private var units = [UInt16](repeating: 0, count: 256)
    private var expected = [CChar](repeating: 0, count: 1024)
    private var actual: [UInt8]

    init(compiled: CompiledNumberFormat, formatter: CurrencyFormatter) {
        self.compiled = compiled
        owner = formatter
        actual = [UInt8](repeating: 0, count: compiled.maximumLength)
    }

    /// A description of how the two differ, or `nil` when they agree.
    mutating func difference(minorUnits: Int64, scale: Int) -> String? {
        let textLength = Self.decimal(minorUnits, scale: scale, into: &text)
        return difference(text: text, length: textLength, minorUnits: minorUnits, scale: scale)
    }

    /// ``difference(minorUnits:scale:)`` with the decimal text already written.
    mutating func difference(text: UnsafePointer<CChar>, length: Int, minorUnits: Int64, scale: Int) -> String? {
        var status = U_ZERO_ERROR
        let unitCount = swift_unum_formatDecimal(owner.format, text, Int32(length), &units, 256, nil, &status)
        var expectedCount: Int32 = 0
        swift_u_strToUTF8(&expected, 1024, &expectedCount, units, unitCount, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return "ICU failed for \(minorUnits)" }
        let actualCount = actual.withUnsafeMutableBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return compiled.write(minorUnits: minorUnits, scale: scale, to: base)
        }
        if actualCount == Int(expectedCount), memcmp(actual, expected, actualCount) == 0 { return nil }
        let icu = String(decoding: expected.prefix(Int(expectedCount)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(minorUnits): compiled \(String(decoding: actual.prefix(actualCount), as: UTF8.self)), ICU \(icu)"
    }

    /// `minorUnits` × 10^-`scale` as decimal text in `buffer`; its length.
    static func decimal(_ minorUnits: Int64, scale: Int, into buffer: inout [CChar]) -> Int {
        let text = CompiledNumberFormat.decimalText(minorUnits: minorUnits, scale: scale)
        var length = 0
        for byte in text.utf8 {
            buffer[length] = CChar(bitPattern: byte)
            length += 1
        }
        return length
    }
}

/// Decimal text of 0, 0.01, 0.02, … counted up in place ("0.00", then "0.01"): no text is made per
/// amount.
struct DecimalCounter {
    /// Digits right-aligned, the point (if any) before the last `scale` of them.
    private var buffer = [CChar](repeating: 0x30, count: 40)
    private var start: Int
    private let scale: Int
    private let pointAt: Int?

    init(scale: Int) {
        self.scale = scale
        let end = 40
        if scale > 0 {
            pointAt = end - scale - 1
            buffer[end - scale - 1] = 0x2E
            start = end - scale - 2
        } else {
            pointAt = nil
            start = end - 1
        }
    }

    /// Adds one unit of the last digit.
    mutating func increment() {
        var index = 39
        while true {
            if index == pointAt {
                index -= 1
                continue
            }
            if index < start {
                start = index
                buffer[index] = 0x31
                return
            }
            if buffer[index] == 0x39 {
                buffer[index] = 0x30
                index -= 1
            } else {
                buffer[index] += 1
                return
            }
        }
    }

    /// Calls `body` with the text and its length (the buffer is never empty).
    func withText<R>(_ body: (UnsafePointer<CChar>, Int) -> R?) -> R? {
        buffer.withUnsafeBufferPointer { pointer in
            guard let base = pointer.baseAddress else { return nil }
            return body(base + start, 40 - start)
        }
    }
}
