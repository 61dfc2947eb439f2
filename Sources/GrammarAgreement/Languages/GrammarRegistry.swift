import Foundation
import Synchronization

/// The languages with agreement rules, and one grammar per language, made on first use.
enum GrammarRegistry {
    /// Languages with rules.
    static let languages = ["en", "es", "fr", "de", "it", "pt"]

    private static let grammars = Mutex<[String: any LanguageGrammar]>([:])

    /// The language code of a locale identifier (`es-MX` → `es`).
    static func language(of locale: String) -> String {
        let code = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? locale
        return code.lowercased()
    }

    /// The grammar for `language`, or one that leaves text as written.
    static func grammar(for language: String) throws(AgreementError) -> any LanguageGrammar {
        if let grammar = grammars.withLock({ $0[language] }) { return grammar }
        let grammar: any LanguageGrammar
        do {
            switch language {
            case "en": grammar = EnglishGrammar(lexicon: try Lexicon.bundled(language: "en"))
            case "es": grammar = SpanishGrammar(lexicon: try Lexicon.bundled(language: "es"))
            case "fr": grammar = FrenchGrammar(lexicon: try Lexicon.bundled(language: "fr"))
            case "de": grammar = GermanGrammar(lexicon: try Lexicon.bundled(language: "de"))
            case "it": grammar = ItalianGrammar(lexicon: try Lexicon.bundled(language: "it"))
            case "pt": grammar = PortugueseGrammar(lexicon: try Lexicon.bundled(language: "pt"))
            default: grammar = UnsupportedLanguageGrammar(language: language)
            }
        } catch {
            throw AgreementError(.lexicon, error.description)
        }
        grammars.withLock { $0[language] = grammar }
        return grammar
    }
}
