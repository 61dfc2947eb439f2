import Foundation

/// A recovering parser for the OpenStep text form of `.strings` files, over decoded UTF-8 bytes.
///
/// It follows Core Foundation's old-style property-list reader (swift-foundation
/// `OpenStepPlist.swift`) for what is accepted, and differs where that reader gives up: a syntax error
/// is reported with line and column, and parsing resumes after the next `;` or line break.
struct OpenStepStringsParser {
    let utf8: [UInt8]
    var position = 0
    var collector: DiagnosticCollector
    private(set) var entries: [StringsFileEntry] = []
    /// The content of the last comment since the previous entry.
    private var commentRange: Range<Int>?
    private var firstLocations: [String: SourceLocation] = [:]
    /// Reused buffer for strings with escapes.
    private var scratch: [UInt8] = []

    init(utf8: [UInt8], collector: DiagnosticCollector) {
        self.utf8 = utf8
        self.collector = collector
    }

    mutating func parse() {
        // A second byte-order mark (the first was removed by decoding) is taken for white space.
        while ByteScanning.hasPrefix("\u{FEFF}", in: utf8, at: position) {
            position += 3
        }
        while true {
            skipWhitespaceAndComments(recordingComments: true)
            guard position < utf8.count else { return }
            parseEntry()
        }
    }

    // MARK: Entries

