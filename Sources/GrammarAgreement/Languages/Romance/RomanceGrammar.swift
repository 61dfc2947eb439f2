import RichText

/// Agreement for French, Italian and Portuguese: the head noun takes the span's number, and its
/// gender and number spread to the determiners and adjectives before and after it. Words stay where
/// the translator put them: *2 grand pizza* → *2 grandes pizzas*, *2 pizza grande* → *2 pizze grandi*.
///
/// Only what the lexicon (or the catalog's declared terms) knows changes. A menu item of several
/// words inflects its head and the adjectives that agree with it, nothing else: nouns in apposition
/// keep their form (*2 cafés crème*), complements after a preposition too (*2 bouteilles d'eau*),
/// except an adjective there that can only describe the head (*2 jus d'orange pressés*) and sizes.
/// A word the lexicon does not list is left as written and reported (``AgreementWarning/Code/unknownWord``),
/// and so are the words whose form would depend on it. Of words joined by a conjunction, only the
/// part holding the number takes it (*2 croissants et café*).
struct RomanceGrammar<Language: RomanceLanguage>: LanguageGrammar {
    let rules: Language

    var language: String { rules.code }
    // The rules' tables, kept here so lookups read them in place: reading one through `rules` (a
    // protocol requirement) copies it out first, every array of it.
    private let lexicon: Lexicon
    private let determiners: DeterminerTable
    private let prepositions: WordSet
    private let conjunctions: WordSet
    private let sizeAdjectives: WordSet
    private let personNouns: PersonNouns
    private let verbs: NumberedVerbs
    private let elisions: WordSet
    private let prenominalAdjectives: WordSet
    /// Determiners, prepositions and conjunctions, so a word's role takes one lookup.
    private let closedClass: WordTable<ClosedClass>
    /// The first bytes of the lexicon's words with an aspirated *h* and of their forms, indexed by
    /// byte: a word starting otherwise needs no lookup to know it elides.
    private let aspiratedInitials: [Bool]
    private let wordFormation: WordFormation
    private let aspiratedWords: WordSet
    /// Whether the language has an aspirated h (French): then an h word no dictionary knows may be one.
    private let marksAspiration: Bool
    private let englishLoans = EnglishLoans()

    init(_ rules: Language) {
        self.rules = rules
        lexicon = rules.lexicon
        determiners = rules.determiners
        prepositions = rules.prepositions
        conjunctions = rules.conjunctions
        sizeAdjectives = rules.sizeAdjectives
        personNouns = PersonNouns(rules.personNouns)
        verbs = NumberedVerbs(rules.verbs)
        elisions = rules.elisions
        prenominalAdjectives = rules.prenominalAdjectives
        closedClass = Self.closedClasses(of: rules)
        aspiratedInitials = Self.aspiratedInitials(in: rules.lexicon)
        wordFormation = rules.wordFormation
        aspiratedWords = rules.aspiratedWords
        marksAspiration = !rules.aspiratedWords.words.isEmpty
    }

    private enum Role {
        case number, determiner, preposition, conjunction, content
    }

    /// Which closed classes a word belongs to.
    private struct ClosedClass: Sendable {
        var isDeterminer = false
        var isPreposition = false
        var isConjunction = false
    }

    private func role(of word: Word, beforeHead: Bool) -> Role {
        if word.isNumber { return .number }
        if word.hint?.partOfSpeech == .noun || word.hint?.partOfSpeech == .adjective { return .content }
        guard let closed = closedClass[word.lower] else { return .content }
        if beforeHead, closed.isDeterminer { return .determiner }
        if closed.isPreposition { return .preposition }
        if closed.isConjunction { return .conjunction }
        if closed.isDeterminer { return .determiner }
        return .content
    }

    /// Whether a lowercase word is a form of a determiner.
    private func isDeterminer(_ word: String) -> Bool { closedClass[word]?.isDeterminer == true }

    private static func closedClasses(of rules: Language) -> WordTable<ClosedClass> {
        var table = WordTable<ClosedClass>()
        func mark(_ words: [String], _ property: WritableKeyPath<ClosedClass, Bool>) {
            for word in words {
                var classes = table[word] ?? ClosedClass()
                classes[keyPath: property] = true
                table[word] = classes
            }
        }
        mark(rules.determiners.writtenForms, \.isDeterminer)
        mark(rules.prepositions.words, \.isPreposition)
        mark(rules.conjunctions.words, \.isConjunction)
        return table
    }

    /// The first bytes of the words (lemmas and listed forms) the lexicon marks as starting with an
    /// aspirated *h*, indexed by byte.
    private static func aspiratedInitials(in lexicon: Lexicon) -> [Bool] {
        // Only French marks aspirated words, and they all start with h.
        var initials = [Bool](repeating: false, count: 256)
        initials[Int(UInt8(ascii: "h"))] = true
        return initials
    }

    // MARK: What the lexicon knows

    /// A noun as the lexicon knows it: its singular and plural forms as agreement writes them, and
    /// its gender when that is certain.
    struct NounReading {
        var singular: String
        var plural: String
        /// `nil` when the lexicon gives none or two (the phrase may still show which).
        var gender: Morphology.GrammaticalGender?
        /// Whether the word is written in the plural.
        var isWrittenPlural: Bool
        var isUncountable = false
        var isPluralOnly = false
        var entry: LexiconEntry?
        /// Whether the forms come from the language's rules (a derived word, a loan), not the lexicon.
        var isByRule = false
        /// Whether only the spelling rules read it (a word no lexicon lists, not derived, no loan):
        /// taken for a noun only in an argument (a menu item), never in the template's own words,
        /// where an unknown word is as likely a verb (*Soyez le bienvenu*).
        var isGuess = false
        /// Whether the spelling rules read it (a guess, or a loan's plural), never a dictionary.
        var isBySpelling = false
    }

