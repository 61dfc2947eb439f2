import RichText

/// Spanish agreement: the head noun takes the span's number, and its gender (from the lexicon or
/// its ending) and number spread to determiners and adjectives — before the noun, after it, and
/// after a prepositional complement (*2 tazas de café pequeñas*). Reader-addressing words follow the
/// term of address (*Bienvenida*), and *de el*/*a el* contract.
struct SpanishGrammar: LanguageGrammar {
    let language = "es"
    let lexicon: Lexicon
    private let nouns: SpanishNouns
    private let adjectives: SpanishAdjectives

    /// Every plural the Spanish dictionary has (`Lexicons/es.plurals.txt`): the rules' plurals of
    /// nouns the lexicon does not list are checked against it. `nil` (no list) checks nothing.
    private let plurals: WordSet?

    init(lexicon: Lexicon, plurals: WordSet? = Lexicon.bundledWords("es.plurals")) {
        self.lexicon = lexicon
        self.plurals = plurals
        nouns = SpanishNouns(lexicon: lexicon)
        adjectives = SpanishAdjectives(lexicon: lexicon)
    }

    /// Prepositions that end the part of a name that inflects (*tazas* de café).
    static let prepositions: WordSet = [
        "de", "con", "sin", "en", "a", "para", "por", "entre", "hasta", "al", "del", "tipo",
    ]
    static let conjunctions: WordSet = ["y", "e", "o", "u", "ni"]

    /// Nouns for people whose form follows their gender (*cliente*/*clienta*).
    static let personNouns = PersonNouns([
        "cliente": "clienta", "señor": "señora", "jefe": "jefa", "presidente": "presidenta", "amigo": "amiga",
        "socio": "socia", "usuario": "usuaria", "invitado": "invitada", "compañero": "compañera",
        "vecino": "vecina", "camarero": "camarera", "cocinero": "cocinera", "cajero": "cajera", "chico": "chica",
        "niño": "niña", "hijo": "hija", "abuelo": "abuela", "anfitrión": "anfitriona", "profesor": "profesora",
        "doctor": "doctora", "dueño": "dueña", "propietario": "propietaria", "repartidor": "repartidora",
        "consumidor": "consumidora", "comprador": "compradora", "suscriptor": "suscriptora",
        "miembro": "miembro", "estudiante": "estudiante", "barista": "barista", "chef": "chef",
        "comensal": "comensal", "visitante": "visitante", "huésped": "huésped", "ganador": "ganadora",
        "jugador": "jugadora", "participante": "participante",
    ])
    /// Forms of *estar*, *ser* and *haber* that sit in a span addressing the reader (*¿Estás listo?*).
    static let auxiliaries: WordSet = [
        "estás", "está", "estáis", "están", "estoy", "eres", "es", "sois", "son", "soy", "has", "ha", "habéis",
        "han", "he", "sido", "estado", "serás", "estarás", "fuiste", "fue", "quedas", "queda", "te", "se", "le",
        "usted", "tú", "vos",
    ]
    /// Forms of *haber*, after which a participle keeps its masculine singular.
    static let haberForms: WordSet = [
        "he", "has", "ha", "hemos", "habéis", "han", "había", "habías", "habíamos", "habían", "haya", "hayas",
        "habrás", "habrá", "habría",
    ]
    /// Size adjectives, which after a complement describe the container (*2 tazas de café pequeñas*).
    static let sizeAdjectives: WordSet = [
        "pequeño", "mediano", "grande", "chico", "enorme", "gigante", "doble", "triple", "extra", "individual",
        "familiar", "mini", "normal", "sencillo", "mayor", "menor", "xl",
    ]

    /// Third-person verbs that agree in number (*está*/*están*).
    private static let verbs = NumberedVerbs([
        "está": "están", "es": "son", "estaba": "estaban", "fue": "fueron", "será": "serán",
        "estará": "estarán", "ha": "han", "queda": "quedan", "llega": "llegan", "incluye": "incluyen",
        "cuesta": "cuestan", "sale": "salen", "viene": "vienen", "lleva": "llevan", "tiene": "tienen",
        "contiene": "contienen", "parece": "parecen", "sabe": "saben",
    ])

    // MARK: Inflecting a span

