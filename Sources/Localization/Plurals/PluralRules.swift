import _FoundationICU

/// CLDR cardinal plural rules of one locale, from ICU.
///
/// Visible fraction digits count, as CLDR specifies: in English `1` is *one* but `1.0` is *other*.
/// Selection is read-only on ICU objects made in `init`, so one instance serves all threads.
///
/// ```swift
/// let russian = try PluralRules(locale: "ru")
/// russian.category(for: .integer(5))      // .many
/// russian.category(for: .decimal("1.5"))  // .other
/// ```
public final class PluralRules: @unchecked Sendable {
    /// The locale the rules are for, as given.
    public let locale: String
    /// The categories this locale distinguishes, in canonical order (English: one, other).
    public let categories: [PluralCategory]

    private let rules: OpaquePointer
    /// Formatters with exactly `n` fraction digits, so ICU sees the visible digits of a value.
    private let fixedDigitFormats: [ICUNumberFormatter]
    /// The categories of the integers 0..<``smallIntegerLimit``, asked of ICU once: counts and
    /// quantities are almost always small, and ICU's selection costs about a microsecond.
    private let smallIntegerCategories: [PluralCategory]

    /// Integers below this are answered from a table made at initialization.
    static let smallIntegerLimit = 1024

    /// The most visible fraction digits told apart; more are treated as this many.
    static let maximumVisibleFractionDigits = 15

    /// Opens the rules for a BCP 47 locale identifier.
    ///
    /// - Throws: ``LocalizationError`` if ICU has no rules for it (ICU falls back to root rules for
    ///   unknown languages, which distinguish only *other*; that is not an error).
    public init(locale: String) throws(LocalizationError) {
        self.locale = locale
        let localeID = ICULocaleID.make(locale)
        var status = U_ZERO_ERROR
        guard let rules = swift_uplrules_open(localeID, &status), status.rawValue <= U_ZERO_ERROR.rawValue else {
            throw LocalizationError(.unknownLocale, "ICU has no plural rules for '\(locale)'")
        }
        self.rules = rules
        var formats: [ICUNumberFormatter] = []
        for digits in 0...Self.maximumVisibleFractionDigits {
            let style = ICUNumberFormatter.Style.decimal(
                minimumFractionDigits: digits,
                maximumFractionDigits: digits,
                grouping: false
            )
            guard let format = ICUNumberFormatter(localeID: localeID, style: style) else {
                swift_uplrules_close(rules)
                throw LocalizationError(.unknownLocale, "ICU cannot format numbers for '\(locale)'")
            }
            formats.append(format)
        }
        fixedDigitFormats = formats
        categories = Self.keywords(of: rules)
        smallIntegerCategories = (0..<Self.smallIntegerLimit).map { value in
            Self.select(Double(value), visibleFractionDigits: 0, rules: rules, formats: formats)
        }
    }

    deinit {
        swift_uplrules_close(rules)
    }

    /// The category of a number; text arguments are *other*.
    public func category(for argument: FormatArgument) -> PluralCategory {
        switch argument {
        case .integer(let value) where value >= 0 && value < Self.smallIntegerLimit: smallIntegerCategories[Int(value)]
        case .integer(let value): category(for: Double(value), visibleFractionDigits: 0)
        case .unsignedInteger(let value): category(for: Double(value), visibleFractionDigits: 0)
        case .double(let value): category(for: value, visibleFractionDigits: Self.visibleFractionDigits(of: value))
        case .decimal(let text):
            category(for: Double(text) ?? 0, visibleFractionDigits: DecimalText.visibleFractionDigits(text))
        case .string: .other
        }
    }

    /// The category of `value` shown with `visibleFractionDigits` digits after the point.
    public func category(for value: Double, visibleFractionDigits: Int) -> PluralCategory {
        if visibleFractionDigits == 0, value >= 0, value < Double(Self.smallIntegerLimit),
            value.rounded(.towardZero) == value
        {
            return smallIntegerCategories[Int(value)]
        }
        return Self.select(
            value,
            visibleFractionDigits: visibleFractionDigits,
            rules: rules,
            formats: fixedDigitFormats
        )
    }

    /// Asks ICU for the category of `value` shown with `visibleFractionDigits` fraction digits.
    private static func select(
        _ value: Double,
        visibleFractionDigits: Int,
        rules: OpaquePointer,
        formats: [ICUNumberFormatter]
    ) -> PluralCategory {
        var keyword = (UInt16(0), UInt16(0), UInt16(0), UInt16(0), UInt16(0), UInt16(0), UInt16(0), UInt16(0))
        var status = U_ZERO_ERROR
        let length = withUnsafeMutableBytes(of: &keyword) { raw -> Int32 in
            guard let buffer = raw.baseAddress?.assumingMemoryBound(to: UChar.self) else { return 0 }
            if visibleFractionDigits == 0 && value.rounded(.towardZero) == value {
                return swift_uplrules_select(rules, value, buffer, 8, &status)
            }
            let digits = min(visibleFractionDigits, Self.maximumVisibleFractionDigits)
            return swift_uplrules_selectWithFormat(rules, value, formats[digits].handle, buffer, 8, &status)
        }
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return .other }
        let name = withUnsafeBytes(of: &keyword) { raw in
            String(decoding: raw.bindMemory(to: UInt16.self).prefix(Int(length)), as: UTF16.self)
        }
        return PluralCategory(rawValue: name) ?? .other
    }

    /// Fraction digits Swift shows for a `Double` (`1.0` → 1, `1.25` → 2, `3` never happens).
    static func visibleFractionDigits(of value: Double) -> Int {
        guard value.isFinite else { return 0 }
        // Swift's shortest form: "1.25", "1.0", or "1.5e-07" (mantissa digits plus the negative exponent).
        let text = String(value)
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0]
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissaDigits =
            mantissa.firstIndex(of: ".").map {
                mantissa.distance(from: mantissa.index(after: $0), to: mantissa.endIndex)
            } ?? 0
        return max(0, mantissaDigits - exponent)
    }

    private static func keywords(of rules: OpaquePointer) -> [PluralCategory] {
        var status = U_ZERO_ERROR
        guard let enumeration = swift_uplrules_getKeywords(rules, &status) else { return [.other] }
        defer { swift_uenum_close(enumeration) }
        var found: Set<PluralCategory> = []
        while true {
            var length: Int32 = 0
            guard let name = swift_uenum_next(enumeration, &length, &status), status.rawValue <= U_ZERO_ERROR.rawValue
            else { break }
            if let category = PluralCategory(rawValue: String(cString: name)) { found.insert(category) }
        }
        return PluralCategory.allCases.filter(found.contains)
    }
}
