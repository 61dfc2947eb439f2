/// English nouns as other languages borrow them (*pancake*, *nugget*, *club-sandwich*): the
/// English lexicon says a word is an English noun, the borrowing language's grammar gives its
/// plural. Read only for words the borrowing language's lexicon does not list.
struct EnglishLoans: Sendable {
    private let english: Lexicon?

    /// The bundled English lexicon; none (so no word is a loan) if it cannot be read.
    init() {
        english = try? Lexicon.bundled(language: "en")
    }

    /// Whether `word` (lowercase; a hyphen may stand for the English space, *club-sandwich*) is an
    /// English noun that counts: not a mass noun, not written only in the plural.
    func isCountableNoun(_ word: String) -> Bool {
        guard let english else { return false }
        let entry = english.entry(word) ?? (word.contains("-") ? english.entry(word.replacing("-", with: " ")) : nil)
        guard let entry, entry.canBeNoun else { return false }
        return !entry.isUncountable && !entry.isPluralOnly
    }

    /// The plural most borrowing languages give an English noun: *-s*, nothing after *-s*, *-x*, *-z*.
    static func sPlural(_ word: String) -> String {
        word.endsWith("s") || word.endsWith("x") || word.endsWith("z") ? word : word + "s"
    }
}
