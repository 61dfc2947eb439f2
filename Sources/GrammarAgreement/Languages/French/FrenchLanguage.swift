import RichText

/// French: plurals in *-s*, *-x* (*-eau*, *-eu*, *-al* → *-aux*), gender from the lexicon or the
/// ending, adjective feminines by ending (*-eux* → *-euse*, *-er* → *-ère*, *-f* → *-ve*), *bel*/*nouvel*
/// before a vowel, elision (*l'*, *d'*) and contraction (*du*, *des*, *au*, *aux*). CLDR French
/// counts 0 and 1.5 as *one*: *0 petit café*, *1,5 litre*.
struct FrenchLanguage: RomanceLanguage {
    let code = "fr"
    let lexicon: Lexicon

    let determiners = DeterminerTable([
        DeterminerForms("le", "la", "les", "les", masculineBeforeVowel: "l'", feminineBeforeVowel: "l'"),
        DeterminerForms("un", "une", "des", "des"),
        DeterminerForms("du", "de la", "des", "des", masculineBeforeVowel: "de l'", feminineBeforeVowel: "de l'"),
        DeterminerForms("au", "à la", "aux", "aux", masculineBeforeVowel: "à l'", feminineBeforeVowel: "à l'"),
        DeterminerForms("ce", "cette", "ces", "ces", masculineBeforeVowel: "cet"),
        DeterminerForms("mon", "ma", "mes", "mes", feminineBeforeVowel: "mon"),
        DeterminerForms("ton", "ta", "tes", "tes", feminineBeforeVowel: "ton"),
        DeterminerForms("son", "sa", "ses", "ses", feminineBeforeVowel: "son"),
        DeterminerForms("notre", "notre", "nos", "nos"),
        DeterminerForms("votre", "votre", "vos", "vos"),
        DeterminerForms("leur", "leur", "leurs", "leurs"),
        DeterminerForms("quel", "quelle", "quels", "quelles"),
        DeterminerForms("chaque", "chaque", "chaque", "chaque"),
        DeterminerForms("aucun", "aucune", "aucuns", "aucunes"),
        DeterminerForms("tout", "toute", "tous", "toutes"),
        DeterminerForms("autre", "autre", "autres", "autres"),
    ])
    let prepositions: WordSet = [
        "de", "d'", "du", "des", "à", "au", "aux", "en", "avec", "sans", "pour", "sur", "par", "dans", "façon",
        "comme",
    ]
    let conjunctions: WordSet = ["et", "ou", "ni"]
    let sizeAdjectives: WordSet = ["petit", "moyen", "grand", "géant", "double", "mini", "maxi", "normal", "xl"]
    let prenominalAdjectives: WordSet = [
        "petit", "grand", "bon", "beau", "joli", "gros", "vieux", "nouveau", "jeune", "long", "mauvais", "meilleur",
        "premier", "dernier", "double", "demi", "mini", "maxi", "vrai", "autre", "même", "seul", "simple", "triple",
        "excellent", "délicieux", "énorme", "immense", "vieil", "bel", "nouvel", "cher", "fidèle", "gentil", "sacré",
    ]
    let personNouns: WordTable<String> = [
        "client": "cliente", "ami": "amie", "invité": "invitée", "utilisateur": "utilisatrice",
        "serveur": "serveuse", "cuisinier": "cuisinière", "caissier": "caissière", "vendeur": "vendeuse",
        "livreur": "livreuse", "abonné": "abonnée", "membre": "membre", "barista": "barista", "hôte": "hôtesse",
        "voisin": "voisine", "gagnant": "gagnante", "habitué": "habituée",
    ]
    let verbs: WordTable<String> = [
        "est": "sont", "était": "étaient", "sera": "seront", "a": "ont", "reste": "restent", "arrive": "arrivent",
        "coûte": "coûtent", "contient": "contiennent", "vient": "viennent", "va": "vont", "part": "partent",
    ]
    let subjectPronouns = ["il", "elle", "ils", "elles"]

