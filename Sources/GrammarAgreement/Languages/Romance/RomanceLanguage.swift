import RichText

/// How a word starts, as the articles and short forms before it care: French and Italian elide
/// before a vowel (*l'eau*, *l'acqua*); Italian uses *lo*/*uno*/*gli* before *s* + consonant, *z*,
/// *gn*, *ps*, *x*, *y* and *i* + vowel (*lo zucchero*, *gli spaghetti*).
enum Onset: Sendable {
    case consonant
    case vowel
    case cluster
}

/// A determiner's forms: gender and number, and the variants some take by the next word's onset.
struct DeterminerForms: Sendable {
    var masculineSingular: String
    var feminineSingular: String
    var masculinePlural: String
    var femininePlural: String
    /// Before a vowel: French *l'*, *cet*, *mon* (feminine); Italian *l'*, *dell'*, *un'*.
    var masculineBeforeVowel: String?
    var feminineBeforeVowel: String?
    /// Italian, before *s* + consonant, *z*, *gn*…: *lo*, *uno*, *dello*.
    var masculineBeforeCluster: String?
    /// Italian masculine plural before a vowel or a cluster: *gli*, *degli*, *quegli*.
    var masculinePluralBeforeVowelOrCluster: String?

    init(
        _ masculineSingular: String,
        _ feminineSingular: String,
        _ masculinePlural: String,
        _ femininePlural: String,
        masculineBeforeVowel: String? = nil,
        feminineBeforeVowel: String? = nil,
        masculineBeforeCluster: String? = nil,
        masculinePluralBeforeVowelOrCluster: String? = nil
    ) {
        self.masculineSingular = masculineSingular
        self.feminineSingular = feminineSingular
        self.masculinePlural = masculinePlural
        self.femininePlural = femininePlural
        self.masculineBeforeVowel = masculineBeforeVowel
        self.feminineBeforeVowel = feminineBeforeVowel
        self.masculineBeforeCluster = masculineBeforeCluster
        self.masculinePluralBeforeVowelOrCluster = masculinePluralBeforeVowelOrCluster
    }

    /// The form for `features` before a word starting with `onset`.
    func form(_ features: GrammaticalFeatures, before onset: Onset) -> String {
        let feminine = features.gender == .feminine
        switch (feminine, features.isPlural) {
        case (false, false):
            if onset == .vowel, let form = masculineBeforeVowel { return form }
            if onset == .cluster, let form = masculineBeforeCluster { return form }
            return masculineSingular
        case (true, false):
            return onset == .vowel ? feminineBeforeVowel ?? feminineSingular : feminineSingular
        case (false, true):
            return onset != .consonant ? masculinePluralBeforeVowelOrCluster ?? masculinePlural : masculinePlural
        case (true, true):
            return femininePlural
        }
    }

    var allForms: [String] {
        [
            masculineSingular, feminineSingular, masculinePlural, femininePlural, masculineBeforeVowel,
            feminineBeforeVowel, masculineBeforeCluster, masculinePluralBeforeVowelOrCluster,
        ].compactMap { $0 }
    }
}

/// A table of determiners, looked up by any written form.
struct DeterminerTable: Sendable {
    private let forms: WordTable<DeterminerForms>

    /// `entries` by their dictionary form; every form of each is indexed.
    init(_ entries: [DeterminerForms]) {
        var table = WordTable<DeterminerForms>()
        for entry in entries {
            for form in entry.allForms where table[form] == nil {
                table[form] = entry
            }
        }
        forms = table
    }

    /// The determiner a written form belongs to (*les* → *le*).
    subscript(form: String) -> DeterminerForms? { forms[form] }

    /// Every written form.
    var writtenForms: [String] { forms.allKeys }

    /// Whether a written form shows the plural, when it shows a number at all.
    func writtenNumber(_ form: String) -> Bool? {
        guard let entry = forms[form], entry.masculineSingular != entry.masculinePlural else { return nil }
        return form == entry.masculinePlural || form == entry.femininePlural
            || form == entry.masculinePluralBeforeVowelOrCluster
    }

    /// Whether a written form shows the feminine, when it shows a gender at all.
    func writtenFeminine(_ form: String) -> Bool? {
        guard let entry = forms[form], entry.masculineSingular != entry.feminineSingular else { return nil }
        return form == entry.feminineSingular || form == entry.femininePlural || form == entry.feminineBeforeVowel
    }
}

/// What French, Italian and Portuguese do differently; ``RomanceGrammar`` does what they share:
/// the head noun takes the number, and its gender and number spread to determiners and adjectives
/// on either side of it.
protocol RomanceLanguage: Sendable {
    /// The language code (`fr`).
    var code: String { get }
    var lexicon: Lexicon { get }
    var determiners: DeterminerTable { get }
    /// Words that end the part of a name that inflects (*tasses* de café).
    var prepositions: WordSet { get }
    var conjunctions: WordSet { get }
    /// Sizes, which after a complement describe the container (*2 tasses de café moyennes*).
    var sizeAdjectives: WordSet { get }
    /// Nouns for people whose form follows their gender, masculine → feminine.
    var personNouns: WordTable<String> { get }
    /// Third-person singular verbs → plural, for spans that agree with an argument.
    var verbs: WordTable<String> { get }
    /// Subject pronouns: masculine singular, feminine singular, masculine plural, feminine plural.
    var subjectPronouns: [String] { get }

