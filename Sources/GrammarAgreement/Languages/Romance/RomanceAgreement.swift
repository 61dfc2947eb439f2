import RichText

/// A language whose agreement is ``RomanceGrammar``'s walk, as a concrete type of its own.
///
/// ``AgreementEngine`` holds its grammar as `any LanguageGrammar`. Had `RomanceGrammar<FrenchLanguage>`
/// itself conformed there, every call would run the walk's generic code: each rule reached through a
/// witness table, each lexicon and word table read through a getter that copies it, generic metadata
/// looked up at run time. Conforming a concrete type instead (``FrenchGrammar``, ``ItalianGrammar``,
/// ``PortugueseGrammar``) has the compiler specialise the walk for that language's rules, as it does for
/// ``SpanishGrammar``; the forwarding below is all such a type needs.
protocol RomanceAgreement: LanguageGrammar {
    associatedtype Rules: RomanceLanguage
    /// The walk over the language's rules.
    var walk: RomanceGrammar<Rules> { get }
}

extension RomanceAgreement {
    var language: String { walk.language }

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        walk.inflect(&phrase, number: number, rule: rule, context: &context)
    }

    func features(of phrase: Phrase) -> GrammaticalFeatures? { walk.features(of: phrase) }

    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext) {
        walk.agree(&phrase, with: features, context: &context)
    }

    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? { walk.features(addressing: term) }

    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {
        walk.substitutePronouns(&phrase, referent: referent, context: &context)
    }

    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit] {
        walk.boundaryEdits(for: phrase, context: &context)
    }
}
