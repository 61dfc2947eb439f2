import _FoundationICU

/// An ICU number formatter (`UNumberFormat`) configured once, then used read-only.
///
/// ICU's number formatting is safe to call from several threads on one formatter as long as it is
/// not reconfigured; this type configures in `init` only, so it is `Sendable`.
final class ICUNumberFormatter: @unchecked Sendable {
    /// How numbers are laid out.
    enum Style: Hashable, Sendable {
        /// Integers and decimals with the locale's grouping, `min...max` fraction digits.
        case decimal(minimumFractionDigits: Int, maximumFractionDigits: Int, grouping: Bool)
        /// Scientific notation with exactly `fractionDigits` digits after the point.
        case scientific(fractionDigits: Int)
        /// At most `significantDigits` significant digits, trailing zeros dropped (`%g`).
        case significant(significantDigits: Int, grouping: Bool)
    }

    private let format: UnsafeMutablePointer<UNumberFormat?>

    init?(localeID: String, style: Style) {
        var status = U_ZERO_ERROR
        let icuStyle: UNumberFormatStyle
        switch style {
        case .decimal, .significant: icuStyle = UNUM_DECIMAL
        case .scientific: icuStyle = UNUM_SCIENTIFIC
        }
        guard let opened = swift_unum_open(icuStyle, nil, 0, localeID, nil, &status),
            status.rawValue <= U_ZERO_ERROR.rawValue
        else { return nil }
        format = opened
        switch style {
        case .decimal(let minimum, let maximum, let grouping):
            swift_unum_setAttribute(format, UNUM_MIN_FRACTION_DIGITS, Int32(minimum))
            swift_unum_setAttribute(format, UNUM_MAX_FRACTION_DIGITS, Int32(maximum))
            swift_unum_setAttribute(format, UNUM_GROUPING_USED, grouping ? 1 : 0)
        case .scientific(let digits):
            swift_unum_setAttribute(format, UNUM_MIN_FRACTION_DIGITS, Int32(digits))
            swift_unum_setAttribute(format, UNUM_MAX_FRACTION_DIGITS, Int32(digits))
        case .significant(let digits, let grouping):
            swift_unum_setAttribute(format, UNUM_SIGNIFICANT_DIGITS_USED, 1)
            swift_unum_setAttribute(format, UNUM_MIN_SIGNIFICANT_DIGITS, 1)
            swift_unum_setAttribute(format, UNUM_MAX_SIGNIFICANT_DIGITS, Int32(max(1, digits)))
            swift_unum_setAttribute(format, UNUM_GROUPING_USED, grouping ? 1 : 0)
        }
    }

    deinit {
        swift_unum_close(format)
    }

    /// The ICU handle, for plural selection with visible fraction digits.
    var handle: UnsafeMutablePointer<UNumberFormat?> { format }

    func string(_ value: Int64) -> String {
        ICUText.read { buffer, capacity, status in
            swift_unum_formatInt64(format, value, buffer, capacity, nil, &status)
        } ?? String(value)
    }

    func string(_ value: Double) -> String {
        ICUText.read { buffer, capacity, status in
            swift_unum_formatDouble(format, value, buffer, capacity, nil, &status)
        } ?? String(value)
    }

    /// Formats a decimal number given as text, exactly (no binary rounding).
    func string(decimal text: String) -> String {
        ICUDecimal.format(text, with: format)
    }
}