    private mutating func parseEntry() {
        let comment = commentRange
        commentRange = nil
        let keyStart = position
        let location = collector.location(at: keyStart)
        guard let key = parseString(role: "a key") else {
            resynchronize(from: position)
            return
        }
        skipWhitespaceAndComments(recordingComments: false)
        guard position < utf8.count else {
            collector.syntaxError("expected '=' or ';' after the key, but the file ends", at: position, key: key)
            return
        }
        switch utf8[position] {
        case UInt8(ascii: ";"):
            position += 1
            append(key: key, value: key, location: location, comment: comment)
        case UInt8(ascii: "="):
            position += 1
            skipWhitespaceAndComments(recordingComments: false)
            guard let value = parseString(role: "a value") else {
                resynchronize(from: position)
                return
            }
            let valueEnd = position
            // Comments are recorded here in case the ';' is missing and they belong to the next entry.
            skipWhitespaceAndComments(recordingComments: true)
            if position < utf8.count && utf8[position] == UInt8(ascii: ";") {
                position += 1
                commentRange = nil
                append(key: key, value: value, location: location, comment: comment)
                return
            }
            // The entry is complete but for its ';': keep it, and carry on at the next line if the
            // white space after the value already crossed one.
            collector.syntaxError(
                "expected ';' after the value, but found \(ByteScanning.describeCharacter(in: utf8, at: position))",
                at: valueEnd,
                key: key
            )
            append(key: key, value: value, location: location, comment: comment)
            if !utf8[valueEnd..<position].contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                commentRange = nil
                resynchronize(from: position)
            }
        default:
            collector.syntaxError(
                "expected '=' or ';' after the key, but found "
                    + ByteScanning.describeCharacter(in: utf8, at: position),
                at: position,
                key: key
            )
            resynchronize(from: position)
        }
    }

    private mutating func append(key: String, value: String, location: SourceLocation, comment: Range<Int>?) {
        entries.append(
            StringsFileEntry(key: key, value: value, location: location, comment: comment.map(trimmedText))
        )
        if let first = firstLocations[key] {
            collector.report(
                .warning,
                .duplicateKey,
                location: location,
                key: key,
                message: "the key is already defined at \(first); the last value wins"
            )
        } else {
            firstLocations[key] = location
        }
    }

    /// Moves past the next `;` or line break at or after `offset`, whichever comes first.
    private mutating func resynchronize(from offset: Int) {
        position = offset
        while position < utf8.count {
            let byte = utf8[position]
            position += 1
            if byte == UInt8(ascii: ";") || byte == 0x0A || byte == 0x0D {
                return
            }
        }
    }

    // MARK: Strings

    /// Reads a quoted or unquoted string; `nil` after reporting an error, with `position` where
    /// resynchronising should start.
    private mutating func parseString(role: String) -> String? {
        guard position < utf8.count else {
            collector.syntaxError("expected \(role), but the file ends", at: position)
            return nil
        }
        let byte = utf8[position]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return parseQuotedString(quote: byte)
        }
        if Self.isUnquotedCharacter(byte) {
            let start = position
            while position < utf8.count && Self.isUnquotedCharacter(utf8[position]) {
                position += 1
            }
            return String(decoding: utf8[start..<position], as: UTF8.self)
        }
        collector.syntaxError(
            "expected \(role), but found \(ByteScanning.describeCharacter(in: utf8, at: position))",
            at: position
        )
        return nil
    }

    private mutating func parseQuotedString(quote: UInt8) -> String? {
        let start = position
        position += 1
        var runStart = position
        var hasEscapes = false
        scratch.removeAll(keepingCapacity: true)
        while position < utf8.count {
            let byte = utf8[position]
            if byte == quote {
                let result: String
                if hasEscapes {
                    scratch.append(contentsOf: utf8[runStart..<position])
                    result = String(decoding: scratch, as: UTF8.self)
                } else {
                    result = String(decoding: utf8[runStart..<position], as: UTF8.self)
                }
                position += 1
                return result
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                scratch.append(contentsOf: utf8[runStart..<position])
                position += 1
                guard position < utf8.count else { break }
                runStart = decodeEscape()
                continue
            }
            position += 1
        }
        collector.syntaxError(
            "unterminated string: no closing \(ByteScanning.describeCharacter(in: utf8, at: start))"
                + " before the end of the file",
            at: start
        )
        position = start + 1
        return nil
    }

    /// Decodes the escape whose backslash is just before `position` into `scratch`.
    ///
    /// - Returns: Where the next run of plain text starts: after the escape, or at the escaped
    ///   character itself for an escape that stands for its character.
    private mutating func decodeEscape() -> Int {
        let escapeStart = position - 1
        let byte = utf8[position]
        position += 1
        switch byte {
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "a"): scratch.append(0x07)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "v"): scratch.append(0x0B)
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            // Up to three octal digits; like Core Foundation, the value is kept to a byte and read as
            // NeXTSTEP Latin, which is ASCII below 128.
            var value = byte - UInt8(ascii: "0")
            var digits = 1
            while digits < 3 && position < utf8.count
                && utf8[position] >= UInt8(ascii: "0") && utf8[position] <= UInt8(ascii: "7")
            {
                value = value &<< 3 &+ (utf8[position] - UInt8(ascii: "0"))
                position += 1
                digits += 1
            }
            scratch.append(contentsOf: Self.nextStepCharacter(value).utf8)
        case UInt8(ascii: "U"), UInt8(ascii: "u"):
            guard let unit = readHexadecimalUnit() else {
                collector.syntaxError(
                    "'\\\(Character(Unicode.Scalar(byte)))' must be followed by hexadecimal digits",
                    at: escapeStart
                )
                return position - 1
            }
            appendUTF16Unit(unit, escapeStart: escapeStart)
        default:
            // \" \' \\ and any unknown escape stand for the character itself.
            return position - 1
        }
        return position
    }

    /// Reads up to four hexadecimal digits at `position`; `nil` when there is none.
    private mutating func readHexadecimalUnit() -> UInt16? {
        var value: UInt16 = 0
        var digits = 0
        while digits < 4 && position < utf8.count, let digit = XMLPropertyListParser.hexadecimalValue(utf8[position]) {
            value = value << 4 | UInt16(digit)
            position += 1
            digits += 1
        }
        return digits == 0 ? nil : value
    }

    /// Appends the UTF-16 code unit of a `\U` escape, pairing a high surrogate with a following `\U` low one.
    private mutating func appendUTF16Unit(_ unit: UInt16, escapeStart: Int) {
        if UTF16.isLeadSurrogate(unit) {
            let resume = position
            if position + 1 < utf8.count && utf8[position] == UInt8(ascii: "\\")
                && (utf8[position + 1] == UInt8(ascii: "U") || utf8[position + 1] == UInt8(ascii: "u"))
            {
                position += 2
                if let low = readHexadecimalUnit(), UTF16.isTrailSurrogate(low) {
                    let value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                    if let scalar = Unicode.Scalar(value) {
                        scratch.append(contentsOf: scalar.utf8)
                        return
                    }
                }
            }
            position = resume
        }
        if let scalar = Unicode.Scalar(unit) {
            scratch.append(contentsOf: scalar.utf8)
            return
        }
        collector.syntaxError(
            "unpaired UTF-16 surrogate \\U\(String(unit, radix: 16, uppercase: true)); it was replaced with U+FFFD",
            at: escapeStart
        )
        scratch.append(contentsOf: ("\u{FFFD}" as Unicode.Scalar).utf8)
    }

    /// The character a byte stands for in NeXTSTEP Latin, the encoding of octal escapes.
    private static func nextStepCharacter(_ byte: UInt8) -> Unicode.Scalar {
        if byte < 0x80 {
            return Unicode.Scalar(byte)
        }
        return String(bytes: [byte], encoding: .nextstep)?.unicodeScalars.first ?? "\u{FFFD}"
    }

    private static func isUnquotedCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
            UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    // MARK: White space and comments

    /// Skips white space (including U+2028 and U+2029) and comments; with `recordingComments`, the
    /// last comment is kept for the next entry.
    private mutating func skipWhitespaceAndComments(recordingComments: Bool) {
        while position < utf8.count {
            let byte = utf8[position]
            switch byte {
            case 0x09...0x0D, 0x20:
                position += 1
            case 0xE2 where isLineOrParagraphSeparator(at: position):
                position += 3
            case UInt8(ascii: "/") where position + 1 < utf8.count && utf8[position + 1] == UInt8(ascii: "*"):
                let start = position
                let content: Range<Int>
                if let end = ByteScanning.find("*/", in: utf8, from: position + 2) {
                    content = (start + 2)..<end
                    position = end + 2
                } else {
                    collector.syntaxError("unterminated comment: no closing '*/' before the end of the file", at: start)
                    content = (start + 2)..<utf8.count
                    position = utf8.count
                }
                if recordingComments { commentRange = content }
            case UInt8(ascii: "/") where position + 1 < utf8.count && utf8[position + 1] == UInt8(ascii: "/"):
                let start = position + 2
                position = start
                while position < utf8.count && utf8[position] != 0x0A && utf8[position] != 0x0D
                    && !isLineOrParagraphSeparator(at: position)
                {
                    position += 1
                }
                if recordingComments { commentRange = start..<position }
            default:
                return
            }
        }
    }

    private func isLineOrParagraphSeparator(at offset: Int) -> Bool {
        offset + 2 < utf8.count && utf8[offset] == 0xE2 && utf8[offset + 1] == 0x80
            && (utf8[offset + 2] == 0xA8 || utf8[offset + 2] == 0xA9)
    }

    /// The text in `range`, without leading and trailing white space.
    private func trimmedText(_ range: Range<Int>) -> String {
        var start = range.lowerBound
        var end = range.upperBound
        while start < end && (utf8[start] == 0x20 || (0x09...0x0D).contains(utf8[start])) { start += 1 }
        while end > start && (utf8[end - 1] == 0x20 || (0x09...0x0D).contains(utf8[end - 1])) { end -= 1 }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