    /// Whether the lexicon lists the word or a word it is a form of (what an *h* is, only a dictionary
    /// knows).
    private func isListed(_ word: String) -> Bool {
        lexicon.entry(word) != nil || lexicon.entry(forInflectedForm: word) != nil
            || rules.singular(ofNoun: word).map { lexicon.entry($0) != nil } == true
    }

    /// How agreement reads a word of the phrase as a noun: ``nounReading(_:)``, but for a guess
    /// from the spelling rules on a word the template wrote itself, unless a number or a determiner
    /// before it makes it a noun (*2 pasticciotto*, but not *Soyez le bienvenu*).
    private func nounReading(_ word: Word, after previous: Word? = nil) -> NounReading? {
        guard let reading = nounReading(word.lower) else { return nil }
        // A capitalised word the lexicon does not list, or lists only as another word's plural, is a
        // name (Red Bull, Perrier, un Bellini): its spelling says nothing.
        let isCapitalized = word.text != word.lower && CasePattern(of: word.text) != .lower
        if isCapitalized, reading.isBySpelling || (reading.isWrittenPlural && lexicon.entry(word.lower) == nil) {
            return nil
        }
        guard reading.isGuess else { return reading }
        if word.argument != nil { return reading }
        if let previous, previous.isNumber || isDeterminer(previous.lower) { return reading }
        return nil
    }

    /// How the lexicon reads `word` as a noun: a listed noun, its plural (listed or by default), a
    /// person noun, or the feminine of a noun listed with its masculine (Italian *crostata* from
    /// *crostato*); `nil` for a word it does not know as a noun.
    func nounReading(_ word: String) -> NounReading? {
        if let entry = lexicon.entry(word), entry.canBeNoun {
            return reading(of: word, entry: entry, writtenPlural: entry.isPluralOnly)
        }
        if personNouns.isDistinctFeminine(word) {
            let plural = rules.plural(ofNoun: word) ?? rules.defaultPlural(ofNoun: word, gender: .feminine)
            return NounReading(singular: word, plural: plural, gender: .feminine, isWrittenPlural: false)
        }
        if personNouns.feminineByMasculine[word] != nil {
            let plural = rules.plural(ofNoun: word) ?? rules.defaultPlural(ofNoun: word, gender: .masculine)
            return NounReading(singular: word, plural: plural, gender: .masculine, isWrittenPlural: false)
        }
        if let (entry, kind) = lexicon.entry(forInflectedForm: word), entry.canBeNoun {
            let lemma = entry.lemma.fastLowercased
            switch kind {
            case .plural: return reading(of: lemma, entry: entry, writtenPlural: true)
            case .feminine, .femininePlural: return feminineReading(of: lemma, entry: entry, kind == .femininePlural)
            default: break
            }
        }
        if let singular = rules.singular(ofNoun: word), let entry = lexicon.entry(singular) {
            return reading(of: singular, entry: entry, writtenPlural: true)
        }
        // The feminine of a noun listed with its masculine, by the default forms (crostata, spremuta).
        for candidate in rules.adjectiveLemmaCandidates(of: word) where candidate != word {
            guard let entry = lexicon.entry(candidate), entry.canBeNoun, entry.canBeAdjective else { continue }
            let feminine = rules.adjectiveForm(candidate, entry: entry, features: Self.feminineSingular, before: nil)
            let femininePlural = rules.adjectiveForm(
                candidate,
                entry: entry,
                features: Self.femininePlural,
                before: nil
            )
            if feminine == word || femininePlural == word {
                return NounReading(
                    singular: feminine,
                    plural: femininePlural,
                    gender: .feminine,
                    isWrittenPlural: femininePlural == word && feminine != word,
                    entry: entry
                )
            }
        }
        return ruleReading(word)
    }

    /// A noun the lexicon does not list but the language's rules read: made from a listed word by a
    /// diminutive or augmentative suffix (*queijadinha*, *cassatina*), or a loan whose plural the
    /// grammar gives (*pancakes*). Its gender is the suffix's, or unknown for a loan.
    private func ruleReading(_ word: String) -> NounReading? {
        if let derived = wordFormation.derivation(
            of: word,
            isBase: { lexicon.entry($0)?.canBeNoun == true },
            pluralOf: { rules.plural(ofNoun: $0) },
            singularOf: { rules.singular(ofNoun: $0) }
        ) {
            return NounReading(
                singular: derived.singular,
                plural: derived.plural,
                gender: derived.gender,
                isWrittenPlural: derived.isWrittenPlural,
                isByRule: true
            )
        }
        // A prefix that does not change before a listed noun: demi-baguette, mini-pizza.
        if let hyphen = word.firstIndex(of: "-"), rules.invariablePrefixes.contains(String(word[..<hyphen])),
            case let rest = String(word[word.index(after: hyphen)...]), !rest.isEmpty,
            let last = nounReading(rest)
        {
            let prefix = String(word[...hyphen])
            var reading = last
            reading.singular = prefix + last.singular
            reading.plural = prefix + last.plural
            reading.isByRule = true
            return reading
        }
        // A noun, a preposition and its complement joined by hyphens: the first noun takes the number
        // and gives the gender (banana-da-terra → bananas-da-terra, pé-de-moleque → pés-de-moleque).
        let parts = word.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if parts.count >= 3, parts.dropFirst().dropLast().contains(where: prepositions.contains),
            !parts[0].isEmpty, let first = nounReading(parts[0]), !first.isWrittenPlural
        {
            let rest = "-" + parts.dropFirst().joined(separator: "-")
            var reading = first
            reading.singular = first.singular + rest
            reading.plural = first.plural + rest
            reading.isByRule = true
            return reading
        }
        guard let plural = rules.rulePlural(ofUnlisted: word) else { return nil }
        return NounReading(
            singular: word,
            plural: plural,
            gender: nil,
            isWrittenPlural: false,
            isByRule: true,
            isGuess: !englishLoans.isCountableNoun(word),
            isBySpelling: true
        )
    }

