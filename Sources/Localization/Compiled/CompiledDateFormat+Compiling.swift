import Foundation
import _FoundationICU

extension DateFieldFormatter {
    /// This formatter's pattern compiled for `zone` (see ``CompiledDateFormat``), or `nil` when the
    /// pattern has a field the compiled format does not know, or any probe comes out differently
    /// from ICU's output. `zone` must be this formatter's time zone.
    public func compiled(zone: ZoneTransitions) -> CompiledDateFormat? {
        guard zone.identifier == timeZone, let tokens = DatePatternToken.parse(pattern) else { return nil }
        guard let probe = DateFieldProbe(localeID: localeID, pattern: pattern) else { return nil }
        guard let digits = probe.digits() else { return nil }

        var builder = ByteTable.Builder()
        var names: [ByteTable.Piece] = []
        var elements: [CompiledDateFormat.Element] = []
        var texts: [String] = digits.map { String(decoding: $0, as: UTF8.self) }
        var seenFields: Set<UInt32> = []
        let readsMinutes = tokens.contains { $0.letter == "m" }
        let readsSeconds = tokens.contains { $0.letter == "s" }
        for token in tokens {
            guard let letter = token.letter else {
                elements.append(.init(kind: .literal, width: 0, literal: builder.add(token.text), namesBase: 0))
                texts.append(token.text)
                continue
            }
            guard let (kind, icuField) = Self.kind(letter: letter, count: token.count) else { return nil }
            // A field shown twice could not be told apart in ICU's field positions.
            guard seenFields.insert(icuField.rawValue).inserted else { return nil }
            let element = CompiledDateFormat.Element(
                kind: kind,
                width: kind == .year && token.count == 1 ? 1 : token.count,
                literal: .empty,
                namesBase: names.count,
                field: Self.field(icuField)
            )
            for instant in DateFieldProbe.instants(for: kind) ?? [] {
                guard let text = probe.text(of: icuField, at: instant) else { return nil }
                names.append(builder.add(text))
                texts.append(text)
            }
            elements.append(element)
        }
        let digitPieces = digits.map { builder.add($0) }
        let compiled = CompiledDateFormat(
            table: builder.build(),
            elements: elements,
            names: names,
            digits: digitPieces,
            zone: zone,
            dayPeriodReadsMinutes: readsMinutes,
            dayPeriodReadsSeconds: readsSeconds,
            hasSingleScalarCharacters: texts.allSatisfy(Self.isSingleScalarPerCharacter)
        )
        return compiled.agrees(with: self) ? compiled : nil
    }

    /// Whether each character of `text` is one scalar and the first joins nothing before it.
    static func isSingleScalarPerCharacter(_ text: String) -> Bool {
        text.count == text.unicodeScalars.count && ("a" + text + "a").count == text.count + 2
    }

    /// What a pattern letter repeated `count` times writes, and ICU's field for it; `nil` for what
    /// the compiled format does not write (eras, zone names, fractions, local weekday numbers).
    static func kind(letter: Character, count: Int) -> (CompiledDateFormat.Kind, UDateFormatField)? {
        switch letter {
        case "y": count == 2 ? (.twoDigitYear, UDAT_YEAR_FIELD) : (.year, UDAT_YEAR_FIELD)
        case "M": count <= 2 ? (.month, UDAT_MONTH_FIELD) : (.monthName, UDAT_MONTH_FIELD)
        case "L": count <= 2 ? (.month, UDAT_STANDALONE_MONTH_FIELD) : (.monthName, UDAT_STANDALONE_MONTH_FIELD)
        case "d" where count <= 2: (.day, UDAT_DATE_FIELD)
        case "E": (.weekdayName, UDAT_DAY_OF_WEEK_FIELD)
        case "c" where count >= 3: (.weekdayName, UDAT_STANDALONE_DAY_FIELD)
        case "e" where count >= 3: (.weekdayName, UDAT_DOW_LOCAL_FIELD)
        case "a": (.amPM, UDAT_AM_PM_FIELD)
        case "b": (.dayPeriod, UDAT_AM_PM_MIDNIGHT_NOON_FIELD)
        case "B": (.dayPeriod, UDAT_FLEXIBLE_DAY_PERIOD_FIELD)
        case "H" where count <= 2: (.hour24, UDAT_HOUR_OF_DAY0_FIELD)
        case "h" where count <= 2: (.hour12, UDAT_HOUR1_FIELD)
        case "K" where count <= 2: (.hour11, UDAT_HOUR0_FIELD)
        case "k" where count <= 2: (.hour24FromOne, UDAT_HOUR_OF_DAY1_FIELD)
        case "m" where count <= 2: (.minute, UDAT_MINUTE_FIELD)
        case "s" where count <= 2: (.second, UDAT_SECOND_FIELD)
        default: nil
        }
    }
}

