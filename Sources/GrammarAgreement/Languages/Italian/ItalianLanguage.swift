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
        "alle", "all'", "del", "della", "dello", "dei", "degli", "delle", "dell'",
    ]
    let conjunctions: WordSet = ["e", "ed", "o", "né"]
    let sizeAdjectives: WordSet = ["piccolo", "medio", "grande", "gigante", "doppio", "mini", "maxi", "normale"]
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

    // MARK: Nouns

    /// The plural by ending: an accented final vowel, a consonant, *-i* and *-ie* do not change
    /// (*caffè*, *toast*, *brioche* aside); *-co* → *-chi* (*-ico* → *-ici*), *-go* → *-ghi*, *-ca*
    /// → *-che*, *-ga* → *-ghe*, *-cia*/*-gia* → *-ce*/*-ge* after a consonant, *-io* → *-i*, *-o*
    /// and *-e* → *-i*, *-a* → *-e*.
    func regularPlural(ofNoun lemma: String) -> String {
        guard let last = lemma.unicodeScalars.last else { return lemma }
        if Self.isLoan(lemma) { return lemma }
        if !Self.isVowel(last) || "àèéìíòóùú".unicodeScalars.contains(last) { return lemma }
        if lemma.endsWith("i") || lemma.endsWith("ie") { return lemma }
        if lemma.unicodeScalars.count <= 2 { return lemma }  // re, tè
        if lemma.endsWith("ico") { return lemma.droppingLastBytes(1) + "i" }
        if lemma.endsWith("co") || lemma.endsWith("go") { return lemma.droppingLastBytes(1) + "hi" }
        if lemma.endsWith("ca") || lemma.endsWith("ga") { return lemma.droppingLastBytes(1) + "he" }
        if lemma.endsWith("cia") || lemma.endsWith("gia") {
            let scalars = Array(lemma.unicodeScalars)
            let beforeC = scalars.count >= 4 ? scalars[scalars.count - 4] : "a"
            return Self.isVowel(beforeC) ? lemma.droppingLastBytes(1) + "e" : lemma.droppingLastBytes(2) + "e"
        }
        if lemma.endsWith("io") { return lemma.droppingLastBytes(1) }
        if lemma.endsWith("o") || lemma.endsWith("e") { return lemma.droppingLastBytes(1) + "i" }
        if lemma.endsWith("a") {
            // -a nouns of men and Greek -ma are listed (il problema → i problemi).
            return lemma.droppingLastBytes(1) + "e"
        }
        return lemma
    }

    func singularCandidates(of word: String) -> [String] {
        var candidates: [String] = []
        if word.endsWith("chi") || word.endsWith("ghi") { candidates.append(word.droppingLastBytes(2) + "o") }
        if word.endsWith("che") || word.endsWith("ghe") { candidates.append(word.droppingLastBytes(2) + "a") }
        if word.endsWith("i") {
            let stem = word.droppingLastBytes(1)
            candidates += [stem + "o", stem + "e", stem + "io", stem + "a"]
        }
        if word.endsWith("e") { candidates += [word.droppingLastBytes(1) + "a", word.droppingLastBytes(1) + "ia"] }
        return candidates
    }

    /// Loans keep their form in the plural: English (*pancake*, *waffle*), and French words in *-e*
    /// with a circumflex or cedilla or ending in *-che* (*crêpe*, *brioche*), which Italian never
    /// writes in a singular.
    static func isLoan(_ word: String) -> Bool {
        isEnglishLoan(word) || isFrenchLoan(word) || word.endsWith("fle") || word.endsWith("ake")
    }

    static func isFrenchLoan(_ word: String) -> Bool {
        word.endsWith("e")
            && (word.unicodeScalars.contains { "âêîôûç".unicodeScalars.contains($0) } || word.endsWith("che"))
    }

    /// *-a*, *-zione*, *-sione*, *-tà*, *-tù*, *-ie*, *-trice*, *-igine*, *-ite* are feminine, and so
    /// are French loans in *-e* (*la crêpe*, *la brioche*); *-o*, consonants, other accented vowels
    /// and the rest of *-e* masculine.
    func guessedGender(ofNoun lemma: String) -> Morphology.GrammaticalGender {
        if Self.isFrenchLoan(lemma) { return .feminine }
        if Self.feminineEndings.matches(lemma) { return .feminine }
        if lemma.endsWith("ma") && lemma.unicodeScalars.count > 4 && lemma.endsWith("ema") { return .masculine }
        return lemma.endsWith("a") ? .feminine : .masculine
    }

    private static let feminineEndings = EndingTable(
        (["zione", "sione", "tà", "tù", "ie", "trice", "igine", "ite", "gione", "udine"], true)
    )

    // MARK: Adjectives

    func adjectiveForm(
        _ lemma: String,
        entry: LexiconEntry?,
        features: GrammaticalFeatures,
        before next: String?
    ) -> String {
        if entry?.isInvariable == true { return lemma }
        if let next, let short = Self.shortForm(lemma, features, before: onset(of: next)) { return short }
        let feminine = features.gender == .feminine
        if lemma.endsWith("o") {
            let stem = lemma.droppingLastBytes(1)
            switch (feminine, features.isPlural) {
            case (false, false): return lemma
            case (true, false): return stem + "a"
            case (false, true): return entry?.plural?.fastLowercased ?? Self.masculinePluralInO(lemma)
            case (true, true): return Self.femininePluralInA(stem + "a")
            }
        }
        if lemma.endsWith("e") {
            guard !feminine || entry?.feminine == nil else {
                // -tore → -trice (vincitore, vincitrice).
                let feminineForm = entry?.feminine?.fastLowercased ?? lemma
                return features.isPlural ? regularPlural(ofNoun: feminineForm) : feminineForm
            }
            return features.isPlural ? lemma.droppingLastBytes(1) + "i" : lemma
        }
        return lemma  // blu, rosa, viola, extra: one form
    }

    /// *-co* → *-chi* (*-ico* → *-ici*), *-go* → *-ghi*, *-io* → *-i*, *-o* → *-i*.
    static func masculinePluralInO(_ lemma: String) -> String {
        if lemma.endsWith("ico") { return lemma.droppingLastBytes(1) + "i" }
        if lemma.endsWith("co") || lemma.endsWith("go") { return lemma.droppingLastBytes(1) + "hi" }
        if lemma.endsWith("io") { return lemma.droppingLastBytes(1) }
        return lemma.droppingLastBytes(1) + "i"
    }

    /// *-ca* → *-che*, *-ga* → *-ghe*, *-cia*/*-gia* → *-ce*/*-ge* after a consonant, *-a* → *-e*.
    static func femininePluralInA(_ singular: String) -> String {
        if singular.endsWith("ca") || singular.endsWith("ga") { return singular.droppingLastBytes(1) + "he" }
        if singular.endsWith("cia") || singular.endsWith("gia") {
            let scalars = Array(singular.unicodeScalars)
            let before = scalars.count >= 4 ? scalars[scalars.count - 4] : "a"
            if !isVowel(before) { return singular.droppingLastBytes(2) + "e" }
        }
        return singular.droppingLastBytes(1) + "e"
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

    func adjectiveLemmaCandidates(of word: String) -> [String] {
        var candidates: [String] = []
        if word.endsWith("chi") || word.endsWith("ghi") || word.endsWith("che") || word.endsWith("ghe") {
            candidates.append(word.droppingLastBytes(2) + "o")
        }
        if word.endsWith("i") || word.endsWith("a") || word.endsWith("e") {
            let stem = word.droppingLastBytes(1)
            candidates += [stem + "o", stem + "e", stem + "io"]
        }
        return candidates
    }

    /// Adjective endings: *-ato*, *-ito*, *-uto* (participles), *-oso*, *-ale*, *-ile*, *-ese*,
    /// *-ico*, *-ino*, *-ano*, *-ante*, *-ente*, *-bile*, *-ivo*, *-aro*, *-ello*, *-etto*, *-esco*.
    func looksLikeAdjective(_ word: String) -> Bool {
        Self.adjectiveEndings.matches(word)
    }

    private static let adjectiveEndings = EndingTable((adjectiveEndingList, true))
    private static let adjectiveEndingList = [
        "ato", "ata", "ito", "ita", "uto", "uta", "oso", "osa", "ale", "ile", "ese", "ico", "ica", "ino", "ina",
        "ano", "ana", "ante", "ente", "bile", "ivo", "iva", "aro", "ara", "ello", "ella", "etto", "etta", "esco",
        "esca", "ato", "eo", "ea", "ense", "iale", "ziale", "ato", "ido", "ida", "ingo", "ingue", "ro", "ra",
        "to", "ta", "do", "da", "co", "ca", "io", "ia", "lo", "la", "no", "na", "so", "sa", "vo", "va",
    ]

    func isMasculineAdjectiveBase(_ word: String) -> Bool {
        word.endsWith("o") && !word.endsWith("zione")
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
