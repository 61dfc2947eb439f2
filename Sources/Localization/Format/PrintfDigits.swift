import Foundation

/// The digits C's `printf` writes for a binary floating-point number in the C locale, which the
/// formatter then localizes (digits, separators, grouping).
///
/// `printf` rounds the exact binary value: 2.675 is stored as 2.67499999…, so `%.2f` shows 2.67,
/// and 12.345 is stored as 12.3450000000000006…, so it shows 12.35. ICU rounds the shortest decimal
/// that reads back as the double ("2.675") half to even, which gives 2.68 and 12.34. Apple's
/// `String(format:)` agrees with `printf`, so floating-point specifiers take their digits from here.
///
/// Only numbers and formats of our own reach `vsnprintf`: a catalog's text never does.
enum PrintfDigits {
    /// `%.<precision>f`: `"12.35"`, `"-0.50"`.
    static func fixed(_ value: Double, precision: Int) -> String {
        format(value, conversion: "f", precision: precision, alternate: false)
    }

    /// `%.<precision>e`: `"1.234568e+04"`.
    static func scientific(_ value: Double, precision: Int) -> String {
        format(value, conversion: "e", precision: precision, alternate: false)
    }

    /// `%.<precision>g` (`%#.<precision>g` when `alternate`): `"0.0001235"`, `"1.235e+07"`.
    static func general(_ value: Double, precision: Int, alternate: Bool) -> String {
        format(value, conversion: "g", precision: precision, alternate: alternate)
    }

    /// A printf result split for localization: sign and digits before the exponent, and the
    /// exponent (`-5` for `e-05`) when there is one.
    struct Parts: Hashable {
        /// The mantissa (or the whole number), such as `"-1.5"`.
        var mantissa: String
        var exponent: Int?

        /// Digits after the decimal point of the mantissa.
        var fractionDigits: Int {
            guard let point = mantissa.firstIndex(of: ".") else { return 0 }
            return mantissa.distance(from: mantissa.index(after: point), to: mantissa.endIndex)
        }
    }

    /// Splits `"1.5e-05"` into `1.5` and `-5`; text without an exponent is all mantissa.
    static func parts(_ text: String) -> Parts {
        guard let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return Parts(mantissa: text, exponent: nil)
        }
        return Parts(mantissa: String(text[..<marker]), exponent: Int(text[text.index(after: marker)...]))
    }

    private static func format(_ value: Double, conversion: Character, precision: Int, alternate: Bool) -> String {
        let specification = "%" + (alternate ? "#" : "") + ".\(max(0, precision))" + String(conversion)
        return specification.withCString { format in
            // Enough for every `%e`/`%g` and for `%f` below about 1e40, on the stack; larger ones retry.
            let first = withUnsafeTemporaryAllocation(of: CChar.self, capacity: stackCapacity) { buffer in
                written(value, format, into: buffer)
            }
            if let text = first.text { return text }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: first.needed + 1) { buffer in
                written(value, format, into: buffer).text ?? String(value)
            }
        }
    }

    private static let stackCapacity = 128

    /// `vsnprintf` into `buffer`: the text, or `nil` and the length it needs.
    private static func written(
        _ value: Double,
        _ format: UnsafePointer<CChar>,
        into buffer: UnsafeMutableBufferPointer<CChar>
    ) -> (text: String?, needed: Int) {
        guard let base = buffer.baseAddress else { return (nil, 0) }
        let count = Int(withVaList([value]) { vsnprintf(base, buffer.count, format, $0) })
        guard count >= 0, count < buffer.count else { return (nil, max(count, 0)) }
        return (String(decoding: UnsafeRawBufferPointer(start: base, count: count), as: UTF8.self), count)
    }
}
