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
///
/// Forms come from the lexicon: a listed word's forms are the ones its entry gives, or else the
/// language's *default forms*, the contract of the lexicon format (`Lexicons/README-<code>.md`,
/// mirrored by `Scripts/lexicons/lexicon_format.py`, which leaves out of the file every form equal to
/// its default). A word the lexicon does not list has no forms: agreement leaves it as written.
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
    /// Adjectives that go before the noun they describe (*grand café*, *buon caffè*, *bom café*):
    /// before a noun, they are not the head.
    var prenominalAdjectives: WordSet { get }
    /// Nouns for people whose form follows their gender, masculine → feminine.
    var personNouns: WordTable<String> { get }
    /// Third-person singular verbs → plural, for spans that agree with an argument.
    var verbs: WordTable<String> { get }
    /// Subject pronouns: masculine singular, feminine singular, masculine plural, feminine plural.
    var subjectPronouns: [String] { get }
    /// Elided words written against the next one (*d'*, *l'*, *dell'*, *un'*), split off before
    /// agreement reads the words: *bouteille d'eau* is *bouteille*, *d'*, *eau*.
    var elisions: WordSet { get }

    /// How `word` (lowercase, as shown) starts, for the articles before it.
    func onset(of word: String) -> Onset
    /// The default plural of a listed noun whose entry gives none.
    func defaultPlural(ofNoun lemma: String, gender: LexiconEntry.Gender?) -> String
    /// Singulars whose default plural `word` could be, to be checked against the lexicon.
    func singularCandidates(of word: String) -> [String]
    /// The default feminine singular of a listed adjective.
    func defaultFeminine(ofAdjective lemma: String) -> String
    /// The default masculine plural of a listed adjective.
    func defaultMasculinePlural(ofAdjective lemma: String) -> String
    /// The default feminine plural, made from the adjective's feminine singular.
    func defaultFemininePlural(ofFeminine feminine: String) -> String
    /// Masculine singulars a written adjective form could come from by the defaults, to be checked
    /// by regenerating it.
    func adjectiveLemmaCandidates(of word: String) -> [String]
    /// A short form an adjective takes right before the noun (French *bel* from the lexicon's
    /// `apocope=`, Italian *buon*, *bell'*, *gran*), or `nil`.
    func shortForm(_ lemma: String, entry: LexiconEntry?, features: GrammaticalFeatures, before onset: Onset)
        -> String?
    /// The contraction of a preposition and the article after it (*de* + *le* → *du*).
    func contraction(of preposition: String, with article: String) -> String?
    /// The elided form of a short word before a word with `onset` (*de* → *d'*), or the full form
    /// of an elided one before a consonant; `nil` when it stays.
    func elided(_ word: String, before onset: Onset) -> String?

    /// The diminutive and augmentative suffixes that make nouns from listed words.
    var wordFormation: WordFormation { get }

    /// Prefixes that stay as they are before a noun they are joined to by a hyphen (French
    /// *demi-baguettes*, *mini-quiches*): the noun after them takes the number and gives the gender.
    var invariablePrefixes: Set<String> { get }

    /// The gender an ending gives a noun whose sources give none, where the language's grammar
    /// makes it near certain; `nil` otherwise.
    func gender(bySpelling lemma: String) -> Morphology.GrammaticalGender?

    /// Diminutive endings of adjectives (every form) with the masculine singular ending they come from
    /// (Portuguese *-inhas* → *-inho*): an adjective the lexicon lists takes them with its regular forms.
    var adjectiveDiminutives: [(ending: String, lemmaEnding: String)] { get }

    /// Words starting with an *h* that does not elide (French *h aspiré*: *le homard*), beyond
    /// those the lexicon marks `aspirated`.
    var aspiratedWords: WordSet { get }

    /// The plural of `word`, a noun the lexicon does not list, where the language's grammar decides
    /// it without the lexicon: a loan from English (Portuguese *pancakes*, Italian *i toast*) or
    /// an ending that has one plural (Portuguese oral vowels: *frappuccinos*); `nil` otherwise.
    func rulePlural(ofUnlisted word: String) -> String?
}

extension RomanceLanguage {
    var wordFormation: WordFormation { .none }
    var aspiratedWords: WordSet { [] }
    var invariablePrefixes: Set<String> { [] }
    var adjectiveDiminutives: [(ending: String, lemmaEnding: String)] { [] }
    func gender(bySpelling lemma: String) -> Morphology.GrammaticalGender? { nil }

