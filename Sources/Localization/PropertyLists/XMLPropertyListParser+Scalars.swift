import Foundation

extension XMLPropertyListParser {
    /// The content without leading and trailing XML white space, as a range of `text.bytes`.
    private func trimmedRange(_ text: TextContent) -> Range<Int> {
        var start = 0
        var end = text.bytes.count
        while start < end && ByteScanning.isXMLWhitespace(text.bytes[start]) { start += 1 }
        while end > start && ByteScanning.isXMLWhitespace(text.bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// `<integer>`: optional sign, then decimal digits or `0x` and hexadecimal digits.
    mutating func integerValue(of text: TextContent) -> PropertyListValue? {
        let range = trimmedRange(text)
        let written = ByteScanning.excerpt(text.bytes[range])
        guard !range.isEmpty else {
            collector.syntaxError("empty <integer>", at: text.offset)
            return nil
        }
        var index = range.lowerBound
        var isNegative = false
        if text.bytes[index] == UInt8(ascii: "-") || text.bytes[index] == UInt8(ascii: "+") {
            isNegative = text.bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var radix: UInt64 = 10
        if index + 1 < range.upperBound && text.bytes[index] == UInt8(ascii: "0")
            && (text.bytes[index + 1] == UInt8(ascii: "x") || text.bytes[index + 1] == UInt8(ascii: "X"))
        {
            radix = 16
            index += 2
        }
        guard index < range.upperBound else {
            collector.syntaxError("invalid integer '\(written)'", at: text.sourceOffset(of: range.lowerBound))
            return nil
        }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < range.upperBound {
            guard let digit = Self.hexadecimalValue(text.bytes[index]).map(UInt64.init), digit < radix else {
                collector.syntaxError("invalid integer '\(written)'", at: text.sourceOffset(of: index))
                return nil
            }
            let (shifted, multiplyOverflow) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, addOverflow) = shifted.addingReportingOverflow(digit)
            overflow = overflow || multiplyOverflow || addOverflow
            magnitude = sum
            index += 1
        }
        let limit = isNegative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard !overflow && magnitude <= limit else {
            collector.syntaxError(
                "the integer '\(written)' does not fit in a signed 64-bit integer",
                at: text.sourceOffset(of: range.lowerBound)
            )
            return nil
        }
        return .integer(isNegative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude))
    }

    /// `<real>`: anything Swift's `Double(_:)` accepts, `nan` and `+infinity` included.
    mutating func realValue(of text: TextContent) -> PropertyListValue? {
        let range = trimmedRange(text)
        let written = String(decoding: text.bytes[range], as: UTF8.self)
        guard let value = Double(written) else {
            collector.syntaxError(
                range.isEmpty ? "empty <real>" : "invalid real number '\(ByteScanning.excerpt(text.bytes[range]))'",
                at: text.sourceOffset(of: range.lowerBound)
            )
            return nil
        }
        return .real(value)
    }

    /// `<date>`: `YYYY-MM-DDTHH:MM:SSZ`, optionally with a fraction of a second before the `Z`.
    mutating func dateValue(of text: TextContent) -> PropertyListValue? {
        let range = trimmedRange(text)
        let bytes = Array(text.bytes[range])
        guard let date = Self.parseISO8601(bytes) else {
            collector.syntaxError(
                "invalid date '\(ByteScanning.excerpt(text.bytes[range]))'; expected YYYY-MM-DDTHH:MM:SSZ",
                at: text.sourceOffset(of: range.lowerBound)
            )
            return nil
        }
        return .date(date)
    }

    private static func parseISO8601(_ bytes: [UInt8]) -> Date? {
        // 0123456789012345678 9
        // YYYY-MM-DDTHH:MM:SS[.fff]Z
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        let isLeapYear = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthLengths = [31, isLeapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...monthLengths[month - 1]).contains(day) else { return nil }

        var fraction = 0.0
        if bytes.count > 20 {
            // A fraction: '.', at least one digit, then the 'Z'.
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, let digits = number(20..<(bytes.count - 1)) else {
                return nil
            }
            guard bytes.count - 21 <= 9 else { return nil }
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        }

        let seconds =
            Double(daysSince1970(year: year, month: month, day: day)) * 86_400
            + Double(hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `<data>`: base64, with white space anywhere and the `=` padding optional.
    mutating func dataValue(of text: TextContent) -> PropertyListValue? {
        var output: [UInt8] = []
        output.reserveCapacity(text.bytes.count * 3 / 4)
        var accumulator: UInt32 = 0
        var sextets = 0
        var sawPadding = false
        for index in text.bytes.indices {
            let byte = text.bytes[index]
            if ByteScanning.isXMLWhitespace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                sawPadding = true
                continue
            }
            guard !sawPadding, let value = Self.base64Value(byte) else {
                let what =
                    sawPadding
                    ? "\(ByteScanning.describeCharacter(in: text.bytes, at: index)) after '=' padding"
                    : ByteScanning.describeCharacter(in: text.bytes, at: index)
                collector.syntaxError("invalid base64 in <data>: \(what)", at: text.sourceOffset(of: index))
                return nil
            }
            accumulator = accumulator << 6 | value
            sextets += 1
            if sextets == 4 {
                output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                sextets = 0
            }
        }
        switch sextets {
        case 1:
            collector.syntaxError(
                "invalid base64 in <data>: it ends with a single character of a group of four",
                at: text.sourceOffset(of: text.bytes.count)
            )
            return nil
        case 2:
            output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default:
            break
        }
        return .data(output)
    }

    private static func base64Value(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
