import Foundation

/// An exact amount of one currency as a whole number of its minor units: 1250 for USD 12.50,
/// 1800 for JPY 1800, 3140 for BHD 3.140. Sums, products and the tax's rounding happen in integers
/// with overflow checked, so no amount is ever approximated; ``decimal`` gives the same value as
/// a `Decimal`.
public struct Money: Hashable, Sendable {
    /// The amount in minor units (cents, fils, yen).
    public let minorUnits: Int64
    /// The currency's minor-unit digits (ICU's: JPY 0, USD 2, BHD 3).
    public let fractionDigits: Int

    public init(minorUnits: Int64, fractionDigits: Int) {
        precondition((0...Self.maximumFractionDigits).contains(fractionDigits), "unsupported minor-unit digits")
        self.minorUnits = minorUnits
        self.fractionDigits = fractionDigits
    }

    /// The most minor-unit digits a currency may have here (ISO 4217 uses at most 4).
    public static let maximumFractionDigits = 18

    /// Zero in a currency with `fractionDigits` minor-unit digits.
    public static func zero(fractionDigits: Int) -> Money { Money(minorUnits: 0, fractionDigits: fractionDigits) }

    /// A parsed amount in a currency with `fractionDigits` digits, or `nil` when it has more digits
    /// after the point than that or does not fit in 64-bit minor units.
    public init?(_ parsed: DecimalAmount.Parsed, fractionDigits: Int) {
        guard parsed.fractionDigits <= fractionDigits,
            let scale = Self.powerOfTen(fractionDigits - parsed.fractionDigits)
        else { return nil }
        let (scaled, overflow) = parsed.digits.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        self.init(minorUnits: scaled, fractionDigits: fractionDigits)
    }

    /// The same value as a `Decimal`, exactly.
    public var decimal: Decimal {
        Decimal(
            sign: minorUnits < 0 ? .minus : .plus,
            exponent: -fractionDigits,
            significand: Decimal(minorUnits.magnitude)
        )
    }

    /// The amount as the wire writes it: exactly `fractionDigits` digits after the point ("25.00",
    /// "1800", "3.140", "-0.50").
    public var wireText: String {
        String(unsafeUninitializedCapacity: Self.maximumWireTextLength) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return writeWireText(to: base)
        }
    }

    /// The most bytes ``wireText`` takes: 20 digits for `UInt64.max`, leading zeros up to the
    /// fraction, a point and a sign.
    static let maximumWireTextLength = 22 + maximumFractionDigits

    /// Writes ``wireText`` at `output` (room for ``maximumWireTextLength`` bytes); returns its length.
    func writeWireText(to output: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = minorUnits.magnitude
        // Digits from the right, at the end of the room, then moved to the front.
        let capacity = Self.maximumWireTextLength
        var end = capacity
        var written = 0
        repeat {
            if written == fractionDigits, fractionDigits > 0 {
                end -= 1
                output[end] = UInt8(ascii: ".")
            }
            end -= 1
            output[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            written += 1
        } while magnitude > 0 || written <= fractionDigits
        if minorUnits < 0 {
            end -= 1
            output[end] = UInt8(ascii: "-")
        }
        let count = capacity - end
        UnsafeMutableRawPointer(output).copyMemory(from: output + end, byteCount: count)
        return count
    }

    /// `self + other`, or `nil` on overflow. Both must be in the same currency.
    public func adding(_ other: Money) -> Money? {
        precondition(fractionDigits == other.fractionDigits, "amounts in different currencies")
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        return overflow ? nil : Money(minorUnits: sum, fractionDigits: fractionDigits)
    }

    /// `self × count`, or `nil` on overflow.
    public func multiplied(by count: Int64) -> Money? {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: count)
        return overflow ? nil : Money(minorUnits: product, fractionDigits: fractionDigits)
    }

    /// `self × rate` rounded to minor units half away from zero (``DecimalAmount``'s rule). The
    /// product is taken in 128 bits, and `rate` is below 1, so this never overflows.
    public func multiplied(byRate rate: DecimalAmount.Parsed) -> Money {
        // `parse` keeps at most 18 digits, so the divisor always fits.
        let divisor = Self.powerOfTen(rate.fractionDigits) ?? .max
        precondition(rate.digits.magnitude < divisor.magnitude, "a rate below 1")
        let product = minorUnits.multipliedFullWidth(by: rate.digits)
        var (quotient, remainder) = divisor.dividingFullWidth(product)
        if remainder.magnitude * 2 >= divisor.magnitude {
            quotient += remainder < 0 ? -1 : 1
        }
        return Money(minorUnits: quotient, fractionDigits: fractionDigits)
    }

    /// 10^`exponent` for 0...18, the powers that fit in `Int64`.
    static func powerOfTen(_ exponent: Int) -> Int64? {
        guard (0...18).contains(exponent) else { return nil }
        var value: Int64 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
