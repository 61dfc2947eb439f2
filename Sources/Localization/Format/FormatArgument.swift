/// A value substituted into a catalog string.
///
/// Numbers keep their raw value: the value selects plural variants and, later, drives grammatical
/// agreement, while the text shown is formatted for the locale. A ``decimal(_:)`` keeps the digits
/// it was written with, so `"1.0"` has one visible fraction digit (English: *other*) where `1` has
/// none (*one*).
///
/// ```swift
/// let arguments: [FormatArgument] = [2, "pequeño", "ensalada", .decimal("12.50")]
/// ```
public enum FormatArgument: Hashable, Sendable, CustomStringConvertible {
    /// A signed integer.
    case integer(Int64)
    /// An unsigned integer beyond `Int64`'s range.
    case unsignedInteger(UInt64)
    /// A binary floating-point number.
    case double(Double)
    /// A decimal number written as text (`"12.50"`, `"-3"`, `"1000000"`), digits kept as written.
    case decimal(String)
    /// Text.
    case string(String)

    /// Whether the argument is a number of any kind.
    public var isNumber: Bool {
        if case .string = self { return false }
        return true
    }

    /// Whether the argument is the number 0 written without fraction digits.
    var isExactlyZero: Bool {
        switch self {
        case .integer(let value): value == 0
        case .unsignedInteger(let value): value == 0
        case .double(let value): value == 0 && PluralRules.visibleFractionDigits(of: value) == 0
        case .decimal(let text): !text.contains(".") && Int64(text) == 0
        case .string: false
        }
    }

    /// Reads command-line text: integers become ``integer(_:)``, decimal numbers ``decimal(_:)``,
    /// anything else stays a ``string(_:)``.
    public init(parsing text: String) {
        if let value = Int64(text) {
            self = .integer(value)
        } else if DecimalText.isValid(text) {
            self = .decimal(text)
        } else {
            self = .string(text)
        }
    }

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .unsignedInteger(let value): String(value)
        case .double(let value): String(value)
        case .decimal(let text): text
        case .string(let text): text
        }
    }
}

extension FormatArgument: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

/// Decimal numbers as text: optional sign, digits, optional fraction.
enum DecimalText {
    static func isValid(_ text: String) -> Bool {
        var utf8 = Substring(text).utf8[...]
        if utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        let integer = utf8.prefix(while: isDigit)
        utf8 = utf8.dropFirst(integer.count)
        if utf8.isEmpty { return !integer.isEmpty }
        guard utf8.first == UInt8(ascii: ".") else { return false }
        let fraction = utf8.dropFirst()
        return !(integer.isEmpty && fraction.isEmpty) && fraction.allSatisfy(isDigit)
    }

    /// Digits after the decimal point, as written (`"1.50"` → 2).
    static func visibleFractionDigits(_ text: String) -> Int {
        guard let dot = text.utf8.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        return text.utf8.distance(from: text.utf8.index(after: dot), to: text.utf8.endIndex)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
