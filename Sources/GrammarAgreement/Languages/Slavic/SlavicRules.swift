import RichText

/// What differs between the Slavic languages with agreement rules: the words that govern a case
/// and how a numeral governs the noun and adjective after it.
struct SlavicRules: Sendable {
    typealias Case = ParadigmLexicon.Case

    /// How the numbers 2–4 (and 22–24…, CLDR *few*) govern a noun in the nominative or accusative.
    enum Paucal: Sendable {
        /// Polish: they agree; noun and adjective in the plural of the case (*2 duże pizze*).
        case agreeing
        /// Russian: the noun in the genitive singular, the adjective in the genitive plural
        /// (masculine, neuter) or the nominative plural (feminine): *2 больших сока*, *2 большие пиццы*.
        case governing
    }

    let language: String
    let paucal: Paucal
    /// Prepositions and the case they govern (only those whose case in a café sentence is one).
    let prepositionCases: WordTable<Case>
    /// Verb forms whose object follows them in the accusative.
    let accusativeVerbs: WordSet
    /// Verb forms whose complement is in the instrumental (*наслаждайтесь*), or whose object comes
    /// first and the complement then (*угостите друга …*).
    let instrumentalVerbs: WordSet
    /// Verb forms and words after which what follows is in the genitive (*brak*, *нет*).
    let genitiveWords: WordSet
    /// The negation that puts a Polish verb's object in the genitive (*Nie mamy już …*); `nil` where
    /// negation does not change the case the rules read (Russian keeps the accusative).
    let negation: String?
    /// Words after which what follows is the subject or a predicate noun: the nominative.
    let nominativeWords: WordSet
    /// Words that may stand between a governing word and the span without changing its case.
    let transparentWords: WordSet
    /// Verbs that follow the span and take it as their object (Polish impersonal *dodano*).
    let accusativeAfter: WordSet
    /// Conjunctions joining nouns in one span.
    let conjunctions: WordSet
    /// Subject pronouns: masculine, feminine, neuter singular, then plural.
    let pronouns: [String]
    /// Polish: the endings the past tense takes for *ty* and *ja* (*zamówił-eś*, *zamówiła-ś*):
    /// masculine and feminine pairs.
    let personEndings: [(masculine: String, feminine: String)]

    /// Prepositions with a long form before some clusters: short → long.
    let longPrepositions: WordTable<String>
    /// First letters that, followed by a consonant, ask for the long form (*s*, *z*, *ś*… ; *с*, *з*, *ш*…).
    let clusterInitials: Set<Character>
    /// Word beginnings that ask for the long form whatever follows (*wsz*, *mn*; *вс*, *мн*, *льд*).
    let longFormBeginnings: [String]
    let vowels: Set<Character>
    /// Two letters written for one consonant (*sz*, *rz*, *cz*).
    let digraphs: Set<String>

    /// The long form of a short preposition before `word` (lowercase), or `nil` when the short one
    /// stays.
    func longPreposition(_ preposition: String, before word: String) -> String? {
        guard let long = longPrepositions[preposition] else { return nil }
        if longFormBeginnings.contains(where: { word.hasPrefix($0) }) { return long }
        var letters = word.makeIterator()
        guard let first = letters.next(), clusterInitials.contains(first), var second = letters.next() else {
            return nil
        }
        // A digraph is one sound: *sz* before a vowel is no cluster (z szynką, ze szpinakiem).
        if digraphs.contains(String([first, second])), let third = letters.next() { second = third }
        return second.isLetter && !vowels.contains(second) ? long : nil
    }
}