extension CompiledDateFormat {
    /// Formats a battery of instants both ways — every hour of a day, every weekday and month, the
    /// zone's transitions in 2024–2028 and the minutes around them, year ends — and compares text
    /// and pieces.
    func agrees(with icu: DateFieldFormatter) -> Bool {
        var instants: [Double] = []
        let base = 1_767_225_600.0  // 2026-01-01T00:00:00Z
        for hour in 0..<24 {
            instants += [base + Double(hour) * 3600, base + Double(hour) * 3600 + 1830]
        }
        for day in stride(from: 0, to: 400, by: 9) { instants.append(base + Double(day) * 86_400 + 45_296) }
        for transition in zone.transitions(in: 1_704_067_200_000..<1_830_297_600_000) {
            let seconds = transition / 1000
            instants += [seconds - 3600, seconds - 60, seconds - 1, seconds, seconds + 60, seconds + 3600]
        }
        for year in [1_798_761_599.0, 1_798_761_600, 1_798_718_400, 1_798_804_800, 1_830_297_599] {
            instants.append(year)
        }
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            guard let text = string(date), text == icu.string(date), pieces(date) == icu.pieces(date) else {
                return false
            }
        }
        return true
    }
}

/// A pattern split into literal text and field letters, ICU's quoting undone (`'h'` is the letter
/// h, `''` a quote).
struct DatePatternToken {
    var letter: Character?
    var count: Int
    var text: String

    static func parse(_ pattern: String) -> [DatePatternToken]? {
        var tokens: [DatePatternToken] = []
        var literal = ""
        var quoted = false
        let characters = Array(pattern)
        var index = 0
        func flush() {
            if !literal.isEmpty { tokens.append(DatePatternToken(letter: nil, count: 0, text: literal)) }
            literal = ""
        }
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                if index + 1 < characters.count, characters[index + 1] == "'" {
                    literal.append("'")
                    index += 2
                    continue
                }
                quoted.toggle()
                index += 1
                continue
            }
            if !quoted, character.isASCII, character.isLetter {
                flush()
                var count = 1
                while index + count < characters.count, characters[index + count] == character { count += 1 }
                tokens.append(DatePatternToken(letter: character, count: count, text: ""))
                index += count
                continue
            }
            literal.append(character)
            index += 1
        }
        guard !quoted else { return nil }
        flush()
        return tokens
    }
}

/// The same pattern opened in UTC, to read what ICU writes for one field at chosen instants.
final class DateFieldProbe {
    private let format: UnsafeMutablePointer<UDateFormat?>
    private let positions: OpaquePointer

