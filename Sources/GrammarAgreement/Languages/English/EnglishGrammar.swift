import RichText

/// English agreement: the head noun takes the span's number (*2 large pizzas*, *2 cups of
/// coffee*), *this/that* follow it, *a/an* follow the sound of the next word, verbs agree with
/// an argument or concept, and pronouns follow their referent's term of address.
struct EnglishGrammar: LanguageGrammar {
    let language = "en"
    let lexicon: Lexicon
    private let nouns: EnglishNouns

    init(lexicon: Lexicon) {
        self.lexicon = lexicon
        nouns = EnglishNouns(lexicon: lexicon)
    }

    /// Words before the head that are not modifiers: articles, demonstratives, possessives, quantifiers.
    static let determiners: WordSet = [
        "a", "an", "the", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our", "their",
        "some", "any", "no", "each", "every", "another", "either", "neither", "much", "many", "few", "several",
        "all", "both", "extra",
    ]
    /// Words that end the part of a name that inflects (*cups* of coffee, *cafés* au lait).
    static let prepositions: WordSet = [
        "of", "with", "without", "in", "on", "for", "from", "by", "to", "at", "au", "aux", "à", "de", "du",
        "des", "con", "al", "alla", "alle", "en", "over", "under", "per",
    ]
    /// Words that multiply the number before them (*1 dozen eggs*).
    static let multipliers: WordSet = ["dozen", "hundred", "thousand", "million", "billion", "score"]
    /// Singular and plural of verbs and demonstratives that agree in number.
    private static let numberPairs: [(singular: String, plural: String)] = [
        ("is", "are"), ("was", "were"), ("has", "have"), ("does", "do"), ("this", "these"), ("that", "those"),
        ("it", "they"), ("its", "their"), ("itself", "themselves"), ("needs", "need"), ("costs", "cost"),
        ("comes", "come"), ("goes", "go"), ("contains", "contain"), ("includes", "include"),
        ("looks", "look"), ("seems", "seem"), ("tastes", "taste"), ("remains", "remain"),
    ]
    private static let singularToPlural = WordTable(numberPairs.map { ($0.singular, $0.plural) })
    private static let pluralToSingular = WordTable(numberPairs.map { ($0.plural, $0.singular) })

