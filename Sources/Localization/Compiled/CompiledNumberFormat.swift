/// A number format compiled from what ICU writes for one locale and style, so an amount is
/// formatted by integer arithmetic and byte copies into the caller's buffer — and comes out as ICU
/// would write it, byte for byte.
///
/// Compiling asks ICU to format a few probes and reads the format off its output: the digits of the
/// locale's numbering system, the decimal and grouping separators, the primary and secondary group
/// sizes (Indian grouping is 3 then 2), the minimum grouping digits (Spanish leaves 4-digit amounts
/// ungrouped), and the affixes of positive and negative amounts with the currency symbol, its
/// spacing, signs and bidi marks as ICU places them. Then a battery of amounts is formatted both
/// ways; if a single byte differs, there is no compiled format and callers keep ICU
/// (``CurrencyFormatter/compiled()`` returns `nil`).
///
/// ```swift
/// let euros = try CurrencyFormatter(locale: "es-ES", currency: Currency(code: "EUR")!)
/// let compiled = euros.compiled()!
/// compiled.string(minorUnits: 123_456, scale: 2)   // "1234,56 €", as ICU writes it
/// ```
///
/// Immutable after compiling: share it across threads freely.
public struct CompiledNumberFormat: Sendable {
    /// The affixes of one sign.
    struct Affixes: Sendable {
        var prefix: ByteTable.Piece
        var suffix: ByteTable.Piece
    }

    /// Every byte the format writes.
    let table: ByteTable
    /// Each digit, 0 through 9, in the locale's numbering system.
    let digits: [ByteTable.Piece]
    let decimalSeparator: ByteTable.Piece
    let groupingSeparator: ByteTable.Piece
    /// Digits in the rightmost group and in each group left of it; 0 when nothing is grouped.
    let primaryGroup: Int
    let secondaryGroup: Int
    /// How many digits the leftmost group needs before grouping starts (ICU's minimum grouping).
    let minimumGrouping: Int
    let positive: Affixes
    let negative: Affixes
    /// Digits after the separator: at least `minimumFractionDigits`, at most `maximumFractionDigits`
    /// (rounded half to even past that, as ICU's default).
    let minimumFractionDigits: Int
    let maximumFractionDigits: Int
    /// The value is multiplied by 10^`multiplierExponent` first (2 for percentages).
    let multiplierExponent: Int

    /// The most bytes ``write(minorUnits:scale:to:)`` writes for any 64-bit amount.
    public let maximumLength: Int

    /// ``maximumLength`` for a format's pieces: 19 integer digits of Int64 and up to 18 fraction
    /// digits, a separator between any two digits, the longer affixes.
    static func maximumLength(
        digits: [ByteTable.Piece],
        separators: [ByteTable.Piece],
        affixes: [ByteTable.Piece],
        maximumFractionDigits: Int
    ) -> Int {
        let widestDigit = Int(digits.map(\.count).max() ?? 4)
        let count = 19 + max(maximumFractionDigits, 18)
        let separator = Int(separators.map(\.count).max() ?? 0)
        return Int(affixes.map(\.count).reduce(0, +)) + count * (widestDigit + separator)
    }

    // MARK: Formatting

    /// Writes `minorUnits` × 10^-`scale` (1234 and 2 for 12.34) at `output`, which must have room
    /// for ``maximumLength`` bytes; returns the bytes written.
    ///
    /// `scale` must be at most ``maximumFractionDigits`` (a currency's amounts always are).
    public func write(minorUnits: Int64, scale: Int, to output: UnsafeMutablePointer<UInt8>) -> Int {
        // The digits, least significant first, with zeros up to one integer digit.
        let digitsOfValue = DecimalDigits(minorUnits.magnitude, minimumCount: scale + 1)
        var fractionCount = scale
        while fractionCount > minimumFractionDigits, digitsOfValue[scale - fractionCount] == 0 { fractionCount -= 1 }
        let affixes = minorUnits < 0 ? negative : positive
        var written = table.copy(affixes.prefix, to: output)
        // Integer digits left to right; position counted from the right, 0 for the ones digit.
        let integerCount = digitsOfValue.count - scale
        let groups = primaryGroup > 0 && integerCount - primaryGroup >= minimumGrouping
        var position = integerCount - 1
        while position >= 0 {
            written += table.copy(digits[digitsOfValue[scale + position]], to: output + written)
            if groups, position >= primaryGroup, (position - primaryGroup) % secondaryGroup == 0 {
                written += table.copy(groupingSeparator, to: output + written)
            }
            position -= 1
        }
        if fractionCount > 0 {
            written += table.copy(decimalSeparator, to: output + written)
            var index = scale - 1
            while index >= scale - fractionCount {
                written += table.copy(digits[digitsOfValue[index]], to: output + written)
                index -= 1
            }
        }
        return written + table.copy(affixes.suffix, to: output + written)
    }

    /// Writes a number given as plain decimal text (`-?digits(.digits)?`, ASCII), multiplied and
    /// rounded as the format says; `nil` when the text is not of that form or when ICU would write
    /// something the compiled format does not know (a negative amount rounded to zero, more than 38
    /// digits), so the caller asks ICU instead.
    public func write(decimal text: UnsafeRawBufferPointer, to output: UnsafeMutablePointer<UInt8>) -> Int? {
        guard var parsed = DigitString(decimalText: text) else { return nil }
        parsed.shiftPoint(by: multiplierExponent)
        parsed.roundHalfEven(keepingFractionDigits: maximumFractionDigits)
        if parsed.isNegative, parsed.isZero { return nil }
        return write(digits: parsed, isNegative: parsed.isNegative, to: output)
    }

