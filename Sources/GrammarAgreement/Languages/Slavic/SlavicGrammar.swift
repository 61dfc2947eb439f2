import Localization
import RichText

/// Polish and Russian agreement: the numeral governs the case and number of the noun and its
/// adjectives (CLDR's plural category picks the row, ``SlavicRules/Paucal`` the *few* row), the
/// case comes from the word governing the span (a preposition in it or before it, a verb before
/// it), and the forms from the paradigm lexicon.
///
/// What the grammar does not know it leaves as written and says so: a word neither lexicon lists
/// (`unknownWord`), a case nothing governs where the forms depend on it (`unknownCase`), a form the
/// noun does not have (a mass noun after *5*).
struct SlavicGrammar: LanguageGrammar {
    typealias Case = ParadigmLexicon.Case
    typealias Gender = ParadigmLexicon.Gender
    typealias Slot = ParadigmLexicon.AdjectiveSlot

    let rules: SlavicRules
    /// The catalog's declared terms (their gender wins over the paradigms').
    let lexicon: Lexicon
    let paradigms: ParadigmLexicon

    var language: String { rules.language }

    /// What the numeral of a span (or its absence) asks of the noun.
    enum Count: Equatable {
        /// CLDR *one*: 1, and in Russian 21, 31…
        case one
        /// CLDR *few*; `simple` for 2, 3 and 4 themselves (a Russian animate noun's accusative).
        case few(simple: Bool)
        /// CLDR *many*: 0, 5–20, 25…, and in Polish 21, 31…
        case many
        /// A decimal: the genitive singular.
        case fraction
        /// No numeral: the number the noun is written in.
        case written(plural: Bool)
    }

    /// A word of the span as the lexicons read it.
    private struct Reading {
        var noun: ParadigmLexicon.Entry?
        var adjective: ParadigmLexicon.Entry?
    }