    // MARK: Inflecting a span

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        let parts = phrase.conjuncts { ["and", "or", "&"].contains($0.lower) && !isInsidePhrase($0, phrase.words) }
        guard parts.count > 1 else { return inflectWhole(&phrase, number: number, rule: rule, context: &context) }
        // Nouns joined by "and": the number goes with the noun it counts (2 bagels and coffee); a part
        // without a number keeps its noun as written, its article agreeing (and an espresso).
        let numbered = parts.contains { part in phrase.words[part].contains(where: \.isNumber) }
        let start = phrase.words.first?.utf8Range
        return phrase.inflectEachConjunctApart(parts) { sub, own in
            if own != nil || (!numbered && sub.words.first?.utf8Range == start) {
                return inflectWhole(&sub, number: own ?? number, rule: rule, context: &context)
            }
            articleAgreement(&sub)
            return PhraseAnalysis(features: nil, addressesReader: false)
        }
    }

    /// Whether a conjunction is part of a listed phrase (*mac and cheese*).
    private func isInsidePhrase(_ word: Word, _ words: [Word]) -> Bool {
        guard let index = words.firstIndex(where: { $0.utf8Range == word.utf8Range }) else { return false }
        let longest = lexicon.longestPhrase
        guard longest > 2 else { return false }
        for start in max(0, index - longest + 2)...index {
            let upper = min(words.count, start + longest)
            guard upper >= index + 2 else { continue }
            for end in (index + 2)...upper where end > start + 2 {
                if lexicon.entry(words[start..<end].map(\.lower).joined(separator: " ")) != nil { return true }
            }
        }
        return false
    }

    private func inflectWhole(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        guard let head = head(of: phrase, context: &context) else {
            articleAgreement(&phrase)
            return PhraseAnalysis(features: nil, addressesReader: false)
        }
        let written = phrase.words[head].lower
        let headHint = phrase.words[head].hint ?? phrase.hint
        let writtenPlural = headHint?.number.map { $0 != .singular } ?? nouns.isPlural(written)
        var target = rule?.number ?? number ?? (writtenPlural ? .plural : .singular)
        // "1 dozen oysters": a multiplier after the number counts the noun in the plural.
        if rule?.number == nil, phrase.words.contains(where: { Self.multipliers.contains($0.lower) }) {
            target = .plural
        }
        let isPlural = target != .singular

        var inflectedHead = head
        if let fixed = fixedPhrase(in: phrase, endingAt: head) {
            // A listed phrase: its own plural, none, or the plural of its last word before a preposition.
            if fixed.entry.isUncountable || fixed.entry.isPluralOnly {
                inflectedHead = -1
            } else if let plural = fixed.entry.plural {
                if isPlural { set(&phrase, fixed.range, to: plural) }
                inflectedHead = -1
            } else {
                inflectedHead =
                    fixed.range.first { index in
                        index + 1 < fixed.range.upperBound && Self.prepositions.contains(phrase.words[index + 1].lower)
                    } ?? fixed.range.upperBound - 1
            }
        }
        if inflectedHead >= 0 {
            let word = phrase.words[inflectedHead].lower
            let wordIsPlural = inflectedHead == head ? writtenPlural : nouns.isPlural(word)
            if isPlural, !wordIsPlural {
                let (plural, isListed) = nouns.pluralReading(of: word)
                phrase.words[inflectedHead].set(plural)
                if !isListed {
                    context.warn(.inflectedByRule(phrase.words[inflectedHead].text, to: plural, language: language))
                }
            } else if !isPlural, wordIsPlural, let singular = nouns.singular(of: word) {
                phrase.words[inflectedHead].set(singular)
            }
        }
        for index in phrase.words.indices where index < head {
            let lower = phrase.words[index].lower
            if let plural = Self.singularToPlural[lower], lower == "this" || lower == "that", isPlural {
                phrase.words[index].set(plural)
            } else if let singular = Self.pluralToSingular[lower], lower == "these" || lower == "those", !isPlural {
                phrase.words[index].set(singular)
            }
        }
        articleAgreement(&phrase)
        return PhraseAnalysis(features: GrammaticalFeatures(gender: nil, number: target), addressesReader: false)
    }

    /// The head noun: the last content word before the first preposition, or the last one from a
    /// word hinted as a noun on that can be a noun.
    private func head(of phrase: Phrase, context: inout AgreementContext) -> Int? {
        var candidates: [Int] = []
        for index in phrase.words.indices where !phrase.words[index].isNumber {
            let lower = phrase.words[index].lower
            if Self.prepositions.contains(lower), !candidates.isEmpty { break }
            if Self.determiners.contains(lower) || Self.multipliers.contains(lower) || lower == "and" || lower == "or"
                || lower == "&"
            {
                continue
            }
            if let part = phrase.words[index].hint?.partOfSpeech, part != .noun { continue }
            candidates.append(index)
        }
        // After a word hinted as a noun, later words the lexicon knows only as adjectives give way
        // (2 coffees black); without a hint the last word is the head (2 tea cosies).
        var headCandidates = candidates[...]
        if let hinted = candidates.lastIndex(where: { phrase.words[$0].hint?.partOfSpeech == .noun }) {
            let after = candidates[(hinted + 1)...].filter { lexicon.entry(phrase.words[$0].lower)?.canBeNoun ?? true }
            headCandidates = after.isEmpty ? candidates[hinted...hinted] : after[...]
        }
        guard let head = headCandidates.last else { return nil }
        for index in candidates where phrase.words[index].hint == nil {
            guard let entry = lexicon.entry(phrase.words[index].lower), entry.isAmbiguous else { continue }
            let reading =
                index == head ? "noun" : entry.canBeAdjective ? "adjective" : "noun"
            context.warn(
                .ambiguous(
                    phrase.words[index].text,
                    readAs: reading,
                    alternatives: entry.partsOfSpeech.map(\.rawValue)
                )
            )
        }
        return head
    }

    /// A multi-word lexicon entry ending at or after the head (*café au lait*, *mac and cheese*).
    private func fixedPhrase(in phrase: Phrase, endingAt head: Int) -> (entry: LexiconEntry, range: Range<Int>)? {
        guard lexicon.longestPhrase > 1 else { return nil }
        let words = phrase.words
        for start in words.indices
        where start <= head && !words[start].isNumber && lexicon.startsPhrase(words[start].lower) {
            let longest = min(lexicon.longestPhrase, words.count - start)
            guard longest >= 2 else { continue }
            for length in stride(from: longest, through: 2, by: -1) where start + length > head {
                let range = start..<(start + length)
                let key = words[range].map(\.lower).joined(separator: " ")
                if let entry = lexicon.entry(key) { return (entry, range) }
            }
        }
        return nil
    }

    /// Sets the words of `range` to the words of `form`, one for one when the counts match.
    private func set(_ phrase: inout Phrase, _ range: Range<Int>, to form: String) {
        let parts = form.split(separator: " ").map(String.init)
        guard parts.count == range.count else { return }
        for (index, part) in zip(range, parts) { phrase.words[index].set(part.lowercased()) }
    }

    /// *a*/*an* inside the span, by the sound of the word after it.
    private func articleAgreement(_ phrase: inout Phrase) {
        for index in phrase.words.indices.dropLast() {
            let lower = phrase.words[index].lower
            guard lower == "a" || lower == "an" else { continue }
            let next = phrase.words[index + 1].current
            let article = EnglishArticles.article(before: next, lexicon: lexicon)
            guard article != lower else { continue }
            // A lone capital A before a word in capitals is written in capitals too (AN APPLE).
            let text = phrase.words[index].text
            let shouted = text == "A" && next.count > 1 && CasePattern(of: next) == .upper
            phrase.words[index].replacement =
                shouted ? article.uppercased() : EnglishArticles.cased(article, like: text)
        }
    }

    // MARK: Agreement with arguments, concepts and the reader

    func features(of phrase: Phrase) -> GrammaticalFeatures? {
        var scratch = AgreementContext(texts: [])
        guard let head = head(of: phrase, context: &scratch) else { return nil }
        return GrammaticalFeatures(
            gender: nil,
            number: nouns.looksPlural(phrase.words[head].lower) ? .plural : .singular
        )
    }

    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext) {
        for index in phrase.words.indices {
            let lower = phrase.words[index].lower
            let hintIsVerb = phrase.words[index].hint?.partOfSpeech == .verb
            if features.isPlural {
                if let plural = Self.singularToPlural[lower] {
                    phrase.words[index].set(plural)
                } else if hintIsVerb, lower.endsWith("s"), !lower.endsWith("ss") {
                    phrase.words[index].set(Self.baseForm(ofThirdPerson: lower))
                }
            } else {
                if let singular = Self.pluralToSingular[lower] {
                    phrase.words[index].set(singular)
                } else if hintIsVerb, !lower.endsWith("s") {
                    let form = EnglishNouns.regularPlural(of: lower)
                    phrase.words[index].set(form)
                    context.warn(.inflectedByRule(phrase.words[index].text, to: form, language: language))
                }
            }
        }
    }

    /// *tastes* → *taste*, *fries* → *fry*, *washes* → *wash*.
    private static func baseForm(ofThirdPerson verb: String) -> String {
        if verb.endsWith("ies") { return verb.droppingLastBytes(3) + "y" }
        for ending in ["ches", "shes", "sses", "xes", "zes", "oes"] where verb.endsWith(ending) {
            return verb.droppingLastBytes(2)
        }
        return verb.droppingLastBytes(1)
    }

    /// English verbs follow singular *they* in the plural; gender changes nothing but pronouns.
    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? {
        switch term.gender {
        case .feminine: GrammaticalFeatures(gender: .feminine, number: .singular)
        case .masculine: GrammaticalFeatures(gender: .masculine, number: .singular)
        case .neutral: GrammaticalFeatures(gender: nil, number: .plural)
        case .unknown: nil
        }
    }

    // MARK: Pronouns

    private enum PronounCase {
        case subject, object, possessiveDeterminer, possessivePronoun, reflexive
        /// *her* (object or determiner) and *his* (determiner or pronoun) need the next word.
        case objectOrDeterminer, determinerOrPronoun
    }

    private static let pronounCases: WordTable<PronounCase> = [
        "he": .subject, "she": .subject, "they": .subject, "it": .subject,
        "him": .object, "them": .object,
        "her": .objectOrDeterminer,
        "his": .determinerOrPronoun, "its": .possessiveDeterminer,
        "their": .possessiveDeterminer,
        "hers": .possessivePronoun, "theirs": .possessivePronoun,
        "himself": .reflexive, "herself": .reflexive, "themselves": .reflexive, "themself": .reflexive,
        "itself": .reflexive,
    ]

    static let feminine = PronounSet(
        subject: "she",
        object: "her",
        possessiveDeterminer: "her",
        possessivePronoun: "hers",
        reflexive: "herself"
    )
    static let masculine = PronounSet(
        subject: "he",
        object: "him",
        possessiveDeterminer: "his",
        possessivePronoun: "his",
        reflexive: "himself"
    )
    static let neutral = PronounSet(
        subject: "they",
        object: "them",
        possessiveDeterminer: "their",
        possessivePronoun: "theirs",
        reflexive: "themselves"
    )
    static let thing = PronounSet(
        subject: "it",
        object: "it",
        possessiveDeterminer: "its",
        possessivePronoun: "its",
        reflexive: "itself"
    )

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        let set: PronounSet
        switch referent {
        case .person(let term):
            switch term.gender {
            case .feminine: set = term.pronouns ?? Self.feminine
            case .masculine: set = term.pronouns ?? Self.masculine
            case .neutral: set = term.pronouns ?? Self.neutral
            case .unknown:
                guard let pronouns = term.pronouns else { return }
                set = pronouns
            }
        case .thing(let features):
            set = features.isPlural ? Self.neutral : Self.thing
        }
        var isPerson = false
        if case .person = referent { isPerson = true }
        for index in phrase.words.indices {
            let lower = phrase.words[index].lower
            // A verb right after a subject that became plural agrees with it (they are).
            if index > 0, set.subject == "they", Self.pronounCases[phrase.words[index - 1].lower] == .subject,
                let plural = Self.singularToPlural[lower], ["is", "was", "has", "does"].contains(lower)
            {
                phrase.words[index].set(plural)
                continue
            }
            // "it" names a thing even in a span about a person (tell her that it is ready).
            if isPerson, lower == "it" || lower == "its" || lower == "itself" { continue }
            guard let pronounCase = Self.pronounCases[lower] else { continue }
            let next =
                index + 1 < phrase.words.count
                ? phrase.words[index + 1].lower
                : context.word(after: phrase.words[index].utf8Range.upperBound)?.lowercased()
            let followedByWord = next.map(isNounPhraseStart) ?? false
            let form: String
            switch pronounCase {
            case .subject: form = set.subject
            case .object: form = set.object
            case .possessiveDeterminer: form = set.possessiveDeterminer
            case .possessivePronoun: form = set.possessivePronoun
            case .reflexive: form = set.reflexive
            case .objectOrDeterminer: form = followedByWord ? set.possessiveDeterminer : set.object
            case .determinerOrPronoun: form = followedByWord ? set.possessiveDeterminer : set.possessivePronoun
            }
            phrase.words[index].set(form)
        }
    }

    /// Words that cannot start the noun phrase a possessive determiner introduces (*tell her that…*).
    private static let functionWords: WordSet = [
        "that", "this", "the", "a", "an", "to", "and", "or", "but", "with", "for", "at", "in", "on", "of", "is",
        "was", "are", "were", "if", "when", "so", "up", "out", "back", "down", "now", "please", "again", "too",
        "know", "about", "from", "by", "as", "what", "how", "why", "who", "where", "will", "can", "has", "had",
    ]

    /// Whether `word` can begin the noun phrase after a possessive: a listed noun or adjective, or
    /// an unlisted word that is not a function word.
    private func isNounPhraseStart(_ word: String) -> Bool {
        if Self.functionWords.contains(word) { return false }
        if let entry = lexicon.entry(word) { return entry.canBeNoun || entry.canBeAdjective }
        return true
    }

    // MARK: Around the span

    /// Last letters of *a* and *an*.
    private static let articleEndings = [UInt8(ascii: "a"), UInt8(ascii: "n")]

    /// *a* or *an* written just before the span follows the span's first word.
    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit] {
        guard let first = phrase.words.first,
            let before = context.word(before: first.utf8Range.lowerBound, endingIn: Self.articleEndings)
        else { return [] }
        let lower = before.text.lowercased()
        guard lower == "a" || lower == "an" else { return [] }
        let article = EnglishArticles.article(before: first.current, lexicon: lexicon)
        guard article != lower else { return [] }
        return [
            RichTextEdit(utf8Range: before.utf8Range, replacement: EnglishArticles.cased(article, like: before.text))
        ]
    }
}
