import RichText

/// Nouns for people whose form follows the person's gender (*cliente* / *clienta*, *Kunde* /
/// *Kundin*), read from either form.
struct PersonNouns: Sendable {
    /// Masculine singular → feminine singular.
    let feminineByMasculine: WordTable<String>
    /// Feminine singular → masculine singular; the first masculine listed wins.
    let masculineByFeminine: WordTable<String>

    /// Nouns from their masculine singular to their feminine singular (the same word when the
    /// gender shows only around it: *barista*).
    init(_ feminineByMasculine: WordTable<String>) {
        self.feminineByMasculine = feminineByMasculine
        masculineByFeminine = WordTable(
            feminineByMasculine.allKeys.compactMap { masculine in
                feminineByMasculine[masculine].map { ($0, masculine) }
            }.reversed()
        )
    }

    /// Whether a lowercase singular is either form of a person noun.
    func contains(_ word: String) -> Bool {
        feminineByMasculine[word] != nil || masculineByFeminine[word] != nil
    }

    /// Whether a lowercase singular is a person noun's feminine form distinct from its masculine
    /// (*clienta*, not *barista*).
    func isDistinctFeminine(_ word: String) -> Bool {
        masculineByFeminine[word].map { $0 != word } ?? false
    }

    /// A person noun in the gender and number asked for (*cliente* → *clientas*); `plural` makes
    /// the plural of a singular in its gender. `nil` when the word is no person noun.
    func form(
        of word: String,
        for features: GrammaticalFeatures,
        plural: (String, Morphology.GrammaticalGender) -> String
    ) -> String? {
        guard let masculine = feminineByMasculine[word] != nil ? word : masculineByFeminine[word] else { return nil }
        let gender: Morphology.GrammaticalGender = features.gender == .feminine ? .feminine : .masculine
        let singular = gender == .feminine ? feminineByMasculine[masculine] ?? masculine : masculine
        return features.isPlural ? plural(singular, gender) : singular
    }
}

/// Third-person verbs that agree in number with their subject (*está* / *están*), read from
/// either form.
struct NumberedVerbs: Sendable {
    private let pluralBySingular: WordTable<String>
    private let singularByPlural: WordTable<String>

    /// Verbs from their third-person singular to their plural.
    init(_ pluralBySingular: WordTable<String>) {
        self.pluralBySingular = pluralBySingular
        singularByPlural = WordTable(
            pluralBySingular.allKeys.compactMap { singular in pluralBySingular[singular].map { ($0, singular) } }
        )
    }

    /// Whether a lowercase word is either form of a listed verb.
    func contains(_ word: String) -> Bool {
        pluralBySingular[word] != nil || singularByPlural[word] != nil
    }

    /// The form of a listed verb for a subject in the plural or not; `nil` when the word is no
    /// listed verb or already has that number.
    func form(of word: String, plural: Bool) -> String? {
        if let pluralForm = pluralBySingular[word] { return plural ? pluralForm : nil }
        if let singular = singularByPlural[word] { return plural ? nil : singular }
        return nil
    }
}

extension LanguageGrammar {
    /// A span without a noun whose `inflect: {grammaticalGender: …, number: …}` names a gender or a
    /// number: its words agree with the rule (masculine or singular for what it leaves out, the
    /// span's `number` before the singular). `nil` when there is no such rule.
    func agreeWithRule(
        _ phrase: inout Phrase,
        rule: Morphology?,
        number: Morphology.GrammaticalNumber?,
        context: inout AgreementContext
    ) -> PhraseAnalysis? {
        guard let rule, rule.grammaticalGender != nil || rule.number != nil else { return nil }
        let features = GrammaticalFeatures(
            gender: rule.grammaticalGender ?? .masculine,
            number: rule.number ?? number ?? .singular
        )
        agree(&phrase, with: features, context: &context)
        return PhraseAnalysis(features: features, addressesReader: false)
    }
}

extension TermOfAddress {
    /// What words addressing the reader agree with: the term's gender in the singular, when it has one.
    var singularFeatures: GrammaticalFeatures? {
        grammaticalGender.map { GrammaticalFeatures(gender: $0, number: .singular) }
    }
}

extension Phrase {
    /// Agreement in each part of a span split at its conjunctions (``conjuncts(where:)``), or in the
    /// whole span, with the span's `number`, when it has none.
    mutating func inflectByConjunct(
        number: Morphology.GrammaticalNumber?,
        isConjunction: (Word) -> Bool,
        _ inflect: (inout Phrase, Range<Int>, Morphology.GrammaticalNumber?) -> PhraseAnalysis
    ) -> PhraseAnalysis {
        let parts = conjuncts(where: isConjunction)
        guard parts.count > 1 else { return inflect(&self, 0..<words.count, number) }
        return inflectEachConjunct(parts, inflect)
    }
}
