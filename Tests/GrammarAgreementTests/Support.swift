// Caffe — GrammarAgreement tests.
import GrammarAgreement
import Localization
import RichText

/// Inflects a template that has its words and numbers in place (the CLI's plain mode).
func inflectPlain(
    _ markup: String,
    locale: String,
    term: TermOfAddress = .unknown,
    concepts: [InflectionConcept] = []
) throws -> InflectedText {
    let engine = try GrammarAgreement.engine(for: locale)
    return engine.inflect(try RichTextParser.parse(markup), termOfAddress: term, concepts: concepts)
}

/// The plain text of `inflectPlain`.
func plain(_ markup: String, _ locale: String, term: TermOfAddress = .unknown) throws -> String {
    try inflectPlain(markup, locale: locale, term: term).plainText
}