    /// The gender a noun whose sources give none takes by the language's rules: a diminutive or
    /// augmentative suffix on a listed base (*bombolone*, *calzone*: *-one*, masculine), or an ending
    /// that has one gender (Italian and Portuguese *-o* masculine, *-a* feminine); `nil` otherwise.
    private func ruleGender(of lemma: String) -> Morphology.GrammaticalGender? {
        let derived = wordFormation.derivation(
            of: lemma,
            isBase: { $0 != lemma && lexicon.entry($0)?.canBeNoun == true },
            pluralOf: { rules.plural(ofNoun: $0) },
            singularOf: { rules.singular(ofNoun: $0) }
        )
        // A word the dictionaries list without a gender is likelier an exception to the ending
        // (il gorgonzola) than a rule: only unlisted words take the ending's gender.
        // A loan's ending says nothing of its gender here (o matcha).
        guard derived == nil, lexicon.entry(lemma) == nil, !englishLoans.isCountableNoun(lemma) else {
            return derived?.gender
        }
        return rules.gender(bySpelling: lemma)
    }

    private static var feminineSingular: GrammaticalFeatures {
        GrammaticalFeatures(gender: .feminine, number: .singular)
    }
    private static var femininePlural: GrammaticalFeatures { GrammaticalFeatures(gender: .feminine, number: .plural) }

    private func reading(of lemma: String, entry: LexiconEntry, writtenPlural: Bool) -> NounReading {
        NounReading(
            singular: lemma,
            plural: rules.plural(ofNoun: lemma, entry: entry) ?? lemma,
            gender: entry.hasOneGender ? entry.grammaticalGender : nil,
            isWrittenPlural: writtenPlural,
            isUncountable: entry.isUncountable,
            isPluralOnly: entry.isPluralOnly,
            entry: entry
        )
    }

    private func feminineReading(of lemma: String, entry: LexiconEntry, _ plural: Bool) -> NounReading {
        NounReading(
            singular: rules.adjectiveForm(lemma, entry: entry, features: Self.feminineSingular, before: nil),
            plural: rules.adjectiveForm(lemma, entry: entry, features: Self.femininePlural, before: nil),
            gender: .feminine,
            isWrittenPlural: plural,
            entry: entry
        )
    }

    /// Whether a word before `next` is an adjective before its noun: hinted so, one of the
    /// language's adjectives that go before the noun (*grand*, *buon*, *bom*), or an adjective the
    /// lexicon knows only as one before a word it knows only as a noun.
    private func isPrenominalAdjective(_ word: Word, before next: Word?) -> Bool {
        if word.hint?.partOfSpeech == .adjective { return true }
        guard let reading = adjectiveReading(word) else { return false }
        if prenominalAdjectives.contains(reading.lemma) { return true }
        // Before a person noun (querido cliente, chère cliente) an adjective describes the person.
        if let next, personNouns.contains(next.lower) { return true }
        guard let next, !reading.entry.canBeNoun else { return false }
        let nextIsNoun = nounReading(next) != nil || lexicon.startsPhrase(next.lower)
        return nextIsNoun && adjectiveReading(next) == nil
    }

    /// The adjective reading of a word after a noun: listed as an adjective, or a form of one.
    private func adjectiveReading(_ word: Word) -> (lemma: String, entry: LexiconEntry)? {
        rules.adjectiveLemma(of: word.lower)
    }

    /// A listed multi-word noun starting at `index` (*café au lait*, *cold brew*), with an explicit
    /// plural: how many words it has.
    private func phraseLength(at index: Int, in words: [Word], end: Int) -> Int? {
        let byRule =
            words[index].argument != nil && index + 1 < end && words[index + 1].argument == words[index].argument
        guard byRule || (lexicon.longestPhrase > 1 && lexicon.startsPhrase(words[index].lower)) else { return nil }
        var longest: Int?
        var text = words[index].lower
        for next in (index + 1)..<min(end, index + max(lexicon.longestPhrase, 3)) {
            guard !words[next].isNumber else { break }
            text += " " + words[next].lower
            if let entry = lexicon.entry(text), entry.canBeNoun, entry.plural != nil || entry.isInvariable {
                longest = next - index + 1
            } else if words[next].argument != nil, words[next].argument == words[index].argument,
                lexicon.entry(words[index].lower) == nil, lexicon.entry(words[next].lower) == nil,
                !words[index...next].contains(where: { closedClass[$0.lower] != nil }),
                rules.rulePlural(ofUnlisted: text) != nil
            {
                longest = next - index + 1  // an English noun given whole: avocado toast
            } else if englishHeadPlural(text, words: words[index...next]) != nil {
                longest = next - index + 1  // English order, the head last: açaï bowl
            }
        }
        return longest
    }

