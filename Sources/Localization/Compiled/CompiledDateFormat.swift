import Foundation

/// A date pattern compiled for one locale and time zone: a date becomes local time by the zone's
/// transition table (``ZoneTransitions``), then its fields are written from the locale's digits and
/// names — byte for byte what ICU's `udat_format` writes, with the field of each piece as
/// `udat_formatForFields` reports it.
///
/// Compiled from a ``DateFieldFormatter`` (``DateFieldFormatter/compiled(zone:)``): the names
/// (weekdays, months, AM/PM, day periods) are read off ICU's own output for the same pattern, then
/// a battery of instants — every hour, weekday and month, the zone's transitions and the year's
/// end — is formatted both ways. A pattern with a field it does not know (eras, zone names,
/// fractional seconds) does not compile and the caller keeps ICU.
///
/// ```swift
/// let icu = try DateFieldFormatter(locale: "en-US", timeZone: "America/Los_Angeles", skeleton: "jm")
/// let compiled = icu.compiled(zone: try ZoneTransitions(identifier: "America/Los_Angeles"))!
/// compiled.string(Date(timeIntervalSince1970: 1_795_000_000))   // "3:06 AM", as ICU writes it
/// ```
///
/// Immutable: share it across threads freely.
public final class CompiledDateFormat: Sendable {
    /// A piece of the output: a byte range and the field it shows (`nil` for literal text).
    public struct Span: Sendable, Hashable {
        public var start: Int32
        public var end: Int32
        public var field: DateFieldFormatter.Field?

        public init(start: Int32, end: Int32, field: DateFieldFormatter.Field?) {
            self.start = start
            self.end = end
            self.field = field
        }
    }

    /// What an element of the pattern writes.
    enum Kind: UInt8, Sendable {
        case literal
        /// The year, padded to `width`; two-digit years (`yy`) keep the last two digits.
        case year, twoDigitYear
        case month, day, hour24, hour12, hour11, hour24FromOne, minute, second
        /// Names read from ICU, `names[base + index]`.
        case monthName, weekdayName, amPM, dayPeriod
    }

    struct Element: Sendable {
        var kind: Kind
        /// Minimum digits for numbers.
        var width: Int
        /// Literal text.
        var literal: ByteTable.Piece
        /// For names: where this element's names start in ``names``.
        var namesBase: Int
        var field: DateFieldFormatter.Field?
    }

    let table: ByteTable
    let elements: [Element]
    let names: [ByteTable.Piece]
    let digits: [ByteTable.Piece]
    let zone: ZoneTransitions
    /// Whether a day period depends on the minutes and seconds (ICU says "noon" at 12:00 only when
    /// the pattern shows no other minute).
    let dayPeriodReadsMinutes: Bool
    let dayPeriodReadsSeconds: Bool
    /// The most bytes one date can take.
    public let maximumLength: Int
    /// How many spans a date has at most.
    public var maximumSpans: Int { elements.count }
    /// Whether every character any date is written with is a single Unicode scalar that never joins
    /// the text around it: then a date's display width is the sum of its scalars' widths.
    public let hasSingleScalarCharacters: Bool

    init(
        table: ByteTable,
        elements: [Element],
        names: [ByteTable.Piece],
        digits: [ByteTable.Piece],
        zone: ZoneTransitions,
        dayPeriodReadsMinutes: Bool,
        dayPeriodReadsSeconds: Bool,
        hasSingleScalarCharacters: Bool
    ) {
        self.table = table
        self.elements = elements
        self.names = names
        self.digits = digits
        self.zone = zone
        self.dayPeriodReadsMinutes = dayPeriodReadsMinutes
        self.dayPeriodReadsSeconds = dayPeriodReadsSeconds
        self.hasSingleScalarCharacters = hasSingleScalarCharacters
        let widestDigit = Int(digits.map(\.count).max() ?? 4)
        let widestName = Int(names.map(\.count).max() ?? 0)
        maximumLength = elements.reduce(0) { total, element in
            switch element.kind {
            case .literal: total + Int(element.literal.count)
            case .monthName, .weekdayName, .amPM, .dayPeriod: total + widestName
            default: total + max(element.width, 10) * widestDigit
            }
        }
    }

    // MARK: Formatting

    /// Local time as the fields show it, worked out once for every format of the same zone.
    public struct LocalTime: Sendable {
        var year: Int64
        var month: Int
        var day: Int
        var weekday: Int
        var hour: Int
        var minute: Int
        var second: Int
    }

    typealias Fields = LocalTime

    /// The local time of `date` in this format's zone, or `nil` outside the zone table.
    public func localTime(_ date: Date) -> LocalTime? { fields(date) }

    /// Writes `date` at `output` (room for ``maximumLength`` bytes), each piece's range and field in
    /// `spans` (room for ``maximumSpans``) when given; the bytes and spans written, or `nil` for a
    /// date outside the zone table, which ICU formats instead.
    public func write(
        _ date: Date,
        to output: UnsafeMutablePointer<UInt8>,
        spans: UnsafeMutablePointer<Span>? = nil
    ) -> (bytes: Int, spans: Int)? {
        guard let fields = fields(date) else { return nil }
        return write(fields, to: output, spans: spans)
    }