    init?(localeID: String, pattern: String) {
        let zone = Array("UTC".utf16)
        let patternUnits = Array(pattern.utf16)
        var status = U_ZERO_ERROR
        guard
            let format = swift_udat_open(
                UDAT_PATTERN,
                UDAT_PATTERN,
                localeID,
                zone,
                Int32(zone.count),
                patternUnits,
                Int32(patternUnits.count),
                &status
            ), status.rawValue <= U_ZERO_ERROR.rawValue
        else { return nil }
        guard let positions = swift_ufieldpositer_open(&status), status.rawValue <= U_ZERO_ERROR.rawValue else {
            swift_udat_close(format)
            return nil
        }
        self.format = format
        self.positions = positions
    }

    deinit {
        swift_udat_close(format)
        swift_ufieldpositer_close(positions)
    }

    /// The UTF-8 of the digits 0...9 the format's numbers use.
    func digits() -> [[UInt8]]? {
        guard let numbers = swift_udat_getNumberFormat(format) else { return nil }
        return ICUDigits.read(UnsafeMutablePointer(mutating: numbers))
    }

    /// The text ICU writes for `field` at `seconds` since 1970 (UTC).
    func text(of field: UDateFormatField, at seconds: Double) -> String? {
        let fill = { (buffer: UnsafeMutablePointer<UChar>, capacity: Int32, status: inout UErrorCode) -> Int32 in
            swift_udat_formatForFields(self.format, seconds * 1000, buffer, capacity, self.positions, &status)
        }
        return ICUText.output(fill) { units -> String? in
            var start: Int32 = 0
            var end: Int32 = 0
            while true {
                let raw = swift_ufieldpositer_next(positions, &start, &end)
                guard raw >= 0 else { return nil }
                if UInt32(raw) == field.rawValue, start < end, Int(end) <= units.count {
                    return ICUText.string(UnsafeBufferPointer(rebasing: units[Int(start)..<Int(end)]))
                }
            }
        } ?? nil
    }

    /// The instants (UTC seconds) whose names a field kind needs, in the order the compiled format
    /// indexes them: weekdays from Sunday, months from January, AM then PM, and per hour a day
    /// period exactly on the hour, then one at half past.
    static func instants(for kind: CompiledDateFormat.Kind) -> [Double]? {
        let sunday = 1_767_528_000.0  // 2026-01-04T12:00:00Z, a Sunday
        switch kind {
        case .weekdayName: return (0..<7).map { sunday + Double($0) * 86_400 }
        case .monthName:
            // The 15th of each month of 2026, at noon.
            let starts = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
            return starts.map { 1_767_225_600 + Double($0 + 14) * 86_400 + 43_200 }
        case .amPM: return [1_767_585_600, 1_767_628_800]  // 2026-01-05 06:00 and 18:00
        case .dayPeriod:
            return (0..<24).flatMap { hour in
                let top = 1_767_571_200 + Double(hour) * 3600  // 2026-01-05
                return [top, top + 1830]
            }
        default: return nil
        }
    }
}

/// Reads the digits of an ICU number format's numbering system.
enum ICUDigits {
    static func read(_ format: UnsafeMutablePointer<UNumberFormat?>) -> [[UInt8]]? {
        let symbols: [UNumberFormatSymbol] = [
            UNUM_ZERO_DIGIT_SYMBOL, UNUM_ONE_DIGIT_SYMBOL, UNUM_TWO_DIGIT_SYMBOL, UNUM_THREE_DIGIT_SYMBOL,
            UNUM_FOUR_DIGIT_SYMBOL, UNUM_FIVE_DIGIT_SYMBOL, UNUM_SIX_DIGIT_SYMBOL, UNUM_SEVEN_DIGIT_SYMBOL,
            UNUM_EIGHT_DIGIT_SYMBOL, UNUM_NINE_DIGIT_SYMBOL,
        ]
        var digits: [[UInt8]] = []
        for symbol in symbols {
            guard
                let text = ICUText.read({ buffer, capacity, status in
                    swift_unum_getSymbol(format, symbol, buffer, capacity, &status)
                }), text.unicodeScalars.count == 1
            else { return nil }
            digits.append(Array(text.utf8))
        }
        return digits
    }
}