    // MARK: Inflecting a span

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        splitElisions(&phrase)
        return phrase.inflectByConjunct(number: number, isConjunction: { conjunctions.contains($0.lower) }) {
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
        guard let head = head(of: phrase, in: part, hasNumber: number != nil, context: &context) else {
            if let analysis = agreeWithRule(&phrase, rule: rule, number: number, context: &context) {
                return analysis
            }
            respellDeterminersAsWritten(&phrase, part: part, number: nil)
            elideBeforeVowels(&phrase)
            return PhraseAnalysis(features: nil, addressesReader: number == nil && !hasUnknownContent(phrase, part))
        }
        let word = phrase.words[head.index]
        let hint = word.hint ?? phrase.hint
        var determinerNumber: Bool?
        for earlier in phrase.words[head.start..<head.index] {
            determinerNumber = determiners.writtenNumber(earlier.lower)
            if determinerNumber != nil { break }
        }
        // A noun written in its plural (struffoli: sul → sugli) is plural whatever the article says
        // (a capitalised name that only looks like a plural, un Bellini, is no plural: see nounReading).
        let nounPlural = head.reading.isWrittenPlural && head.reading.plural != head.reading.singular ? true : nil
        let writtenPlural =
            hint?.number.map { $0 != .singular } ?? nounPlural ?? determinerNumber ?? head.reading.isWrittenPlural
        let target = rule?.number ?? number ?? (writtenPlural ? .plural : .singular)
        var gender = hint?.grammaticalGender ?? head.reading.gender
        if gender == nil {
            gender = writtenGender(in: phrase, part: part, head: head.index)
            if gender == nil, let byRule = ruleGender(of: head.reading.singular) {
                gender = byRule
                context.warn(.genderByRule(word.text, byRule, language: language))
            }
            if gender == nil { context.warn(.unknownGender(word.text)) }
        }
        if target != .singular, head.reading.entry?.isFeminineInPlural == true { gender = .feminine }
        let features = GrammaticalFeatures(gender: gender, number: target)
        if !head.reading.isUncountable {
            let form = features.isPlural || head.reading.isPluralOnly ? head.reading.plural : head.reading.singular
            setNoun(&phrase, head: head, form: form)
            if head.reading.isByRule { context.warn(.inflectedByRule(word.text, to: form, language: language)) }
        }
        agreeModifiers(&phrase, part: part, head: head, features: features, context: &context)
        if features.gender == nil {
            // Determiners left as written for want of a gender still take the shape the noun's
            // first sound asks for (col speck → con lo speck).
            respellDeterminersAsWritten(&phrase, part: head.start..<head.index + 1, number: features.number)
        }
        let lemma = head.reading.singular
        // A person noun, or one whose gender is the person's (le bienvenu, la bienvenue).
        let isPerson =
            personNouns.contains(lemma) || head.reading.entry.map { $0.gender == .common && $0.canBeAdjective } == true
        return PhraseAnalysis(features: features, addressesReader: number == nil && isPerson)
    }

    /// The plural of an English compound given as one argument, its head last (*açaï bowl* → *açaï
    /// bowls*): no preposition or article between, the last word an English noun and the first one
    /// unknown to the language's lexicon (*pizza pepperoni* is the language's own order); the last
    /// word takes the language's plural for loans. `nil` otherwise.
    private func englishHeadPlural(_ text: String, words: ArraySlice<Word>) -> String? {
        guard words.count > 1, let first = words.first, let last = words.last, let argument = last.argument,
            words.allSatisfy({ $0.argument == argument && !$0.isNumber && closedClass[$0.lower] == nil }),
            lexicon.entry(first.lower) == nil,
            englishLoans.isCountableNoun(last.lower),
            let plural = rules.rulePlural(ofUnlisted: last.lower)
        else { return nil }
        return text.droppingLastBytes(last.lower.utf8.count) + plural
    }

    /// Where the head is, how many words it spans and what the lexicon knows of it.
    private struct Head {
        var index: Int
        var length = 1
        var reading: NounReading
        /// Where the noun phrase starts: words before it (a verb, *Soyez* le bienvenu) are not its.
        var start = 0
    }

    /// Whether the part has a content word agreement does not know (so its words are left alone
    /// rather than made to agree with the reader).
    private func hasUnknownContent(_ phrase: Phrase, _ part: Range<Int>) -> Bool {
        part.contains { index in
            let word = phrase.words[index]
            return role(of: word, beforeHead: true) == .content && nounReading(word) == nil
                && adjectiveReading(word) == nil && word.hint == nil
        }
    }

