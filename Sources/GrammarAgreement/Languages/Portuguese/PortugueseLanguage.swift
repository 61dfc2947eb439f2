import RichText

/// Portuguese (Brazil): plurals by ending (*-ão* → *-ões* unless the lexicon says *-ães*/*-ãos*, *-l* →
/// *-is*, *-m* → *-ns*, *-r*/*-z*/stressed *-s* → *-es*, unstressed *-s* and *-x* unchanged),
/// adjectives after the noun agreeing in gender and number, and the contractions of *de*, *em*, *a*
/// and *por* with the article (*do*, *na*, *à*, *pelo*). CLDR Portuguese counts 0 and 1.5 as *one*.
struct PortugueseLanguage: RomanceLanguage {
    let code = "pt"
    let lexicon: Lexicon

    let determiners = DeterminerTable([
        DeterminerForms("o", "a", "os", "as"),
        DeterminerForms("um", "uma", "uns", "umas"),
        DeterminerForms("do", "da", "dos", "das"),
        DeterminerForms("no", "na", "nos", "nas"),
        DeterminerForms("ao", "à", "aos", "às"),
        DeterminerForms("pelo", "pela", "pelos", "pelas"),
        DeterminerForms("este", "esta", "estes", "estas"),
        DeterminerForms("esse", "essa", "esses", "essas"),
        DeterminerForms("aquele", "aquela", "aqueles", "aquelas"),
        DeterminerForms("meu", "minha", "meus", "minhas"),
        DeterminerForms("teu", "tua", "teus", "tuas"),
        DeterminerForms("seu", "sua", "seus", "suas"),
        DeterminerForms("nosso", "nossa", "nossos", "nossas"),
        DeterminerForms("algum", "alguma", "alguns", "algumas"),
        DeterminerForms("nenhum", "nenhuma", "nenhuns", "nenhumas"),
        DeterminerForms("outro", "outra", "outros", "outras"),
        DeterminerForms("todo", "toda", "todos", "todas"),
        DeterminerForms("cada", "cada", "cada", "cada"),
        // em / de + demonstrative or indefinite article, written as one word.
        DeterminerForms("neste", "nesta", "nestes", "nestas"),
        DeterminerForms("nesse", "nessa", "nesses", "nessas"),
        DeterminerForms("naquele", "naquela", "naqueles", "naquelas"),
        DeterminerForms("deste", "desta", "destes", "destas"),
        DeterminerForms("desse", "dessa", "desses", "dessas"),
        DeterminerForms("daquele", "daquela", "daqueles", "daquelas"),
        DeterminerForms("num", "numa", "nuns", "numas"),
    ])
    let prepositions: WordSet = [
        "de", "em", "com", "sem", "para", "por", "a", "à", "ao", "aos", "às", "do", "da", "dos", "das", "no", "na",
        "nos", "nas", "pelo", "pela", "tipo", "até",
    ]
    let conjunctions: WordSet = ["e", "ou", "nem"]
    let sizeAdjectives: WordSet = ["pequeno", "médio", "grande", "gigante", "duplo", "mini", "normal", "família"]
    let prenominalAdjectives: WordSet = [
        "bom", "grande", "pequeno", "novo", "velho", "meio", "duplo", "primeiro", "último", "ótimo", "belo", "outro",
        "mesmo", "triplo", "verdadeiro", "delicioso", "enorme",
    ]
    let personNouns: WordTable<String> = [
        "cliente": "cliente", "amigo": "amiga", "convidado": "convidada", "usuário": "usuária",
        "garçom": "garçonete", "cozinheiro": "cozinheira", "caixa": "caixa", "sócio": "sócia",
        "assinante": "assinante", "barista": "barista", "vizinho": "vizinha", "vencedor": "vencedora",
        "senhor": "senhora",
    ]
    let verbs: WordTable<String> = [
        "está": "estão", "é": "são", "estava": "estavam", "será": "serão", "tem": "têm", "fica": "ficam",
        "chega": "chegam", "custa": "custam", "contém": "contêm", "vem": "vêm", "vai": "vão", "foi": "foram",
    ]
    let subjectPronouns = ["ele", "ela", "eles", "elas"]

