import Synchronization

/// The number formatters one locale needs, made once and shared read-only by all threads.
final class LocaleNumberFormats: Sendable {
    let localeID: String
    /// Integers with grouping (`%d`, `%@` with an integer).
    let integer: ICUNumberFormatter
    /// Exactly `n` fraction digits with grouping, n = 0…9 (`%.2f`, decimals shown as written).
    let fixed: [ICUNumberFormatter]
    /// Up to six fraction digits, trailing zeros dropped (`%@` with a `Double`).
    let general: ICUNumberFormatter
    /// The locale's digit zero, for `%05d`-style padding.
    let zeroDigit: String
    /// The integers 0..<``smallIntegerLimit`` as ``integer`` formats them, made once: ICU takes
    /// about half a microsecond per call, and quantities are small.
    private let smallIntegers: [String]

    static let smallIntegerLimit = 1024
    /// Formatters for rarer styles (`%e`, `%g`), made on first use.
    private let others = Mutex<[ICUNumberFormatter.Style: ICUNumberFormatter]>([:])

    static let maximumFixedDigits = 9

    init(locale: String) throws(LocalizationError) {
        localeID = ICULocaleID.make(locale)
        func make(_ style: ICUNumberFormatter.Style) throws(LocalizationError) -> ICUNumberFormatter {
            guard let formatter = ICUNumberFormatter(localeID: ICULocaleID.make(locale), style: style) else {
                throw LocalizationError(.unknownLocale, "ICU cannot format numbers for '\(locale)'")
            }
            return formatter
        }
        integer = try make(.decimal(minimumFractionDigits: 0, maximumFractionDigits: 0, grouping: true))
        var fixed: [ICUNumberFormatter] = []
        for digits in 0...Self.maximumFixedDigits {
            fixed.append(
                try make(.decimal(minimumFractionDigits: digits, maximumFractionDigits: digits, grouping: true))
            )
        }
        self.fixed = fixed
        general = try make(.decimal(minimumFractionDigits: 0, maximumFractionDigits: 6, grouping: true))
        zeroDigit = integer.string(Int64(0))
        smallIntegers = (0..<Int64(Self.smallIntegerLimit)).map { [integer] in integer.string($0) }
    }

    /// An integer in the locale's digits with grouping.
    func string(_ value: Int64) -> String {
        value >= 0 && value < Self.smallIntegerLimit ? smallIntegers[Int(value)] : integer.string(value)
    }

    /// A formatter for a rarer style, made once and kept.
    func formatter(_ style: ICUNumberFormatter.Style) -> ICUNumberFormatter? {
        if let existing = others.withLock({ $0[style] }) { return existing }
        guard let made = ICUNumberFormatter(localeID: localeID, style: style) else { return nil }
        return others.withLock { table in
            if let existing = table[style] { return existing }
            table[style] = made
            return made
        }
    }
}