    /// The head: a noun hint; else, past determiners, the number and adjectives the lexicon lists
    /// first as adjectives, the first content word, which must be a noun the lexicon knows (or a
    /// listed multi-word noun). A span without a number whose one word is an adjective (*Bienvenu*)
    /// has none. An unknown word where the head should be is reported, and the span left as written.
    private func head(
        of phrase: Phrase,
        in part: Range<Int>,
        hasNumber: Bool,
        context: inout AgreementContext
    ) -> Head? {
        let words = phrase.words
        if let hinted = part.first(where: { words[$0].hint?.partOfSpeech == .noun }) {
            let word = words[hinted]
            let reading =
                nounReading(word.lower)
                ?? NounReading(singular: word.lower, plural: word.lower, gender: nil, isWrittenPlural: false)
            return Head(index: hinted, reading: reading, start: part.lowerBound)
        }
        var content: [Int] = []
        var start = part.lowerBound
        scan: for index in part {
            switch role(of: words[index], beforeHead: content.isEmpty) {
            case .content: content.append(index)
            case .preposition where !content.isEmpty: break scan
            case .determiner where !content.isEmpty:
                // A determiner after words that are no noun starts the noun phrase (Soyez le bienvenu).
                if content.allSatisfy({ nounReading(words[$0]) == nil && adjectiveReading(words[$0]) == nil }) {
                    content.removeAll()
                    start = index
                }
            default: continue
            }
        }
        guard let first = content.first else { return nil }
        for (position, index) in content.enumerated() {
            let word = words[index]
            if let length = phraseLength(at: index, in: words, end: part.upperBound) {
                let text = words[index..<(index + length)].map(\.lower).joined(separator: " ")
                if let entry = lexicon.entry(text) {
                    return Head(
                        index: index,
                        length: length,
                        reading: reading(of: entry.lemma.fastLowercased, entry: entry, writtenPlural: false),
                        start: start
                    )
                }
                if let plural = rules.rulePlural(ofUnlisted: text)
                    ?? englishHeadPlural(text, words: words[index..<(index + length)])
                {
                    let reading = NounReading(
                        singular: text,
                        plural: plural,
                        gender: nil,
                        isWrittenPlural: false,
                        isByRule: true
                    )
                    return Head(index: index, length: length, reading: reading, start: start)
                }
            }
            let isLast = position == content.count - 1
            // An adjective before the noun: grand café, buon caffè, bel homme. The word after it
            // is the head, or says it is not known.
            let next = isLast ? nil : words[content[position + 1]]
            if let next, isPrenominalAdjective(word, before: next) { continue }
            let previous = index > part.lowerBound ? words[index - 1] : nil
            if let reading = nounReading(word, after: previous), !(reading.isGuess && adjectiveReading(word) != nil) {
                // A lone adjective-like word without a number addresses the reader: Bienvenu, Pronto.
                if !hasNumber, isLone(index, in: part, of: words), adjectiveReading(word) != nil,
                    !words[part.lowerBound..<index].contains(where: { isDeterminer($0.lower) })
                {
                    return nil
                }
                // Read by position: after a number or a determiner it can only be the noun.
                if !hasNumber, !words[start..<index].contains(where: { isDeterminer($0.lower) }) {
                    warnIfAmbiguous(word, readAs: "noun", context: &context)
                }
                return Head(index: index, reading: reading, start: start)
            }
            if let adjective = adjectiveReading(word) {
                if !hasNumber, isLone(index, in: part, of: words) { return nil }
                // An adjective standing for the noun (2 moelleux au chocolat, 2 sablés): its own
                // forms, in the gender it is written in.
                let written = rules.cells(of: word.lower, lemma: adjective.lemma, entry: adjective.entry)
                let gender: Morphology.GrammaticalGender =
                    written.contains { $0.gender == .masculine } ? .masculine : .feminine
                func form(_ number: Morphology.GrammaticalNumber) -> String {
                    rules.adjectiveForm(
                        adjective.lemma,
                        entry: adjective.entry,
                        features: GrammaticalFeatures(gender: gender, number: number),
                        before: nil
                    )
                }
                let reading = NounReading(
                    singular: form(.singular),
                    plural: form(.plural),
                    gender: gender,
                    isWrittenPlural: !written.contains { !$0.isPlural },
                    entry: adjective.entry
                )
                return Head(index: index, reading: reading, start: start)
            }
            context.warn(.unknown(word.text, language: language))
            return nil
        }
        _ = first
        return nil
    }

    /// Whether the word is the part's only content word (*Bienvenu*, *Sei iscritto*).
    private func isLone(_ index: Int, in part: Range<Int>, of words: [Word]) -> Bool {
        !part.contains { other in
            other != index && role(of: words[other], beforeHead: true) == .content
        }
    }

    /// Warns about a word a hand-written lexicon lists with several parts of speech, read by position.
    private func warnIfAmbiguous(_ word: Word, readAs reading: String, context: inout AgreementContext) {
        guard word.hint == nil, let entry = lexicon.entry(word.lower), entry.isAmbiguous, !entry.isCompiled else {
            return
        }
        context.warn(.ambiguous(word.text, readAs: reading, alternatives: entry.partsOfSpeech.map(\.rawValue)))
    }

    /// The gender the translator's words show: a determiner or adjective in the part written in
    /// only one gender (*una*, *petite*).
    private func writtenGender(in phrase: Phrase, part: Range<Int>, head: Int) -> Morphology.GrammaticalGender? {
        for index in part where index != head {
            let word = phrase.words[index]
            // A word written apart from the noun (a template's article before an argument's item)
            // was not written for it.
            if word.argument != phrase.words[head].argument { continue }
            // A complement's words speak of their own noun.
            if index > head, role(of: word, beforeHead: false) == .preposition { break }
            if let feminine = determiners.writtenFeminine(word.lower) { return feminine ? .feminine : .masculine }
            guard role(of: word, beforeHead: false) == .content, let (lemma, entry) = adjectiveReading(word) else {
                continue
            }
            // The dictionary form (masculine singular) is how a translator writes an adjective
            // whatever the noun: only another form shows a gender (garapa + gelado says nothing).
            if word.lower == lemma { continue }
            let genders = Set(rules.cells(of: word.lower, lemma: lemma, entry: entry).map(\.gender))
            if genders.count == 1, let gender = genders.first { return gender }
        }
        return nil
    }

    /// Sets the head to `form` (a multi-word head word by word).
    private func setNoun(_ phrase: inout Phrase, head: Head, form: String) {
        guard head.length > 1 else {
            phrase.words[head.index].set(form)
            return
        }
        let parts = form.split(separator: " ").map(String.init)
        guard parts.count == head.length else { return }
        for offset in 0..<head.length { phrase.words[head.index + offset].set(parts[offset]) }
    }

