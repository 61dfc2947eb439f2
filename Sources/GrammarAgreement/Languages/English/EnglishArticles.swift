/// *a* or *an* by the sound of the next word, not its spelling.
enum EnglishArticles {
    /// Beginnings spelled with a vowel but said with a consonant (*a unicorn*, *a European*, *a one-off*).
    private static let consonantSoundPrefixes = [
        "uni", "use", "usu", "uti", "ute", "uku", "ure", "uri", "uro", "ura", "uvu", "ubi", "utop",
        "eu", "ewe", "one", "once", "ouija",
    ]
    /// Beginnings spelled with *h* but said with a vowel (*an hour*, *an herb* as in the US).
    private static let silentHPrefixes = ["hour", "honest", "honor", "honour", "heir", "herb"]
    /// Letters whose names start with a vowel sound (*an MBA*, *an FBI*, *an X-ray*).
    private static let vowelSoundLetters: Set<Character> = ["a", "e", "f", "h", "i", "l", "m", "n", "o", "r", "s", "x"]
    /// Words starting *un-* that are still *a* (*a union*, *a unit*): covered by `uni`.
    /// *un-* + consonant is *an* (*an unusual*, *an unsalted*).

    /// The article before `word` as shown (any case): `"a"` or `"an"`.
    static func article(before word: String, lexicon: Lexicon) -> String {
        let lower = word.lowercased()
        if let article = lexicon.entry(lower)?.article { return article }
        if let first = word.first, first.isNumber { return numberArticle(word) }
        let leading = String(word.prefix { $0 != "-" })
        if isInitialism(leading), let first = lower.first { return vowelSoundLetters.contains(first) ? "an" : "a" }
        guard let first = lower.unicodeScalars.first else { return "a" }
        if EnglishNouns.isVowel(first) {
            return consonantSoundPrefixes.contains { lower.startsWith($0) } ? "a" : "an"
        }
        if first == "h" {
            // hors d'oeuvre, not horse or horseradish.
            return lower == "hors" || silentHPrefixes.contains(where: { lower.startsWith($0) }) ? "an" : "a"
        }
        return "a"
    }

    /// *an 8*, *an 11*, *an 18*, *an 80*; otherwise *a*.
    private static func numberArticle(_ word: String) -> String {
        let digits = word.prefix(while: { $0.isNumber || $0 == "," })
        if digits.hasPrefix("8") { return "an" }
        let plain = digits.filter(\.isNumber)
        if plain.startsWith("11") || plain.startsWith("18") {
            // eleven, eighteen, eleven thousand…: the digits come in groups of 2, 5, 8.
            if plain.count % 3 == 2 { return "an" }
        }
        return "a"
    }

    /// All capitals and short, or without vowels: read letter by letter (*BLT*, *MBA*).
    private static func isInitialism(_ word: String) -> Bool {
        let letters = word.filter(\.isLetter)
        guard letters.count >= 1, letters.allSatisfy(\.isUppercase) else { return false }
        return letters.count <= 3 || !letters.lowercased().contains(where: { "aeiouy".contains($0) })
    }

    /// `article` written in the case of `original` (*A* → *An*, *AN* → *A*).
    static func cased(_ article: String, like original: String) -> String {
        switch CasePattern(of: original) {
        case .upper where original.count > 1: article.uppercased()
        case .upper, .capitalized: article.prefix(1).uppercased() + article.dropFirst()
        case .lower, .mixed: article
        }
    }
}
