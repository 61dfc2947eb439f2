import Foundation

/// What grammars may consult and report while inflecting one document: the text around a span,
/// and warnings (each said once per document).
struct AgreementContext {
    private let texts: [String]
    private var plain: [UInt8]?
    private(set) var warnings: [AgreementWarning] = []

    init(texts: [String]) {
        self.texts = texts
    }

    /// Records a warning unless the same one was already given.
    mutating func warn(_ warning: AgreementWarning) {
        if !warnings.contains(warning) { warnings.append(warning) }
    }

    /// The word ending one space before `offset`, and its range: the article before a span.
    ///
    /// `endingIn` lists the lowercase ASCII letters the word may end with (the grammar's articles and
    /// prepositions), so most spans are dismissed after reading two bytes.
    mutating func word(before offset: Int, endingIn letters: [UInt8]) -> (text: String, utf8Range: Range<Int>)? {
        guard offset >= 2, byte(at: offset - 1) == 0x20, let last = byte(at: offset - 2),
            letters.contains(last | 0x20)
        else { return nil }
        var start = offset - 1
        // Words before a span are short: look byte by byte, without joining the runs.
        while start > 0, let byte = byte(at: start - 1), Self.isWordByte(byte) { start -= 1 }
        guard start < offset - 1 else { return nil }
        // Opening punctuation glued to the word (¿De, «de, ¡Y) is not part of it.
        let found = text(start..<(offset - 1))
        let letters = found.drop { !$0.isLetter }
        let trimmed = found.utf8.count - letters.utf8.count
        guard !letters.isEmpty else { return nil }
        return (String(letters), (start + trimmed)..<(offset - 1))
    }

    /// The word starting one space after `offset` (the noun after a possessive).
    mutating func word(after offset: Int) -> String? {
        let bytes = plainText()
        guard offset < bytes.count, bytes[offset] == 0x20 else { return nil }
        var end = offset + 1
        while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
        guard end > offset + 1 else { return nil }
        return String(decoding: bytes[(offset + 1)..<end], as: UTF8.self)
    }

    /// The text of the clause before `offset`: back to the start of the document or the last
    /// `.`, `!`, `?`, `:`, `;` or newline, trimmed. German reads the case a span takes from it.
    mutating func clause(before offset: Int) -> String {
        let bytes = plainText()
        var start = min(offset, bytes.count)
        while start > 0, !Self.endsClause(bytes[start - 1]) { start -= 1 }
        guard start < offset else { return "" }
        return Self.trimmed(String(decoding: bytes[start..<min(offset, bytes.count)], as: UTF8.self))
    }

    /// The text of the clause after `offset`, up to the next clause end, trimmed.
    mutating func clause(after offset: Int) -> String {
        let bytes = plainText()
        guard offset < bytes.count else { return "" }
        var end = offset
        while end < bytes.count, !Self.endsClause(bytes[end]) { end += 1 }
        return Self.trimmed(String(decoding: bytes[offset..<end], as: UTF8.self))
    }

    /// `text` without the whitespace around it, as `trimmingCharacters(in: .whitespaces)` gives it
    /// (spaces and tabs), without going through `NSString` for the usual ASCII ends.
    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isWhitespace(scalars[start]) { start = scalars.index(after: start) }
        while start < end, isWhitespace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return start == scalars.startIndex && end == scalars.endIndex ? text : String(scalars[start..<end])
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        // The ASCII members of `CharacterSet.whitespaces` (category Zs and the tab) are these two.
        scalar.isASCII ? scalar == " " || scalar == "\t" : CharacterSet.whitespaces.contains(scalar)
    }

    private static func endsClause(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ";"),
            UInt8(ascii: "\n"):
            true
        default:
            false
        }
    }

    /// The byte at `offset`, found in its run without joining the runs (a document of many runs is
    /// joined once instead, so looking around many spans stays linear).
    private mutating func byte(at offset: Int) -> UInt8? {
        guard offset >= 0 else { return nil }
        if plain == nil, texts.count > 8 { _ = plainText() }
        if let plain { return offset < plain.count ? plain[offset] : nil }
        var start = 0
        for text in texts {
            let count = text.utf8.count
            if offset < start + count {
                let utf8 = text.utf8
                return utf8[utf8.index(utf8.startIndex, offsetBy: offset - start)]
            }
            start += count
        }
        return nil
    }

    /// The text at `range` of the document.
    mutating func text(_ range: Range<Int>) -> String {
        if range.count <= 32 {
            var complete = true
            let text = String(unsafeUninitializedCapacity: range.count) { buffer in
                for (index, offset) in range.enumerated() {
                    guard let byte = byte(at: offset) else {
                        complete = false
                        return 0
                    }
                    buffer[index] = byte
                }
                return range.count
            }
            return complete ? text : ""
        }
        let bytes = plainText()
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return "" }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    private mutating func plainText() -> [UInt8] {
        if let plain { return plain }
        var bytes: [UInt8] = []
        for text in texts { bytes.append(contentsOf: text.utf8) }
        plain = bytes
        return bytes
    }

    /// Letters, digits, apostrophes, hyphens and any non-ASCII byte (accented letters).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "'"), UInt8(ascii: "-"):
            true
        default:
            byte >= 0x80
        }
    }
}