    // MARK: Inflecting a span

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        // The governing word is read once for the whole span: a preposition opening it governs
        // every noun it joins (z mlekiem i cukrem).
        // Governing words written inside the span before what it counts (^[Dodaj %lld …], ^[bez %@])
        // are read with those before it, and stay as written.
        var start = 0
        while start < phrase.words.count, !phrase.words[start].isNumber, isGoverning(phrase.words[start].lower) {
            start += 1
        }
        let stated =
            rule?.grammaticalCase ?? phrase.hint?.grammaticalCase
            ?? phrase.words.lazy.compactMap({ $0.hint?.grammaticalCase }).first
        let grammaticalCase =
            stated.flatMap(Self.slavicCase)
            ?? governingCase(of: phrase, inside: phrase.words[..<start].map(\.lower), &context)
        var words = phrase
        words.words = Array(phrase.words[start...])
        let analysis = words.inflectByConjunct(number: number, isConjunction: { rules.conjunctions.contains($0.lower) })
        {
            phrase,
            part,
            own in
            inflect(&phrase, part: part, number: own, rule: rule, case: grammaticalCase, context: &context)
        }
        phrase.words.replaceSubrange(start..., with: words.words)
        // z → ze, с → со before a word starting with a cluster (ze słodkim, со сметаной).
        if start > 0, start < phrase.words.count, !phrase.words[start].isNumber,
            let long = rules.longPreposition(phrase.words[start - 1].lower, before: phrase.words[start].currentLower)
        {
            phrase.words[start - 1].set(long)
        }
        return analysis
    }

    /// Sets a word to a lexicon form, which writes *е* for *ё*: where the word as written has *ё*
    /// and the form *е* at the same place, the *ё* is kept (*тёплый*, not *теплый*).
    private static func set(_ word: inout Word, _ form: String) {
        guard word.lower.utf8.contains(0x91), word.lower.contains("ё") else { return word.set(form) }
        let written = Array(word.lower)
        var characters = Array(form)
        for index in characters.indices where index < written.count && written[index] == "ё" && characters[index] == "е"
        {
            characters[index] = "ё"
        }
        word.set(String(characters))
    }

    /// A `Morphology` case as a Slavic case; Apple's `ablative` stands for the instrumental.
    private static func slavicCase(_ grammaticalCase: Morphology.GrammaticalCase) -> Case? {
        switch grammaticalCase {
        case .nominative: .nominative
        case .genitive: .genitive
        case .dative: .dative
        case .accusative: .accusative
        case .instrumental, .ablative: .instrumental
        case .locative, .prepositional: .locative
        default: nil
        }
    }

    private func inflect(
        _ phrase: inout Phrase,
        part: Range<Int>,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        case grammaticalCase: Case?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        let firstNumber = phrase.words[part].first(where: \.isNumber)
        // Read every word; one no lexicon lists leaves the span as written.
        var readings: [(index: Int, reading: Reading)] = []
        var trailingReaderWords: [Int] = []
        var unknown: Word?
        for index in part where !phrase.words[index].isNumber {
            let word = phrase.words[index]
            // A preposition after the head starts a phrase of its own (kawa z mlekiem): it stays.
            if !readings.isEmpty, rules.prepositionCases[word.lower] != nil { break }
            if let reading = reading(of: word.lower) {
                readings.append((index, reading))
            } else if !readings.isEmpty, readerForm(of: word.lower, feminine: true) != nil {
                trailingReaderWords.append(index)
            } else if unknown == nil {
                unknown = word
            }
        }
        if let unknown {
            // Words speaking of the reader (Czy jesteś gotowy?): the ones that agree are known,
            // the others (jesteś) have no gender and stay.
            let speaksOfReader =
                firstNumber == nil && !readings.contains { $0.reading.noun != nil }
                && phrase.words[part].contains {
                    readerForm(of: $0.lower, feminine: true) != nil || reading(of: $0.lower)?.adjective != nil
                }
            if speaksOfReader { return PhraseAnalysis(features: nil, addressesReader: true) }
            context.warn(.unknown(unknown.text, language: language))
            return PhraseAnalysis(features: nil, addressesReader: false)
        }
        guard let headPosition = headPosition(in: readings), let noun = readings[headPosition].reading.noun else {
            // Adjectives or verbs alone: without a number they speak of the reader.
            return PhraseAnalysis(features: nil, addressesReader: firstNumber == nil)
        }
        let head = readings[headPosition].index
        // Adjectives before the head, and those right after it (sok pomarańczowy).
        var adjectives: [(index: Int, entry: ParadigmLexicon.Entry)] = []
        for position in readings.indices where position != headPosition {
            guard let adjective = readings[position].reading.adjective else {
                // A second noun before the head: which one the number counts is not known.
                if position < headPosition {
                    let text = phrase.words[readings[position].index].text
                    context.warn(
                        AgreementWarning(
                            code: .ambiguousWord,
                            word: text,
                            message: "'\(text)' and '\(phrase.words[head].text)' are both nouns: which one the "
                                + "number counts is not known; the span is left as written"
                        )
                    )
                    return PhraseAnalysis(features: nil, addressesReader: false)
                }
                break
            }
            adjectives.append((readings[position].index, adjective))
        }
        let word = phrase.words[head]
        let declared = lexicon.entry(word.lower)?.grammaticalGender
        let hinted = word.hint?.grammaticalGender ?? phrase.hint?.grammaticalGender ?? rule?.grammaticalGender
        var genders = [Self.gender(noun.gender ?? .masculine, stated: hinted ?? declared)]
        if hinted == nil, declared == nil { genders += noun.alternativeGenders }
        let lower = Self.folded(word.lower)
        let writtenPlural = paradigms.noun(noun, .nominative, plural: true) == lower && noun.lemma != lower
        // Only a number before the head counts it (not Kawa za 5 zł).
        let numeral = firstNumber.flatMap { $0.utf8Range.lowerBound < word.utf8Range.lowerBound ? $0 : nil }
        let count = count(
            of: numeral,
            number: rule?.number ?? (numeral == nil ? nil : number),
            writtenPlural: writtenPlural
        )
        let features = GrammaticalFeatures(
            gender: Self.morphologyGender(genders[0]),
            number: count.isPlural ? .plural : .singular
        )
        // The forms for each case the span may be in and each gender the noun may have; a word
        // whose form depends on what is not known stays as written.
        // A word the rules do not know governs the span: any case may follow it (Szukamy 2 kaw),
        // so the words whose form depends on the case stay as written, whatever two cases agree on.
        let cases = grammaticalCase.map { [$0] } ?? Case.allCases
        var nounForms: [String] = []
        var adjectiveForms = Array(repeating: [String](), count: adjectives.count)
        for grammaticalCase in cases {
            for gender in genders {
                guard
                    let target = target(
                        count: count,
                        case: grammaticalCase,
                        gender: gender,
                        animate: noun.isAnimate || gender == .masculinePersonal || gender == .masculineAnimate,
                        noun: noun
                    ), let form = paradigms.noun(noun, target.case, plural: target.plural)
                else {
                    context.warn(.unknown(word.text, language: language))
                    return PhraseAnalysis(features: features, addressesReader: false)
                }
                if !nounForms.contains(form) { nounForms.append(form) }
                for (position, adjective) in adjectives.enumerated() {
                    if let form = paradigms.adjective(adjective.entry, target.adjective) {
                        if !adjectiveForms[position].contains(form) { adjectiveForms[position].append(form) }
                    }
                }
            }
        }
        if cases.count > 1, nounForms.count > 1 || adjectiveForms.contains(where: { $0.count > 1 }) {
            context.warn(.unknownCase(word.text))
            return PhraseAnalysis(features: features, addressesReader: false)
        }
        if nounForms.count == 1, let form = nounForms.first { Self.set(&phrase.words[head], form) }
        // A predicate after the head agrees with it (Ваша слойка готова, Twoja kawa gotowa).
        if case .written(plural: false) = count, let gender = features.gender, gender != .neuter {
            for index in trailingReaderWords where adjectives.allSatisfy({ $0.index != index }) {
                if let form = readerForm(of: phrase.words[index].lower, feminine: gender == .feminine) {
                    Self.set(&phrase.words[index], form)
                }
            }
        }
        for (position, adjective) in adjectives.enumerated() where adjectiveForms[position].count == 1 {
            if let form = adjectiveForms[position].first { Self.set(&phrase.words[adjective.index], form) }
        }
        if adjectiveForms.contains(where: { $0.count > 1 }) {
            context.warn(
                .ambiguous(word.text, readAs: "\(genders[0])", alternatives: genders.dropFirst().map { "\($0)" })
            )
        }
        return PhraseAnalysis(features: features, addressesReader: false)
    }

    /// What a lowercase word can be: a noun and an adjective by its lemma or a nominative form.
    private func reading(of lower: String) -> Reading? {
        let key = Self.folded(lower)
        var reading = Reading()
        for entry in paradigms.entries(lemma: key) {
            if entry.kind == .noun, reading.noun == nil { reading.noun = entry }
            if entry.kind == .adjective, reading.adjective == nil { reading.adjective = entry }
        }
        // Not an adjective's lemma: maybe a nominative form written agreeing (duża, большие), also
        // where a noun is spelled alike (czarna); a noun written in the plural (pizze) only when the
        // word is nothing else.
        if reading.adjective == nil { reading.adjective = paradigms.entry(nominative: key, kind: .adjective) }
        if reading.noun == nil, reading.adjective == nil {
            reading.noun = paradigms.entry(nominative: key, kind: .noun)
        }
        // A declared term the paradigms do not list: indeclinable when its plural is itself.
        if reading.noun == nil, let declared = lexicon.entry(lower), declared.canBeNoun,
            let gender = declared.grammaticalGender, declared.plural == nil || declared.plural == declared.lemma
        {
            reading.noun = ParadigmLexicon.Entry(
                kind: .noun,
                lemma: lower,
                gender: Self.gender(.masculine, stated: gender)
            )
        }
        return reading.noun == nil && reading.adjective == nil ? nil : reading
    }

    /// A lowercase word with *ё* written *е*, as print and the lexicon write it (ё is D1 91 in UTF-8).
    private static func folded(_ lower: String) -> String {
        lower.utf8.contains(0x91) && lower.contains("ё") ? lower.replacing("ё", with: "е") : lower
    }

    /// The head: the first word that can only be a noun, else the last that can be one.
    private func headPosition(in readings: [(index: Int, reading: Reading)]) -> Int? {
        readings.firstIndex { $0.reading.noun != nil && $0.reading.adjective == nil }
            ?? readings.lastIndex { $0.reading.noun != nil }
    }

    private func count(
        of numeral: Word?,
        number: Morphology.GrammaticalNumber?,
        writtenPlural: Bool
    ) -> Count {
        guard let numeral, let value = numeral.number else {
            switch number {
            case nil: return .written(plural: writtenPlural)
            case .singular: return .written(plural: false)
            default: return .written(plural: true)
            }
        }
        switch numeral.grammaticalNumber ?? number {
        case .singular: return .one
        case .pluralFew:
            if case .integer(let integer) = value { return .few(simple: (2...4).contains(integer)) }
            return .few(simple: false)
        case .pluralMany, .zero: return .many
        default: return .fraction
        }
    }

    /// The noun's case and number and the adjectives' slot for a count in a case.
    private func target(
        count: Count,
        case grammaticalCase: Case,
        gender: Gender,
        animate: Bool,
        noun: ParadigmLexicon.Entry
    ) -> (case: Case, plural: Bool, adjective: Slot)? {
        let direct = grammaticalCase == .nominative || grammaticalCase == .accusative
        if gender == .pluralOnly {
            // With a numeral these take collective numerals (dwoje drzwi, двое ножниц): left as written.
            guard case .written = count else { return nil }
            return (
                grammaticalCase, true, adjectiveSlot(grammaticalCase, plural: true, gender: gender, animate: animate)
            )
        }
        switch count {
        case .one, .written(plural: false):
            return (
                grammaticalCase, false, adjectiveSlot(grammaticalCase, plural: false, gender: gender, animate: animate)
            )
        case .written(plural: true):
            return (
                grammaticalCase, true, adjectiveSlot(grammaticalCase, plural: true, gender: gender, animate: animate)
            )
        case .fraction:
            return (.genitive, false, adjectiveSlot(.genitive, plural: false, gender: gender, animate: animate))
        case .many:
            let governed = direct ? Case.genitive : grammaticalCase
            return (governed, true, adjectiveSlot(governed, plural: true, gender: gender, animate: animate))
        case .few(let simple):
            guard direct else {
                return (
                    grammaticalCase, true,
                    adjectiveSlot(grammaticalCase, plural: true, gender: gender, animate: animate)
                )
            }
            switch rules.paucal {
            case .agreeing:
                // Polish: agreement, except masculine-personal nouns, which take the genitive.
                if gender == .masculinePersonal { return (.genitive, true, .pluralGenitive) }
                return (grammaticalCase, true, .pluralNominative)
            case .governing:
                // Russian: an animate noun's accusative after 2, 3, 4 themselves is its genitive plural.
                if grammaticalCase == .accusative, animate, simple { return (.genitive, true, .pluralGenitive) }
                let adjective: Slot = gender == .feminine ? .pluralNominative : .pluralGenitive
                if noun.isAdjectival { return (gender == .feminine ? .nominative : .genitive, true, adjective) }
                return (.genitive, false, adjective)
            }
        }
    }

    /// The adjective slot agreeing with a noun in a case and number.
    private func adjectiveSlot(_ grammaticalCase: Case, plural: Bool, gender: Gender, animate: Bool) -> Slot {
        if plural || gender == .pluralOnly {
            switch grammaticalCase {
            case .nominative: return gender == .masculinePersonal ? .pluralNominativePersonal : .pluralNominative
            case .accusative:
                let genitive = gender == .masculinePersonal || (rules.paucal == .governing && animate)
                return genitive ? .pluralGenitive : .pluralNominative
            case .genitive: return .pluralGenitive
            case .dative: return .pluralDative
            case .instrumental: return .pluralInstrumental
            case .locative: return .pluralLocative
            }
        }
        if gender == .feminine {
            switch grammaticalCase {
            case .nominative: return .feminineNominative
            case .genitive: return .feminineGenitive
            case .dative: return .feminineDative
            case .accusative: return .feminineAccusative
            case .instrumental: return .feminineInstrumental
            case .locative: return .feminineLocative
            }
        }
        switch grammaticalCase {
        case .nominative: return gender == .neuter ? .neuterNominative : .masculineNominative
        case .accusative:
            if gender == .neuter { return .neuterNominative }
            return animate ? .masculineGenitive : .masculineNominative
        case .genitive: return .masculineGenitive
        case .dative: return .masculineDative
        case .instrumental: return .masculineInstrumental
        case .locative: return .masculineLocative
        }
    }

    /// The paradigm gender, with a stated (hinted or declared) gender over it.
    private static func gender(_ listed: Gender, stated: Morphology.GrammaticalGender?) -> Gender {
        switch stated {
        case .feminine: .feminine
        case .neuter: .neuter
        case .masculine: listed.isMasculine ? listed : .masculine
        case nil: listed
        }
    }

    private static func morphologyGender(_ gender: Gender) -> Morphology.GrammaticalGender? {
        switch gender {
        case .masculine, .masculineAnimate, .masculinePersonal: .masculine
        case .feminine: .feminine
        case .neuter: .neuter
        case .pluralOnly: nil
        }
    }

    // MARK: The case the span is in

    /// Whether a lowercase word governs what follows it: a preposition, a verb, a word taking the
    /// genitive or the nominative.
    private func isGoverning(_ word: String) -> Bool {
        rules.prepositionCases[word] != nil || rules.accusativeVerbs.contains(word)
            || rules.genitiveWords.contains(word)
            || rules.instrumentalVerbs.contains(word) || rules.nominativeWords.contains(word)
            || paradigms.isLemma(word, kind: .governing)
    }

    /// The case the words before the span give it: a preposition, a verb taking the accusative
    /// (a genitive after a Polish negation in the same comma-free stretch), a word taking the
    /// genitive, a noun right before it (genitive); the nominative when the span opens its clause.
    /// `nil` when an unknown word governs it. `inside` are governing words written in the span.
    private func governingCase(of phrase: Phrase, inside: [String], _ context: inout AgreementContext) -> Case? {
        guard let first = phrase.words.first else { return nil }
        let clause = context.clause(before: first.utf8Range.lowerBound)
        // Each word bare, and whether a comma (or other mark) ended it as written.
        let written = clause.split(separator: " ").map { ($0, Self.bare($0)) }.filter { !$0.1.isEmpty }
        let words = written.map(\.1) + inside
        let endsPhrase =
            written.map { $0.0.last.map { !$0.isLetter && !$0.isNumber } ?? false } + inside.map { _ in false }
        /// Whether the negation stands just before the verb at `index`, with no comma between.
        func negated(_ index: Int) -> Bool {
            guard let negation = rules.negation else { return false }
            for before in stride(from: index - 1, through: max(0, index - 2), by: -1) {
                if endsPhrase[before] { return false }
                if words[before] == negation { return true }
            }
            return false
        }
        var index = words.count - 1
        while index >= 0 {
            let word = words[index]
            // A comma or colon after the word: what follows is not governed by it (Nie, dodaj …).
            if endsPhrase[index] { break }
            if let found = rules.prepositionCases[word] { return found }
            if rules.genitiveWords.contains(word) { return .genitive }
            if rules.instrumentalVerbs.contains(word) { return .instrumental }
            if rules.accusativeVerbs.contains(word) { return negated(index) ? .genitive : .accusative }
            if rules.nominativeWords.contains(word) { return .nominative }
            let afterPreposition =
                index > 0
                && (rules.prepositionCases[words[index - 1]] != nil
                    || Self.placePrepositions.contains(words[index - 1]))
            // A noun right before the span, not the object of a preposition, governs it in the
            // genitive (Porcja ciasta, Стоимость 2 пицц; not Dodaj do zamówienia 2 pizze).
            if index == words.count - 1, !afterPreposition, let reading = reading(of: word), reading.noun != nil,
                reading.adjective == nil
            {
                return .genitive
            }
            if let governed = paradigms.entry(lemma: word, kind: .governing)?.governedCase {
                return governed == .accusative && negated(index) ? .genitive : governed
            }
            if rules.transparentWords.contains(word) {
                index -= 1
                continue
            }
            // A prepositional phrase between the verb and the span (Dodaj do zamówienia …).
            if afterPreposition {
                index -= 2
                continue
            }
            // A verb's object between it and the span, which is in the instrumental (Угостите друга …).
            if index > 0, rules.instrumentalVerbs.contains(words[index - 1]) { return .instrumental }
            return nil
        }
        // Only an unknown word or a comma stopped the walk short of the clause's start.
        if index >= 0 { return nil }
        guard let last = phrase.words.last else { return .nominative }
        let after = context.clause(after: last.utf8Range.upperBound)
        if let verb = after.split(separator: " ").first.map({ Self.bare($0) }), rules.accusativeAfter.contains(verb) {
            return .accusative
        }
        return .nominative
    }

    /// Prepositions whose case depends on the meaning (*w*, *na*, *в*, *на*): a phrase they open may
    /// stand between a verb and its object.
    private static let placePrepositions: WordSet = ["w", "we", "na", "po", "o", "в", "во", "на", "по", "о"]

    /// A word lowercased without the punctuation around it.
    private static func bare(_ word: Substring) -> String {
        guard let start = word.firstIndex(where: \.isLetter), let end = word.lastIndex(where: \.isLetter) else {
            return ""
        }
        return String(word[start...end]).fastLowercased
    }

    // MARK: Agreement with arguments, concepts and the reader

    func features(of phrase: Phrase) -> GrammaticalFeatures? {
        var readings: [(index: Int, reading: Reading)] = []
        for index in phrase.words.indices where !phrase.words[index].isNumber {
            guard let reading = reading(of: phrase.words[index].lower) else { continue }
            readings.append((index, reading))
        }
        guard let position = headPosition(in: readings), let noun = readings[position].reading.noun else { return nil }
        let word = phrase.words[readings[position].index]
        let gender = Self.gender(
            noun.gender ?? .masculine,
            stated: word.hint?.grammaticalGender ?? lexicon.entry(word.lower)?.grammaticalGender
        )
        let plural =
            noun.gender == .pluralOnly
            || (paradigms.noun(noun, .nominative, plural: true) == word.lower && noun.lemma != word.lower)
        return GrammaticalFeatures(gender: Self.morphologyGender(gender), number: plural ? .plural : .singular)
    }

    /// Words that agree with the reader or an argument: a past-tense verb (*zamówiłeś* →
    /// *zamówiłaś*, *заказал* → *заказала*), a short adjective (*готов* → *готова*), an adjective in
    /// the nominative (*gotowy* → *gotowa*).
    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext) {
        guard let gender = features.gender else { return }
        for index in phrase.words.indices where !phrase.words[index].isNumber {
            let lower = phrase.words[index].lower
            if !features.isPlural, gender != .neuter, let form = readerForm(of: lower, feminine: gender == .feminine) {
                Self.set(&phrase.words[index], form)
                continue
            }
            guard let adjective = reading(of: lower)?.adjective else { continue }
            // A masculine plural is personal (gotowi) or not (gotowe) in Polish, which the
            // features do not say: the word stays as written.
            if features.isPlural, gender == .masculine, rules.paucal == .agreeing { continue }
            let slot: Slot =
                features.isPlural
                ? .pluralNominative
                : gender == .feminine
                    ? .feminineNominative : gender == .neuter ? .neuterNominative : .masculineNominative
            if let form = paradigms.adjective(adjective, slot) { Self.set(&phrase.words[index], form) }
        }
    }

    /// A reader word's form for the gender, or `nil` when the word is none. Returns the word
    /// itself when it already has that gender.
    private func readerForm(of lower: String, feminine: Bool) -> String? {
        if let entry = paradigms.entry(lemma: lower, kind: .reader) { return feminine ? entry.feminine : lower }
        if let entry = paradigms.entry(nominative: lower, kind: .reader) { return feminine ? lower : entry.lemma }
        // Polish person endings written on the verb (zamówił-eś, zamówiła-ś).
        for (masculine, feminineEnding) in rules.personEndings {
            if lower.hasSuffix(masculine),
                let entry = paradigms.entry(lemma: String(lower.dropLast(masculine.count)), kind: .reader)
            {
                return feminine ? (entry.feminine ?? entry.lemma) + feminineEnding : lower
            }
            if lower.hasSuffix(feminineEnding),
                let entry = paradigms.entry(nominative: String(lower.dropLast(feminineEnding.count)), kind: .reader)
            {
                return feminine ? lower : entry.lemma + masculine
            }
        }
        return nil
    }

    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? { term.singularFeatures }

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        guard let features = referent.pronounFeatures, rules.pronouns.count == 4 else { return }
        // A Polish plural is *oni* or *one* by whether it is masculine personal, which is not known.
        if features.isPlural, rules.paucal == .agreeing { return }
        let slot = features.isPlural ? 3 : features.gender == .feminine ? 1 : features.gender == .neuter ? 2 : 0
        for index in phrase.words.indices where rules.pronouns.contains(phrase.words[index].lower) {
            phrase.words[index].set(rules.pronouns[slot])
        }
    }

    /// A preposition just before the span takes its long form before the span's first word:
    /// *z* → *ze* (*ze świeżym sokiem*), *с* → *со* (*со сметаной*).
    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit] {
        guard let first = phrase.words.first, !first.isNumber,
            let before = context.word(before: first.utf8Range.lowerBound, endingIn: Self.shortPrepositionEndings),
            let long = rules.longPreposition(before.text.fastLowercased, before: first.currentLower)
        else { return [] }
        return [
            RichTextEdit(
                utf8Range: before.utf8Range,
                replacement: CasePattern(of: before.text).apply(to: long, original: before.text)
            )
        ]
    }

    /// The last UTF-8 byte of *z* and of *с* (U+0441: D1 81), as `word(before:endingIn:)` compares
    /// them (with 0x20 set).
    private static let shortPrepositionEndings: [UInt8] = [UInt8(ascii: "z"), 0x81 | 0x20]
}

extension SlavicGrammar.Count {
    var isPlural: Bool {
        switch self {
        case .one, .fraction, .written(plural: false): false
        default: true
        }
    }
}
