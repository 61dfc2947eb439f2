import Localization
import RichText

/// A substituted argument: which one, where its text is, and its raw value.
public struct ArgumentRecord: Hashable, Sendable {
    /// 1-based argument number.
    public var argument: Int
    /// Where the argument's text is in the document's plain text.
    public var utf8Range: Range<Int>
    /// The raw value: numbers decide grammatical number from it, never from the formatted text.
    public var value: FormatArgument

    public init(argument: Int, utf8Range: Range<Int>, value: FormatArgument) {
        self.argument = argument
        self.utf8Range = utf8Range
        self.value = value
    }
}

/// Splits a span's text into words and numbers.
enum Tokenizer {
    /// The words of a span made of `texts` (consecutive runs starting at `offset` in the plain
    /// text), with `hints` the runs' morphology attributes.
    static func phrase(
        texts: some Sequence<String>,
        hints: [Morphology?],
        offset: Int,
        arguments: [ArgumentRecord]
    ) -> Phrase {
        var words: [Word] = []
        var wordRuns: [Int] = []
        var runStart = offset
        var phraseHint: Morphology?
        for (runIndex, text) in texts.enumerated() {
            let before = words.count
            scan(text, start: runStart, arguments: arguments, into: &words)
            wordRuns.append(contentsOf: repeatElement(runIndex, count: words.count - before))
            runStart += text.utf8.count
        }
        // A morphology attribute on one word describes that word; on several, the phrase's head.
        for (runIndex, hint) in hints.enumerated() {
            guard let hint else { continue }
            let covered = wordRuns.indices.filter { wordRuns[$0] == runIndex }
            if covered.count == 1 {
                words[covered[0]].hint = hint
            } else if !covered.isEmpty {
                phraseHint = hint
            }
        }
        return Phrase(words: words, hint: phraseHint)
    }

    /// A free-standing phrase (a concept's text), without positions that matter.
    static func phrase(_ text: String) -> Phrase {
        var words: [Word] = []
        scan(text, start: 0, arguments: [], into: &words)
        return Phrase(words: words, hint: nil)
    }

    /// Scans UTF-8 bytes: ASCII letters and digits directly, other scalars by their Unicode
    /// properties; each word is sliced from the text once.
    private static func scan(_ text: String, start: Int, arguments: [ArgumentRecord], into words: inout [Word]) {
        let utf8 = text.utf8
        let end = start + utf8.count
        var wordStart: String.Index?
        var wordStartOffset = 0
        var wordEnd = utf8.startIndex
        var wordEndOffset = 0
        var lastScalarIsDigit = false
        var index = utf8.startIndex
        var offset = start

        func finish() {
            guard let from = wordStart else { return }
            let word = String(Substring(utf8[from..<wordEnd]))
            words.append(makeWord(word, range: wordStartOffset..<wordEndOffset, arguments))
            wordStart = nil
        }

        while index < utf8.endIndex {
            // Numeric arguments are one number each, whatever their formatted text (١٬٢٣٤, 1.000).
            if let number = numericArgument(startingAt: offset, in: arguments, before: end) {
                finish()
                let upper = utf8.index(index, offsetBy: number.utf8Range.count)
                let text = String(Substring(utf8[index..<upper]))
                words.append(
                    Word(
                        text: text,
                        lower: text,
                        utf8Range: number.utf8Range,
                        number: number.value,
                        argument: number.argument
                    )
                )
                index = upper
                offset = number.utf8Range.upperBound
                continue
            }
            let byte = utf8[index]
            let width: Int
            let isWord: Bool
            var isJoiner = false
            var isDigit = false
            if byte < 0x80 {
                width = 1
                isDigit = (0x30...0x39).contains(byte)
                isWord = isDigit || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
                isJoiner =
                    byte == UInt8(ascii: "'") || byte == UInt8(ascii: "-")
                    || ((byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) && lastScalarIsDigit)
            } else {
                width = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let scalarText = text.unicodeScalars[index]
                isWord = isWordScalar(scalarText)
                isJoiner = scalarText == "\u{2019}" || scalarText == "\u{2010}" || scalarText == "\u{2011}"
            }
            let next = utf8.index(index, offsetBy: width, limitedBy: utf8.endIndex) ?? utf8.endIndex
            if isWord {
                if wordStart == nil {
                    wordStart = index
                    wordStartOffset = offset
                }
                wordEnd = next
                wordEndOffset = offset + width
            } else if !(isJoiner && wordStart != nil && wordEnd == index && next < utf8.endIndex
                && isWordByteStart(utf8[next], text: text, at: next))
            {
                finish()
            }
            lastScalarIsDigit = isDigit
            index = next
            offset += width
        }
        finish()
    }

    /// The numeric argument whose text starts at `offset`, if any.
    @inline(__always)
    private static func numericArgument(startingAt offset: Int, in arguments: [ArgumentRecord], before end: Int)
        -> ArgumentRecord?
    {
        for argument in arguments
        where argument.utf8Range.lowerBound == offset && argument.value.isNumber && !argument.utf8Range.isEmpty
            && argument.utf8Range.upperBound <= end
        {
            return argument
        }
        return nil
    }

    /// Whether the scalar starting at `index` continues a word (after a joiner such as `-`).
    private static func isWordByteStart(_ byte: UInt8, text: String, at index: String.Index) -> Bool {
        if byte < 0x80 {
            return (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
        }
        return isWordScalar(text.unicodeScalars[index])
    }

    private static func makeWord(_ text: String, range: Range<Int>, _ arguments: [ArgumentRecord]) -> Word {
        let argument = arguments.first { $0.utf8Range.contains(range.lowerBound) }?.argument
        let number = numericLiteral(text)
        return Word(
            text: text,
            lower: number == nil ? text.fastLowercased : text,
            utf8Range: range,
            number: number,
            argument: argument
        )
    }

    /// Digits with at most one `.` or `,`: a decimal (`1.5`, `1,5`), or grouping when three digits
    /// follow the separator (`1,000`).
    static func numericLiteral(_ text: String) -> FormatArgument? {
        var digits = ""
        var separator: Character?
        var afterSeparator = 0
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                if separator != nil { afterSeparator += 1 }
            } else if (character == "." || character == ","), separator == nil, !digits.isEmpty {
                separator = character
                digits.append(".")
            } else {
                return nil
            }
        }
        guard let first = digits.first, first != ".", digits.last != "." else { return nil }
        if separator != nil, afterSeparator == 3 {
            return FormatArgument(parsing: digits.filter { $0 != "." })
        }
        return FormatArgument(parsing: digits)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value) || (0x30...0x39).contains(value)
        }
        let properties = scalar.properties
        return properties.isAlphabetic || properties.generalCategory == .decimalNumber
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
    }

}

extension FormatArgument {
    /// The plural category's grammatical number: *one* is singular, everything else plural.
    func grammaticalNumber(_ rules: PluralRules) -> Morphology.GrammaticalNumber {
        switch rules.category(for: self) {
        case .one: .singular
        case .zero: .zero
        case .two: .pluralTwo
        case .few: .pluralFew
        case .many: .pluralMany
        case .other: .plural
        }
    }
}
