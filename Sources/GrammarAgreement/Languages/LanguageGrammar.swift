import RichText

/// The gender and number a phrase's head gives the words that agree with it.
struct GrammaticalFeatures: Hashable, Sendable {
    var gender: Morphology.GrammaticalGender?
    var number: Morphology.GrammaticalNumber

    var isPlural: Bool { number != .singular }

    static let singular = GrammaticalFeatures(gender: nil, number: .singular)
}

/// What inflecting an `inflect` span found out.
struct PhraseAnalysis: Sendable {
    /// The head's gender and number, when the span has a head noun.
    var features: GrammaticalFeatures?
    /// Whether the span speaks of the reader (no number and no head, or a person noun such as
    /// *cliente*): its words then agree with the reader's term of address.
    var addressesReader: Bool
}

/// Who or what a pronoun span (`referentConcept`) refers to.
enum Referent: Sendable {
    case person(TermOfAddress)
    case thing(GrammaticalFeatures)

    /// The gender and number a pronoun for it takes in a language with grammatical gender: a
    /// person's, singular, from the term of address (`nil` when it has no gender), or the thing's.
    var pronounFeatures: GrammaticalFeatures? {
        switch self {
        case .person(let term): term.grammaticalGender.map { GrammaticalFeatures(gender: $0, number: .singular) }
        case .thing(let features): features
        }
    }
}

/// One language's agreement rules. Adding a language is a folder under `Languages/` with a type
/// conforming to this, a lexicon under `Lexicons/`, and a line in ``GrammarRegistry``.
///
/// Every method works on a ``Phrase`` in place, setting ``Word/replacement``; none allocates
/// shared state, so one grammar serves all threads.
protocol LanguageGrammar: Sendable {
    /// The language code the grammar serves (`en`).
    var language: String { get }

    /// Inflects an `inflect` span: the head takes `number` (from the span's numeral), and
    /// determiners and adjectives agree with the head. `rule` is an explicit `inflect: {…}`.
    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis

    /// The gender and number of a phrase as written (an argument's text, a concept's phrase).
    func features(of phrase: Phrase) -> GrammaticalFeatures?

    /// Makes the phrase's adjectives, determiners, person nouns and verbs agree with `features`.
    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext)

    /// The features a term of address gives agreeing words, or `nil` when the language has no
    /// form for it (so the inflection alternative is used).
    func features(addressing term: TermOfAddress) -> GrammaticalFeatures?

    /// Replaces the phrase's pronouns with those for `referent`.
    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext)

    /// Edits just outside the span that agreement calls for (English *a* → *an* before it,
    /// Spanish *de el* → *del*).
    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit]
}

extension LanguageGrammar {
    /// Whether the phrase's words change with the reader's gender.
    func dependsOnReaderGender(_ phrase: Phrase) -> Bool {
        var feminine = phrase
        var masculine = phrase
        var scratch = AgreementContext(texts: [])
        agree(&feminine, with: GrammaticalFeatures(gender: .feminine, number: .singular), context: &scratch)
        agree(&masculine, with: GrammaticalFeatures(gender: .masculine, number: .singular), context: &scratch)
        return zip(feminine.words, masculine.words).contains { $0.current != $1.current }
    }
}

/// A grammar for languages without rules yet: text stays as written.
struct UnsupportedLanguageGrammar: LanguageGrammar {
    let language: String

    func inflect(
        _ phrase: inout Phrase,
        number: Morphology.GrammaticalNumber?,
        rule: Morphology?,
        context: inout AgreementContext
    ) -> PhraseAnalysis {
        PhraseAnalysis(features: nil, addressesReader: false)
    }

    func features(of phrase: Phrase) -> GrammaticalFeatures? { nil }
    func agree(_ phrase: inout Phrase, with features: GrammaticalFeatures, context: inout AgreementContext) {}
    func features(addressing term: TermOfAddress) -> GrammaticalFeatures? { nil }
    func substitutePronouns(_ phrase: inout Phrase, referent: Referent, context: inout AgreementContext) {}
    func boundaryEdits(for phrase: Phrase, context: inout AgreementContext) -> [RichTextEdit] { [] }
}
