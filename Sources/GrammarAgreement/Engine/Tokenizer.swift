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
        hints: ArraySlice<RunAgreement>,
        offset: Int,
        arguments: ArraySlice<ArgumentRecord>
    ) -> Phrase {
        var words: [Word] = []
        words.reserveCapacity(8)
        var wordRuns: [Int] = []
        var runStart = offset
        var phraseHint: Morphology?
        let hasHints = hints.contains { $0.morphology != nil }
        for (runIndex, text) in texts.enumerated() {
            let before = words.count
            scan(text, start: runStart, arguments: arguments, into: &words)
            if hasHints { wordRuns.append(contentsOf: repeatElement(runIndex, count: words.count - before)) }
            runStart += text.utf8.count
        }
        guard hasHints else { return Phrase(words: words, hint: nil) }
        // A morphology attribute on one word describes that word; on several, the phrase's head.
        for (runIndex, run) in hints.enumerated() {
            guard let hint = run.morphology else { continue }
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
        scan(text, start: 0, arguments: [][...], into: &words)
        return Phrase(words: words, hint: nil)
    }

    /// Scans UTF-8 bytes: ASCII letters and digits directly, other scalars by their Unicode
    /// properties; each word is sliced from the bytes once.
    private static func scan(
        _ text: String,
        start: Int,
        arguments: ArraySlice<ArgumentRecord>,
        into words: inout [Word]
    ) {
        var text = text
        text.withUTF8 { bytes in
            scan(bytes, start: start, arguments: arguments, into: &words)
        }
    }

    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>,
        start: Int,
        arguments: ArraySlice<ArgumentRecord>,
        into words: inout [Word]
    ) {
        let end = start + bytes.count
        var wordStart = -1
        var wordEnd = 0
        var lastIsDigit = false
        var index = 0

        func finish() {
            guard wordStart >= 0 else { return }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<wordEnd]), as: UTF8.self)
            words.append(makeWord(word, range: (start + wordStart)..<(start + wordEnd), arguments))
            wordStart = -1
        }

        while index < bytes.count {
            // Numeric arguments are one number each, whatever their formatted text (١٬٢٣٤, 1.000).
            if !arguments.isEmpty, let number = numericArgument(startingAt: start + index, in: arguments, before: end) {
                finish()
                let upper = index + number.utf8Range.count
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<upper]), as: UTF8.self)
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
                lastIsDigit = false
                continue
            }
            let (isWord, isJoiner, isDigit, width) = classify(bytes, at: index, afterDigit: lastIsDigit)
            let next = min(bytes.count, index + width)
            if isWord {
                if wordStart < 0 { wordStart = index }
                wordEnd = next
            } else if !(isJoiner && wordStart >= 0 && wordEnd == index && next < bytes.count
                && classify(bytes, at: next, afterDigit: false).isWord)
            {
                finish()
            }
            lastIsDigit = isDigit
            index = next
        }
        finish()
    }

    /// What the scalar at `index` is: part of a word, a joiner (apostrophe, hyphen; `.`/`,`
    /// after a digit), a digit; and its width in bytes.
    @inline(__always)
    private static func classify(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, afterDigit: Bool)
        -> (isWord: Bool, isJoiner: Bool, isDigit: Bool, width: Int)
    {
        let byte = bytes[index]
        if byte < 0x80 {
            let isDigit = (0x30...0x39).contains(byte)
            let isWord = isDigit || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
            let isJoiner =
                byte == UInt8(ascii: "'") || byte == UInt8(ascii: "-")
                || ((byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) && afterDigit)
            return (isWord, isJoiner, isDigit, 1)
        }
        let width = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard index + width <= bytes.count else { return (false, false, false, 1) }
        var value = UInt32(byte) & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07)
        for offset in 1..<width { value = value << 6 | (UInt32(bytes[index + offset]) & 0x3F) }
        guard let scalar = Unicode.Scalar(value) else { return (false, false, false, width) }
        let isJoiner = scalar == "\u{2019}" || scalar == "\u{2010}" || scalar == "\u{2011}"
        return (isWordScalar(scalar), isJoiner, false, width)
    }

    /// The numeric argument whose text starts at `offset`, if any.
    @inline(__always)
    private static func numericArgument(
        startingAt offset: Int,
        in arguments: ArraySlice<ArgumentRecord>,
        before end: Int
    )
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

    private static func makeWord(_ text: String, range: Range<Int>, _ arguments: ArraySlice<ArgumentRecord>) -> Word {
        let argument = arguments.first { $0.utf8Range.contains(range.lowerBound) }?.argument
        let number = text.utf8.first.map { (0x30...0x39).contains($0) } == true ? numericLiteral(text) : nil
        return Word(
            text: text,
            lower: number == nil ? text.fastLowercased : text,
            utf8Range: range,
            number: number,
            argument: argument
        )
    }

    /// Digits with `.`/`,` separators, read the way people write them: a separator followed by
    /// exactly three digits, or repeated, groups thousands (`1,000`, `1.000.000`); with both kinds,
    /// the last one is the decimal point (`2,500.50`, `2.500,50`); otherwise it is the decimal
    /// point (`1.5`, `1,5`).
    static func numericLiteral(_ text: String) -> FormatArgument? {
        var groups: [Substring] = []
        var separators: [Character] = []
        var current = text[...]
        while let index = current.firstIndex(where: { $0 == "." || $0 == "," }) {
            groups.append(current[..<index])
            separators.append(current[index])
            current = current[current.index(after: index)...]
        }
        groups.append(current)
        guard groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        guard let last = separators.last else { return FormatArgument(parsing: text) }
        let decimalSeparator: Character?
        if Set(separators).count == 2 {
            decimalSeparator = last
            guard separators.dropLast().allSatisfy({ $0 != last }) else { return nil }
        } else if separators.count == 1, groups[1].count != 3 {
            decimalSeparator = last
        } else {
            decimalSeparator = nil  // 1,000 or 1.000.000
        }
        let integerGroups = decimalSeparator == nil ? groups : Array(groups.dropLast())
        // Thousands groups after the first have three digits.
        guard integerGroups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
        let integer = integerGroups.joined()
        return FormatArgument(parsing: decimalSeparator == nil ? integer : integer + "." + (groups.last ?? ""))
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
