import RichText

/// Italian: plurals in *-i* and *-e* (*-co* → *-chi*/*-ci*, *-ca* → *-che*, *-io* → *-i*), nouns that do
/// not change (an accented final vowel, *caffè*; a consonant, *toast*; shortened words, *foto*), the
/// articles by the next word's onset (*il*, *lo*, *l'*, *gli*), and *buono*, *bello*, *grande*, *santo*
/// shortened before a noun. CLDR Italian: only 1 (without fraction digits) is *one*.
struct ItalianLanguage: RomanceLanguage {
    let code = "it"
    let lexicon: Lexicon

    let determiners = DeterminerTable([
        DeterminerForms(
            "il",
            "la",
            "i",
            "le",
            masculineBeforeVowel: "l'",
            feminineBeforeVowel: "l'",
            masculineBeforeCluster: "lo",
            masculinePluralBeforeVowelOrCluster: "gli"
        ),
        DeterminerForms(
            "un",
            "una",
            "dei",
            "delle",
            feminineBeforeVowel: "un'",
            masculineBeforeCluster: "uno",
            masculinePluralBeforeVowelOrCluster: "degli"
        ),
        DeterminerForms(
            "del",
            "della",
            "dei",
            "delle",
            masculineBeforeVowel: "dell'",
            feminineBeforeVowel: "dell'",
            masculineBeforeCluster: "dello",
            masculinePluralBeforeVowelOrCluster: "degli"
        ),
        DeterminerForms(
            "al",
            "alla",
            "ai",
            "alle",
            masculineBeforeVowel: "all'",
            feminineBeforeVowel: "all'",
            masculineBeforeCluster: "allo",
            masculinePluralBeforeVowelOrCluster: "agli"
        ),
        DeterminerForms(
            "dal",
            "dalla",
            "dai",
            "dalle",
            masculineBeforeVowel: "dall'",
            feminineBeforeVowel: "dall'",
            masculineBeforeCluster: "dallo",
            masculinePluralBeforeVowelOrCluster: "dagli"
        ),
        DeterminerForms(
            "sul",
            "sulla",
            "sui",
            "sulle",
            masculineBeforeVowel: "sull'",
            feminineBeforeVowel: "sull'",
            masculineBeforeCluster: "sullo",
            masculinePluralBeforeVowelOrCluster: "sugli"
        ),
        DeterminerForms(
            "nel",
            "nella",
            "nei",
            "nelle",
            masculineBeforeVowel: "nell'",
            feminineBeforeVowel: "nell'",
            masculineBeforeCluster: "nello",
            masculinePluralBeforeVowelOrCluster: "negli"
        ),
        DeterminerForms(
            "quel",
            "quella",
            "quei",
            "quelle",
            masculineBeforeVowel: "quell'",
            feminineBeforeVowel: "quell'",
            masculineBeforeCluster: "quello",
            masculinePluralBeforeVowelOrCluster: "quegli"
        ),
        DeterminerForms("questo", "questa", "questi", "queste"),
        DeterminerForms("mio", "mia", "miei", "mie"),
        DeterminerForms("tuo", "tua", "tuoi", "tue"),
        DeterminerForms("suo", "sua", "suoi", "sue"),
        DeterminerForms("nostro", "nostra", "nostri", "nostre"),
        DeterminerForms("vostro", "vostra", "vostri", "vostre"),
        DeterminerForms(
            "nessun",
            "nessuna",
            "nessuni",
            "nessune",
            feminineBeforeVowel: "nessun'",
            masculineBeforeCluster: "nessuno"
        ),
        DeterminerForms("ogni", "ogni", "ogni", "ogni"),
        DeterminerForms("altro", "altra", "altri", "altre"),
    ])
    let prepositions: WordSet = [
        "di", "d'", "a", "da", "in", "con", "su", "per", "tra", "fra", "senza", "al", "alla", "allo", "ai", "agli",
        "alle", "all'", "del", "della", "dello", "dei", "degli", "delle", "dell'", "dal", "dalla", "dallo", "dai",
        "dagli", "dalle", "dall'", "nel", "nella", "nello", "nei", "negli", "nelle", "nell'", "sul", "sulla",
        "sullo", "sui", "sugli", "sulle", "sull'", "col", "coi",
    ]
    let conjunctions: WordSet = ["e", "ed", "o", "né"]
    let sizeAdjectives: WordSet = ["piccolo", "medio", "grande", "gigante", "doppio", "mini", "maxi", "normale"]
    let prenominalAdjectives: WordSet = [
        "buono", "bello", "grande", "piccolo", "nuovo", "vecchio", "doppio", "mezzo", "primo", "ultimo", "ottimo", "lungo", "altro", "santo", "gran", "vero", "unico", "triplo",
    ]
    let personNouns: WordTable<String> = [
        "cliente": "cliente", "amico": "amica", "ospite": "ospite", "utente": "utente", "cameriere": "cameriera",
        "cuoco": "cuoca", "cassiere": "cassiera", "socio": "socia", "abbonato": "abbonata", "invitato": "invitata",
        "barista": "barista", "vicino": "vicina", "vincitore": "vincitrice",
    ]
    let verbs: WordTable<String> = [
        "è": "sono", "era": "erano", "sarà": "saranno", "ha": "hanno", "resta": "restano", "arriva": "arrivano",
        "costa": "costano", "contiene": "contengono", "viene": "vengono", "va": "vanno",
    ]
    let subjectPronouns = ["lui", "lei", "loro", "loro"]

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
    }

    /// A vowel (or *h* + vowel, *hotel*) elides; *s* + consonant, *z*, *x*, *y*, *gn*, *ps*, *pn* and
    /// *i* + vowel take *lo*/*gli*.
    func onset(of word: String) -> Onset {
        let scalars = Array(word.unicodeScalars.prefix(2))
        guard let first = scalars.first else { return .consonant }
        let second = scalars.count > 1 ? scalars[1] : nil
        if first == "i", let second, Self.isVowel(second) { return .cluster }  // lo iogurt
        if Self.isVowel(first) { return .vowel }
        if first == "h", let second, Self.isVowel(second) { return .vowel }
        if first == "s", let second, !Self.isVowel(second) { return .cluster }
        if first == "z" || first == "x" || first == "y" { return .cluster }
        if word.startsWith("gn") || word.startsWith("ps") || word.startsWith("pn") { return .cluster }
        return .consonant
    }

    static func isVowel(_ scalar: Unicode.Scalar) -> Bool {
        "aeiouàèéìíòóùú".unicodeScalars.contains(scalar)
    }

    let elisions: WordSet = [
        "l'", "un'", "d'", "dell'", "all'", "dall'", "nell'", "sull'", "coll'", "quell'", "quest'", "bell'",
        "buon'", "sant'", "nessun'", "c'",
    ]

    // MARK: Default forms (README-it.md)

    /// *-o* → *-i*, *-a* → *-e* (feminine) or *-i*, *-e* → *-i*; other endings (an accented vowel, a
    /// consonant, *-i*) do not change. The lexicon lists the rest (*-co* → *-chi*, *uova*, *arance*).
    func defaultPlural(ofNoun lemma: String, gender: LexiconEntry.Gender?) -> String {
        if lemma.endsWith("o") || lemma.endsWith("e") { return lemma.droppingLastBytes(1) + "i" }
        if lemma.endsWith("a") { return lemma.droppingLastBytes(1) + (gender == .feminine ? "e" : "i") }
        return lemma
    }

    func singularCandidates(of word: String) -> [String] {
        let stem = word.droppingLastBytes(1)
        if word.endsWith("i") { return [stem + "o", stem + "e", stem + "a"] }
        if word.endsWith("e") { return [stem + "a"] }
        return []
    }

    func defaultFeminine(ofAdjective lemma: String) -> String {
        lemma.endsWith("o") ? lemma.droppingLastBytes(1) + "a" : lemma
    }

    func defaultMasculinePlural(ofAdjective lemma: String) -> String {
        lemma.endsWith("o") || lemma.endsWith("e") ? lemma.droppingLastBytes(1) + "i" : lemma
    }

    func defaultFemininePlural(ofFeminine feminine: String) -> String {
        if feminine.endsWith("a") { return feminine.droppingLastBytes(1) + "e" }
        if feminine.endsWith("e") { return feminine.droppingLastBytes(1) + "i" }
        return feminine
    }

    func adjectiveLemmaCandidates(of word: String) -> [String] {
        guard word.endsWith("a") || word.endsWith("i") || word.endsWith("e") else { return [word] }
        let stem = word.droppingLastBytes(1)
        return [word, stem + "o", stem + "e"]
    }

    func shortForm(_ lemma: String, entry: LexiconEntry?, features: GrammaticalFeatures, before onset: Onset)
        -> String?
    {
        Self.shortForm(lemma, features, before: onset)
    }

    /// The short forms before a noun: *buono* → *buon* (not before a cluster; *buon'* before a
    /// feminine vowel); *bello* like the article *quello* (*bel*, *bello*, *bell'*, *bei*, *begli*);
    /// *grande* → *gran* before a singular consonant; *santo* → *san*, *sant'*.
    static func shortForm(_ lemma: String, _ features: GrammaticalFeatures, before onset: Onset) -> String? {
        let feminine = features.gender == .feminine
        switch lemma {
        case "buono":
            guard !features.isPlural else { return nil }
            if feminine { return onset == .vowel ? "buon'" : nil }
            return onset == .cluster ? nil : "buon"
        case "bello":
            let forms = DeterminerForms(
                "bel",
                "bella",
                "bei",
                "belle",
                masculineBeforeVowel: "bell'",
                feminineBeforeVowel: "bell'",
                masculineBeforeCluster: "bello",
                masculinePluralBeforeVowelOrCluster: "begli"
            )
            return forms.form(features, before: onset)
        case "grande":
            return !features.isPlural && onset == .consonant ? "gran" : nil
        case "santo":
            guard !features.isPlural else { return nil }
            if onset == .vowel { return "sant'" }
            return feminine || onset == .cluster ? nil : "san"
        default:
            return nil
        }
    }

    // MARK: Contraction

    /// A preposition and the article after it are written as one word: *di* + *il* → *del*, *a* +
    /// *lo* → *allo*, *in* + *la* → *nella*, *su* + *i* → *sui*, *da* + *l'* → *dall'*.
    func contraction(of preposition: String, with article: String) -> String? {
        let stem: String
        switch preposition {
        case "di": stem = "de"
        case "a": stem = "a"
        case "da": stem = "da"
        case "in": stem = "ne"
        case "su": stem = "su"
        default: return nil
        }
        switch article {
        case "il": return stem + "l"
        case "lo", "la", "le": return stem + "l" + article
        case "l'": return stem + "ll'"
        case "i": return stem + "i"
        case "gli": return stem + "gli"
        default: return nil
        }
    }

    func elided(_ word: String, before onset: Onset) -> String? { nil }
}