    /// Italian and Portuguese: *-o* masculine, *-a* feminine, but for *-ma* (*aroma*, *clima*) and
    /// *-ista* (*barista*), which are often masculine or both.
    func genderByFinalVowel(_ lemma: String) -> Morphology.GrammaticalGender? {
        guard lemma.count > 2, !lemma.contains(" ") else { return nil }
        if lemma.endsWith("o") { return .masculine }
        if lemma.endsWith("a"), !lemma.endsWith("ma"), !lemma.endsWith("ista") { return .feminine }
        return nil
    }
    func rulePlural(ofUnlisted word: String) -> String? { nil }
}

extension RomanceLanguage {
    /// The plural of a lowercase singular noun: its entry's, or the default for a listed noun or a
    /// listed person noun; `nil` for a word the lexicon does not know.
    func plural(ofNoun lemma: String, entry: LexiconEntry?) -> String? {
        guard let entry else { return nil }
        if let plural = entry.plural { return plural.fastLowercased }
        if entry.isPluralOnly || (entry.isInvariable && !entry.hasRegularNounPlural) { return lemma }
        return defaultPlural(ofNoun: lemma, gender: entry.gender)
    }

    /// The plural of a lowercase singular noun the lexicon lists (by its own entry).
    func plural(ofNoun lemma: String) -> String? {
        plural(ofNoun: lemma, entry: lexicon.entry(lemma))
    }

    /// The singular of a written plural: listed, or a default plural of a listed noun.
    func singular(ofNoun word: String) -> String? {
        if let (entry, kind) = lexicon.entry(forInflectedForm: word), kind == .plural, entry.canBeNoun {
            return entry.lemma.fastLowercased
        }
        return singularCandidates(of: word).first { candidate in
            guard candidate != word, let entry = lexicon.entry(candidate), entry.canBeNoun else { return false }
            return plural(ofNoun: candidate, entry: entry) == word
        }
    }

    /// An adjective's form for `features`; `next` is the word after it when it stands directly
    /// before the noun, for short forms.
    func adjectiveForm(
        _ lemma: String,
        entry: LexiconEntry?,
        features: GrammaticalFeatures,
        before next: String?
    ) -> String {
        if entry?.isInvariable == true { return lemma }
        if let next, let short = shortForm(lemma, entry: entry, features: features, before: onset(of: next)) {
            return short
        }
        let feminine = entry?.feminine?.fastLowercased ?? defaultFeminine(ofAdjective: lemma)
        switch (features.gender == .feminine, features.isPlural) {
        case (false, false): return lemma
        case (true, false): return feminine
        case (false, true):
            return (entry?.adjectivePlural ?? entry?.plural)?.fastLowercased
                ?? defaultMasculinePlural(ofAdjective: lemma)
        case (true, true):
            return entry?.femininePlural?.fastLowercased ?? defaultFemininePlural(ofFeminine: feminine)
        }
    }

    /// The masculine singular of a written adjective and its entry, when the lexicon lists it.
    func adjectiveLemma(of word: String) -> (lemma: String, entry: LexiconEntry)? {
        if let entry = lexicon.entry(word), entry.canBeAdjective { return (word, entry) }
        if let (entry, _) = lexicon.entry(forInflectedForm: word), entry.canBeAdjective {
            return (entry.lemma.fastLowercased, entry)
        }
        for candidate in adjectiveLemmaCandidates(of: word) where candidate != word {
            guard let entry = lexicon.entry(candidate), entry.canBeAdjective else { continue }
            if GrammaticalFeatures.Gendered.allCases.contains(where: {
                adjectiveForm(candidate, entry: entry, features: $0.features, before: nil) == word
            }) {
                return (candidate, entry)
            }
        }
        // A diminutive of a listed adjective (quentinha, crocantinho): its own regular forms.
        for (ending, lemmaEnding) in adjectiveDiminutives where word.endsWith(ending) {
            let stem = word.droppingLastBytes(ending.utf8.count)
            guard stem.count >= 3 else { continue }
            let isBase = { (base: String) in lexicon.entry(base)?.canBeAdjective == true }
            if ["o", "e", "a", ""].contains(where: { isBase(stem + $0) }) {
                let lemma = stem + lemmaEnding
                return (lemma, LexiconEntry(lemma: lemma, partsOfSpeech: [.adjective]))
            }
        }
        return nil
    }

    /// The gender and number cells whose form of the adjective is `word`.
    func cells(of word: String, lemma: String, entry: LexiconEntry?) -> [GrammaticalFeatures] {
        GrammaticalFeatures.Gendered.allCases.map(\.features).filter {
            adjectiveForm(lemma, entry: entry, features: $0, before: nil) == word
        }
    }
}

extension GrammaticalFeatures {
    /// The four gender-and-number cells of Romance adjectives.
    enum Gendered: CaseIterable {
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
