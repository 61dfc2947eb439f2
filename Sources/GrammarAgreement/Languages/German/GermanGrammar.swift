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
        "schuss", "prise", "spritzer", "schluck", "kugeln", "scheibe", "stange", "laib", "beutel", "löffel",
        "teelöffel", "esslöffel", "schnitte", "ecke", "riegel", "pott", "humpen", "maß", "pint", "shot",
    ]
    /// Forms of *sein*, *werden*, *bleiben*: what follows them is in the nominative (*Hier ist ein …*).
    static let copulas: WordSet = [
        "ist", "sind", "war", "waren", "wird", "werden", "wurde", "wurden", "bleibt", "bleiben", "sei", "heißt",
    ]
    /// Pronouns that stand between a copula and its complement (*Sind Sie ein neuer Kunde?*).
    static let subjectWords: WordSet = ["sie", "du", "er", "es", "das", "dies", "ihr", "wir"]
    /// Finite verbs that, right after a span starting its clause, make the span their subject.
    static let finiteVerbs: WordSet = [
        "ist", "sind", "war", "waren", "wird", "werden", "wurde", "wurden", "bleibt", "bleiben", "kostet",
        "kosten", "liegt", "liegen", "steht", "stehen", "kommt", "kommen", "geht", "gehen", "hat", "haben",
        "enthält", "enthalten", "passt", "passen", "schmeckt", "schmecken", "fehlt", "fehlen", "wartet", "warten",
        "gibt", "gab", "ist's",
    ]
    /// Nouns for people with a feminine in *-in* or another form (*Kunde* → *Kundin*).
    static let personNouns = PersonNouns([
        "kunde": "kundin", "gast": "gast", "freund": "freundin", "nutzer": "nutzerin", "besucher": "besucherin",
        "mitglied": "mitglied", "abonnent": "abonnentin", "gewinner": "gewinnerin", "koch": "köchin",
        "kellner": "kellnerin", "barista": "barista", "nachbar": "nachbarin", "genießer": "genießerin",
        "frühaufsteher": "frühaufsteherin", "liebhaber": "liebhaberin", "kenner": "kennerin", "fan": "fan",
        "student": "studentin", "mitarbeiter": "mitarbeiterin", "teilnehmer": "teilnehmerin", "käufer": "käuferin",
    ])

    // MARK: Inflecting a span

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        phrase.inflectByConjunct(number: number, isConjunction: { Self.conjunctions.contains($0.lower) }) {
            phrase,
            part,
            own in
            inflect(&phrase, part: part, number: own, rule: rule, context: &context)
        }
    }

    /// Agreement in one part of a span (all of it, or the nouns one conjunct holds).
    private func inflect(
        _ phrase: inout Phrase,
        part: Range<Int>,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        // A preposition opening the span governs it (mit 2 Keksen, ohne Zucker) and stays as written;
        // a contraction (zum, im) also brings its article.
        var start = part.lowerBound
        var governed: GermanCase?
        var contractedArticle = false
        while start < part.upperBound, !phrase.words[start].isNumber,
            let governs = Self.prepositionCases[phrase.words[start].lower]
        {
            governed = governs
            contractedArticle = Self.contractedArticles.contains(phrase.words[start].lower)
            start += 1
        }
        let stated =
            rule?.grammaticalCase ?? phrase.hint?.grammaticalCase
            ?? phrase.words.lazy.compactMap({ $0.hint?.grammaticalCase }).first
        let grammaticalCase =
            stated.map(GermanCase.init) ?? governed ?? grammaticalCase(of: phrase, rule: rule, context: &context)
        guard let head = head(of: phrase, in: start..<part.upperBound, context: &context) else {
            return PhraseAnalysis(features: nil, addressesReader: number == nil && !hasContent(phrase, part))
        }
        let word = phrase.words[head.index]
        let hint = word.hint ?? phrase.hint
        let writtenPlural =
            hint?.number.map { $0 != .singular }
            ?? writtenNumber(
                in: phrase,
                from: start,
                before: head.index,
                gender: hint?.grammaticalGender ?? head.reading.gender,
                case: grammaticalCase
            )
            ?? head.reading.isWrittenPlural
        let target = rule?.number ?? number ?? (writtenPlural ? .plural : .singular)
        let features = GrammaticalFeatures(gender: hint?.grammaticalGender ?? head.reading.gender, number: target)
        var determiner: GermanDeclension.Determiner? =
            contractedArticle ? GermanDeclension.Determiner(declension: .weak, stem: "") : nil
        decline(
            &phrase,
            from: start,
            before: head.index,
            features: features,
            case: grammaticalCase,
            determiner: &determiner,
            context: &context
        )
        if let adjective = head.adjective {
            // A noun made of an adjective (ein Helles, 5 Helle, mit 2 Dunklen) declines as one.
            let declension = GermanDeclension.declension(after: determiner, features)
            let ending = GermanDeclension.ending(declension, grammaticalCase, features)
            phrase.words[head.index].set(GermanAdjectives.form(stem: adjective.stem, ending: ending))
        } else if !head.reading.isUncountable {
            let form = head.reading.form(plural: features.isPlural, case: grammaticalCase)
            setNoun(&phrase, head: head, form: form)
        }
        // Only a span without a number can speak of the reader (Lieber Kunde).
        let isPerson = number == nil && personNoun(in: phrase).map { $0.0 == head.index } ?? false
        return PhraseAnalysis(features: features, addressesReader: isPerson)
    }

    /// Whether a determiner before the head shows the phrase written in the plural (*die Kunden*) or
    /// the singular (*den Kunden* after *für*), when only one of the two has its form.
    private func writtenNumber(
        in phrase: Phrase,
        from start: Int,
        before head: Int,
        gender: Morphology.GrammaticalGender,
        case grammaticalCase: GermanCase
    ) -> Bool? {
        for index in start..<head {
            let written = phrase.words[index].lower
            guard let determiner = GermanDeclension.determiners[written] else { continue }
            let singular = GermanDeclension.form(
                of: determiner,
                grammaticalCase,
                GrammaticalFeatures(gender: gender, number: .singular)
            )
            let plural = GermanDeclension.form(
                of: determiner,
                grammaticalCase,
                GrammaticalFeatures(gender: gender, number: .plural)
            )
            if written == singular, written != plural { return false }
            if written == plural, written != singular { return true }
        }
        return nil
    }

    /// Prepositions written together with the definite article: what follows them declines weak.
    static let contractedArticles: WordSet = ["zum", "zur", "beim", "vom", "im", "am", "ins", "ans", "aufs"]

    /// The head of a span: where it is, how many words it spans, and its forms.
    private struct Head {
        var index: Int
        var length = 1
        var reading: GermanNouns.Reading
        /// Set for an adjective used as a noun (*Helles*): the stem its endings go on.
        var adjective: (stem: String, lemma: String)?
    }

    /// Whether the part has words other than determiners, numbers and prepositions.
    private func hasContent(_ phrase: Phrase, _ part: Range<Int>) -> Bool {
        part.contains { index in
            let word = phrase.words[index]
            return !word.isNumber && GermanDeclension.determiners[word.lower] == nil
                && Self.prepositionCases[word.lower] == nil
        }
    }

    /// The head: a word hinted as a noun; else a measure noun before the noun it measures (*2 Tassen
    /// Kaffee*); else the last content word before a preposition, which must be a noun the lexicon
    /// knows (listed, a listed multi-word noun such as *Flat White*, or a compound whose last part is
    /// listed) or an adjective used as a noun (*Helles*). An unknown word there is reported and the
    /// span left as written.
    private func head(of phrase: Phrase, in part: Range<Int>, context: inout AgreementContext) -> Head? {
        let words = phrase.words
        if let hinted = part.first(where: { words[$0].hint?.partOfSpeech == .noun }) {
            let word = words[hinted]
            let reading =
                nouns.reading(of: word.lower)
                ?? GermanNouns.Reading(
                    gender: word.hint?.grammaticalGender ?? phrase.hint?.grammaticalGender ?? .masculine,
                    singular: word.lower,
                    plural: word.lower,
                    dativePlural: word.lower
                )
            return Head(index: hinted, reading: reading)
        }
        var content: [Int] = []
        for index in part {
            let word = words[index]
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
        guard !content.isEmpty else { return nil }
        // A listed multi-word noun: Flat White, Irish Coffee, Latte macchiato.
        for index in content {
            guard let length = phraseLength(at: index, in: words, end: part.upperBound) else { continue }
            let text = words[index..<(index + length)].map(\.lower).joined(separator: " ")
            guard let reading = nouns.reading(of: text) else { continue }
            return Head(index: index, length: length, reading: reading)
        }
        // A measure noun before another noun is the head: 2 Tassen Kaffee, 2 Stück Kuchen.
        if let measure = content.dropLast().first(where: { Self.measureNouns.contains(words[$0].lower) }),
            let reading = nouns.reading(of: words[measure].lower),
            let next = content.first(where: { $0 > measure }),
            nouns.reading(of: words[next].lower) != nil || CasePattern(of: words[next].text) != .lower
        {
            return Head(index: measure, reading: reading)
        }
        let index = content.last!
        let word = words[index]
        if let reading = nouns.reading(of: word.lower) {
            return Head(index: index, reading: reading)
        }
        if CasePattern(of: word.text) != .lower, let adjective = nominalizedAdjective(word) {
            return Head(index: index, reading: adjective.reading, adjective: (adjective.stem, adjective.lemma))
        }
        context.warn(.unknown(word.text, language: language))
        return nil
    }

    /// A listed multi-word noun starting at `index`: how many words it has.
    private func phraseLength(at index: Int, in words: [Word], end: Int) -> Int? {
        guard lexicon.longestPhrase > 1, lexicon.startsPhrase(words[index].lower) else { return nil }
        var longest: Int?
        var text = words[index].lower
        for next in (index + 1)..<min(end, index + lexicon.longestPhrase) {
            guard !words[next].isNumber else { break }
            text += " " + words[next].lower
            if let entry = lexicon.entry(text), entry.canBeNoun { longest = next - index + 1 }
        }
        return longest
    }

    /// Sets the head to `form`, a multi-word head word by word.
    private func setNoun(_ phrase: inout Phrase, head: Head, form: String) {
        guard head.length > 1 else {
            phrase.words[head.index].set(form)
            return
        }
        let parts = form.split(separator: " ").map(String.init)
        guard parts.count == head.length else { return }
        for offset in 0..<head.length { phrase.words[head.index + offset].set(parts[offset]) }
    }

    /// A capitalised word that is a declined adjective (*Helles*, *Kurzer*, *Weiße*): a noun whose
    /// gender its strong nominative ending shows (*-er* masculine, *-es* neuter, *-e* feminine).
    private func nominalizedAdjective(_ word: Word) -> (reading: GermanNouns.Reading, stem: String, lemma: String)? {
        let lower = word.lower
        for (ending, gender) in [("es", Morphology.GrammaticalGender.neuter), ("er", .masculine), ("e", .feminine)]
        where lower.endsWith(ending) {
            let base = lower.droppingLastBytes(ending.utf8.count)
            guard let (lemma, entry) = adjectiveLemma(ofStem: base) else { continue }
            let stem = GermanAdjectives.stem(of: lemma, entry: entry)
            let reading = GermanNouns.Reading(gender: gender, singular: lower, plural: lower, dativePlural: lower)
            return (reading, stem, lemma)
        }
        return nil
    }

    /// The adjective whose declension stem is `base` (*hell*, *dunkl* → *dunkel*).
    private func adjectiveLemma(ofStem base: String) -> (String, LexiconEntry)? {
        if let entry = lexicon.entry(base), entry.canBeAdjective { return (base, entry) }
        if let entry = lexicon.entry(base + "e"), entry.canBeAdjective { return (base + "e", entry) }
        // A stem that is not the lemma (dunkl → dunkel, teur → teuer, hoh → hoch).
        for candidate in [base.droppingLastBytes(1) + "el", base.droppingLastBytes(1) + "er"] where base.count > 2 {
            if let entry = lexicon.entry(candidate), entry.canBeAdjective,
                GermanAdjectives.stem(of: candidate, entry: entry) == base
            {
                return (candidate, entry)
            }
        }
        if let found = lexicon.entry(forInflectedForm: base)?.entry, found.canBeAdjective {
            return (found.lemma.fastLowercased, found)
        }
        return nil
    }

    /// Determiners and adjectives before the head, declined for its case, gender and number.
    /// Unknown words stay as written; so does an adjective written uninflected right before an
    /// inflected one of the same argument, which it qualifies (*frisch gepresster*).
    private func decline(
        _ phrase: inout Phrase,
        from start: Int,
        before head: Int,
        features: GrammaticalFeatures,
        case grammaticalCase: GermanCase,
        determiner: inout GermanDeclension.Determiner?,
        context: inout AgreementContext
    ) {
        for index in start..<head {
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
            if Self.conjunctions.contains(lower) || Self.prepositionCases[lower] != nil
                || word.hint.map({ $0.partOfSpeech != .adjective }) == true
                    && word.hint?.partOfSpeech != nil
            {
                continue
            }
            guard let (lemma, entry) = adjectiveLemma(of: word) else {
                // Capitalised words before the head are nouns or names (Latte, Wiener): not declined.
                if CasePattern(of: word.text) == .lower { context.warn(.unknown(word.text, language: language)) }
                continue
            }
            if entry.isInvariable { continue }
            if lower == lemma, index + 1 < head, let next = adjectiveLemma(of: phrase.words[index + 1]),
                phrase.words[index + 1].lower != next.0, phrase.words[index + 1].argument == word.argument
            {
                continue  // frisch gepresster Orangensaft: an adverb
            }
            let declension = GermanDeclension.declension(after: determiner, features)
            let ending = GermanDeclension.ending(declension, grammaticalCase, features)
            phrase.words[index].set(
                GermanAdjectives.form(stem: GermanAdjectives.stem(of: lemma, entry: entry), ending: ending)
            )
        }
    }

    /// An adjective's lemma and entry, when the lexicon knows the word (declined or not);
    /// capitalised place names in *-er* (*Wiener Würstchen*) and nouns are not adjectives here.
    private func adjectiveLemma(of word: Word) -> (String, LexiconEntry)? {
        let lower = word.lower
        let isLower = CasePattern(of: word.text) == .lower || word.hint?.partOfSpeech == .adjective
        if isLower, let entry = lexicon.entry(lower), entry.canBeAdjective { return (lower, entry) }
        // Capitalised, an adjective is declined only in a name or after a stop (Kalter Hund, Lieber
        // Kunde): written with an ending on a known adjective; place names (Wiener) have none.
        guard isLower || GermanAdjectives.endings.contains(where: { lower.endsWith($0) }) else { return nil }
        for ending in GermanAdjectives.endings where lower.endsWith(ending) {
            if let found = adjectiveLemma(ofStem: lower.droppingLastBytes(ending.utf8.count)) { return found }
        }
        if let found = lexicon.entry(forInflectedForm: lower)?.entry, found.canBeAdjective {
            return (found.lemma.fastLowercased, found)
        }
        return nil
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
        // After a comma, a span is a vocative or an apposition (Guten Morgen, lieber Gast).
        if previous.hasSuffix(",") { return .nominative }
        // Sind Sie / Bist du / Ist das … ein neuer Kunde: the copula's subject comes between.
        let rest = before.dropLast(previousWord.count)
        if Self.subjectWords.contains(previous),
            let verb = Self.lastWord(of: String(rest.last == " " ? rest.dropLast() : rest)),
            Self.copulas.contains(verb.lowercased())
        {
            return .nominative
        }
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
        let part = phrase.conjuncts { Self.conjunctions.contains($0.lower) }.first ?? 0..<phrase.words.count
        guard let head = head(of: phrase, in: part, context: &scratch) else { return nil }
        let lemma = head.reading.singular
        var gender = phrase.words[head.index].hint?.grammaticalGender ?? head.reading.gender
        if Self.personNouns.isDistinctFeminine(lemma) { gender = .feminine }
        return GrammaticalFeatures(gender: gender, number: head.reading.isWrittenPlural ? .plural : .singular)
    }

    /// Person nouns take the reader's or argument's gender (*Kunde* → *Kundin*, *Lieblingskunde* →
    /// *Lieblingskundin*) and the words before them are declined for it, in the case the sentence
    /// gives; predicative words (*Willkommen*, *bereit*) do not change in German.
    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext) {
        guard let (head, person) = personNoun(in: phrase) else { return }
        let gender: Morphology.GrammaticalGender = features.gender == .feminine ? .feminine : .masculine
        let agreed = GrammaticalFeatures(gender: gender, number: features.number)
        let grammaticalCase = grammaticalCase(of: phrase, rule: nil, context: &context)
        let singular = person.prefix + (gender == .feminine ? person.feminine : person.masculine)
        let form: String
        if gender == .feminine {
            form = agreed.isPlural ? singular + "nen" : singular
        } else if let reading = nouns.reading(of: singular) {
            form = reading.form(plural: agreed.isPlural, case: grammaticalCase)
        } else {
            return
        }
        phrase.words[head].set(form)
        var determiner: GermanDeclension.Determiner?
        var scratch = AgreementContext(texts: [])
        decline(
            &phrase,
            from: 0,
            before: head,
            features: agreed,
            case: grammaticalCase,
            determiner: &determiner,
            context: &scratch
        )
    }

    /// The person noun of a phrase, alone or ending a compound, in any of its forms (*Kunde*,
    /// *Kunden*, *Kundin*, *Stammkunde*, *Lieblingskunden*).
    private func personNoun(in phrase: Phrase) -> (Int, (prefix: String, masculine: String, feminine: String))? {
        for index in phrase.words.indices where !phrase.words[index].isNumber {
            let lower = phrase.words[index].lower
            for (form, masculine, feminine) in Self.personNounForms where lower.endsWith(form) {
                let prefix = lower.droppingLastBytes(form.utf8.count)
                // The whole word, or a compound whose prefix is more than a letter or two.
                guard prefix.isEmpty || prefix.count > 2 else { continue }
                return (index, (prefix, masculine, feminine))
            }
        }
        return nil
    }

    /// Every form of the person nouns (*Kundinnen*, *Kundin*, *Kunden*, *Kunde*), longest first,
    /// with the masculine and feminine it is a form of.
    private static let personNounForms: [(form: String, masculine: String, feminine: String)] =
        personNouns.feminineByMasculine.allKeys.flatMap { masculine -> [(String, String, String)] in
            let feminine = personNouns.feminineByMasculine[masculine] ?? masculine
            return [feminine + "nen", feminine, masculine + "n", masculine + "en", masculine].map {
                ($0, masculine, feminine)
            }
        }.sorted { $0.0.utf8.count > $1.0.utf8.count }

    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? { term.singularFeatures }

    private static let subjectPronouns = ["er", "sie", "es", "sie"]

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        guard let features = referent.pronounFeatures else { return }
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
