import Foundation

/// The wire's decimal strings ("12.50", "1500", "3.250") parsed exactly, never through binary
/// floating point; ``Money`` computes with what this reads. `rounded` and `string` state the same
/// rules for `Decimal` values, and the tests hold ``Money`` to them.
///
/// Rounding rule: amounts are rounded to the currency's minor units (ICU's currency digits: JPY 0,
/// USD 2, BHD 3) half away from zero (`NSDecimalNumber.RoundingMode.plain`: 0.125 → 0.13,
/// -0.125 → -0.13), once, where a computation leaves more digits than the currency has — the tax.
/// Prices and tips must already fit the currency's minor units; more digits are an error, never
/// silently rounded.
public enum DecimalAmount {
    /// The most digits an amount may have in all, so sums and products stay exact in `Decimal`.
    public static let maximumDigits = 18

    /// A parsed amount, how many digits it had after the point, and all its digits as one signed
    /// integer (`digits` × 10^-`fractionDigits` == `value`: "12.50" is 1250 and 2).
    public struct Parsed: Hashable, Sendable {
        public var value: Decimal
        public var fractionDigits: Int
        public var digits: Int64

        public init(value: Decimal, fractionDigits: Int, digits: Int64) {
            self.value = value
            self.fractionDigits = fractionDigits
            self.digits = digits
        }
    }

    /// Why text is not an amount.
    public enum Problem: Error, Hashable, Sendable {
        case empty, malformed, tooLong
    }

    /// Parses `-?digits(.digits)?`, ASCII only: no exponent, grouping, spaces or plus sign.
    public static func parse(_ text: String) -> Result<Parsed, Problem> {
        let bytes = text.utf8
        guard !bytes.isEmpty else { return .failure(.empty) }
        var index = bytes.startIndex
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index = bytes.index(after: index) }
        // At most `maximumDigits` (18) digits are kept, so `digits` never overflows.
        var digits: Int64 = 0
        var integerDigits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if seenPoint { fractionDigits += 1 } else { integerDigits += 1 }
                guard integerDigits + fractionDigits <= maximumDigits else { return .failure(.tooLong) }
                digits = digits * 10 + Int64(byte - UInt8(ascii: "0"))
            } else {
                return .failure(.malformed)
            }
            index = bytes.index(after: index)
        }
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { return .failure(.malformed) }
        guard let value = Decimal(string: text, locale: nil) else { return .failure(.malformed) }
        return .success(Parsed(value: value, fractionDigits: fractionDigits, digits: negative ? -digits : digits))
    }

    /// `value` rounded half away from zero to `fractionDigits` digits after the point.
    public static func rounded(_ value: Decimal, fractionDigits: Int) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, fractionDigits, .plain)
        return output
    }

    /// `value` as plain decimal text with exactly `fractionDigits` digits after the point
    /// ("25.00", "1800", "5.250"). `value` must not have more digits than that.
    public static func string(_ value: Decimal, fractionDigits: Int) -> String {
        var text = value.description
        let point = text.firstIndex(of: ".")
        let present = point.map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
        guard fractionDigits > present else { return text }
        if point == nil { text += "." }
        text += String(repeating: "0", count: fractionDigits - present)
        return text
    }
}