    private enum Role {
        case number, determiner, preposition, conjunction, auxiliary, content
    }

    /// The closed classes a word form belongs to (*al* is an article before the noun and a
    /// preposition after it).
    private struct ClosedClass: OptionSet {
        let rawValue: UInt8
        static let auxiliary = ClosedClass(rawValue: 1)
        static let determiner = ClosedClass(rawValue: 2)
        static let preposition = ClosedClass(rawValue: 4)
        static let conjunction = ClosedClass(rawValue: 8)
    }

    /// Every closed-class form, so a word needs one lookup.
    private static let closedClasses: WordTable<ClosedClass> = {
        var table = WordTable<ClosedClass>()
        func add(_ words: [String], _ closedClass: ClosedClass) {
            for word in words { table[word] = (table[word] ?? []).union(closedClass) }
        }
        add(auxiliaries.words, .auxiliary)
        add(SpanishDeterminers.lemmas.allKeys, .determiner)
        add(prepositions.words, .preposition)
        add(conjunctions.words, .conjunction)
        return table
    }()

    private func role(of word: Word, beforeHead: Bool) -> Role {
        if word.isNumber { return .number }
        guard let classes = Self.closedClasses[word.lower] else { return .content }
        let isNoun = word.hint?.partOfSpeech == .noun
        if classes.contains(.auxiliary), !isNoun { return .auxiliary }
        if beforeHead, classes.contains(.determiner), !isNoun { return .determiner }
        if classes.contains(.preposition) { return .preposition }
        if classes.contains(.conjunction) { return .conjunction }
        return .content
    }

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        let parts = phrase.conjuncts { Self.conjunctions.contains($0.lower) }
        guard parts.count > 1 else {
            let analysis = inflectWhole(&phrase, number: number, rule: rule, context: &context)
            contractArticles(&phrase)
            return analysis
        }
        // Nouns joined by a conjunction written in the template: each part agrees within itself, and
        // a number goes with the noun it counts (5 churros y chocolate caliente, 2 pinchos y una clara).
        let analysis = phrase.inflectEachConjunctApart(parts) { sub, own in
            inflectWhole(&sub, number: own, rule: rule, context: &context)
        }
        adjustConjunctions(&phrase)
        contractArticles(&phrase)
        return analysis
    }

    /// The preposition and *el* written as one word: *de el* → *del*, *a el* → *al*; `nil` for others.
    private static func contraction(of preposition: String) -> String? {
        switch preposition {
        case "de": "del"
        case "a": "al"
        default: nil
        }
    }

    /// *a* + *el* → *al*, *de* + *el* → *del* inside the span, where agreement made the article *el*
    /// (*a la %@* with *chicharrón* → *al chicharrón*).
    private func contractArticles(_ phrase: inout Phrase) {
        for index in phrase.words.indices.dropLast() {
            let word = phrase.words[index]
            let next = phrase.words[index + 1]
            guard !word.isNumber, word.replacement == nil, let contracted = Self.contraction(of: word.lower),
                next.replacement != nil, next.currentLower == "el"
            else { continue }
            phrase.words[index].set(CasePattern(of: word.text).apply(to: contracted, original: word.text))
            phrase.words[index + 1].replacement = ""
            phrase.words[index + 1].elides = true
        }
    }

    private func inflectWhole(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        if let fixed = phraseHead(in: phrase) {
            // A listed multi-word name (cold brew → cold brews): read as one noun of its gender, and
            // given its own plural.
            var collapsed = phrase
            collapsed.words.removeSubrange((fixed.start + 1)..<(fixed.start + fixed.length))
            var hint = collapsed.words[fixed.start].hint ?? Morphology()
            hint.partOfSpeech = .noun
            hint.grammaticalGender = hint.grammaticalGender ?? fixed.entry.grammaticalGender
            collapsed.words[fixed.start].hint = hint
            let analysis = inflectWhole(&collapsed, number: number, rule: rule, context: &context)
            let isPlural = analysis.features?.isPlural ?? false
            let forms = (isPlural ? fixed.entry.plural ?? fixed.entry.lemma : fixed.entry.lemma).split(separator: " ")
            collapsed.words.replaceSubrange(
                fixed.start..<(fixed.start + 1),
                with: phrase.words[fixed.start..<(fixed.start + fixed.length)]
            )
            if forms.count == fixed.length {
                for offset in 0..<fixed.length { collapsed.words[fixed.start + offset].set(String(forms[offset])) }
            }
            phrase = collapsed
            return analysis
        }
        return inflectWalk(&phrase, number: number, rule: rule, context: &context)
    }

    /// Whether a plural carries an accent its singular lacks (the rules reading the stress).
    static func addsAccent(to lemma: String, in plural: String) -> Bool {
        func accents(_ text: String) -> Int { text.unicodeScalars.filter { "áéíóú".unicodeScalars.contains($0) }.count }
        return accents(plural) > accents(lemma)
    }

    /// Whether the word at `index` is followed, in the same argument, by a word neither lexicon
    /// nor dictionary knows: a foreign name of several words.
    private func startsUnknownName(_ phrase: Phrase, at index: Int) -> Bool {
        guard index + 1 < phrase.words.count, let argument = phrase.words[index].argument else { return false }
        let next = phrase.words[index + 1]
        guard next.argument == argument, !next.isNumber else { return false }
        let lower = next.lower
        return lexicon.entry(lower) == nil && lexicon.entry(forInflectedForm: lower) == nil
            && !(plurals?.contains(lower) ?? false) && !(plurals?.contains(nouns.plural(of: lower)) ?? false)
    }

    /// A listed multi-word noun with a plural of its own, at the first content word.
    private func phraseHead(in phrase: Phrase) -> (start: Int, length: Int, entry: LexiconEntry)? {
        guard lexicon.longestPhrase > 1,
            let start = phrase.words.indices.first(where: { role(of: phrase.words[$0], beforeHead: true) == .content })
        else { return nil }
        var found: (start: Int, length: Int, entry: LexiconEntry)?
        var text = phrase.words[start].lower
        guard lexicon.startsPhrase(text) else { return nil }
        for next in (start + 1)..<min(phrase.words.count, start + lexicon.longestPhrase) {
            guard !phrase.words[next].isNumber else { break }
            text += " " + phrase.words[next].lower
            if let entry = lexicon.entry(text), entry.canBeNoun, entry.plural != nil {
                found = (start, next - start + 1, entry)
            }
        }
        return found
    }

    private func inflectWalk(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        guard let head = head(of: phrase, hasNumber: number != nil, context: &context) else {
            return agreeWithRule(&phrase, rule: rule, number: number, context: &context)
                ?? PhraseAnalysis(features: nil, addressesReader: number == nil)
        }
        let word = phrase.words[head]
        let hint = word.hint ?? phrase.hint
        // A determiner written before the noun tells its number (un cocinillas is singular).
        let determinerNumber = phrase.words[..<head].lazy.compactMap { SpanishDeterminers.writtenNumber($0.lower) }
            .first
        let writtenPlural =
            hint?.number.map { $0 != .singular }
            ?? (lexicon.entry(word.lower) == nil ? determinerNumber : nil) ?? nouns.isPlural(word.lower)
        let lemma = writtenPlural ? nouns.guessedSingular(of: word.lower) : word.lower
        let entry = lexicon.entry(lemma)
        let target = rule?.number ?? number ?? (writtenPlural ? .plural : .singular)
        var gender = hint?.grammaticalGender ?? nouns.gender(of: lemma)
        if entry?.gender == .common, hint?.grammaticalGender == nil,
            phrase.words[..<head].contains(where: { SpanishDeterminers.writtenGender($0.lower) == true })
        {
            gender = .feminine  // la azúcar
        }
        let features = GrammaticalFeatures(gender: gender, number: target)

        if entry?.isUncountable != true {
            let form = features.isPlural ? nouns.plural(of: lemma) : lemma
            // A noun neither the hand-written lexicon nor the Spanish dictionary has takes the plural
            // its spelling rules make, unless they would write an accent it does not have (macaron:
            // not *macárones*) or it is the first of several unknown words of one name, whose head
            // Spanish order cannot tell (cold brew: not *colds brew*).
            let unknown = entry == nil && features.isPlural && form != word.lower && !(plurals?.contains(form) ?? true)
            if unknown, Self.addsAccent(to: lemma, in: form) || startsUnknownName(phrase, at: head) {
                context.warn(.unknown(word.text, language: language))
            } else {
                phrase.words[head].set(form)
                if unknown { context.warn(.inflectedByRule(word.text, to: form, language: language)) }
            }
        }
        // The words as they stand, to tell whether a gender read from the ending changed any.
        let guessesGender = entry == nil && hint?.grammaticalGender == nil && features.gender != nil
        let before = guessesGender ? phrase.words.map(\.current) : []
        agreeModifiers(
            &phrase,
            head: head,
            features: features,
            stressedA: entry?.takesMasculineArticle ?? (entry == nil && SpanishNouns.startsWithStressedA(lemma)),
            context: &context
        )
        // A gender read from the ending of a noun no lexicon lists, that changed the words around it.
        if guessesGender, let gender = features.gender,
            zip(before, phrase.words).enumerated().contains(where: {
                $0.offset != head && $0.element.0 != $0.element.1.current
            })
        {
            context.warn(.genderByRule(word.text, gender, language: language))
        }
        let isPerson = Self.personNouns.contains(lemma)
        return PhraseAnalysis(features: features, addressesReader: number == nil && isPerson)
    }

    /// The head: a noun hint; else the first known noun with only adjectives before it (*gran
    /// ensalada*, *Querido cliente*); else the first content word — unless the span has no number
    /// and its one word is adjective-like (*Bienvenido*, *listo*), when it has no head.
    private func head(of phrase: Phrase, hasNumber: Bool, context: inout AgreementContext) -> Int? {
        if let hinted = phrase.words.indices.first(where: { phrase.words[$0].hint?.partOfSpeech == .noun }) {
            return hinted
        }
        var content: [Int] = []
        scan: for index in phrase.words.indices {
            switch role(of: phrase.words[index], beforeHead: content.isEmpty) {
            case .content: content.append(index)
            case .preposition where !content.isEmpty: break scan
            default: continue
            }
        }
        guard let first = content.first else { return nil }
        var head: Int?
        for (position, index) in content.enumerated() where isKnownNoun(phrase.words[index]) {
            let modifiersOnly = content[..<position].allSatisfy { earlier in
                let word = phrase.words[earlier]
                return word.hint?.partOfSpeech == .adjective || isPrenominalAdjective(word.lower)
                    // An unknown word before the noun: only a masculine base in -o reads as an adjective.
                    || (lexicon.entry(word.lower) == nil && word.lower.endsWith("o"))
            }
            if modifiersOnly { head = index }
            break
        }
        if head == nil {
            let word = phrase.words[first]
            if content.count >= 2, word.hint?.partOfSpeech == .adjective || isPrenominalAdjective(word.lower) {
                head = content[1]
            } else if !hasNumber, content.count == 1, word.hint?.partOfSpeech != .noun,
                // After a determiner it is a noun (un tagarnina); alone, an unknown word reads as an
                // adjective only in the masculine base form templates use (listo, Bienvenido).
                !phrase.words[..<first].contains(where: { SpanishDeterminers.lemmas[$0.lower] != nil }),
                lexicon.entry(word.lower).map({ !$0.canBeNoun }) ?? Self.isMasculineAdjectiveBase(word.lower)
            {
                return nil
            } else {
                head = first
            }
        }
        guard let head else { return nil }
        for index in content where phrase.words[index].hint == nil {
            guard let entry = lexicon.entry(phrase.words[index].lower), entry.isAmbiguous else { continue }
            context.warn(
                .ambiguous(
                    phrase.words[index].text,
                    readAs: index == head ? "noun" : "adjective",
                    alternatives: entry.partsOfSpeech.map(\.rawValue)
                )
            )
        }
        return head
    }

    /// An unknown word in a masculine adjective form that has a distinct feminine: *listo*,
    /// *madrugador*, *comilón*, *francés* (but not nouns in *-ión*).
    static func isMasculineAdjectiveBase(_ word: String) -> Bool {
        if word.endsWith("o") { return true }
        if word.endsWith("ión") { return false }
        return ["or", "ón", "án", "ín", "és"].contains { word.endsWith($0) }
    }

    /// A noun the lexicon lists as a noun first, a person noun, or a listed plural.
    private func isKnownNoun(_ word: Word) -> Bool {
        let lower = word.lower
        if let entry = lexicon.entry(lower) { return entry.partsOfSpeech.first == .noun }
        if Self.personNouns.contains(lower) { return true }
        if let singular = nouns.singular(of: lower) {
            return lexicon.entry(singular)?.partsOfSpeech.first == .noun
                || Self.personNouns.feminineByMasculine[singular] != nil
        }
        return false
    }

    /// An adjective that goes before its noun here: one the lexicon lists first as an adjective, or a short form.
    private func isPrenominalAdjective(_ word: String) -> Bool {
        if let entry = lexicon.entry(word) { return entry.partsOfSpeech.first == .adjective }
        if let (entry, kind) = lexicon.entry(forInflectedForm: word) { return kind == .apocope || !entry.canBeNoun }
        // The regular feminine or plural of a listed adjective (media, medios from medio).
        for ending in ["as", "os", "a"] where word.endsWith(ending) {
            let base = word.droppingLastBytes(ending.utf8.count) + "o"
            if let entry = lexicon.entry(base), entry.partsOfSpeech.first == .adjective { return true }
        }
        return false
    }

    /// Determiners and adjectives around the head agree with it; nouns in apposition and the
    /// complements of prepositions keep their own form.
    private func agreeModifiers(
        _ phrase: inout Phrase,
        head: Int,
        features: GrammaticalFeatures,
        stressedA: Bool,
        context: inout AgreementContext
    ) {
        var inComplement = false
        /// The complement's own noun (de *café*), once seen.
        var complementNoun: Word?
        for index in phrase.words.indices where index != head {
            let word = phrase.words[index]
            let beforeHead = index < head
            switch role(of: word, beforeHead: beforeHead) {
            case .number, .conjunction, .auxiliary:
                continue
            case .determiner:
                let lemma = SpanishDeterminers.lemmas[word.lower] ?? word.lower
                let adjacent = index + 1 == head && stressedA && !features.isPlural && features.gender == .feminine
                if let form = SpanishDeterminers.form(lemma, features, beforeStressedA: adjacent) {
                    phrase.words[index].set(form)
                }
            case .preposition:
                if !beforeHead {
                    inComplement = true
                    complementNoun = nil
                }
            case .content:
                if beforeHead {
                    agreeAdjective(&phrase.words[index], features, beforeNoun: index + 1 == head, context: &context)
                } else if inComplement && SpanishDeterminers.lemmas[word.lower] != nil {
                    continue  // a la gallega, de la casa: the complement's article keeps its form
                } else if inComplement && complementNoun == nil {
                    if !isAdjective(word.lower, afterNoun: false) { complementNoun = word }
                } else if index > head, word.text != word.lower, CasePattern(of: word.text) == .capitalized,
                    CasePattern(of: phrase.words[head].text) == .lower
                {
                    continue  // ensalada César
                } else if isAdjective(word.lower, afterNoun: true) {
                    // An adjective given apart from the item (%@ %@ with "tarta de queso", "casero")
                    // describes the item, not the noun inside its complement.
                    let givenApart = word.argument != nil && word.argument != complementNoun?.argument
                    if let noun = complementNoun, !givenApart,
                        belongsToComplement(word.lower, noun: noun, head: features)
                    {
                        continue  // copa de vino tinto
                    }
                    agreeAdjective(&phrase.words[index], features, beforeNoun: false, context: &context)
                }
            }
        }
        adjustConjunctions(&phrase)
    }

    /// Whether an adjective after a complement describes the complement's noun: its written form
    /// agrees with that noun and not with the head (*copa de vino tinto*, *bolsa de patatas
    /// fritas*). Sizes describe the container and agree with the head (*tazas de café pequeñas*).
    private func belongsToComplement(_ adjective: String, noun: Word, head: GrammaticalFeatures) -> Bool {
        let (lemma, entry) = adjectives.lemma(of: adjective)
        if Self.sizeAdjectives.contains(lemma) { return false }
        let nounPlural = nouns.isPlural(noun.lower)
        let nounLemma = nounPlural ? nouns.guessedSingular(of: noun.lower) : noun.lower
        let nounFeatures = GrammaticalFeatures(
            gender: nouns.gender(of: nounLemma),
            number: nounPlural ? .plural : .singular
        )
        let asWritten = adjectives.form(of: lemma, entry: entry, features: nounFeatures)
        guard asWritten == adjective else { return false }
        // Written in a marked form for the complement (reina pepiada, patatas fritas), or in one the
        // head would not take (copa de vino tinto): it belongs to the complement.
        if adjective != lemma || adjective.endsWith("a") || adjective.endsWith("s") { return true }
        let forHead = adjectives.form(
            of: lemma,
            entry: entry,
            features: GrammaticalFeatures(gender: head.gender, number: nounFeatures.number)
        )
        return forHead != adjective
    }

    /// Whether a word is an adjective here: the lexicon's first reading, or an adjective-like ending.
    private func isAdjective(_ word: String, afterNoun: Bool) -> Bool {
        if let entry = lexicon.entry(word) {
            return entry.canBeAdjective && (afterNoun || entry.partsOfSpeech.first == .adjective)
        }
        if let (entry, _) = lexicon.entry(forInflectedForm: word) { return entry.canBeAdjective }
        if adjectives.lemma(of: word).entry != nil { return true }
        return afterNoun && SpanishAdjectives.looksLikeAdjective(word)
    }

    private func agreeAdjective(
        _ word: inout Word,
        _ features: GrammaticalFeatures,
        beforeNoun: Bool,
        context: inout AgreementContext
    ) {
        let (lemma, entry) = adjectives.lemma(of: word.lower)
        // An adjective the lexicon does not list, written in the plural, was written so on purpose
        // (pan multicereales): its singular would be a guess.
        if entry == nil, lemma != word.lower, word.lower.endsWith("s"), !features.isPlural { return }
        let form = adjectives.form(of: lemma, entry: entry, features: features, beforeNoun: beforeNoun)
        word.set(form)
        if entry == nil, form != word.lower, !isListedForm(word.lower) {
            context.warn(.inflectedByRule(word.text, to: form, language: language))
        }
    }

    /// Whether the lexicon lists `word` itself, or as a form of one of its words.
    private func isListedForm(_ word: String) -> Bool {
        lexicon.entry(word) != nil || lexicon.entry(forInflectedForm: word) != nil
    }

    /// *y* → *e* before an *i* sound, *o* → *u* before an *o* sound (*pan e infusión*, *siete u ocho*).
    private func adjustConjunctions(_ phrase: inout Phrase) {
        for index in phrase.words.indices.dropLast() {
            let lower = phrase.words[index].lower
            guard lower == "y" || lower == "e" || lower == "o" || lower == "u" else { continue }
            let next = phrase.words[index + 1].currentLower
            phrase.words[index].set(Self.conjunction(lower, before: next))
        }
    }

    /// The RAE's rule: *e* before words starting with the sound /i/ (*i-*, *hi-*, but not *hie-*,
    /// *hia-*, *hio-*, *hiu-*), *u* before the sound /o/ (*o-*, *ho-*).
    static func conjunction(_ conjunction: String, before next: String) -> String {
        switch conjunction {
        case "y", "e":
            let iSound =
                (next.startsWith("i") || next.startsWith("í") || next.startsWith("hi") || next.startsWith("hí"))
                && !["hia", "hie", "hio", "hiu"].contains { next.startsWith($0) }
            return iSound ? "e" : "y"
        case "o", "u":
            let oSound = ["o", "ó", "ho", "hó"].contains { next.startsWith($0) }
            return oSound ? "u" : "o"
        default:
            return conjunction
        }
    }

    // MARK: Agreement with arguments, concepts and the reader

    func features(of phrase: Phrase) -> GrammaticalFeatures? {
        var scratch = AgreementContext(texts: [])
        guard let head = head(of: phrase, hasNumber: false, context: &scratch) else { return nil }
        let word = phrase.words[head].lower
        let plural = nouns.isPlural(word)
        let lemma = plural ? nouns.guessedSingular(of: word) : word
        var gender = phrase.words[head].hint?.grammaticalGender ?? nouns.gender(of: lemma)
        if Self.personNouns.isDistinctFeminine(lemma) { gender = .feminine }
        return GrammaticalFeatures(gender: gender, number: plural ? .plural : .singular)
    }

    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext) {
        var afterHaber = false
        for index in phrase.words.indices {
            let word = phrase.words[index]
            if word.isNumber { continue }
            let lower = word.lower
            // A participle after haber does not agree (has suscrito, se ha enviado).
            if Self.haberForms.contains(lower) {
                afterHaber = true
                continue
            }
            if afterHaber {
                afterHaber = false
                if lower.endsWith("do") || lower.endsWith("to") || lower.endsWith("cho") || lower.endsWith("so") {
                    continue
                }
            }
            // What follows a preposition (bienvenido *de nuevo*, suscrito *al boletín*) has its own agreement.
            if index > 0, Self.prepositions.contains(lower) { break }
            if let lemma = SpanishDeterminers.lemmas[lower], let form = SpanishDeterminers.form(lemma, features) {
                phrase.words[index].set(form)
            } else if let person = personForm(lower, features) {
                phrase.words[index].set(person)
            } else if Self.verbs.contains(lower) {
                if let form = Self.verbs.form(of: lower, plural: features.isPlural) { phrase.words[index].set(form) }
            } else if Self.prepositions.contains(lower) || Self.conjunctions.contains(lower)
                || Self.auxiliaries.contains(lower)
            {
                continue
            } else if let entry = lexicon.entry(lower), entry.canBeNoun, !entry.canBeAdjective {
                continue
            } else if isAdjective(lower, afterNoun: true) {
                // Before the noun an adjective keeps its short form (el primer cliente).
                let beforeNoun =
                    index + 1 < phrase.words.count && !phrase.words[index + 1].isNumber
                    && (personForm(phrase.words[index + 1].lower, features) != nil
                        || lexicon.entry(phrase.words[index + 1].lower)?.canBeNoun == true)
                agreeAdjective(&phrase.words[index], features, beforeNoun: beforeNoun, context: &context)
            }
        }
        adjustConjunctions(&phrase)
    }

    /// A person noun in the gender and number asked for (*cliente* → *clienta*).
    private func personForm(_ word: String, _ features: GrammaticalFeatures) -> String? {
        Self.personNouns.form(of: word, for: features) { singular, _ in nouns.plural(of: singular) }
    }

    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? { term.singularFeatures }

    // MARK: Pronouns

    private static let subjectPronouns = ["él", "ella", "ellos", "ellas"]
    private static let objectPronouns = ["lo", "la", "los", "las"]

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        guard let features = referent.pronounFeatures else { return }
        let slot = (features.gender == .feminine ? 1 : 0) + (features.isPlural ? 2 : 0)
        for index in phrase.words.indices {
            let lower = phrase.words[index].lower
            if Self.subjectPronouns.contains(lower) {
                phrase.words[index].set(Self.subjectPronouns[slot])
            } else if Self.objectPronouns.contains(lower) {
                phrase.words[index].set(Self.objectPronouns[slot])
            } else if ["mismo", "misma", "mismos", "mismas"].contains(lower) {
                agreeAdjective(&phrase.words[index], features, beforeNoun: false, context: &context)
            }
        }
    }

    // MARK: Around the span

    /// Last letters of the words a span's first word can change: *de*, *a*, *y*, *e*, *o*, *u*.
    private static let boundaryEndings = Array("aeouy".utf8)

    /// *de* + *el* → *del*, *a* + *el* → *al*, and *y*/*o* before the span's first word.
    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit] {
        guard let first = phrase.words.first, !first.isNumber,
            let before = context.word(before: first.utf8Range.lowerBound, endingIn: Self.boundaryEndings)
        else { return [] }
        let preceding = before.text.lowercased()
        let current = first.currentLower
        if current == "el", let contraction = Self.contraction(of: preceding) {
            let contracted = CasePattern(of: before.text).apply(to: contraction, original: before.text)
            return [
                RichTextEdit(
                    utf8Range: before.utf8Range.lowerBound..<first.utf8Range.upperBound,
                    replacement: contracted
                )
            ]
        }
        if Self.conjunctions.contains(preceding), preceding != "ni" {
            let adjusted = Self.conjunction(preceding, before: current)
            if adjusted != preceding {
                return [
                    RichTextEdit(
                        utf8Range: before.utf8Range,
                        replacement: CasePattern(of: before.text).apply(to: adjusted, original: before.text)
                    )
                ]
            }
        }
        return []
    }
}
