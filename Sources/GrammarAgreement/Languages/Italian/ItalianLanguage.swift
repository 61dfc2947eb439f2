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
        // con + il is written col, con + i coi; the other articles stay apart (con la, con lo).
        DeterminerForms(
            "col",
            "con la",
            "coi",
            "con le",
            masculineBeforeVowel: "con l'",
            feminineBeforeVowel: "con l'",
            masculineBeforeCluster: "con lo",
            masculinePluralBeforeVowelOrCluster: "con gli"
        ),
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
        "buono", "bello", "grande", "piccolo", "nuovo", "vecchio", "doppio", "mezzo", "primo", "ultimo", "ottimo",
        "lungo", "altro", "santo", "gran", "vero", "unico", "triplo",
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

    let loans = EnglishLoans()

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
    }

    // MARK: Word formation (README-it.md)

    /// Diminutives *-ino*, *-etto*, *-ello* and the augmentative *-one* and their feminines on a
    /// stem (*cassat-a* → *cassatina*, *espress-o* → *espressino*, *focacc-ia* → *focaccina*,
    /// *barc-a* → *barchetta*).
    let wordFormation = WordFormation(
        suffixes: [
            DerivingSuffix(singular: "ino", plural: "ini", gender: .masculine, baseEndings: ["o", "a", "e", "ia"]),
            DerivingSuffix(singular: "ina", plural: "ine", gender: .feminine, baseEndings: ["a", "ia", "o", "e"]),
            DerivingSuffix(singular: "etto", plural: "etti", gender: .masculine, baseEndings: ["o", "e", "a"]),
            DerivingSuffix(singular: "etta", plural: "ette", gender: .feminine, baseEndings: ["a", "ia", "o", "e"]),
            DerivingSuffix(singular: "ello", plural: "elli", gender: .masculine, baseEndings: ["o", "e"]),
            DerivingSuffix(singular: "ella", plural: "elle", gender: .feminine, baseEndings: ["a"]),
            DerivingSuffix(singular: "one", plural: "oni", gender: .masculine, baseEndings: ["o", "a", "e"]),
            DerivingSuffix(singular: "ona", plural: "one", gender: .feminine, baseEndings: ["a"]),
        ],
        seams: [(derived: "ch", base: "c"), (derived: "gh", base: "g")]
    )

    /// A word ending in a consonant or an accented vowel does not change (*i toast*, *i frappè*);
    /// nor does an English noun (*i brownie*, *i pancake*).
    ///
    /// A one-word noun in *-a*, *-o* or *-one* takes the regular plural (*-e*, *-i*, *-oni*; *-ca* → *-che*,
    /// *-ga* → *-ghe*, *-cia*/*-gia* → *-ce*/*-ge* after a consonant, *-cie*/*-gie* after a vowel, *-io*
    /// → *-i*), but for the endings whose plural varies (*-co*, *-go*: *amici*, *fuochi*; *-ma*,
    /// *-ista*, often masculine; other *-e* words, often loans: *plumcake*), which stay unknown.
    func rulePlural(ofUnlisted word: String) -> String? {
        guard let last = word.last, word.count > 2, !word.contains(" "), !word.contains("-") else { return nil }
        if Self.accentedVowels.contains(last) || (last.isLetter && !Self.vowels.contains(last)) { return word }
        if loans.isCountableNoun(word) { return word }
        // Two listed words written as one (capasanta, mezzaluna) may both change: capesante.
        if isCompoundOfListedWords(word) { return nil }
        let stem = word.droppingLastBytes(1)
        switch last {
        case "a":
            if word.endsWith("ma") || word.endsWith("ista") { return nil }
            if word.endsWith("ca") || word.endsWith("ga") { return stem + "he" }
            if word.endsWith("cia") || word.endsWith("gia") {
                let beforeI = stem.dropLast(2).last
                return beforeI.map { Self.vowels.contains($0) } == true ? stem + "e" : stem.droppingLastBytes(1) + "e"
            }
            return stem + "e"
        case "o":
            if word.endsWith("co") || word.endsWith("go") { return nil }
            return word.endsWith("io") ? stem : stem + "i"
        case "e":
            // Only -one (crescione, sfincione: -oni); other -e words are often loans (plumcake).
            return word.endsWith("one") ? stem + "i" : nil
        default:
            return nil
        }
    }

    /// *-o* and *-one* masculine (but *-zione*, *-sione*, *-gione*, feminine; other *-ione* either:
    /// *sfincione*, *opinione*). Not *-a*: the food words in *-a* that are masculine (*il
    /// gorgonzola*, *il marsala*) are the ones a dictionary leaves out.
    func gender(bySpelling lemma: String) -> Morphology.GrammaticalGender? {
        guard lemma.count > 2, !lemma.contains(" ") else { return nil }
        if lemma.endsWith("zione") || lemma.endsWith("sione") || lemma.endsWith("gione") { return .feminine }
        if lemma.endsWith("ione") { return nil }
        if lemma.endsWith("one") || lemma.endsWith("o") { return .masculine }
        return nil
    }

    let invariablePrefixes: Set<String> = ["mini", "maxi", "super", "extra", "semi"]
    let adjectiveDiminutives = [
        (ending: "ini", lemmaEnding: "ino"), ("ine", "ino"), ("ino", "ino"), ("ina", "ino"),
    ]

    /// Whether the word is a listed word of at least four letters (or its other gender) followed by
    /// a listed word of at least three, in either gender (*mezza|luna*, *capa|santa*).
    private func isCompoundOfListedWords(_ word: String) -> Bool {
        // Too long a word for any rule: read by none.
        guard word.utf8.count <= WordFormation.longestWord else { return true }
        let scalars = Array(word)
        guard scalars.count >= 7 else { return false }
        for split in 4...(scalars.count - 3) {
            let first = String(scalars[..<split])
            let rest = String(scalars[split...])
            let restStem = rest.droppingLastBytes(1)
            guard [rest, restStem + "o", restStem + "e"].contains(where: { lexicon.entry($0) != nil }) else { continue }
            // The first part as listed or in another gender (mezza from mezzo, capa from capo).
            let stem = first.droppingLastBytes(1)
            if [first, stem + "o", stem + "e"].contains(where: { lexicon.entry($0) != nil }) { return true }
        }
        return false
    }

    private static let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    private static let accentedVowels: Set<Character> = ["à", "è", "é", "ì", "ò", "ó", "ù"]

    /// A vowel (or *h* + vowel, *hotel*) elides; *s* + consonant, *z*, *x*, *y*, *gn*, *ps*, *pn* and
    /// *i* + vowel take *lo*/*gli*.
    func onset(of word: String) -> Onset {
        let scalars = Array(word.unicodeScalars.prefix(2))
        guard let first = scalars.first else { return .consonant }
        if ("0"..."9").contains(first) { return Self.onset(ofNumeral: word) }
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

    /// How a number written in digits is read aloud starts: *otto* (8), *undici* (11), *ottanta*
    /// (80–89), *ottocento* (800–899) and the thousands and millions read with them (*ottomila*)
    /// start with a vowel, so *gli 8 amaretti*, *degli 11*; every other number with a consonant (*i 7*,
    /// *i 18*: *diciotto*). *Uno* is left out: before 1 the noun is singular and *l'1* is not written.
    static func onset(ofNumeral text: String) -> Onset {
        // The integer part, without grouping separators (1.800 / 1 800 / 1,5).
        let integer = text.prefix { $0.isNumber || $0 == "." || $0 == "\u{202F}" || $0 == "\u{A0}" || $0 == " " }
        guard let value = Int(integer.filter(\.isNumber).prefix(18)) else { return .consonant }
        var leading = value
        var scale = 0
        while leading >= 1000 {
            leading /= 1000
            scale += 1
        }
        // mille, un milione: 1 before thousands is not read as uno.
        if leading == 1 { return .consonant }
        let hundreds = leading / 100
        if hundreds > 0 { return hundreds == 8 ? .vowel : .consonant }
        switch leading {
        case 8, 11, 80...89: return .vowel
        default: return .consonant
        }
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
