/// Spanish spelling: vowels, syllable nuclei and written accents — what plurals need to move an
/// accent (*limón* → *limones*, *joven* → *jóvenes*).
enum SpanishSpelling {
    static func isVowel(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a", "e", "i", "o", "u", "á", "é", "í", "ó", "ú", "ü": true
        default: false
        }
    }

    /// Open vowels, and accented closed vowels, which also stand alone (*ma-íz*).
    private static func isStrong(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a", "e", "o", "á", "é", "ó", "í", "ú": true
        default: false
        }
    }

    static func hasAccent(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "á", "é", "í", "ó", "ú": true
        default: false
        }
    }

    static func accented(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar {
        case "a": "á"
        case "e": "é"
        case "i": "í"
        case "o": "ó"
        case "u", "ü": "ú"
        default: scalar
        }
    }

    static func unaccented(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar {
        case "á": "a"
        case "é": "e"
        case "í": "i"
        case "ó": "o"
        case "ú": "u"
        default: scalar
        }
    }

    /// The syllable nuclei of a word: runs of vowels, split where two strong vowels meet (hiatus).
    static func nuclei(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var nuclei: [Range<Int>] = []
        var index = 0
        while index < scalars.count {
            guard isVowel(scalars[index]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < scalars.count, isVowel(scalars[end]) {
                // A "u" after "q"/"g" is silent, but joining it changes nothing here.
                if isStrong(scalars[end - 1]), isStrong(scalars[end]) { break }
                end += 1
            }
            nuclei.append(index..<end)
            index = end
        }
        return nuclei
    }

    /// Number of syllables.
    static func syllableCount(_ word: String) -> Int {
        nuclei(Array(word.unicodeScalars)).count
    }

    /// Whether the word carries a written accent.
    static func hasWrittenAccent(_ word: String) -> Bool {
        word.unicodeScalars.contains(where: hasAccent)
    }

    /// Whether the written accent is on the last syllable (*limón*, *inglés*, *café*).
    static func isAccentedOnLastSyllable(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard let last = nuclei(scalars).last else { return false }
        return scalars[last].contains(where: hasAccent)
    }

    /// The word without written accents on its last syllable.
    static func removingFinalAccent(_ word: String) -> String {
        var scalars = Array(word.unicodeScalars)
        guard let last = nuclei(scalars).last else { return word }
        for index in last { scalars[index] = unaccented(scalars[index]) }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The word with an accent on its second-to-last syllable (*joven* → *jóven*, before *-es*).
    static func accentingPenultimateSyllable(_ word: String) -> String {
        var scalars = Array(word.unicodeScalars)
        let found = nuclei(scalars)
        guard found.count >= 2 else { return word }
        let nucleus = found[found.count - 2]
        // The open vowel carries the accent; of two closed vowels, the second (*cuídate*).
        let target = nucleus.first { isStrong(scalars[$0]) } ?? nucleus.last ?? nucleus.lowerBound
        scalars[target] = accented(scalars[target])
        return String(String.UnicodeScalarView(scalars))
    }

    /// The word with the accent on its last syllable (*limon* → *limón*), for singulars of plurals.
    static func accentingLastSyllable(_ word: String) -> String {
        var scalars = Array(word.unicodeScalars)
        guard let nucleus = nuclei(scalars).last else { return word }
        let target = nucleus.first { isStrong(scalars[$0]) } ?? nucleus.last ?? nucleus.lowerBound
        scalars[target] = accented(scalars[target])
        return String(String.UnicodeScalarView(scalars))
    }

    /// The word with every written accent removed (*jóvenes* → *jovenes*).
    static func removingAccents(_ word: String) -> String {
        String(String.UnicodeScalarView(word.unicodeScalars.map(unaccented)))
    }
}