    let loans = EnglishLoans()
    /// `Lexicons/fr.aspirated.txt`, compiled from the French Aspell dictionary.
    let aspiratedWords = Lexicon.bundledWords("fr.aspirated") ?? []

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
    }

    let invariablePrefixes: Set<String> = ["demi", "mi", "semi", "mini", "maxi", "extra", "super", "hyper"]

    /// The feminine diminutive *-ette* on a listed noun (*brioche* → *briochette*, *bugne* →
    /// *bugnette*).
    let wordFormation = WordFormation(
        suffixes: [DerivingSuffix(singular: "ette", plural: "ettes", gender: .feminine, baseEndings: ["e", ""])],
        seams: []
    )

    /// An English noun takes *-s* (*des shortbreads*, *des club-sandwichs*), as the 1990 spelling
    /// rules give borrowed words the French plural.
    ///
    /// A one-word noun no lexicon lists takes the regular plural: *-s*, nothing after *-s*, *-x*, *-z*,
    /// *-x* after *-eau*, *-au*, *-eu*; *-al* and *-ail*, whose plurals vary, stay unknown.
    func rulePlural(ofUnlisted word: String) -> String? {
        if loans.isCountableNoun(word) { return EnglishLoans.sPlural(word) }
        guard word.count > 2, !word.contains(" "), !word.contains("-"), !word.contains("'"),
            word.last?.isLetter == true
        else { return nil }
        if word.endsWith("al") || word.endsWith("ail") { return nil }
        if word.endsWith("eau") || word.endsWith("au") || word.endsWith("eu") { return word + "x" }
        return EnglishLoans.sPlural(word)
    }

    /// *-ette* is feminine (*zézette*, *navette*).
    func gender(bySpelling lemma: String) -> Morphology.GrammaticalGender? {
        lemma.endsWith("ette") && lemma.count > 5 ? .feminine : nil
    }

    /// A vowel or a mute *h* elides the article before it (*l'eau*, *l'huile*); an aspirated *h*
    /// (*le homard*) is marked in the lexicon.
    func onset(of word: String) -> Onset {
        let scalars = word.unicodeScalars
        guard let first = scalars.first else { return .consonant }
        // y before a vowel is a consonant (le yaourt, le yuzu).
        if first == "y", let second = scalars.dropFirst().first, Self.isVowel(second) { return .consonant }
        return Self.isVowel(first) || first == "h" ? .vowel : .consonant
    }

    static func isVowel(_ scalar: Unicode.Scalar) -> Bool {
        "aeiouyàâäéèêëîïôöùûüœæ".unicodeScalars.contains(scalar)
    }

    let elisions: WordSet = ["l'", "d'", "qu'", "j'", "n'", "s'", "c'", "m'", "t'", "jusqu'", "lorsqu'", "puisqu'"]

    // MARK: Default forms (README-fr.md)

    /// *-s*, *-x*, *-z* do not change; everything else takes *-s*. The lexicon lists the rest
    /// (*gâteaux*, *chevaux*, *petits-fours*).
    func defaultPlural(ofNoun lemma: String, gender: LexiconEntry.Gender?) -> String {
        lemma.endsWith("s") || lemma.endsWith("x") || lemma.endsWith("z") ? lemma : lemma + "s"
    }

    func singularCandidates(of word: String) -> [String] {
        word.endsWith("s") || word.endsWith("x") ? [word.droppingLastBytes(1)] : []
    }

    /// *-e* stays (*rouge*); otherwise *-e* is added (*petite*); the lexicon lists the rest (*fraîche*).
    func defaultFeminine(ofAdjective lemma: String) -> String {
        lemma.endsWith("e") ? lemma : lemma + "e"
    }

    func defaultMasculinePlural(ofAdjective lemma: String) -> String {
        lemma.endsWith("s") || lemma.endsWith("x") ? lemma : lemma + "s"
    }

    func defaultFemininePlural(ofFeminine feminine: String) -> String {
        feminine.endsWith("s") ? feminine : feminine + "s"
    }

    func adjectiveLemmaCandidates(of word: String) -> [String] {
        var candidates = [word]
        let singular = word.endsWith("s") ? word.droppingLastBytes(1) : word
        if singular != word { candidates.append(singular) }
        if singular.endsWith("e") { candidates.append(singular.droppingLastBytes(1)) }
        return candidates
    }

    /// *bel*, *nouvel*, *vieil* (the lexicon's `apocope=`) before a masculine singular noun
    /// starting with a vowel.
    func shortForm(_ lemma: String, entry: LexiconEntry?, features: GrammaticalFeatures, before onset: Onset)
        -> String?
    {
        guard onset == .vowel, !features.isPlural, features.gender != .feminine else { return nil }
        return entry?.apocope?.fastLowercased
    }

    // MARK: Elision and contraction

    /// *de* + *le* → *du*, *de* + *les* → *des*, *à* + *le* → *au*, *à* + *les* → *aux*.
    func contraction(of preposition: String, with article: String) -> String? {
        switch (preposition, article) {
        case ("de", "le"): "du"
        case ("de", "les"): "des"
        case ("à", "le"): "au"
        case ("à", "les"): "aux"
        default: nil
        }
    }

    /// The short words that elide.
    private static let elidable: WordSet = ["de", "que", "ne", "je", "me", "te", "se", "jusque", "lorsque", "puisque"]

    /// *de*, *que*, *ne*, *je*, *me*, *te*, *se* lose their *e* before a vowel (*d'orange*); *d'*
    /// before a consonant is *de*.
    func elided(_ word: String, before onset: Onset) -> String? {
        let elidable = Self.elidable
        if onset == .vowel, elidable.contains(word) { return word.droppingLastBytes(1) + "'" }
        if onset != .vowel, word.endsWith("'"), elidable.contains(word.droppingLastBytes(1) + "e") {
            return word.droppingLastBytes(1) + "e"
        }
        return nil
    }
}