    /// Adjectives agree with the head before it and after it; nouns in apposition and complements
    /// keep their form, but for an adjective there that only the head's gender and number fit, and
    /// sizes; then determiners and short forms take the shape the next word asks for.
    private func agreeModifiers(
        _ phrase: inout Phrase,
        part: Range<Int>,
        head: Head,
        features: GrammaticalFeatures,
        context: inout AgreementContext
    ) {
        var inComplement = false
        var complementNoun: NounReading?
        var complementArgument: Int?
        var complementHasNoun = false
        let headWritten = GrammaticalFeatures(
            gender: features.gender,
            number: head.reading.isWrittenPlural ? .plural : .singular
        )
        for index in head.start..<part.upperBound where !(head.index..<(head.index + head.length)).contains(index) {
            let word = phrase.words[index]
            let beforeHead = index < head.index
            switch role(of: word, beforeHead: beforeHead) {
            case .number, .conjunction, .determiner:
                continue
            case .preposition:
                if !beforeHead {
                    inComplement = true
                    complementNoun = nil
                    complementHasNoun = false
                    complementArgument = word.argument
                }
            case .content:
                if beforeHead {
                    if let reading = adjectiveReading(word) {
                        agreeAdjective(&phrase, index, features, beforeNoun: true, reading: reading)
                    } else if word.hint?.partOfSpeech != .adjective {
                        context.warn(.unknown(word.text, language: language))
                    }
                } else if inComplement {
                    // The first word after the preposition is the complement's noun, whatever else
                    // it can be: 2 calici di rosso, 2 ballons de rouge (the wine).
                    if !complementHasNoun {
                        complementHasNoun = true
                        complementNoun = nounReading(word)
                        continue
                    }
                    guard let reading = adjectiveReading(word) else { continue }
                    // 2 tasses de café moyennes: sizes describe the container; 2 jus d'orange pressés:
                    // an adjective the complement's noun cannot take describes the head.
                    let written = rules.cells(of: word.lower, lemma: reading.lemma, entry: reading.entry)
                    let fitsHead = written.contains { fits($0, headWritten) }
                    let fitsComplement =
                        complementNoun.map { noun in
                            written.contains {
                                fits(
                                    $0,
                                    GrammaticalFeatures(
                                        gender: noun.gender,
                                        number: noun.isWrittenPlural ? .plural : .singular
                                    )
                                )
                            }
                        } ?? false
                    // An adjective given apart from the item (%@ %@ with "torta al cioccolato",
                    // "vegano") describes the item, not the noun inside its complement.
                    let givenApart = word.argument != nil && word.argument != complementArgument
                    // After a complement noun agreement cannot read, the adjective may be its: left.
                    let readable = complementNoun != nil
                    if sizeAdjectives.contains(reading.lemma) || givenApart || (readable && fitsHead && !fitsComplement)
                    {
                        agreeAdjective(&phrase, index, features, beforeNoun: false, reading: reading)
                    }
                } else if word.text != word.lower, CasePattern(of: word.text) == .capitalized,
                    CasePattern(of: phrase.words[head.index].text) == .lower
                {
                    continue  // pizza Margherita, salade César
                } else if let reading = adjectiveReading(word),
                    word.hint?.partOfSpeech == .adjective || word.lower == reading.lemma
                        || (word.argument != nil && word.argument != phrase.words[head.index].argument)
                        || rules.cells(of: word.lower, lemma: reading.lemma, entry: reading.entry).contains(where: {
                            fits($0, headWritten)
                        })
                {
                    // After the noun: an adjective written in its dictionary form, or in a form the
                    // head can take (tartine beurrée); steak frites keeps its noun.
                    if reading.entry.isAmbiguous, !reading.entry.isCompiled, word.lower == reading.lemma {
                        warnIfAmbiguous(word, readAs: "adjective", context: &context)
                    }
                    agreeAdjective(&phrase, index, features, beforeNoun: false, reading: reading)
                } else if nounReading(word) == nil, word.hint == nil {
                    context.warn(.unknown(word.text, language: language))
                }
            }
        }
        agreeDeterminers(&phrase, part: head.start..<part.upperBound, upTo: head.index, features: features)
        elideBeforeVowels(&phrase)
    }

    /// Whether a written cell fits a noun's gender (when known) and number.
    private func fits(_ cell: GrammaticalFeatures, _ noun: GrammaticalFeatures) -> Bool {
        cell.number == noun.number && (noun.gender == nil || cell.gender == noun.gender)
    }

    /// Short words that elide before a vowel the rules just put after them (*de* + *orange* →
    /// *d'orange*), and back (*d'* before a consonant is *de* again).
    private func elideBeforeVowels(_ phrase: inout Phrase) {
        for index in phrase.words.indices.dropLast() where !phrase.words[index].isNumber {
            let lower = phrase.words[index].lower
            let next = phrase.words[index + 1]
            // Before a word agreement does not know, an h may be aspirated: nothing is elided.
            guard !isDeterminer(lower), phrase.words[index].replacement != "",
                next.replacement != nil || !next.lower.hasPrefix("h") || isListed(next.lower),
                let form = rules.elided(lower, before: onset(of: next))
            else { continue }
            setElidable(&phrase.words[index], form, before: next)
        }
    }

    /// Determiners before the head, from the last to the first, so each sees the form after it. With
    /// the gender unknown, a determiner changes only where both genders share the form (*les*).
    private func agreeDeterminers(
        _ phrase: inout Phrase,
        part: Range<Int>,
        upTo head: Int,
        features: GrammaticalFeatures
    ) {
        for index in stride(from: head - 1, through: part.lowerBound, by: -1) {
            let word = phrase.words[index]
            guard !word.isNumber, word.hint == nil, let forms = determiners[word.lower] else { continue }
            let next = phrase.words[index + 1]
            // A preposition that is also an article form, before an article (Portuguese a + o → ao).
            if prepositions.contains(word.lower), isDeterminer(next.lower) { continue }
            let onset = onset(of: next, then: index + 2 < phrase.words.count ? phrase.words[index + 2] : nil)
            guard let form = formForEitherGender(features, { forms.form($0, before: onset) }) else { continue }
            setElidable(&phrase.words[index], form, before: next)
            // A preposition before the article contracts with it (de + le → du).
            if index > part.lowerBound,
                let contracted = rules.contraction(of: phrase.words[index - 1].lower, with: form)
            {
                phrase.words[index - 1].set(contracted)
                phrase.words[index - 1].elides = true
                // The article goes, with the space after it when the contraction elides (dell'acqua).
                phrase.words[index].replacement = ""
                phrase.words[index].elides = contracted.hasSuffix("'")
            }
        }
    }

