import RichText

/// German agreement: the head noun (the last noun before a preposition) takes the span's number,
/// its gender and plural come from the lexicon or from the last part of a compound, and the
/// determiners and adjectives before it are declined — strong, weak or mixed by the determiner, in
/// the case a hint states or the sentence gives (see ``grammaticalCase(of:rule:context:)``).
struct GermanGrammar: LanguageGrammar {
    let language = "de"
    let lexicon: Lexicon
    private let nouns: GermanNouns

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
        nouns = GermanNouns(lexicon: lexicon)
    }

    /// Prepositions and the case they govern; two-way prepositions (*in*, *auf*…) take the dative
    /// here, the case of where something is. Contractions with the article (*zum*, *im*, *ins*) too.
    static let prepositionCases: WordTable<GermanCase> = {
        var table = WordTable<GermanCase>()
        for word in [
            "mit", "aus", "bei", "nach", "von", "zu", "seit", "gegenüber", "außer", "samt", "nebst", "zum", "zur",
            "beim", "vom", "im", "am", "in", "an", "auf", "über", "unter", "vor", "hinter", "neben", "zwischen",
        ] {
            table[word] = .dative
        }
        for word in ["für", "ohne", "durch", "gegen", "um", "bis", "ins", "ans", "aufs", "pro", "je"] {
            table[word] = .accusative
        }
        for word in ["wegen", "während", "statt", "anstatt", "trotz", "inklusive", "exklusive", "innerhalb"] {
            table[word] = .genitive
        }
        return table
    }()
    static let conjunctions: WordSet = ["und", "oder", "sowie", "&"]
    /// Containers and measures, which head the noun after them (*2 Tassen Kaffee*).
    static let measureNouns: WordSet = [
        "tasse", "glas", "becher", "flasche", "stück", "portion", "kanne", "kännchen", "teller", "scheibe", "kugel",
        "schale", "dose", "packung", "tüte", "liter", "kilo", "gramm", "karaffe", "krug", "schälchen", "schüssel",
    ]
    /// Forms of *sein*, *werden*, *bleiben*: what follows them is in the nominative (*Hier ist ein …*).
    static let copulas: WordSet = [
        "ist", "sind", "war", "waren", "wird", "werden", "wurde", "wurden", "bleibt", "bleiben", "sei", "heißt",
    ]
    /// Finite verbs that, right after a span starting its clause, make the span their subject.
    static let finiteVerbs: WordSet = [
        "ist", "sind", "war", "waren", "wird", "werden", "wurde", "wurden", "bleibt", "bleiben", "kostet",
        "kosten", "liegt", "liegen", "steht", "stehen", "kommt", "kommen", "geht", "gehen", "hat", "haben",
        "enthält", "enthalten", "passt", "passen", "schmeckt", "schmecken", "fehlt", "fehlen", "wartet", "warten",
        "gibt", "gab", "ist's",
    ]
    /// Nouns for people with a feminine in *-in* or another form (*Kunde* → *Kundin*).
    static let personNouns: WordTable<String> = [
        "kunde": "kundin", "gast": "gast", "freund": "freundin", "nutzer": "nutzerin", "besucher": "besucherin",
        "mitglied": "mitglied", "abonnent": "abonnentin", "gewinner": "gewinnerin", "koch": "köchin",
        "kellner": "kellnerin", "barista": "barista", "nachbar": "nachbarin",
    ]
    private static let personNounsByFeminine = WordTable(
        personNouns.allKeys.compactMap { masculine in personNouns[masculine].map { ($0, masculine) } }.reversed()
    )

    // MARK: Inflecting a span

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        let grammaticalCase = grammaticalCase(of: phrase, rule: rule, context: &context)
        guard let head = head(of: phrase, context: &context) else {
            return PhraseAnalysis(features: nil, addressesReader: number == nil)
        }
        let word = phrase.words[head]
        let hint = word.hint ?? phrase.hint
        let singular = nouns.singular(of: word.lower)
        let writtenPlural = hint?.number.map { $0 != .singular } ?? (singular != nil)
        let lemma = writtenPlural ? singular ?? word.lower : word.lower
        let reading = nouns.reading(of: lemma)
        let target = rule?.number ?? number ?? (writtenPlural ? .plural : .singular)
        let features = GrammaticalFeatures(gender: hint?.grammaticalGender ?? reading.gender, number: target)
        if reading.entry?.isUncountable != true {
            let base = features.isPlural ? reading.plural : lemma
            phrase.words[head].set(
                GermanNouns.form(
                    base,
                    plural: features.isPlural,
                    gender: features.gender ?? .masculine,
                    case: grammaticalCase
                )
            )
        }
        decline(&phrase, before: head, features: features, case: grammaticalCase)
        let isPerson = Self.personNouns[lemma] != nil || Self.personNounsByFeminine[lemma] != nil
        return PhraseAnalysis(features: features, addressesReader: number == nil && isPerson)
    }

    /// The head: a word hinted as a noun, else the last content word before the first preposition
    /// that is a listed or capitalised noun, else the last content word.
    private func head(of phrase: Phrase, context: inout AgreementContext) -> Int? {
        if let hinted = phrase.words.indices.first(where: { phrase.words[$0].hint?.partOfSpeech == .noun }) {
            return hinted
        }
        var content: [Int] = []
        for index in phrase.words.indices {
            let word = phrase.words[index]
            if word.isNumber || GermanDeclension.determiners[word.lower] != nil
                || Self.conjunctions.contains(word.lower)
            {
                continue
            }
            if Self.prepositionCases[word.lower] != nil {
                if content.isEmpty { continue }
                break
            }
            content.append(index)
        }
        // A measure noun before another noun is the head: 2 Tassen Kaffee, 2 Stück Kuchen.
        if let measure = content.dropLast().first(where: { Self.measureNouns.contains(phrase.words[$0].lower) }),
            let next = content.first(where: { $0 > measure }),
            isNoun(phrase.words[next].lower)
                || CasePattern(of: phrase.words[next].text) != .lower
        {
            return measure
        }
        let head =
            content.last { index in
                let word = phrase.words[index]
                return isNoun(word.lower) || (CasePattern(of: word.text) != .lower && index != 0)
            } ?? content.last
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

    private func isNoun(_ word: String) -> Bool {
        if let entry = lexicon.entry(word) { return entry.partsOfSpeech.first == .noun }
        return nouns.singular(of: word) != nil || Self.personNouns[word] != nil
    }

    /// Determiners and adjectives before the head, declined for its case, gender and number.
    private func decline(
        _ phrase: inout Phrase,
        before head: Int,
        features: GrammaticalFeatures,
        case grammaticalCase: GermanCase
    ) {
        var determiner: GermanDeclension.Determiner?
        for index in 0..<head {
            let word = phrase.words[index]
            if word.isNumber {
                // The digit 1 reads "ein": the mixed declension (1 großer Kaffee, mit 1 großen Kaffee).
                if !features.isPlural, determiner == nil {
                    determiner = GermanDeclension.Determiner(declension: .mixed, stem: "ein")
                }
                continue
            }
            let lower = word.lower
            if let found = GermanDeclension.determiners[lower] {
                determiner = found
                phrase.words[index].set(GermanDeclension.form(of: found, grammaticalCase, features))
                continue
            }
            if Self.conjunctions.contains(lower)
                || word.hint.map({ $0.partOfSpeech != .adjective }) == true
                    && word.hint?.partOfSpeech != nil
            {
                continue
            }
            guard let (lemma, entry) = adjectiveLemma(of: word) else { continue }
            if entry?.isInvariable == true { continue }
            let declension = GermanDeclension.declension(after: determiner, features)
            let ending = GermanDeclension.ending(declension, grammaticalCase, features)
            phrase.words[index].set(
                GermanAdjectives.form(stem: GermanAdjectives.stem(of: lemma, entry: entry), ending: ending)
            )
        }
    }

    /// An adjective's lemma and entry; `nil` for words that do not decline: nouns before the head
    /// (*Latte Macchiato*), capitalised place names in *-er* (*Wiener Würstchen*).
    private func adjectiveLemma(of word: Word) -> (String, LexiconEntry?)? {
        let lower = word.lower
        if let entry = lexicon.entry(lower) {
            return entry.canBeAdjective ? (lower, entry) : nil
        }
        for ending in GermanAdjectives.endings where lower.endsWith(ending) {
            let base = lower.droppingLastBytes(ending.utf8.count)
            if let entry = lexicon.entry(base), entry.canBeAdjective { return (base, entry) }
            if let entry = lexicon.entry(base + "e"), entry.canBeAdjective { return (base + "e", entry) }
            if let found = lexicon.entry(forInflectedForm: base)?.entry, found.canBeAdjective {
                return (found.lemma.fastLowercased, found)
            }
        }
        if let found = lexicon.entry(forInflectedForm: lower)?.entry, found.canBeAdjective {
            return (found.lemma.fastLowercased, found)
        }
        // Unknown: a capitalised word is a noun or a place name (Wiener); a lowercase one an adjective.
        return CasePattern(of: word.text) == .lower ? (lower, nil) : nil
    }

    // MARK: Case

    /// The case of a span: the one a hint states (`inflect: {grammaticalCase: …}` or a `morphology`
    /// over the phrase); else the one a preposition just before it governs (*mit*, *für*); else, when
    /// a span opens its clause, the nominative if a finite verb follows it (*2 Pizzen sind fertig*)
    /// and the accusative if the clause ends in an infinitive or participle (*… hinzufügen*); else,
    /// after a copula (*ist*, *sind*), the nominative; after any other words, the accusative (the
    /// object: *Sie haben … bestellt*); and the nominative for a span standing alone (a label).
    func grammaticalCase(of phrase: Phrase, rule: Morphology?, context: inout AgreementContext) -> GermanCase {
        if let stated = rule?.grammaticalCase ?? phrase.hint?.grammaticalCase
            ?? phrase.words.lazy.compactMap({ $0.hint?.grammaticalCase }).first
        {
            return GermanCase(stated)
        }
        guard let first = phrase.words.first, let last = phrase.words.last else { return .nominative }
        // Clauses come trimmed, so only their first and last space-separated words need reading.
        let before = context.clause(before: first.utf8Range.lowerBound)
        guard let previousWord = Self.lastWord(of: before) else {
            let after = context.clause(after: last.utf8Range.upperBound)
            if let next = Self.firstWord(of: after)?.lowercased(), Self.finiteVerbs.contains(next) {
                return .nominative
            }
            if let final = Self.lastWord(of: after), Self.isNonFiniteVerb(final) { return .accusative }
            return .nominative
        }
        let previous = previousWord.lowercased()
        if let governed = Self.prepositionCases[previous] { return governed }
        if Self.copulas.contains(previous) { return .nominative }
        return .accusative
    }

    /// The last of a trimmed clause's space-separated words, `nil` for an empty clause.
    private static func lastWord(of clause: String) -> Substring? {
        guard !clause.isEmpty else { return nil }
        let space = spacesStandAlone(in: clause) ? clause.utf8.lastIndex(of: 0x20) : clause.lastIndex(of: " ")
        return space.map { clause[clause.index(after: $0)...] } ?? clause[...]
    }

    /// The first of a trimmed clause's space-separated words, `nil` for an empty clause.
    private static func firstWord(of clause: String) -> Substring? {
        guard !clause.isEmpty else { return nil }
        let space = spacesStandAlone(in: clause) ? clause.utf8.firstIndex(of: 0x20) : clause.firstIndex(of: " ")
        return clause[..<(space ?? clause.endIndex)]
    }

    /// Whether every space byte in `text` is a `Character` of its own, so words can be split at
    /// space bytes: true when each has ASCII on both sides (a combining mark after a space would
    /// join it, as would some marks before it).
    private static func spacesStandAlone(in text: String) -> Bool {
        let bytes = text.utf8
        var previous: UInt8 = 0
        var afterSpace = false
        for byte in bytes {
            if afterSpace, byte >= 0x80 { return false }
            if byte == 0x20, previous >= 0x80 { return false }
            afterSpace = byte == 0x20
            previous = byte
        }
        return true
    }

    /// A lowercase infinitive or participle ending a clause: *hinzufügen*, *bestellen*, *bestellt*,
    /// *hinzugefügt*.
    static func isNonFiniteVerb(_ word: some StringProtocol) -> Bool {
        // The word without the punctuation around it.
        guard let start = word.firstIndex(where: \.isLetter), let end = word.lastIndex(where: \.isLetter) else {
            return false
        }
        let trimmed = word[start...end]
        guard let first = trimmed.first, first.isLowercase, trimmed.count > 3 else { return false }
        if trimmed.hasSuffix("en") || trimmed.hasSuffix("ern") || trimmed.hasSuffix("eln") { return true }
        return trimmed.hasSuffix("t") && (trimmed.hasPrefix("ge") || trimmed.contains("ge"))
    }

    // MARK: Agreement with arguments, concepts and the reader

    func features(of phrase: Phrase) -> GrammaticalFeatures? {
        var scratch = AgreementContext(texts: [])
        guard let head = head(of: phrase, context: &scratch) else { return nil }
        let word = phrase.words[head].lower
        let singular = nouns.singular(of: word)
        let lemma = singular ?? word
        var gender = phrase.words[head].hint?.grammaticalGender ?? nouns.reading(of: lemma).gender
        if let masculine = Self.personNounsByFeminine[lemma], masculine != lemma { gender = .feminine }
        return GrammaticalFeatures(gender: gender, number: singular != nil ? .plural : .singular)
    }

    /// Person nouns take the reader's or argument's gender (*Kunde* → *Kundin*) and the words before
    /// them are declined for it, in the nominative; predicative words (*Willkommen*, *bereit*) do not
    /// change in German.
    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures) {
        guard
            let head = phrase.words.indices.first(where: { index in
                let lower = phrase.words[index].lower
                return Self.personNouns[lower] != nil || Self.personNounsByFeminine[lower] != nil
            })
        else { return }
        let lower = phrase.words[head].lower
        let masculine = Self.personNouns[lower] != nil ? lower : Self.personNounsByFeminine[lower] ?? lower
        let singular = features.gender == .feminine ? Self.personNouns[masculine] ?? masculine : masculine
        let gender: Morphology.GrammaticalGender = features.gender == .feminine ? .feminine : .masculine
        let agreed = GrammaticalFeatures(gender: gender, number: features.number)
        phrase.words[head].set(agreed.isPlural ? nouns.reading(of: singular).plural : singular)
        decline(&phrase, before: head, features: agreed, case: .nominative)
    }

    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? {
        term.grammaticalGender.map { GrammaticalFeatures(gender: $0, number: .singular) }
    }

    private static let subjectPronouns = ["er", "sie", "es", "sie"]

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        let features: GrammaticalFeatures
        switch referent {
        case .person(let term):
            guard let gender = term.grammaticalGender else { return }
            features = GrammaticalFeatures(gender: gender, number: .singular)
        case .thing(let thing):
            features = thing
        }
        let slot = features.isPlural ? 3 : features.gender == .feminine ? 1 : features.gender == .neuter ? 2 : 0
        for index in phrase.words.indices where ["er", "sie", "es"].contains(phrase.words[index].lower) {
            phrase.words[index].set(Self.subjectPronouns[slot])
        }
    }

    // MARK: Around the span

    /// Last letters of the prepositions that contract with *dem*, *der* and *das*.
    private static let contractingEndings = Array("unmeion".utf8)

    private static let contractions: WordTable<String> = [
        "zu dem": "zum", "zu der": "zur", "in dem": "im", "an dem": "am", "von dem": "vom", "bei dem": "beim",
        "in das": "ins", "an das": "ans",
    ]

    /// A preposition before the span contracts with its article: *zu dem* → *zum*, *zu der* → *zur*,
    /// *in dem* → *im*, *an dem* → *am*, *von dem* → *vom*, *bei dem* → *beim*, *in das* → *ins*,
    /// *an das* → *ans*.
    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit] {
        guard let first = phrase.words.first, !first.isNumber,
            let before = context.word(before: first.utf8Range.lowerBound, endingIn: Self.contractingEndings)
        else { return [] }
        guard let contracted = Self.contractions[before.text.lowercased() + " " + first.currentLower] else { return [] }
        return [
            RichTextEdit(
                utf8Range: before.utf8Range.lowerBound..<first.utf8Range.upperBound,
                replacement: CasePattern(of: before.text).apply(to: contracted, original: before.text)
            )
        ]
    }
}
