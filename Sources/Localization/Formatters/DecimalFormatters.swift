import _FoundationICU

/// Formats money in one locale and one currency, ICU's currency pattern for the locale with the
/// currency's minor units (`$1,234.50`, `1234,50 €`, `¥1,235`, `‏١٬٢٣٤٫٥٠ €`).
///
/// Made once per (locale, currency) and used read-only: safe from any number of threads.
public final class CurrencyFormatter: @unchecked Sendable {
    public let locale: String
    public let currency: Currency
    let format: UnsafeMutablePointer<UNumberFormat?>

    /// - Throws: ``LocalizationError`` `.unknownLocale` if ICU cannot open a currency format for `locale`.
    public init(locale: String, currency: Currency) throws(LocalizationError) {
        self.locale = locale
        self.currency = currency
        format = try ICUDecimal.open(UNUM_CURRENCY, locale: locale, purpose: "currency")
        var status = U_ZERO_ERROR
        let code = Array(currency.code.utf16)
        swift_unum_setTextAttribute(format, UNUM_CURRENCY_CODE, code, Int32(code.count), &status)
        swift_unum_setAttribute(format, UNUM_MIN_FRACTION_DIGITS, Int32(currency.fractionDigits))
        swift_unum_setAttribute(format, UNUM_MAX_FRACTION_DIGITS, Int32(currency.fractionDigits))
        swift_unum_setAttribute(format, UNUM_ROUNDING_MODE, Int32(UNUM_ROUND_HALFEVEN.rawValue))
        guard status.rawValue <= U_ZERO_ERROR.rawValue else {
            swift_unum_close(format)
            throw LocalizationError(.unknownLocale, "ICU rejected currency \(currency.code) for '\(locale)'")
        }
    }

    deinit { swift_unum_close(format) }

    /// The ICU object behind the formatter, for the benchmark's C floor to call directly.
    @_spi(Benchmarks) public var icuHandle: UnsafeRawPointer { UnsafeRawPointer(format) }

    /// Formats an amount given as plain decimal text ("1234.5", "-0.75"), exactly: no binary
    /// floating point on the way. Amounts are expected already rounded to the currency's minor units.
    public func string(decimal text: String) -> String {
        ICUDecimal.format(text, with: format)
    }
}

/// Formats fractions as percentages in one locale (`0.0825` → `8.25%`, `8,25 %`, `٨٫٢٥٪؜`), with
/// up to ``maximumFractionDigits`` digits after the point. Safe from any number of threads.
public final class PercentFormatter: @unchecked Sendable {
    public let locale: String
    public let maximumFractionDigits: Int
    let format: UnsafeMutablePointer<UNumberFormat?>

    /// - Throws: ``LocalizationError`` `.unknownLocale` if ICU cannot open a percent format for `locale`.
    public init(locale: String, maximumFractionDigits: Int = 3) throws(LocalizationError) {
        self.locale = locale
        self.maximumFractionDigits = maximumFractionDigits
        format = try ICUDecimal.open(UNUM_PERCENT, locale: locale, purpose: "percentages")
        swift_unum_setAttribute(format, UNUM_MIN_FRACTION_DIGITS, 0)
        swift_unum_setAttribute(format, UNUM_MAX_FRACTION_DIGITS, Int32(maximumFractionDigits))
    }

    deinit { swift_unum_close(format) }

    /// The ICU object behind the formatter, for the benchmark's C floor to call directly.
    @_spi(Benchmarks) public var icuHandle: UnsafeRawPointer { UnsafeRawPointer(format) }

    /// Formats a fraction given as plain decimal text ("0.0825" → "8.25%").
    public func string(decimal text: String) -> String {
        ICUDecimal.format(text, with: format)
    }
}

/// Opens ICU number formats and hands them decimal text (`unum_formatDecimal`).
enum ICUDecimal {
    static func open(_ style: UNumberFormatStyle, locale: String, purpose: String) throws(LocalizationError)
        -> UnsafeMutablePointer<UNumberFormat?>
    {
        var status = U_ZERO_ERROR
        guard let opened = swift_unum_open(style, nil, 0, ICULocaleID.make(locale), nil, &status),
            status.rawValue <= U_ZERO_ERROR.rawValue
        else { throw LocalizationError(.unknownLocale, "ICU cannot format \(purpose) for '\(locale)'") }
        return opened
    }

    static func format(_ text: String, with format: UnsafeMutablePointer<UNumberFormat?>) -> String {
        formatIfPossible(text, with: format) ?? text
    }

    /// ICU's output for `text`, or `nil` when ICU reports an error.
    static func formatIfPossible(_ text: String, with format: UnsafeMutablePointer<UNumberFormat?>) -> String? {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                ICUText.read { buffer, capacity, status in
                    swift_unum_formatDecimal(
                        format,
                        chars.baseAddress,
                        Int32(chars.count),
                        buffer,
                        capacity,
                        nil,
                        &status
                    )
                }
            }
        }
    }
}