    /// Determiners before a word agreement cannot read keep the gender and number they are written
    /// in and take the form the next word's first sound asks for: *le accra* → *l'accra*, *ce accra*
    /// → *cet accra*, *il sfincione* → *lo sfincione*, *i 8* → *gli 8*. Before an *h* of a word the
    /// lexicon does not know nothing changes (it may be aspirated).
    private func respellDeterminersAsWritten(
        _ phrase: inout Phrase,
        part: Range<Int>,
        number: Morphology.GrammaticalNumber?
    ) {
        for index in part.dropLast() {
            let word = phrase.words[index]
            // An elided article (l') is the same in both genders: what it stands for is not known.
            guard !word.isNumber, word.hint == nil, word.replacement == nil, !word.lower.endsWith("'"),
                let forms = determiners[word.lower], let plural = determiners.writtenNumber(word.lower),
                let feminine = determiners.writtenFeminine(word.lower)
            else { continue }
            let next = phrase.words[index + 1]
            if prepositions.contains(word.lower), isDeterminer(next.lower) { continue }
            if !next.isNumber, next.lower.hasPrefix("h"), !isListed(next.lower) { continue }
            let written = GrammaticalFeatures(
                gender: feminine ? .feminine : .masculine,
                number: plural ? .plural : .singular
            )
            // A determiner in another number than the phrase takes is left as it is.
            if let number, (number != .singular) != plural { continue }
            // Only a variant of the written gender and number: the written form must be one of them.
            let variants = [Onset.consonant, .vowel, .cluster].map { forms.form(written, before: $0) }
            let form = forms.form(
                written,
                before: onset(of: next, then: index + 2 < phrase.words.count ? phrase.words[index + 2] : nil)
            )
            guard variants.contains(word.lower), form != word.lower else { continue }
            setElidable(&phrase.words[index], form, before: next)
        }
    }

    /// `form(features)`, or, when the gender is unknown, the form both genders share (`nil` when
    /// they differ: the word is left as written).
    private func formForEitherGender(
        _ features: GrammaticalFeatures,
        _ form: (GrammaticalFeatures) -> String
    ) -> String? {
        if features.gender != nil { return form(features) }
        let masculine = form(GrammaticalFeatures(gender: .masculine, number: features.number))
        let feminine = form(GrammaticalFeatures(gender: .feminine, number: features.number))
        return masculine == feminine ? masculine : nil
    }

    /// How the word as it will be shown starts, taking French aspirated *h* from the lexicon.
    private func onset(of word: Word, then following: Word? = nil) -> Onset {
        let lower = word.currentLower
        if let first = lower.utf8.first, aspiratedInitials[Int(first)] {
            // A compound written apart goes by its hyphenated entry (hot dog, as hot-dog).
            if let following, !following.isNumber {
                let joined = lower + "-" + following.currentLower
                if aspiratedWords.contains(joined) || lexicon.entry(joined)?.isAspirated == true { return .consonant }
            }
            // An h no dictionary here knows may be aspirated (hot dog): nothing elides before it.
            if marksAspiration, !isListed(lower) { return .consonant }
            if let entry = lexicon.entry(lower) ?? lexicon.entry(forInflectedForm: lower)?.entry
                ?? rules.singular(ofNoun: lower).flatMap(lexicon.entry),
                entry.isAspirated
            {
                return .consonant
            }
            // A hyphenated word goes by its first part (hors-d'œuvre).
            let firstPart = lower.split(separator: "-", maxSplits: 1).first.map(String.init) ?? lower
            if aspiratedWords.contains(lower) || aspiratedWords.contains(firstPart)
                || rules.singular(ofNoun: lower).map(aspiratedWords.contains) == true
            {
                return .consonant
            }
        }
        return rules.onset(of: lower)
    }

    /// Sets a form that may end in an apostrophe, which then joins the next word (*l'*, *un'*); a
    /// word written elided against the next (*l'eau*) that takes a full form gets the space back
    /// (*les eaux*).
    private func setElidable(_ word: inout Word, _ form: String, before next: Word? = nil) {
        word.set(form)
        word.elides = form.endsWith("'") || form.endsWith("\u{2019}")
        if !word.elides, let next, word.utf8Range.upperBound == next.utf8Range.lowerBound,
            word.text.endsWith("'") || word.text.endsWith("\u{2019}")
        {
            word.replacement = word.current + " "
        }
    }

    private func agreeAdjective(
        _ phrase: inout Phrase,
        _ index: Int,
        _ features: GrammaticalFeatures,
        beforeNoun: Bool,
        reading: (lemma: String, entry: LexiconEntry)
    ) {
        // With the noun's gender unknown, an adjective written in one gender other than its
        // dictionary form (gelada) keeps it and takes the number: the translator's choice.
        var features = features
        if features.gender == nil, phrase.words[index].lower != reading.lemma {
            let genders = Set(
                rules.cells(of: phrase.words[index].lower, lemma: reading.lemma, entry: reading.entry).map(\.gender)
            )
            if genders.count == 1 { features.gender = genders.first! }
        }
        var next = beforeNoun && index + 1 < phrase.words.count ? phrase.words[index + 1].currentLower : nil
        // Before an aspirated h (beau homard) the word keeps its full form.
        if let written = next, onset(of: phrase.words[index + 1]) == .consonant, rules.onset(of: written) == .vowel {
            next = nil
        }
        guard
            let form = formForEitherGender(
                features,
                {
                    rules.adjectiveForm(reading.lemma, entry: reading.entry, features: $0, before: next)
                }
            )
        else { return }
        setElidable(&phrase.words[index], form)
    }

    /// Splits elided words written against the next (*d'eau*, *l'acqua*) into two, so the article or
    /// preposition and the noun are read apart.
    private func splitElisions(_ phrase: inout Phrase) {
        guard !elisions.words.isEmpty,
            phrase.words.contains(where: { $0.text.utf8.contains(0x27) || $0.text.contains("\u{2019}") })
        else { return }
        var words: [Word] = []
        words.reserveCapacity(phrase.words.count + 2)
        for word in phrase.words {
            guard !word.isNumber, let split = elisionSplit(word) else {
                words.append(word)
                continue
            }
            words.append(contentsOf: split)
        }
        phrase.words = words
    }

