import Foundation
import _FoundationICU

/// Formats dates from a skeleton ("EEECmm": weekday, hour in the locale's cycle, minute) in one
/// locale and time zone, and reports which date field each part of the text shows — what
/// Foundation's `Date.FormatStyle.attributed` gives, straight from ICU's `udat_formatForFields`.
///
/// ICU date formats keep a calendar they mutate while formatting: an instance belongs to one
/// thread at a time.
public final class DateFieldFormatter {
    /// A date field, named as Foundation's `AttributeScopes.FoundationAttributes.DateFieldAttribute`.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case era, year, quarter, month, weekOfYear, weekOfMonth, day, dayOfYear, weekday
        case amPM, hour, minute, second, secondFraction, timeZone

        /// The field's place in ``allCases``, for tables indexed by field.
        public var ordinal: Int {
            switch self {
            case .era: 0
            case .year: 1
            case .quarter: 2
            case .month: 3
            case .weekOfYear: 4
            case .weekOfMonth: 5
            case .day: 6
            case .dayOfYear: 7
            case .weekday: 8
            case .amPM: 9
            case .hour: 10
            case .minute: 11
            case .second: 12
            case .secondFraction: 13
            case .timeZone: 14
            }
        }
    }

    /// A piece of formatted text and the field it shows, if any (separators have none).
    public struct Piece: Hashable, Sendable {
        public var text: String
        public var field: Field?

        public init(text: String, field: Field? = nil) {
            self.text = text
            self.field = field
        }
    }

    public let locale: String
    public let timeZone: String
    /// The skeleton as given, and the pattern ICU chose for the locale.
    public let skeleton: String
    public let pattern: String
    /// The ICU locale ID the format was opened with (Gregorian unless the tag asks otherwise).
    let localeID: String
    let format: UnsafeMutablePointer<UDateFormat?>
    private let fields: OpaquePointer

    /// - Parameters:
    ///   - locale: a BCP 47 tag; `-u-hc-h12` or `-u-hc-h23` sets the hour cycle. The calendar is
    ///     Gregorian unless the tag asks for another (`-u-ca-islamic`), as with Foundation's
    ///     `Date.FormatStyle` (ICU alone would pick the Islamic calendar for ar-SA).
    ///   - timeZone: an IANA identifier.
    ///   - skeleton: ICU skeleton letters, as Foundation's `Date.FormatStyle` writes them (`EEEjm`
    ///     for `.weekday().hour().minute()`, `yMdjm` with the date). The pattern is chosen as
    ///     Foundation chooses it: `j` is the locale's hour (`C`, with flexible day periods, for a
    ///     12-hour zh-TW, as Foundation does), every field's length matched.
    /// - Throws: ``LocalizationError`` `.unknownLocale` when ICU cannot open the locale or zone.
    public init(locale: String, timeZone: String, skeleton: String) throws(LocalizationError) {
        self.locale = locale
        self.timeZone = timeZone
        self.skeleton = skeleton
        let localeID = Self.gregorianUnlessAsked(ICULocaleID.make(locale))
        self.localeID = localeID
        var status = U_ZERO_ERROR
        guard let generator = swift_udatpg_open(localeID, &status), status.rawValue <= U_ZERO_ERROR.rawValue else {
            throw LocalizationError(.unknownLocale, "ICU has no date patterns for '\(locale)'")
        }
        defer { swift_udatpg_close(generator) }
        let skeletonUnits = Array(Self.foundationSkeleton(skeleton, localeID: localeID, generator: generator).utf16)
        guard
            let pattern = ICUText.read({ buffer, capacity, status in
                swift_udatpg_getBestPatternWithOptions(
                    generator,
                    skeletonUnits,
                    Int32(skeletonUnits.count),
                    UDATPG_MATCH_ALL_FIELDS_LENGTH,
                    buffer,
                    capacity,
                    &status
                )
            })
        else { throw LocalizationError(.unknownLocale, "ICU has no pattern for '\(skeleton)' in '\(locale)'") }
        self.pattern = pattern
        let patternUnits = Array(pattern.utf16)
        let zoneUnits = Array(timeZone.utf16)
        guard
            let format = swift_udat_open(
                UDAT_PATTERN,
                UDAT_PATTERN,
                localeID,
                zoneUnits,
                Int32(zoneUnits.count),
                patternUnits,
                Int32(patternUnits.count),
                &status
            ), status.rawValue <= U_ZERO_ERROR.rawValue
        else { throw LocalizationError(.unknownLocale, "ICU cannot format dates for '\(locale)' in '\(timeZone)'") }
        guard let fields = swift_ufieldpositer_open(&status), status.rawValue <= U_ZERO_ERROR.rawValue else {
            swift_udat_close(format)
            throw LocalizationError(.unknownLocale, "ICU cannot report date fields")
        }
        self.format = format
        self.fields = fields
    }

    deinit {
        swift_udat_close(format)
        swift_ufieldpositer_close(fields)
    }

    /// The ICU object behind the formatter, for the benchmark's C floor to call directly.
    @_spi(Benchmarks) public var icuHandle: UnsafeRawPointer { UnsafeRawPointer(format) }

    /// The date as text.
    public func string(_ date: Date) -> String {
        let milliseconds = date.timeIntervalSince1970 * 1000
        return ICUText.read { buffer, capacity, status in
            swift_udat_format(format, milliseconds, buffer, capacity, nil, &status)
        } ?? ""
    }

    /// The date as pieces of text, each with the field it shows.
    public func pieces(_ date: Date) -> [Piece] {
        let milliseconds = date.timeIntervalSince1970 * 1000
        let format = self.format
        let fields = self.fields
        let fill = { (buffer: UnsafeMutablePointer<UChar>, capacity: Int32, status: inout UErrorCode) -> Int32 in
            swift_udat_formatForFields(format, milliseconds, buffer, capacity, fields, &status)
        }
        return ICUText.output(fill) { text in
            var spans: [(field: Field, range: Range<Int>)] = []
            var start: Int32 = 0
            var end: Int32 = 0
            while true {
                let raw = swift_ufieldpositer_next(fields, &start, &end)
                guard raw >= 0 else { break }
                guard let field = Self.field(UDateFormatField(UInt32(raw))), start < end, Int(end) <= text.count else {
                    continue
                }
                spans.append((field, Int(start)..<Int(end)))
            }
            if !spans.isEmpty { spans.sort { $0.range.lowerBound < $1.range.lowerBound } }
            var pieces: [Piece] = []
            pieces.reserveCapacity(spans.count * 2 + 1)
            var offset = 0
            for span in spans where span.range.lowerBound >= offset {
                if span.range.lowerBound > offset {
                    pieces.append(
                        Piece(text: ICUText.string(UnsafeBufferPointer(rebasing: text[offset..<span.range.lowerBound])))
                    )
                }
                pieces.append(
                    Piece(text: ICUText.string(UnsafeBufferPointer(rebasing: text[span.range])), field: span.field)
                )
                offset = span.range.upperBound
            }
            if offset < text.count {
                pieces.append(Piece(text: ICUText.string(UnsafeBufferPointer(rebasing: text[offset...]))))
            }
            return pieces
        } ?? []
    }

    /// `skeleton` with Foundation's one exception to `j`: Chinese in Taiwan on a 12-hour clock asks
    /// for `C`, so its hours carry flexible day periods (凌晨, 下午).
    static func foundationSkeleton(
        _ skeleton: String,
        localeID: String,
        generator: UnsafeMutablePointer<UDateTimePatternGenerator?>
    ) -> String {
        guard skeleton.contains("j") else { return skeleton }
        var status = U_ZERO_ERROR
        var language = [CChar](repeating: 0, count: 16)
        var country = [CChar](repeating: 0, count: 8)
        let languageLength = swift_uloc_getLanguage(localeID, &language, Int32(language.count), &status)
        let countryLength = swift_uloc_getCountry(localeID, &country, Int32(country.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue,
            String(decoding: language.prefix(Int(languageLength)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                == "zh",
            String(decoding: country.prefix(Int(countryLength)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                == "TW"
        else { return skeleton }
        let cycle = swift_udatpg_getDefaultHourCycle(generator, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, cycle == UDAT_HOUR_CYCLE_11 || cycle == UDAT_HOUR_CYCLE_12
        else { return skeleton }
        return skeleton.replacingOccurrences(of: "j", with: "C")
    }

    /// `localeID` with `calendar=gregorian` added when it names no calendar.
    static func gregorianUnlessAsked(_ localeID: String) -> String {
        guard !localeID.contains("calendar=") else { return localeID }
        return localeID + (localeID.contains("@") ? ";calendar=gregorian" : "@calendar=gregorian")
    }

    static func field(_ field: UDateFormatField) -> Field? {
        switch field {
        case UDAT_ERA_FIELD: .era
        case UDAT_YEAR_FIELD, UDAT_YEAR_WOY_FIELD, UDAT_EXTENDED_YEAR_FIELD, UDAT_RELATED_YEAR_FIELD: .year
        case UDAT_QUARTER_FIELD, UDAT_STANDALONE_QUARTER_FIELD: .quarter
        case UDAT_MONTH_FIELD, UDAT_STANDALONE_MONTH_FIELD: .month
        case UDAT_WEEK_OF_YEAR_FIELD: .weekOfYear
        case UDAT_WEEK_OF_MONTH_FIELD: .weekOfMonth
        case UDAT_DATE_FIELD: .day
        case UDAT_DAY_OF_YEAR_FIELD: .dayOfYear
        case UDAT_DAY_OF_WEEK_FIELD, UDAT_DOW_LOCAL_FIELD, UDAT_STANDALONE_DAY_FIELD: .weekday
        // Foundation calls day periods ("noon", 中午) amPM too.
        case UDAT_AM_PM_FIELD, UDAT_AM_PM_MIDNIGHT_NOON_FIELD, UDAT_FLEXIBLE_DAY_PERIOD_FIELD: .amPM
        case UDAT_HOUR_OF_DAY1_FIELD, UDAT_HOUR_OF_DAY0_FIELD, UDAT_HOUR1_FIELD, UDAT_HOUR0_FIELD: .hour
        case UDAT_MINUTE_FIELD: .minute
        case UDAT_SECOND_FIELD: .second
        case UDAT_FRACTIONAL_SECOND_FIELD: .secondFraction
        case UDAT_TIMEZONE_FIELD, UDAT_TIMEZONE_RFC_FIELD, UDAT_TIMEZONE_GENERIC_FIELD,
            UDAT_TIMEZONE_SPECIAL_FIELD, UDAT_TIMEZONE_LOCALIZED_GMT_OFFSET_FIELD,
            UDAT_TIMEZONE_ISO_FIELD, UDAT_TIMEZONE_ISO_LOCAL_FIELD:
            .timeZone
        default: nil
        }
    }
}
