import Foundation
import Synchronization

/// The languages with agreement rules, and one grammar per language, made on first use.
enum GrammarRegistry {
    /// Languages with rules.
    static let languages = ["en", "es", "fr", "de", "it", "pt", "pl", "ru"]

    private static let grammars = Mutex<[String: any LanguageGrammar]>([:])

    /// The language code of a locale identifier (`es-MX` → `es`).
    static func language(of locale: String) -> String {
        let code = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? locale
        return code.lowercased()
    }

    /// Whether the language of `locale` has agreement rules (others leave spans as written).
    static func hasRules(for locale: String) -> Bool {
        languages.contains(language(of: locale))
    }

    /// The grammar for `language`, or one that leaves text as written.
    static func grammar(for language: String) throws(AgreementError) -> any LanguageGrammar {
        if let grammar = grammars.withLock({ $0[language] }) { return grammar }
        let grammar: any LanguageGrammar
        if languages.contains(language) {
            do {
                grammar = try self.grammar(for: language, lexicon: try Lexicon.bundled(language: language))
            } catch {
                throw AgreementError(.lexicon, error.description)
            }
        } else {
            grammar = UnsupportedLanguageGrammar(language: language)
        }
        grammars.withLock { $0[language] = grammar }
        return grammar
    }

    /// A grammar for `language` over `lexicon` (the bundled one with a catalog's declared terms
    /// over it), made anew: not kept.
    ///
    /// - Throws: ``LexiconError`` when Polish's or Russian's paradigm lexicon cannot be read.
    static func grammar(for language: String, lexicon: Lexicon) throws(LexiconError) -> any LanguageGrammar {
        switch language {
        case "pl":
            SlavicGrammar(rules: .polish, lexicon: lexicon, paradigms: try ParadigmLexicon.bundled(language: "pl"))
        case "ru":
            SlavicGrammar(rules: .russian, lexicon: lexicon, paradigms: try ParadigmLexicon.bundled(language: "ru"))
        case "en": EnglishGrammar(lexicon: lexicon)
        case "es": SpanishGrammar(lexicon: lexicon)
        case "fr": FrenchGrammar(lexicon: lexicon)
        case "de": GermanGrammar(lexicon: lexicon)
        case "it": ItalianGrammar(lexicon: lexicon)
        case "pt": PortugueseGrammar(lexicon: lexicon)
        default: UnsupportedLanguageGrammar(language: language)
        }
    }
}
