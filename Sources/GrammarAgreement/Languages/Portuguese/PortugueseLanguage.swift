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
    ])
    let prepositions: WordSet = [
        "de", "em", "com", "sem", "para", "por", "a", "à", "ao", "aos", "às", "do", "da", "dos", "das", "no", "na",
        "nos", "nas", "pelo", "pela", "tipo", "até",
    ]
    let conjunctions: WordSet = ["e", "ou", "nem"]
    let sizeAdjectives: WordSet = ["pequeno", "médio", "grande", "gigante", "duplo", "mini", "normal", "família"]
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

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
    }

    /// Portuguese articles do not change with the next word.
    func onset(of word: String) -> Onset { .consonant }

    static func isVowel(_ scalar: Unicode.Scalar) -> Bool {
        "aeiouáéíóúâêôãõàü".unicodeScalars.contains(scalar)
    }

    /// Whether a written accent falls on a vowel other than in the last syllable (*fácil*, *lápis*),
    /// which makes a final *-l*/*-s* unstressed.
    static func isStressedBeforeLastSyllable(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard let lastVowel = scalars.lastIndex(where: isVowel) else { return false }
        var index = lastVowel
        while index > 0, isVowel(scalars[index - 1]) { index -= 1 }
        return scalars[..<index].contains { "áéíóúâêô".unicodeScalars.contains($0) }
    }

    /// Removes the written accent from the last syllable (*português* → *portugues*, before *-es*).
    static func removingFinalAccent(_ word: String) -> String {
        let plain: [Unicode.Scalar: Unicode.Scalar] = [
            "á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "ê": "e", "ô": "o",
        ]
        var scalars = Array(word.unicodeScalars)
        guard let last = scalars.lastIndex(where: { plain[$0] != nil }),
            !scalars[(last + 1)...].contains(where: isVowel)
        else { return word }
        scalars[last] = plain[scalars[last]] ?? scalars[last]
        return String(String.UnicodeScalarView(scalars))
    }

    // MARK: Nouns

    /// The plural by ending (Academia Brasileira de Letras): vowels and nasal *-ã* take *-s*; *-ão*
    /// takes *-ões* (the *-ães*/*-ãos* nouns are listed); *-m* → *-ns*; *-r*, *-z* and a stressed
    /// *-s* take *-es*; *-al*, *-el*, *-ol*, *-ul* → *-ais*, *-éis*, *-óis*, *-uis*, stressed *-il* →
    /// *-is* and unstressed *-il*, *-el* → *-eis*; unstressed *-s* and *-x* do not change.
    func regularPlural(ofNoun lemma: String) -> String {
        guard let last = lemma.unicodeScalars.last else { return lemma }
        // cachorro-quente → cachorros-quentes; a verb first (guarda-chuva → guarda-chuvas) keeps it.
        if let compound = hyphenatedPlural(lemma, isVerbLike: Self.isVerbStem) { return compound }
        if lemma.endsWith("ão") { return lemma.droppingLastBytes("ão".utf8.count) + "ões" }
        if Self.isVowel(last) { return lemma + "s" }
        let unstressed = Self.isStressedBeforeLastSyllable(lemma)
        switch last {
        case "m": return lemma.droppingLastBytes(1) + "ns"
        case "r", "z": return lemma + "es"
        case "s":
            if unstressed { return lemma }  // lápis, ônibus
            return Self.removingFinalAccent(lemma) + "es"  // português → portugueses, gás → gases
        case "x": return lemma
        case "l":
            let stem = lemma.droppingLastBytes(2)
            if lemma.endsWith("al") { return stem + "ais" }
            if lemma.endsWith("ul") { return stem + "uis" }
            if lemma.endsWith("ol") { return unstressed ? stem + "ois" : stem + "óis" }
            if lemma.endsWith("el") { return unstressed ? stem + "eis" : stem + "éis" }
            if lemma.endsWith("il") { return unstressed ? stem + "eis" : stem + "is" }
            return lemma + "s"
        default:
            return lemma + "s"  // croissant, bacon
        }
    }

    /// A compound's first part ending in *-a* or *-e* reads as a verb (*guarda-*, *abre-*, *quebra-*).
    static func isVerbStem(_ part: String) -> Bool {
        part.endsWith("a") || part.endsWith("e")
    }

    func singularCandidates(of word: String) -> [String] {
        var candidates: [String] = []
        if word.endsWith("ões") || word.endsWith("ães") { candidates.append(word.droppingLastBytes(4) + "ão") }
        if word.endsWith("ns") { candidates.append(word.droppingLastBytes(2) + "m") }
        if word.endsWith("éis") { candidates.append(word.droppingLastBytes(4) + "el") }
        if word.endsWith("óis") { candidates.append(word.droppingLastBytes(4) + "ol") }
        if word.endsWith("ais") { candidates.append(word.droppingLastBytes(3) + "al") }
        if word.endsWith("is") { candidates.append(word.droppingLastBytes(2) + "il") }
        if word.endsWith("es") { candidates.append(word.droppingLastBytes(2)) }
        if word.endsWith("s") { candidates.append(word.droppingLastBytes(1)) }
        return candidates
    }

    /// Feminine: *-a*, *-ção*, *-são*, *-dade*, *-gem*, *-tude*, *-ice*, *-ez*; masculine: *-o*, *-ão*,
    /// *-or*, *-l*, *-e* and the rest.
    func guessedGender(ofNoun lemma: String) -> Morphology.GrammaticalGender {
        if Self.feminineEndings.matches(lemma) { return .feminine }
        if lemma.endsWith("ma") && lemma.endsWith("ema") { return .masculine }
        return lemma.endsWith("a") || lemma.endsWith("ã") ? .feminine : .masculine
    }

    private static let feminineEndings = EndingTable(
        (["ção", "são", "dade", "gem", "tude", "ice", "ez", "ise", "agem"], true)
    )

    // MARK: Adjectives

    func adjectiveForm(
        _ lemma: String,
        entry: LexiconEntry?,
        features: GrammaticalFeatures,
        before next: String?
    ) -> String {
        if entry?.isInvariable == true { return lemma }
        let singular =
            features.gender == .feminine ? entry?.feminine?.fastLowercased ?? Self.feminine(of: lemma) : lemma
        guard features.isPlural else { return singular }
        if features.gender != .feminine, let plural = entry?.plural { return plural.fastLowercased }
        return regularPlural(ofNoun: singular)
    }

    /// The feminine by ending: *-o* → *-a*, *-ês* → *-esa*, *-or* → *-ora* (comparatives listed),
    /// *-ão* → *-ã*, *-u* → *-ua*; *-e*, *-l*, *-z*, *-m* and *-s* are shared.
    static func feminine(of lemma: String) -> String {
        if lemma.endsWith("o") { return lemma.droppingLastBytes(1) + "a" }
        if lemma.endsWith("ês") { return removingFinalAccent(lemma) + "a" }
        if lemma.endsWith("or") { return lemma + "a" }
        if lemma.endsWith("ão") { return lemma.droppingLastBytes(1) }
        if lemma.endsWith("u") { return lemma + "a" }
        return lemma
    }

    func adjectiveLemmaCandidates(of word: String) -> [String] {
        var candidates: [String] = []
        var singular = word
        if word.endsWith("s") {
            singular = word.droppingLastBytes(1)
            candidates += singularCandidates(of: word)
        }
        if singular.endsWith("a") {
            candidates += [singular.droppingLastBytes(1) + "o", singular.droppingLastBytes(1)]
        }
        if singular.endsWith("esa") { candidates.append(singular.droppingLastBytes(3) + "ês") }
        candidates.append(singular)
        return candidates
    }

    /// Endings of Portuguese adjectives: participles (*-ado*, *-ido*), *-oso*, *-al*, *-vel*, *-ico*,
    /// *-ino*, *-ano*, *-ês*, *-ante*, *-ente*, *-eiro*, *-ivo*, *-il*, *-ar*, *-ento*, *-udo*.
    func looksLikeAdjective(_ word: String) -> Bool {
        Self.adjectiveEndings.matches(word)
    }

    private static let adjectiveEndings = EndingTable((adjectiveEndingList, true))
    private static let adjectiveEndingList = [
        "ado", "ada", "ido", "ida", "oso", "osa", "al", "vel", "ico", "ica", "ino", "ina", "ano", "ana", "ês",
        "esa", "ante", "ente", "eiro", "eira", "ivo", "iva", "il", "ar", "ento", "enta", "udo", "uda", "ão",
        "ã", "ro", "ra", "to", "ta", "do", "da", "co", "ca", "go", "ga", "lo", "la", "no", "na", "so", "sa",
    ]

    func isMasculineAdjectiveBase(_ word: String) -> Bool {
        (word.endsWith("o") || word.endsWith("or") || word.endsWith("ês")) && !word.endsWith("ão")
    }

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
