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

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
    }

    /// A vowel or a mute *h* elides the article before it (*l'eau*, *l'huile*); an aspirated *h*
    /// (*le homard*) is marked in the lexicon.
    func onset(of word: String) -> Onset {
        guard let first = word.unicodeScalars.first else { return .consonant }
        return Self.isVowel(first) || first == "h" ? .vowel : .consonant
    }

    static func isVowel(_ scalar: Unicode.Scalar) -> Bool {
        "aeiouyàâäéèêëîïôöùûüœæ".unicodeScalars.contains(scalar)
    }

    // MARK: Nouns

    /// The plural by spelling (Grevisse): *-s*, *-x*, *-z* do not change; *-eau*, *-au*, *-eu* take
    /// *-x*; *-al* becomes *-aux*; everything else takes *-s*. The exceptions (*bleus*, *bals*,
    /// *choux*, *travaux*) are listed in the lexicon.
    func regularPlural(ofNoun lemma: String) -> String {
        if lemma.endsWith("s") || lemma.endsWith("x") || lemma.endsWith("z") { return lemma }
        if lemma.endsWith("eau") || lemma.endsWith("au") || lemma.endsWith("eu") { return lemma + "x" }
        if lemma.endsWith("al") { return lemma.droppingLastBytes(2) + "aux" }
        // chou-fleur → choux-fleurs; a verb first (tire-bouchon, presse-citron) is listed.
        if let compound = hyphenatedPlural(lemma, isVerbLike: { _ in false }) { return compound }
        return lemma + "s"
    }

    func singularCandidates(of word: String) -> [String] {
        var candidates: [String] = []
        if word.endsWith("aux") { candidates.append(word.droppingLastBytes(3) + "al") }
        if word.endsWith("x") { candidates.append(word.droppingLastBytes(1)) }
        if word.endsWith("s") { candidates.append(word.droppingLastBytes(1)) }
        return candidates
    }

    /// Feminine endings: *-tion*, *-sion*, *-té*, *-ette*, *-ure*, *-ade*, *-ière*, *-ine*, *-ence*,
    /// *-ance*, *-ise*, *-elle*, *-ée* (but *musée*, *lycée* are listed), and *-e* after most
    /// consonant groups; masculine: *-age*, *-isme*, *-ment*, *-eau*, *-oir*, consonants and other vowels.
    /// English loans are masculine (*le brownie*, *le milk-shake*). A final *-é* is masculine (*le
    /// feuilleté*, *le pâté*) except in *-ité* and after a consonant (*la qualité*, *la santé*).
    func guessedGender(ofNoun lemma: String) -> Morphology.GrammaticalGender {
        if Self.isEnglishLoan(lemma) { return .masculine }
        return Self.genderEndings.longestMatch(in: lemma) ?? .masculine
    }

    /// The endings ``guessedGender(ofNoun:)`` reads; the longest that fits decides.
    private static let genderEndings = EndingTable<Morphology.GrammaticalGender>(
        (feminineEndings, .feminine),
        (["age", "isme", "ment", "eau", "oir", "ège", "ème", "ing", "ier", "et", "on", "é"], .masculine)
    )
    private static let feminineEndings = [
        "tion", "sion", "ité", "nté", "rté", "ette", "ure", "ade", "ière", "ine", "ence", "ance", "ise", "elle", "ée",
        "ie", "ine", "aine", "eine", "ère", "ose", "ole", "ule", "ette", "esse", "ude", "ue", "otte", "ode", "ise",
        "ille", "aille", "euille", "ouille", "che", "que", "sse", "nne", "tte", "ppe", "ffe", "pe", "te",
    ]

    // MARK: Adjectives

    func adjectiveForm(
        _ lemma: String,
        entry: LexiconEntry?,
        features: GrammaticalFeatures,
        before next: String?
    ) -> String {
        if entry?.isInvariable == true { return lemma }
        let feminine = features.gender == .feminine
        if feminine {
            let singular = entry?.feminine?.fastLowercased ?? Self.feminine(of: lemma)
            return features.isPlural ? singular + "s" : singular
        }
        if features.isPlural { return entry?.plural?.fastLowercased ?? Self.masculinePlural(of: lemma) }
        // bel, nouvel, vieil before a vowel: a masculine singular noun starting with a vowel.
        if let next, let short = entry?.apocope?.fastLowercased, onset(of: next) == .vowel { return short }
        return lemma
    }

    /// The feminine by ending: *-e* stays; *-eux* → *-euse*, *-eur* → *-euse*, *-er* → *-ère*,
    /// *-f* → *-ve*, *-el*/*-eil* → *-elle*/*-eille*, *-en*/*-on* → *-enne*/*-onne*, *-et* → *-ette*,
    /// *-c* → *-que*; otherwise *-e* is added (*petit* → *petite*, *bleu* → *bleue*).
    static func feminine(of lemma: String) -> String {
        if lemma.endsWith("e") { return lemma }
        if lemma.endsWith("eux") { return lemma.droppingLastBytes(1) + "se" }
        if lemma.endsWith("eur") { return lemma.droppingLastBytes(1) + "se" }
        if lemma.endsWith("er") { return lemma.droppingLastBytes(2) + "ère" }
        if lemma.endsWith("f") { return lemma.droppingLastBytes(1) + "ve" }
        for ending in ["el", "eil", "en", "on", "et", "ul"] where lemma.endsWith(ending) {
            return lemma + String(ending.suffix(1)) + "e"
        }
        if lemma.endsWith("c") { return lemma.droppingLastBytes(1) + "que" }
        return lemma + "e"
    }

    /// The masculine plural: *-s*/*-x* stay, *-eau* → *-eaux*, *-al* → *-aux*, otherwise *-s*.
    static func masculinePlural(of lemma: String) -> String {
        if lemma.endsWith("s") || lemma.endsWith("x") { return lemma }
        if lemma.endsWith("eau") { return lemma + "x" }
        if lemma.endsWith("al") { return lemma.droppingLastBytes(2) + "aux" }
        return lemma + "s"
    }

    func adjectiveLemmaCandidates(of word: String) -> [String] {
        var candidates: [String] = []
        var singular = word
        if word.endsWith("aux") { candidates.append(word.droppingLastBytes(3) + "al") }
        if word.endsWith("s") { singular = word.droppingLastBytes(1) }
        candidates.append(singular)
        if singular.endsWith("euse") {
            candidates += [singular.droppingLastBytes(2) + "x", singular.droppingLastBytes(2) + "r"]
        }
        if singular.endsWith("ère") { candidates.append(singular.droppingLastBytes(4) + "er") }
        if singular.endsWith("ve") { candidates.append(singular.droppingLastBytes(2) + "f") }
        if singular.endsWith("que") { candidates.append(singular.droppingLastBytes(3) + "c") }
        for ending in ["lle", "nne", "tte"] where singular.endsWith(ending) {
            candidates.append(singular.droppingLastBytes(2))
        }
        if singular.endsWith("e") { candidates.append(singular.droppingLastBytes(1)) }
        return candidates
    }

    /// Endings of French adjectives: participles (*-é*, *-i*, *-u*), *-eux*, *-if*, *-al*, *-el*,
    /// *-ien*, *-ais*, *-ois*, *-in*, *-ique*, *-able*, *-ible*, *-ant*, *-ent*, *-aire*, *-at*.
    func looksLikeAdjective(_ word: String) -> Bool {
        Self.adjectiveEndings.matches(word)
    }

    private static let adjectiveEndings = EndingTable((adjectiveEndingList, true))
    private static let adjectiveEndingList = [
        "é", "ée", "és", "ées", "eux", "euse", "if", "ive", "al", "ale", "el", "elle", "ien", "ienne", "ais",
        "aise", "ois", "oise", "in", "ine", "ique", "able", "ible", "ant", "ante", "ent", "ente", "aire", "at",
        "ate", "i", "ie", "u", "ue", "et", "ette", "eur", "er", "ère", "ard", "arde", "ot", "otte", "eau",
    ]

    /// *bienvenu*, *prêt*, *abonné*: participles and the adjectives templates address the reader with.
    func isMasculineAdjectiveBase(_ word: String) -> Bool {
        ["u", "é", "i", "t", "s", "eux", "if", "er", "ier"].contains { word.endsWith($0) } && !word.endsWith("tion")
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