    private func elisionSplit(_ word: Word) -> [Word]? {
        let lower = word.lower
        guard let apostrophe = lower.firstIndex(where: { $0 == "'" || $0 == "\u{2019}" }) else { return nil }
        let prefixEnd = lower.index(after: apostrophe)
        guard prefixEnd < lower.endIndex else { return nil }
        let prefix = String(lower[..<apostrophe]) + "'"
        guard elisions.contains(prefix) else { return nil }
        let prefixBytes = lower[..<prefixEnd].utf8.count
        let textPrefixEnd = word.text.utf8.index(word.text.utf8.startIndex, offsetBy: prefixBytes)
        let start = word.utf8Range.lowerBound
        var first = Word(
            text: String(word.text[..<textPrefixEnd]),
            lower: prefix,
            utf8Range: start..<(start + prefixBytes)
        )
        first.hint = nil
        first.argument = word.argument
        let rest = Word(
            text: String(word.text[textPrefixEnd...]),
            lower: String(lower[prefixEnd...]),
            utf8Range: (start + prefixBytes)..<word.utf8Range.upperBound,
            argument: word.argument,
            hint: word.hint
        )
        return [first] + (elisionSplit(rest) ?? [rest])
    }

    // MARK: Agreement with arguments, concepts and the reader

    func features(of phrase: Phrase) -> GrammaticalFeatures? {
        var phrase = phrase
        splitElisions(&phrase)
        var scratch = AgreementContext(texts: [])
        let part = phrase.conjuncts { conjunctions.contains($0.lower) }.first ?? 0..<phrase.words.count
        guard let head = head(of: phrase, in: part, hasNumber: false, context: &scratch) else { return nil }
        var gender = phrase.words[head.index].hint?.grammaticalGender ?? head.reading.gender
        if gender == nil { gender = writtenGender(in: phrase, part: part, head: head.index) }
        return GrammaticalFeatures(gender: gender, number: head.reading.isWrittenPlural ? .plural : .singular)
    }

    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext) {
        splitElisions(&phrase)
        for index in phrase.words.indices {
            let word = phrase.words[index]
            if word.isNumber { continue }
            let lower = word.lower
            // What follows a preposition (bienvenu *dans* notre café) has its own agreement.
            if index > 0, prepositions.contains(lower) { break }
            if let forms = determiners[lower] {
                let next = index + 1 < phrase.words.count ? onset(of: phrase.words[index + 1]) : .consonant
                if let form = formForEitherGender(features, { forms.form($0, before: next) }) {
                    setElidable(
                        &phrase.words[index],
                        form,
                        before: index + 1 < phrase.words.count ? phrase.words[index + 1] : nil
                    )
                }
            } else if let person = personForm(lower, features) {
                phrase.words[index].set(person)
            } else if verbs.contains(lower) {
                if let form = verbs.form(of: lower, plural: features.isPlural) { phrase.words[index].set(form) }
            } else if prepositions.contains(lower) || conjunctions.contains(lower) {
                continue
            } else if let entry = lexicon.entry(lower), entry.canBeNoun, !entry.canBeAdjective {
                continue
            } else if let reading = adjectiveReading(word) {
                agreeAdjective(&phrase, index, features, beforeNoun: false, reading: reading)
            }
        }
    }

    /// A person noun in the gender and number asked for (*client* → *cliente*).
    private func personForm(_ word: String, _ features: GrammaticalFeatures) -> String? {
        personNouns.form(of: word, for: features) { singular, gender in
            rules.plural(ofNoun: singular)
                ?? rules.defaultPlural(ofNoun: singular, gender: gender == .feminine ? .feminine : .masculine)
        }
    }

    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? { term.singularFeatures }

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        guard let features = referent.pronounFeatures else { return }
        guard features.gender != nil || features.isPlural == false else { return }
        let slot = (features.gender == .feminine ? 1 : 0) + (features.isPlural ? 2 : 0)
        for index in phrase.words.indices where rules.subjectPronouns.contains(phrase.words[index].lower) {
            phrase.words[index].set(rules.subjectPronouns[slot])
        }
    }

    // MARK: Around the span

    /// A preposition just before the span contracts with the span's first word when that is an
    /// article (*de* + *le* → *du*, *em* + *a* → *na*, *di* + *il* → *del*).
    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit] {
        guard let first = phrase.words.first, !first.isNumber, isDeterminer(first.lower),
            let before = context.word(before: first.utf8Range.lowerBound, endingIn: romanceContractingEndings)
        else { return [] }
        let article = first.currentLower.trimmingTrailingSpace
        guard let contracted = rules.contraction(of: before.text.lowercased(), with: article) else { return [] }
        let cased = CasePattern(of: before.text).apply(to: contracted, original: before.text)
        let end =
            first.elides && phrase.words.count > 1 ? phrase.words[1].utf8Range.lowerBound : first.utf8Range.upperBound
        let spaced = first.current.hasSuffix(" ") && !contracted.hasSuffix("'") ? cased + " " : cased
        return [RichTextEdit(utf8Range: before.utf8Range.lowerBound..<end, replacement: spaced)]
    }
}

extension String {
    /// The string without one trailing space (a form given back its space after an elision).
    fileprivate var trimmingTrailingSpace: String { hasSuffix(" ") ? String(dropLast()) : self }
}

/// Last letters of the prepositions that contract with an article (*de*, *à*, *di*, *da*, *in*, *su*,
/// *em*, *por*): ASCII letters, and the last UTF-8 byte of *à*.
private let romanceContractingEndings: [UInt8] = Array("aeiounmr".utf8) + [0xA0]
