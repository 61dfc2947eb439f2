import RichText

/// Agreement for French, Italian and Portuguese: the head noun takes the span's number, and its
/// gender (lexicon, or ending) and number spread to the determiners and adjectives before and
/// after it. Words stay where the translator put them: *2 grand pizza* → *2 grandes pizzas*,
/// *2 pizza grande* → *2 pizze grandi*. Nouns in apposition keep their form (*2 cafés crème*), as do
/// complements after a preposition (*2 tasses de thé vert*), except sizes, which go with the head.
/// Articles elide and contract as the language writes them (*l'eau*, *du café*, *do bolo*).
struct RomanceGrammar<Language: RomanceLanguage>: LanguageGrammar {
    let rules: Language
    private let personNounsByFeminine: WordTable<String>
    private let pluralVerbs: WordTable<String>

    var language: String { rules.code }
    // The rules' tables, kept here so lookups read them in place: reading one through `rules` (a
    // protocol requirement) copies it out first, every array of it.
    private let lexicon: Lexicon
    private let determiners: DeterminerTable
    private let prepositions: WordSet
    private let conjunctions: WordSet
    private let sizeAdjectives: WordSet
    private let personNouns: WordTable<String>
    private let verbs: WordTable<String>
    /// Determiners, prepositions and conjunctions, so a word's role takes one lookup.
    private let closedClass: WordTable<ClosedClass>
    /// The first bytes of the lexicon's words with an aspirated *h* and of their forms, indexed by
    /// byte: a word starting otherwise needs no lookup to know it elides.
    private let aspiratedInitials: [Bool]

    init(_ rules: Language) {
        self.rules = rules
        lexicon = rules.lexicon
        determiners = rules.determiners
        prepositions = rules.prepositions
        conjunctions = rules.conjunctions
        sizeAdjectives = rules.sizeAdjectives
        personNouns = rules.personNouns
        verbs = rules.verbs
        closedClass = Self.closedClasses(of: rules)
        aspiratedInitials = Self.aspiratedInitials(in: rules.lexicon)
        personNounsByFeminine = WordTable(
            rules.personNouns.allKeys.compactMap { masculine in rules.personNouns[masculine].map { ($0, masculine) } }
                .reversed()
        )
        pluralVerbs = WordTable(
            rules.verbs.allKeys.compactMap { singular in rules.verbs[singular].map { ($0, singular) } }
        )
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
        var initials = [Bool](repeating: false, count: 256)
        for lemma in lexicon.lemmas {
            guard let entry = lexicon.entry(lemma), entry.isAspirated else { continue }
            for form in [lemma, entry.plural, entry.feminine, entry.apocope] {
                if let first = form?.fastLowercased.utf8.first { initials[Int(first)] = true }
            }
        }
        return initials
    }