    /// ``write(_:to:spans:)-(Date,_,_)`` for a local time already worked out (by any format of the
    /// same zone).
    public func write(
        _ fields: LocalTime,
        to output: UnsafeMutablePointer<UInt8>,
        spans: UnsafeMutablePointer<Span>? = nil
    ) -> (bytes: Int, spans: Int) {
        var written = 0
        var spanCount = 0
        for elementIndex in 0..<elements.count {
            let element = elements[elementIndex]
            let start = written
            switch element.kind {
            case .literal:
                written += table.copy(element.literal, to: output + written)
            case .year:
                written += writeNumber(fields.year, width: element.width, to: output + written)
            case .twoDigitYear:
                written += writeNumber(fields.year % 100, width: 2, to: output + written)
            case .month:
                written += writeNumber(Int64(fields.month), width: element.width, to: output + written)
            case .day:
                written += writeNumber(Int64(fields.day), width: element.width, to: output + written)
            case .hour24:
                written += writeNumber(Int64(fields.hour), width: element.width, to: output + written)
            case .hour12:
                let hour = fields.hour % 12 == 0 ? 12 : fields.hour % 12
                written += writeNumber(Int64(hour), width: element.width, to: output + written)
            case .hour11:
                written += writeNumber(Int64(fields.hour % 12), width: element.width, to: output + written)
            case .hour24FromOne:
                written += writeNumber(
                    Int64(fields.hour == 0 ? 24 : fields.hour),
                    width: element.width,
                    to: output + written
                )
            case .minute:
                written += writeNumber(Int64(fields.minute), width: element.width, to: output + written)
            case .second:
                written += writeNumber(Int64(fields.second), width: element.width, to: output + written)
            case .monthName:
                written += table.copy(names[element.namesBase + fields.month - 1], to: output + written)
            case .weekdayName:
                written += table.copy(names[element.namesBase + fields.weekday], to: output + written)
            case .amPM:
                written += table.copy(names[element.namesBase + (fields.hour < 12 ? 0 : 1)], to: output + written)
            case .dayPeriod:
                let exact =
                    (!dayPeriodReadsMinutes || fields.minute == 0) && (!dayPeriodReadsSeconds || fields.second == 0)
                written += table.copy(
                    names[element.namesBase + fields.hour * 2 + (exact ? 0 : 1)],
                    to: output + written
                )
            }
            guard let spans, written > start else { continue }
            // Literal text next to literal text is one piece, as ICU's field iterator leaves it.
            if element.field == nil, spanCount > 0, spans[spanCount - 1].field == nil {
                spans[spanCount - 1].end = Int32(written)
            } else {
                spans[spanCount] = Span(start: Int32(start), end: Int32(written), field: element.field)
                spanCount += 1
            }
        }
        return (written, spanCount)
    }

    /// The date as text (for tests and tools), or `nil` outside the zone table.
    public func string(_ date: Date) -> String? {
        guard fields(date) != nil else { return nil }
        return String(unsafeUninitializedCapacity: maximumLength) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return write(date, to: base)?.bytes ?? 0
        }
    }

    /// The date as pieces with their fields, as ``DateFieldFormatter/pieces(_:)`` gives them.
    public func pieces(_ date: Date) -> [DateFieldFormatter.Piece]? {
        var bytes = [UInt8](repeating: 0, count: maximumLength)
        var spans = [Span](repeating: Span(start: 0, end: 0, field: nil), count: max(maximumSpans, 1))
        let result = bytes.withUnsafeMutableBufferPointer { output in
            spans.withUnsafeMutableBufferPointer { spanBuffer -> (bytes: Int, spans: Int)? in
                guard let base = output.baseAddress, let spanBase = spanBuffer.baseAddress else { return nil }
                return write(date, to: base, spans: spanBase)
            }
        }
        guard let result else { return nil }
        return spans.prefix(result.spans).map { span in
            DateFieldFormatter.Piece(
                text: String(decoding: bytes[Int(span.start)..<Int(span.end)], as: UTF8.self),
                field: span.field
            )
        }
    }

    /// Local time at `date`: ICU's arithmetic (`Calendar::computeFields`) on the zone's offset.
    func fields(_ date: Date) -> Fields? {
        let milliseconds = date.timeIntervalSince1970 * 1000
        guard let offset = zone.offset(atMilliseconds: milliseconds) else { return nil }
        let local = milliseconds + Double(offset)
        let days = (local / 86_400_000).rounded(.down)
        let millisecondOfDay = Int(local - days * 86_400_000)
        let day = Int64(days)
        let civil = Self.civil(daysSince1970: day)
        // 1970-01-01 was a Thursday; weekdays count from Sunday, 0.
        let weekday = Int(((day + 4) % 7 + 7) % 7)
        return Fields(
            year: civil.year,
            month: civil.month,
            day: civil.day,
            weekday: weekday,
            hour: millisecondOfDay / 3_600_000,
            minute: millisecondOfDay / 60_000 % 60,
            second: millisecondOfDay / 1000 % 60
        )
    }

    /// The Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    public static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` (not negative) in the locale's digits, zero-padded to `width`.
    @inline(__always)
    private func writeNumber(_ value: Int64, width: Int, to output: UnsafeMutablePointer<UInt8>) -> Int {
        // Hours, minutes, days and months: one or two digits.
        if value < 100, width <= 2 {
            if value < 10, width < 2 { return table.copy(digits[Int(value)], to: output) }
            let tens = table.copy(digits[Int(value / 10)], to: output)
            return tens + table.copy(digits[Int(value % 10)], to: output + tens)
        }
        let number = DecimalDigits(value.magnitude, minimumCount: width)
        var written = 0
        var position = number.count - 1
        while position >= 0 {
            written += table.copy(digits[number[position]], to: output + written)
            position -= 1
        }
        return written
    }
}
