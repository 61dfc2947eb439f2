/// One printf-style conversion in a catalog string, such as `%@`, `%1$lld` or `%-8.2f`.
///
/// Catalog strings never reach C's `printf`: a specifier is parsed into this value and its
/// argument is type-checked and formatted in Swift (see ``FormatArgument``).
public struct FormatSpecifier: Hashable, Sendable, CustomStringConvertible {
    /// Printf flags.
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `-`: pad on the right.
        public static let leftAlign = Flags(rawValue: 1 << 0)
        /// `+`: always print a sign.
        public static let plusSign = Flags(rawValue: 1 << 1)
        /// ` `: a space where a plus sign would go.
        public static let spaceSign = Flags(rawValue: 1 << 2)
        /// `#`: alternate form (`0x` prefix, decimal point kept).
        public static let alternate = Flags(rawValue: 1 << 3)
        /// `0`: pad with zeros.
        public static let zeroPad = Flags(rawValue: 1 << 4)
        /// `'`: group thousands (integers are grouped anyway; see ``FormatSpecifier``).
        public static let grouping = Flags(rawValue: 1 << 5)
    }

    /// The length modifier (`l`, `ll`, `h`…), kept for lint comparisons; Swift arguments carry their own width.
    public enum Length: String, Hashable, Sendable {
        case none = ""
        case hh, h, l, ll, q, z, t, j
        case longDouble = "L"
    }

    /// The conversion character, grouped by the argument it takes.
    public enum Conversion: Character, Hashable, Sendable {
        /// `%@`: any value; numbers are formatted for the locale.
        case object = "@"
        /// `%d`: a signed integer.
        case signedDecimal = "d"
        /// `%i`: a signed integer.
        case signedInteger = "i"
        /// `%u`: an unsigned integer.
        case unsignedDecimal = "u"
        /// `%x`: hexadecimal, lowercase (not localized).
        case hexLower = "x"
        /// `%X`: hexadecimal, uppercase (not localized).
        case hexUpper = "X"
        /// `%o`: octal (not localized).
        case octal = "o"
        /// `%f`: fixed-point.
        case fixed = "f"
        /// `%F`: fixed-point.
        case fixedUpper = "F"
        /// `%e`: scientific.
        case scientific = "e"
        /// `%E`: scientific, uppercase.
        case scientificUpper = "E"
        /// `%g`: shortest of fixed and scientific.
        case general = "g"
        /// `%G`: shortest of fixed and scientific, uppercase.
        case generalUpper = "G"
        /// `%a`: hexadecimal floating point (not localized).
        case hexFloat = "a"
        /// `%A`: hexadecimal floating point, uppercase.
        case hexFloatUpper = "A"
        /// `%s`: a string.
        case cString = "s"
        /// `%S`: a string.
        case wideString = "S"
        /// `%c`: one character.
        case character = "c"
        /// `%C`: one character.
        case wideCharacter = "C"
        /// `%p`: a pointer; accepted only as an integer.
        case pointer = "p"
    }

    /// What kind of Swift value a specifier accepts.
    public enum ArgumentKind: String, Hashable, Sendable {
        /// Anything (`%@`).
        case object
        /// A signed integer (`%d %i`).
        case integer
        /// An unsigned integer (`%u %x %X %o %p`).
        case unsignedInteger
        /// A floating-point number (`%f %e %g %a`).
        case floatingPoint
        /// A string (`%s`).
        case string
        /// A character (`%c`).
        case character
    }

    /// The 1-based argument position written as `%2$…`, or `nil` for "the next argument".
    public var position: Int?
    public var flags: Flags
    /// Minimum field width, in characters.
    public var width: Int?
    /// Precision: fraction digits for `%f`/`%e`, significant digits for `%g`, minimum digits for integers.
    public var precision: Int?
    public var length: Length
    public var conversion: Conversion

    public init(
        position: Int? = nil,
        flags: Flags = [],
        width: Int? = nil,
        precision: Int? = nil,
        length: Length = .none,
        conversion: Conversion
    ) {
        self.position = position
        self.flags = flags
        self.width = width
        self.precision = precision
        self.length = length
        self.conversion = conversion
    }

    /// The argument kind this conversion takes.
    public var argumentKind: ArgumentKind {
        switch conversion {
        case .object: .object
        case .signedDecimal, .signedInteger: .integer
        case .unsignedDecimal, .hexLower, .hexUpper, .octal, .pointer: .unsignedInteger
        case .fixed, .fixedUpper, .scientific, .scientificUpper, .general, .generalUpper, .hexFloat, .hexFloatUpper:
            .floatingPoint
        case .cString, .wideString: .string
        case .character, .wideCharacter: .character
        }
    }

    /// Whether the conversion takes a number (`%d %u %x %f %e %g`…), not text or an object (`%@`).
    public var isNumeric: Bool {
        switch argumentKind {
        case .integer, .unsignedInteger, .floatingPoint: true
        case .object, .string, .character: false
        }
    }

    /// The specifier as it would be written, such as `%1$lld`.
    public var description: String {
        var text = "%"
        if let position { text += "\(position)$" }
        if flags.contains(.leftAlign) { text += "-" }
        if flags.contains(.plusSign) { text += "+" }
        if flags.contains(.spaceSign) { text += " " }
        if flags.contains(.alternate) { text += "#" }
        if flags.contains(.zeroPad) { text += "0" }
        if flags.contains(.grouping) { text += "'" }
        if let width { text += String(width) }
        if let precision { text += ".\(precision)" }
        return text + length.rawValue + String(conversion.rawValue)
    }

    /// The specifier without its position: what a translation must keep for the same argument.
    public var signature: String {
        var copy = self
        copy.position = nil
        return copy.description
    }
}