    // MARK: Inflecting a span

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        guard let head = head(of: phrase, hasNumber: number != nil, context: &context) else {
            // inflect: {grammaticalGender: …, number: …} on words without a noun: agree with the rule.
            if let rule, rule.grammaticalGender != nil || rule.number != nil {
                let features = GrammaticalFeatures(
                    gender: rule.grammaticalGender ?? .masculine,
                    number: rule.number ?? number ?? .singular
                )
                agree(&phrase, with: features)
                return PhraseAnalysis(features: features, addressesReader: false)
            }
            return PhraseAnalysis(features: nil, addressesReader: number == nil)
        }
        let word = phrase.words[head]
        let hint = word.hint ?? phrase.hint
        var determinerNumber: Bool?
        for earlier in phrase.words[..<head] {
            determinerNumber = determiners.writtenNumber(earlier.lower)
            if determinerNumber != nil { break }
        }
        let writtenPlural =
            hint?.number.map { $0 != .singular }
            ?? (lexicon.entry(word.lower) == nil ? determinerNumber : nil) ?? isPluralNoun(word.lower)
        let lemma = writtenPlural ? guessedSingular(of: word.lower) : word.lower
        let entry = lexicon.entry(lemma)
        let target = rule?.number ?? number ?? (writtenPlural ? .plural : .singular)
        var gender = hint?.grammaticalGender ?? rules.gender(ofNoun: lemma)
        if entry?.gender == .common, hint?.grammaticalGender == nil,
            phrase.words[..<head].contains(where: { determiners.writtenFeminine($0.lower) == true })
        {
            gender = .feminine
        }
        let features = GrammaticalFeatures(gender: gender, number: target)
        if entry?.isUncountable != true {
            phrase.words[head].set(features.isPlural ? rules.plural(ofNoun: lemma) : lemma)
        }
        agreeModifiers(&phrase, head: head, features: features)
        let isPerson = personNouns[lemma] != nil || personNounsByFeminine[lemma] != nil
        return PhraseAnalysis(features: features, addressesReader: number == nil && isPerson)
    }

    /// The head: a noun hint; else the first known noun with only adjectives before it (*grande
    /// pizza*); else the second content word after a known adjective; else the first content word —
    /// unless the span has no number and its one word is adjective-like (*Bienvenu*), when it has none.
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
        for (position, index) in content.enumerated() where isKnownNoun(phrase.words[index].lower) {
            let modifiersOnly = content[..<position].allSatisfy { earlier in
                phrase.words[earlier].hint?.partOfSpeech == .adjective
                    || isPrenominalAdjective(phrase.words[earlier].lower)
            }
            if modifiersOnly { head = index }
            break
        }
        if head == nil {
            let word = phrase.words[first]
            // An adjective form before another adjective is a noun (torrada média: torrado is an
            // adjective, torrada here a noun).
            if content.count >= 2, word.hint?.partOfSpeech == .adjective || isPrenominalAdjective(word.lower),
                !isAdjectiveOnly(phrase.words[content[1]].lower)
            {
                head = content[1]
            } else if !hasNumber, content.count == 1, word.hint?.partOfSpeech != .noun,
                !phrase.words[..<first].contains(where: { isDeterminer($0.lower) }),
                lexicon.entry(word.lower).map({ !$0.canBeNoun }) ?? rules.isMasculineAdjectiveBase(word.lower)
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

    /// A noun the lexicon lists as a noun first, a person noun, or a listed noun's plural.
    private func isKnownNoun(_ word: String) -> Bool {
        if let entry = lexicon.entry(word) { return entry.partsOfSpeech.first == .noun }
        if personNouns[word] != nil || personNounsByFeminine[word] != nil { return true }
        if let singular = rules.singular(ofNoun: word) { return lexicon.entry(singular)?.partsOfSpeech.first == .noun }
        return false
    }

    /// An adjective the lexicon lists first as an adjective (so before a noun it modifies it).
    private func isPrenominalAdjective(_ word: String) -> Bool {
        if let entry = lexicon.entry(word) { return entry.partsOfSpeech.first == .adjective }
        if let (entry, _) = lexicon.entry(forInflectedForm: word) { return entry.partsOfSpeech.first == .adjective }
        return rules.adjectiveLemma(of: word).entry?.partsOfSpeech.first == .adjective
    }

    /// A word the lexicon knows only as an adjective.
    private func isAdjectiveOnly(_ word: String) -> Bool {
        let entry = lexicon.entry(word) ?? rules.adjectiveLemma(of: word).entry
        return entry.map { $0.canBeAdjective && !$0.canBeNoun } ?? false
    }

    /// Whether a lowercase noun is written in the plural.
    private func isPluralNoun(_ word: String) -> Bool {
        if let entry = lexicon.entry(word) { return entry.isPluralOnly }
        return rules.singular(ofNoun: word) != nil
    }

    private func guessedSingular(of word: String) -> String {
        rules.singular(ofNoun: word) ?? rules.singularCandidates(of: word).first ?? word
    }

    /// Whether a word is an adjective here: the lexicon's reading, or an adjective-like ending.
    private func isAdjective(_ word: String, afterNoun: Bool) -> Bool {
        adjectiveReading(word, afterNoun: afterNoun) != nil
    }

    /// The word's masculine singular and entry (``RomanceLanguage/adjectiveLemma(of:)``) when it is
    /// an adjective here, found on the way to deciding that, so agreeing it does not look again.
    private func adjectiveReading(_ word: String, afterNoun: Bool) -> (lemma: String, entry: LexiconEntry?)? {
        if let entry = lexicon.entry(word) {
            guard entry.canBeAdjective && (afterNoun || entry.partsOfSpeech.first == .adjective) else { return nil }
            return (word, entry)
        }
        if let (entry, _) = lexicon.entry(forInflectedForm: word) {
            return entry.canBeAdjective ? (entry.lemma.fastLowercased, entry) : nil
        }
        let reading = rules.adjectiveLemma(of: word)
        if reading.entry != nil { return reading }
        if rules.singular(ofNoun: word) != nil { return nil }
        return afterNoun && rules.looksLikeAdjective(word) ? reading : nil
    }

    /// Adjectives agree with the head on both sides of it; nouns in apposition and complements keep
    /// their form; then determiners and short forms take the shape the next word asks for.
    private func agreeModifiers(_ phrase: inout Phrase, head: Int, features: GrammaticalFeatures) {
        var inComplement = false
        for index in phrase.words.indices where index != head {
            let word = phrase.words[index]
            let beforeHead = index < head
            switch role(of: word, beforeHead: beforeHead) {
            case .number, .conjunction, .determiner:
                continue
            case .preposition:
                if !beforeHead { inComplement = true }
            case .content:
                if beforeHead {
                    agreeAdjective(&phrase, index, features, beforeNoun: true)
                } else if inComplement {
                    // 2 tasses de café moyennes: sizes describe the container.
                    if sizeAdjectives.contains(rules.adjectiveLemma(of: word.lower).lemma) {
                        agreeAdjective(&phrase, index, features, beforeNoun: false)
                    }
                } else if word.text != word.lower, CasePattern(of: word.text) == .capitalized,
                    CasePattern(of: phrase.words[head].text) == .lower
                {
                    continue  // pizza Margherita, salade César
                } else if word.hint?.partOfSpeech == .adjective {
                    agreeAdjective(&phrase, index, features, beforeNoun: false)
                } else if let reading = adjectiveReading(word.lower, afterNoun: true) {
                    agreeAdjective(&phrase, index, features, beforeNoun: false, reading: reading)
                }
            }
        }
        agreeDeterminers(&phrase, upTo: head, features: features)
        elideBeforeVowels(&phrase)
    }

    /// Short words that elide before a vowel the rules just put after them (*de* + *orange* →
    /// *d'orange*), and back (*d'* before a consonant is *de* again).
    private func elideBeforeVowels(_ phrase: inout Phrase) {
        for index in phrase.words.indices.dropLast() where !phrase.words[index].isNumber {
            let lower = phrase.words[index].lower
            guard !isDeterminer(lower), phrase.words[index].replacement != "",
                let form = rules.elided(lower, before: onset(of: phrase.words[index + 1]))
            else { continue }
            setElidable(&phrase.words[index], form)
        }
    }

    /// Determiners before the head, from the last to the first, so each sees the form after it.
    private func agreeDeterminers(_ phrase: inout Phrase, upTo head: Int, features: GrammaticalFeatures) {
        for index in stride(from: head - 1, through: 0, by: -1) {
            let word = phrase.words[index]
            guard !word.isNumber, word.hint == nil, let forms = determiners[word.lower] else { continue }
            let next = phrase.words[index + 1]
            // A preposition that is also an article form, before an article (Portuguese a + o → ao).
            if prepositions.contains(word.lower), isDeterminer(next.lower) { continue }
            let form = forms.form(features, before: onset(of: next))
            setElidable(&phrase.words[index], form)
            // A preposition before the article contracts with it (de + le → du).
            if index > 0, let contracted = rules.contraction(of: phrase.words[index - 1].lower, with: form) {
                phrase.words[index - 1].set(contracted)
                phrase.words[index - 1].elides = true
                // The article goes, with the space after it when the contraction elides (dell'acqua).
                phrase.words[index].replacement = ""
                phrase.words[index].elides = contracted.hasSuffix("'")
            }
        }
    }

    /// How the word as it will be shown starts, taking French aspirated *h* from the lexicon.
    private func onset(of word: Word) -> Onset {
        let lower = word.currentLower
        if let first = lower.utf8.first, aspiratedInitials[Int(first)],
            let entry = lexicon.entry(lower) ?? lexicon.entry(forInflectedForm: lower)?.entry, entry.isAspirated
        {
            return .consonant
        }
        return rules.onset(of: lower)
    }

    /// Sets a form that may end in an apostrophe, which then joins the next word (*l'*, *un'*).
    private func setElidable(_ word: inout Word, _ form: String) {
        word.set(form)
        word.elides = form.endsWith("'") || form.endsWith("\u{2019}")
    }

    private func agreeAdjective(
        _ phrase: inout Phrase,
        _ index: Int,
        _ features: GrammaticalFeatures,
        beforeNoun: Bool,
        reading: (lemma: String, entry: LexiconEntry?)? = nil
    ) {
        let (lemma, entry) = reading ?? rules.adjectiveLemma(of: phrase.words[index].lower)
        let next = beforeNoun && index + 1 < phrase.words.count ? phrase.words[index + 1].currentLower : nil
        setElidable(&phrase.words[index], rules.adjectiveForm(lemma, entry: entry, features: features, before: next))
    }

    // MARK: Agreement with arguments, concepts and the reader

    func features(of phrase: Phrase) -> GrammaticalFeatures? {
        var scratch = AgreementContext(texts: [])
        guard let head = head(of: phrase, hasNumber: false, context: &scratch) else { return nil }
        let word = phrase.words[head].lower
        let plural = isPluralNoun(word)
        let lemma = plural ? guessedSingular(of: word) : word
        var gender = phrase.words[head].hint?.grammaticalGender ?? rules.gender(ofNoun: lemma)
        if let masculine = personNounsByFeminine[lemma], masculine != lemma { gender = .feminine }
        return GrammaticalFeatures(gender: gender, number: plural ? .plural : .singular)
    }

    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures) {
        for index in phrase.words.indices {
            let word = phrase.words[index]
            if word.isNumber { continue }
            let lower = word.lower
            // What follows a preposition (bienvenu *dans* notre café) has its own agreement.
            if index > 0, prepositions.contains(lower) { break }
            if let forms = determiners[lower] {
                let next = index + 1 < phrase.words.count ? onset(of: phrase.words[index + 1]) : .consonant
                setElidable(&phrase.words[index], forms.form(features, before: next))
            } else if let person = personForm(lower, features) {
                phrase.words[index].set(person)
            } else if let plural = verbs[lower] {
                if features.isPlural { phrase.words[index].set(plural) }
            } else if let singular = pluralVerbs[lower] {
                if !features.isPlural { phrase.words[index].set(singular) }
            } else if prepositions.contains(lower) || conjunctions.contains(lower) {
                continue
            } else if let entry = lexicon.entry(lower), entry.canBeNoun, !entry.canBeAdjective {
                continue
            } else if isAdjective(lower, afterNoun: true) || rules.isMasculineAdjectiveBase(lower) {
                agreeAdjective(&phrase, index, features, beforeNoun: false)
            }
        }
    }

    /// A person noun in the gender and number asked for (*client* → *cliente*).
    private func personForm(_ word: String, _ features: GrammaticalFeatures) -> String? {
        let masculine: String
        if personNouns[word] != nil {
            masculine = word
        } else if let found = personNounsByFeminine[word] {
            masculine = found
        } else {
            return nil
        }
        let singular = features.gender == .feminine ? personNouns[masculine] ?? masculine : masculine
        return features.isPlural ? rules.plural(ofNoun: singular) : singular
    }

    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? {
        term.grammaticalGender.map { GrammaticalFeatures(gender: $0, number: .singular) }
    }

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        let features: GrammaticalFeatures
        switch referent {
        case .person(let term):
            guard let gender = term.grammaticalGender else { return }
            features = GrammaticalFeatures(gender: gender, number: .singular)
        case .thing(let thing):
            features = thing
        }
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
        let article = first.currentLower
        guard let contracted = rules.contraction(of: before.text.lowercased(), with: article) else { return [] }
        let cased = CasePattern(of: before.text).apply(to: contracted, original: before.text)
        let end =
            first.elides && phrase.words.count > 1 ? phrase.words[1].utf8Range.lowerBound : first.utf8Range.upperBound
        return [RichTextEdit(utf8Range: before.utf8Range.lowerBound..<end, replacement: cased)]
    }
}

/// Last letters of the prepositions that contract with an article (*de*, *à*, *di*, *da*, *in*, *su*,
/// *em*, *por*): ASCII letters, and the last UTF-8 byte of *à*.
private let romanceContractingEndings: [UInt8] = Array("aeiounmr".utf8) + [0xA0]