    /// The digits of `digits` with grouping, separators and affixes.
    private func write(digits number: DigitString, isNegative: Bool, to output: UnsafeMutablePointer<UInt8>) -> Int {
        let point = number.point
        var fractionCount = max(0, number.count - max(point, 0)) + max(0, -point)
        // Trailing zeros beyond the minimum go, as with ICU's `0.###`.
        while fractionCount > minimumFractionDigits, number.digit(at: point + fractionCount - 1) == 0 {
            fractionCount -= 1
        }
        fractionCount = max(fractionCount, minimumFractionDigits)
        // The integer digits: those left of the point without leading zeros, at least one.
        var firstInteger = 0
        while firstInteger < point - 1, number.digit(at: firstInteger) == 0 { firstInteger += 1 }
        let integerCount = max(point - firstInteger, 1)
        if point <= 0 { firstInteger = point - 1 }

        let affixes = isNegative ? negative : positive
        var written = table.copy(affixes.prefix, to: output)
        let groups = primaryGroup > 0 && integerCount - primaryGroup >= minimumGrouping
        for index in 0..<integerCount {
            written += table.copy(digits[number.digit(at: firstInteger + index)], to: output + written)
            let position = integerCount - 1 - index
            if groups, position >= primaryGroup, (position - primaryGroup) % secondaryGroup == 0 {
                written += table.copy(groupingSeparator, to: output + written)
            }
        }
        if fractionCount > 0 {
            written += table.copy(decimalSeparator, to: output + written)
            for index in 0..<fractionCount {
                written += table.copy(digits[number.digit(at: point + index)], to: output + written)
            }
        }
        written += table.copy(affixes.suffix, to: output + written)
        return written
    }

    /// The amount as a `String` (for tests and tools; the hot path writes bytes).
    public func string(minorUnits: Int64, scale: Int) -> String {
        String(unsafeUninitializedCapacity: maximumLength) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return write(minorUnits: minorUnits, scale: scale, to: base)
        }
    }

    /// The decimal text formatted, or `nil` where ICU has to be asked.
    public func string(decimal text: String) -> String? {
        var text = text
        return text.withUTF8 { utf8 -> String? in
            var result: String?
            let capacity = maximumLength + 2 * utf8.count
            result = String(unsafeUninitializedCapacity: capacity) { buffer in
                guard let base = buffer.baseAddress,
                    let written = write(decimal: UnsafeRawBufferPointer(utf8), to: base)
                else { return 0 }
                return written
            }
            if result?.isEmpty == true, utf8.count > 0 { result = nil }
            return result
        }
    }
}

/// Up to 40 decimal digits with a sign, kept on the stack.
struct DigitString {
    private var storage:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0)
    /// How many digits are held.
    private(set) var count = 0
    /// How many of the digits are left of the point (may be negative or past `count`).
    private(set) var point = 0
    private(set) var isNegative = false

    static let capacity = 40

    init() {}

    /// The digits of a decimal text, `nil` if it is not `-?digits(.digits)?` or has too many digits.
    init?(decimalText text: UnsafeRawBufferPointer) {
        guard !text.isEmpty else { return nil }
        var index = 0
        if text[0] == UInt8(ascii: "-") {
            isNegative = true
            index = 1
        }
        var seenPoint = false
        var integerDigits = 0
        var fractionDigits = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), count < Self.capacity else { return nil }
            if seenPoint { fractionDigits += 1 } else { integerDigits += 1 }
            append(Int(byte - UInt8(ascii: "0")))
        }
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { return nil }
        point = integerDigits
    }

    /// The digit at `index`, 0 outside the digits held (leading and trailing zeros).
    @inline(__always)
    func digit(at index: Int) -> Int {
        guard index >= 0, index < count else { return 0 }
        return withUnsafeBytes(of: storage) { Int($0[index]) }
    }

    var isZero: Bool {
        for index in 0..<count where digit(at: index) != 0 { return false }
        return true
    }

    private mutating func append(_ digit: Int) {
        let index = count
        withUnsafeMutableBytes(of: &storage) { $0[index] = UInt8(truncatingIfNeeded: digit) }
        count += 1
    }

    private mutating func set(_ digit: Int, at index: Int) {
        withUnsafeMutableBytes(of: &storage) { $0[index] = UInt8(truncatingIfNeeded: digit) }
    }

    /// Moves the point `places` digits to the right (multiplies by 10^`places`).
    mutating func shiftPoint(by places: Int) {
        point += places
    }

    /// Rounds to `keep` digits after the point, half to even (ICU's default mode). A carry out of
    /// the first digit prepends a 1 and moves the point with it: 99.96 → 100.0.
    mutating func roundHalfEven(keepingFractionDigits keep: Int) {
        let cut = point + keep  // index of the first digit dropped
        guard cut < count else { return }
        guard cut >= 0 else {
            // Every digit is dropped, and the first of them is further right than half: zero.
            count = 0
            return
        }
        let first = digit(at: cut)
        var restNonZero = false
        for index in (cut + 1)..<count where digit(at: index) != 0 {
            restNonZero = true
            break
        }
        let previous = cut > 0 ? digit(at: cut - 1) : 0
        let roundsUp = first > 5 || (first == 5 && (restNonZero || previous % 2 == 1))
        count = cut
        guard roundsUp else { return }
        var index = cut - 1
        while index >= 0 {
            let value = digit(at: index) + 1
            if value < 10 {
                set(value, at: index)
                return
            }
            set(0, at: index)
            index -= 1
        }
        // Carried out of the first digit: every kept digit is 0 now; a 1 goes in front.
        guard count < Self.capacity else { return }
        count += 1
        var shift = count - 1
        while shift > 0 {
            set(digit(at: shift - 1), at: shift)
            shift -= 1
        }
        set(1, at: 0)
        point += 1
    }
}
