/// Text that a translator meant as a format specifier but that is not one, so it is shown as
/// written: a specifier typed with another percent sign (`٪ d`, Arabic keyboards), or a `$2`
/// placeholder left over from another format.
enum LookalikeSpecifiers {
    /// A specifier written with a percent sign that is not U+0025.
    struct PercentLookalike: Hashable {
        /// The text as written, such as `٪ d`.
        var text: String
        /// Which sign, for the message: `'٪' (U+066A ARABIC PERCENT SIGN)`.
        var sign: String
    }

    /// A `$N` placeholder.
    struct DollarPlaceholder: Hashable {
        var text: String
        /// The 1-based argument it names.
        var argument: Int
    }

    /// Percent signs that are not `%` — U+066A ARABIC PERCENT SIGN, U+FF05 FULLWIDTH PERCENT SIGN,
    /// U+FE6A SMALL PERCENT SIGN — followed by at most one space, an optional `N$`, a length
    /// modifier and a conversion (`٪ d`, `％@`, `٪1$lld`).
    static func percentSigns(in text: String) -> [PercentLookalike] {
        let names: [Unicode.Scalar: String] = [
            "\u{066A}": "ARABIC PERCENT SIGN", "\u{FF05}": "FULLWIDTH PERCENT SIGN", "\u{FE6A}": "SMALL PERCENT SIGN",
        ]
        let scalars = Array(text.unicodeScalars)
        var found: [PercentLookalike] = []
        for (start, scalar) in scalars.enumerated() {
            guard let name = names[scalar], let end = conversionEnd(scalars, after: start) else { continue }
            let written = String(String.UnicodeScalarView(scalars[start..<end]))
            var code = String(scalar.value, radix: 16, uppercase: true)
            code = String(repeating: "0", count: max(0, 4 - code.count)) + code
            found.append(PercentLookalike(text: written, sign: "'\(scalar)' (U+\(code) \(name))"))
        }
        return found
    }

    /// The end of `[ ][N$](hh|h|ll|l|q|z|t|j)?conversion` after `start`, or `nil` when none follows.
    private static func conversionEnd(_ scalars: [Unicode.Scalar], after start: Int) -> Int? {
        var index = start + 1
        if index < scalars.count, scalars[index] == " " { index += 1 }
        let digitsStart = index
        while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
        if index > digitsStart {
            guard index < scalars.count, scalars[index] == "$" else { return nil }
            index += 1
        }
        for modifier in ["ll", "hh", "l", "h", "q", "z", "t", "j"] {
            let modifierScalars = Array(modifier.unicodeScalars)
            if scalars[index...].starts(with: modifierScalars) {
                index += modifierScalars.count
                break
            }
        }
        guard index < scalars.count, "@diufeEgGxXsc".unicodeScalars.contains(scalars[index]) else { return nil }
        // "٪ day" is a word after a sign, not a specifier: the conversion must end the word.
        let next = index + 1
        if next < scalars.count, scalars[next].properties.isAlphabetic { return nil }
        return next
    }

    /// `$1`…`$99` not preceded by `%`, a letter or a digit, and not followed by another digit:
    /// "hat $2 Fotos", but not `%2$@` or "US$20". The caller decides which are placeholders
    /// (within the string's arguments, or not in the source's text either).
    static func dollarPlaceholders(in text: String) -> [DollarPlaceholder] {
        let scalars = Array(text.unicodeScalars)
        var found: [DollarPlaceholder] = []
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "$" else { continue }
            if index > 0,
                scalars[index - 1] == "%" || scalars[index - 1].properties.isAlphabetic
                    || ("0"..."9").contains(scalars[index - 1])
            {
                continue
            }
            var end = index + 1
            while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
            guard end > index + 1, end - index <= 3,
                let number = Int(String(String.UnicodeScalarView(scalars[(index + 1)..<end]))), number >= 1
            else { continue }
            found.append(
                DollarPlaceholder(text: String(String.UnicodeScalarView(scalars[index..<end])), argument: number)
            )
        }
        return found
    }
}
