/// CommonMark entity and numeric character references: `&amp;`, `&#35;`, `&#x22;`.
enum EntityReference {
    /// The text of the reference starting at `start` (an `&`) and the index after its `;`.
    static func resolve(_ input: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        var index = start + 1
        guard index < input.count else { return nil }
        if input[index] == "#" {
            index += 1
            guard index < input.count else { return nil }
            let isHex = input[index] == "x" || input[index] == "X"
            if isHex { index += 1 }
            let digitsStart = index
            var value: UInt32 = 0
            while index < input.count, index - digitsStart < (isHex ? 6 : 7) {
                guard let digit = digitValue(input[index], hex: isHex) else { break }
                value = value * (isHex ? 16 : 10) + digit
                index += 1
            }
            guard index > digitsStart, index < input.count, input[index] == ";" else { return nil }
            // Zero, surrogates and values beyond Unicode become the replacement character.
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            return (String(scalar ?? "\u{FFFD}"), index + 1)
        }
        let nameStart = index
        while index < input.count, index - nameStart <= 32, MarkdownCharacters.isASCIIAlphanumeric(input[index]) {
            index += 1
        }
        guard index > nameStart, index < input.count, input[index] == ";" else { return nil }
        let name = Substring(String(String.UnicodeScalarView(input[nameStart..<index])))
        guard let text = HTMLEntities.table[name] else { return nil }
        return (text, index + 1)
    }

    private static func digitValue(_ scalar: Unicode.Scalar, hex: Bool) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "a"..."f" where hex: return scalar.value - 0x61 + 10
        case "A"..."F" where hex: return scalar.value - 0x41 + 10
        default: return nil
        }
    }
}

/// CommonMark autolinks: `<scheme:rest>` and `<user@example.com>`.
enum Autolink {
    /// The destination, the link text and the index after `>`, for an autolink at `start` (a `<`).
    static func match(_ input: [Unicode.Scalar], at start: Int) -> (String, String, Int)? {
        uri(input, at: start) ?? email(input, at: start)
    }

    private static func uri(_ input: [Unicode.Scalar], at start: Int) -> (String, String, Int)? {
        var index = start + 1
        let schemeStart = index
        guard index < input.count, input[index].properties.isASCIIHexDigit || isASCIILetter(input[index]) else {
            return nil
        }
        guard isASCIILetter(input[index]) else { return nil }
        index += 1
        while index < input.count, index - schemeStart < 32,
            MarkdownCharacters.isASCIIAlphanumeric(input[index]) || "+.-".unicodeScalars.contains(input[index])
        {
            index += 1
        }
        let schemeLength = index - schemeStart
        guard schemeLength >= 2, schemeLength <= 32, index < input.count, input[index] == ":" else { return nil }
        index += 1
        while index < input.count {
            let scalar = input[index]
            if scalar == ">" {
                let text = String(String.UnicodeScalarView(input[(start + 1)..<index]))
                return (text, text, index + 1)
            }
            if scalar == "<" || scalar.value <= 0x20 || scalar.value == 0x7F { return nil }
            index += 1
        }
        return nil
    }

    private static func email(_ input: [Unicode.Scalar], at start: Int) -> (String, String, Int)? {
        var index = start + 1
        let localStart = index
        let localCharacters = ".!#$%&'*+/=?^_`{|}~-".unicodeScalars
        while index < input.count,
            MarkdownCharacters.isASCIIAlphanumeric(input[index]) || localCharacters.contains(input[index])
        {
            index += 1
        }
        guard index > localStart, index < input.count, input[index] == "@" else { return nil }
        index += 1
        var labels = 0
        while true {
            let labelStart = index
            while index < input.count, index - labelStart < 63,
                MarkdownCharacters.isASCIIAlphanumeric(input[index]) || input[index] == "-"
            {
                index += 1
            }
            let label = input[labelStart..<index]
            guard !label.isEmpty, label.first != "-", label.last != "-" else { return nil }
            labels += 1
            guard index < input.count else { return nil }
            if input[index] == "." {
                index += 1
                continue
            }
            guard input[index] == ">" else { return nil }
            let text = String(String.UnicodeScalarView(input[(start + 1)..<index]))
            return ("mailto:" + text, text, index + 1)
        }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z": true
        default: false
        }
    }
}