    /// How `word` (lowercase, as shown) starts, for the articles before it.
    func onset(of word: String) -> Onset
    /// The plural of a noun by the language's spelling rules.
    func regularPlural(ofNoun lemma: String) -> String
    /// Singulars a plural could come from, to be checked against the lexicon.
    func singularCandidates(of word: String) -> [String]
    /// The gender a noun's ending suggests, for nouns the lexicon does not list.
    func guessedGender(ofNoun lemma: String) -> Morphology.GrammaticalGender
    /// An adjective's form for `features`; `next` is the word after it when it stands directly
    /// before the noun (French *bel*, Italian *buon*, *bell'*).
    func adjectiveForm(
        _ lemma: String,
        entry: LexiconEntry?,
        features: GrammaticalFeatures,
        before next: String?
    ) -> String
    /// Masculine singulars a written adjective could come from, to be checked by regenerating it.
    func adjectiveLemmaCandidates(of word: String) -> [String]
    /// Whether an unknown word after a noun reads as an adjective.
    func looksLikeAdjective(_ word: String) -> Bool
    /// An unknown word in the masculine form templates use to address the reader (*bienvenu*).
    func isMasculineAdjectiveBase(_ word: String) -> Bool
    /// The contraction of a preposition and the article after it (*de* + *le* → *du*).
    func contraction(of preposition: String, with article: String) -> String?
    /// The elided form of a short word before a word with `onset` (*de* → *d'*), or the full form
    /// of an elided one before a consonant; `nil` when it stays.
    func elided(_ word: String, before onset: Onset) -> String?
}

extension RomanceLanguage {
    /// The plural of a lowercase singular noun: the lexicon's, or by rule.
    func plural(ofNoun lemma: String) -> String {
        if let entry = lexicon.entry(lemma) {
            if let plural = entry.plural { return plural.fastLowercased }
            if entry.isPluralOnly || entry.isInvariable { return lemma }
        }
        return regularPlural(ofNoun: lemma)
    }

    /// The singular of a plural form: listed, or a regular plural of a listed noun.
    func singular(ofNoun word: String) -> String? {
        if let (entry, kind) = lexicon.entry(forInflectedForm: word), kind == .plural {
            return entry.lemma.fastLowercased
        }
        return singularCandidates(of: word).first { candidate in
            guard candidate != word, let entry = lexicon.entry(candidate), entry.canBeNoun else { return false }
            return plural(ofNoun: candidate) == word
        }
    }

    /// The gender of a lowercase singular noun: the lexicon's, or the one its ending suggests.
    func gender(ofNoun lemma: String) -> Morphology.GrammaticalGender {
        lexicon.entry(lemma)?.grammaticalGender ?? guessedGender(ofNoun: lemma)
    }

    /// The masculine singular of a written adjective, and its lexicon entry when listed.
    func adjectiveLemma(of word: String) -> (lemma: String, entry: LexiconEntry?) {
        if let entry = lexicon.entry(word), entry.canBeAdjective { return (word, entry) }
        if let (entry, _) = lexicon.entry(forInflectedForm: word), entry.canBeAdjective {
            return (entry.lemma.fastLowercased, entry)
        }
        for candidate in adjectiveLemmaCandidates(of: word) where candidate != word {
            guard let entry = lexicon.entry(candidate), entry.canBeAdjective else { continue }
            let forms = [
                GrammaticalFeatures.Gendered.masculineSingular, .feminineSingular, .masculinePlural,
                .femininePlural,
            ]
            if forms.contains(where: {
                adjectiveForm(candidate, entry: entry, features: $0.features, before: nil) == word
            }) {
                return (candidate, entry)
            }
        }
        return (word, nil)
    }
}

extension RomanceLanguage {
    /// Whether a word is spelled as no native French, Italian or Portuguese word is (*k*, *w*, *sh*,
    /// *oo*, *ee*): an English loan, which keeps one gender (masculine) and pluralises only its last
    /// part (*milk-shakes*, *kouign-amanns*).
    static func isEnglishLoan(_ word: String) -> Bool {
        word.includes("k") || word.includes("w") || word.includes("sh") || word.includes("oo") || word.includes("ee")
    }

    /// The plural of a hyphenated compound: both parts when the first is a noun or adjective
    /// (*choux-fleurs*, *cachorros-quentes*, *pães-doces*), only the last for loans and for a first
    /// part `isVerbLike` (a verb stem: *guarda-chuvas*, *tire-bouchons*).
    func hyphenatedPlural(_ lemma: String, isVerbLike: (String) -> Bool) -> String? {
        guard lemma.utf8.contains(UInt8(ascii: "-")) else { return nil }
        let parts = lemma.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, parts.allSatisfy({ $0.count > 1 }) else { return nil }
        if Self.isEnglishLoan(lemma) || isVerbLike(parts[0]) { return parts[0] + "-" + plural(ofNoun: parts[1]) }
        return plural(ofNoun: parts[0]) + "-" + plural(ofNoun: parts[1])
    }
}

extension GrammaticalFeatures {
    /// The four gender-and-number cells of Romance adjectives.
    enum Gendered {
        case masculineSingular, feminineSingular, masculinePlural, femininePlural

        var features: GrammaticalFeatures {
            switch self {
            case .masculineSingular: GrammaticalFeatures(gender: .masculine, number: .singular)
            case .feminineSingular: GrammaticalFeatures(gender: .feminine, number: .singular)
            case .masculinePlural: GrammaticalFeatures(gender: .masculine, number: .plural)
            case .femininePlural: GrammaticalFeatures(gender: .feminine, number: .plural)
            }
        }
    }
}
