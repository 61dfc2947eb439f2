import RichText

/// The four German cases, as Apple's `Morphology.GrammaticalCase` names them in markup
/// (`morphology: {grammaticalCase: 'dative'}`).
enum GermanCase: Int, Sendable {
    case nominative = 0, accusative, dative, genitive

    /// The German case of a `Morphology` case; cases German lacks read as the nominative.
    init(_ grammaticalCase: Morphology.GrammaticalCase) {
        switch grammaticalCase {
        case .accusative: self = .accusative
        case .dative: self = .dative
        case .genitive: self = .genitive
        default: self = .nominative
        }
    }
}

/// Which endings an adjective takes: strong with no determiner (or a number above one), weak after
/// a *der*-word, mixed after an *ein*-word (and after the digit *1*, read *ein*).
enum Declension: Sendable {
    case strong, weak, mixed
}

/// Adjective endings and determiner forms by declension, case, gender and number.
enum GermanDeclension {
    /// Cells: masculine, feminine, neuter, plural.
    private static func cell(_ features: GrammaticalFeatures) -> Int {
        if features.isPlural { return 3 }
        switch features.gender {
        case .feminine: return 1
        case .neuter: return 2
        default: return 0
        }
    }

    /// Duden's tables, by case (nominative, accusative, dative, genitive) then cell.
    private static let strongEndings = [
        ["er", "e", "es", "e"], ["en", "e", "es", "e"], ["em", "er", "em", "en"], ["en", "er", "en", "er"],
    ]
    private static let weakEndings = [
        ["e", "e", "e", "en"], ["en", "e", "e", "en"], ["en", "en", "en", "en"], ["en", "en", "en", "en"],
    ]
    private static let mixedEndings = [
        ["er", "e", "es", "en"], ["en", "e", "es", "en"], ["en", "en", "en", "en"], ["en", "en", "en", "en"],
    ]

    /// The adjective ending for a declension, case and the noun's gender and number.
    static func ending(_ declension: Declension, _ grammaticalCase: GermanCase, _ features: GrammaticalFeatures)
        -> String
    {
        let table =
            switch declension {
            case .strong: strongEndings
            case .weak: weakEndings
            case .mixed: mixedEndings
            }
        return table[grammaticalCase.rawValue][cell(features)]
    }

    /// *der*-words: the definite article and the determiners declined like *dieser*.
    private static let definiteArticle = [
        ["der", "die", "das", "die"], ["den", "die", "das", "die"], ["dem", "der", "dem", "den"],
        ["des", "der", "des", "der"],
    ]
    /// *dies-*, *jed-*, *jen-*, *welch-*, *manch-*, *solch-*, *all-*.
    private static let derWordEndings = [
        ["er", "e", "es", "e"], ["en", "e", "es", "e"], ["em", "er", "em", "en"], ["es", "er", "es", "er"],
    ]
    /// *ein*, *kein* and the possessives *mein*, *dein*, *sein*, *ihr*, *unser*, *euer*, *Ihr*.
    private static let einWordEndings = [
        ["", "e", "", "e"], ["en", "e", "", "e"], ["em", "er", "em", "en"], ["es", "er", "es", "er"],
    ]
    private static let derWordStems = ["dies", "jed", "jen", "welch", "manch", "solch", "all"]
    private static let einWordStems = ["ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer"]

    /// What a written determiner is: its kind and stem (*diesen* → der-word *dies*).
    struct Determiner: Sendable {
        var declension: Declension
        var stem: String
    }

    /// Every written determiner form to its kind and stem.
    static let determiners: WordTable<Determiner> = {
        var table = WordTable<Determiner>()
        for row in definiteArticle {
            for form in row where table[form] == nil { table[form] = Determiner(declension: .weak, stem: "") }
        }
        for stem in derWordStems {
            for row in derWordEndings {
                for ending in row where table[stem + ending] == nil {
                    table[stem + ending] = Determiner(declension: .weak, stem: stem)
                }
            }
        }
        for stem in einWordStems {
            for row in einWordEndings {
                // unser + e → unsere, euer + e → eure.
                for ending in row {
                    let base = stem == "euer" && !ending.isEmpty ? "eur" : stem
                    if table[base + ending] == nil { table[base + ending] = Determiner(declension: .mixed, stem: stem) }
                }
            }
        }
        return table
    }()

    /// The determiner's form for a case, gender and number.
    static func form(of determiner: Determiner, _ grammaticalCase: GermanCase, _ features: GrammaticalFeatures)
        -> String
    {
        let cell = cell(features)
        switch determiner.declension {
        case .weak where determiner.stem.isEmpty:
            return definiteArticle[grammaticalCase.rawValue][cell]
        case .weak, .strong:
            return determiner.stem + derWordEndings[grammaticalCase.rawValue][cell]
        case .mixed:
            let ending = einWordEndings[grammaticalCase.rawValue][cell]
            return (determiner.stem == "euer" && !ending.isEmpty ? "eur" : determiner.stem) + ending
        }
    }

    /// The declension adjectives take after a determiner: *ein*-words have no ending in three cells
    /// (the mixed declension); in the plural, where every *ein*-word ends in *-e*/*-en*/*-er*, weak.
    static func declension(after determiner: Determiner?, _ features: GrammaticalFeatures) -> Declension {
        guard let determiner else { return .strong }
        if determiner.declension == .mixed, features.isPlural { return .weak }
        return determiner.declension
    }
}

/// German adjective stems: the lemma (*groß*), the lexicon's stem (*hoch* → *hoh*, *mittel* →
/// *mittler*), or the lemma without the *e* of an unstressed *-el* (*dunkel* → *dunkl*) or of *-er*
/// after a diphthong (*teuer* → *teur*, *sauer* → *saur*).
enum GermanAdjectives {
    static func stem(of lemma: String, entry: LexiconEntry?) -> String {
        if let stem = entry?.stem { return stem.fastLowercased }
        if lemma.endsWith("el") { return lemma.droppingLastBytes(2) + "l" }
        if lemma.endsWith("euer") || lemma.endsWith("auer") { return lemma.droppingLastBytes(2) + "r" }
        return lemma
    }

    /// The attributive form: stem + ending, where a stem in *-e* (*leise*, *müde*) drops the ending's *e*.
    static func form(stem: String, ending: String) -> String {
        if stem.endsWith("e"), ending.startsWith("e") { return stem + ending.dropFirst() }
        return stem + ending
    }

    /// Endings an attributive adjective may carry, longest first, to find its lemma.
    static let endings = ["en", "em", "er", "es", "e"]
}