    let loans = EnglishLoans()
    let invariablePrefixes: Set<String> = ["mini", "maxi", "super", "extra", "semi"]
    let adjectiveDiminutives = [
        (ending: "inhos", lemmaEnding: "inho"), ("inhas", "inho"), ("inho", "inho"), ("inha", "inho"),
    ]

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
    }

    // MARK: Word formation (README-pt.md)

    /// *-inho*/*-inha* on a stem (*queijad-a* → *queijadinha*, *rosc-a* → *rosquinha*), *-zinho*/*-zinha*
    /// on a whole word, its plural on the base's (*pastéis* → *pasteizinhos*, *pães* → *pãezinhos*).
    let wordFormation = WordFormation(
        suffixes: [
            DerivingSuffix(
                singular: "zinho",
                plural: "zinhos",
                gender: .masculine,
                baseEndings: [""],
                pluralFromBase: true
            ),
            DerivingSuffix(
                singular: "zinha",
                plural: "zinhas",
                gender: .feminine,
                baseEndings: [""],
                pluralFromBase: true
            ),
            DerivingSuffix(singular: "inho", plural: "inhos", gender: .masculine, baseEndings: ["o", "e", "a", ""]),
            DerivingSuffix(singular: "inha", plural: "inhas", gender: .feminine, baseEndings: ["a", "e", "o", ""]),
        ],
        seams: [(derived: "qu", base: "c"), (derived: "gu", base: "g"), (derived: "c", base: "ç")]
    )

    /// A word ending in an oral vowel takes *-s* (*frappuccinos*, *tapiocas*): Portuguese has no other
    /// plural for it. An English noun takes *-s* too (*pancakes*, *nuggets*), where a Portuguese word
    /// with its ending would not (*-l*, *-r*, *-m*).
    func rulePlural(ofUnlisted word: String) -> String? {
        // Not -ão, whose plural varies (sanduichões, pães, mãos).
        if let last = word.last, Self.oralVowels.contains(last), word.count > 2, !word.contains(" "),
            !word.contains("-"), !word.endsWith("ão")
        {
            return word + "s"
        }
        return loans.isCountableNoun(word) ? EnglishLoans.sPlural(word) : nil
    }

    func gender(bySpelling lemma: String) -> Morphology.GrammaticalGender? { genderByFinalVowel(lemma) }

    private static let oralVowels: Set<Character> = ["a", "e", "o", "i", "u", "á", "é", "í", "ó", "ú", "â", "ê", "ô"]

    /// Portuguese articles do not change with the next word.
    func onset(of word: String) -> Onset { .consonant }

    let elisions: WordSet = []

    // MARK: Default forms (README-pt.md)

    /// *-s* is added, but to *-s* and *-x* (*lápis*, *tórax*); the lexicon lists every other plural
    /// (*pães*, *pastéis*, *limões*, *bem-casados*).
    func defaultPlural(ofNoun lemma: String, gender: LexiconEntry.Gender?) -> String { Self.plural(lemma) }

    private static func plural(_ word: String) -> String {
        word.endsWith("s") || word.endsWith("x") ? word : word + "s"
    }

    func singularCandidates(of word: String) -> [String] {
        word.endsWith("s") ? [word.droppingLastBytes(1)] : []
    }

    func defaultFeminine(ofAdjective lemma: String) -> String {
        lemma.endsWith("o") ? lemma.droppingLastBytes(1) + "a" : lemma
    }

    func defaultMasculinePlural(ofAdjective lemma: String) -> String { Self.plural(lemma) }

    func defaultFemininePlural(ofFeminine feminine: String) -> String { Self.plural(feminine) }

    func adjectiveLemmaCandidates(of word: String) -> [String] {
        var candidates = [word]
        let singular = word.endsWith("s") ? word.droppingLastBytes(1) : word
        if singular != word { candidates.append(singular) }
        if singular.endsWith("a") { candidates.append(singular.droppingLastBytes(1) + "o") }
        return candidates
    }

    func shortForm(_ lemma: String, entry: LexiconEntry?, features: GrammaticalFeatures, before onset: Onset)
        -> String?
    { nil }

    // MARK: Contraction

    /// *de*, *em*, *a* and *por* join the article after them: *do*, *da*, *no*, *na*, *ao*, *à*, *pelo*,
    /// *pela*, and *de*/*em* + *um* → *dum*, *num* in writing that uses them (not contracted here).
    func contraction(of preposition: String, with article: String) -> String? {
        switch article {
        case "o", "a", "os", "as": break
        default: return nil
        }
        switch preposition {
        case "de": return "d" + article
        case "em": return "n" + article
        case "por": return "pel" + article
        case "a":
            switch article {
            case "o": return "ao"
            case "os": return "aos"
            case "a": return "à"
            default: return "às"
            }
        default: return nil
        }
    }

    func elided(_ word: String, before onset: Onset) -> String? { nil }
}
