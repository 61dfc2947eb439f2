// Caffe — GrammarAgreement tests.
import Foundation
import RichText
import Testing

@testable import GrammarAgreement

/// Accuracy on the evaluation sets in `Evaluation/` (hand-checked café, food and drink phrases,
/// written independently of the lexicons). Reports three figures per language: every row, the rows
/// whose span has a word the lexicon does not list, and every row with the rules alone (an empty
/// lexicon). Set `AGREEMENT_EVALUATION_VERBOSE=1` to print each miss.
@Suite("Evaluation sets")
struct EvaluationTests {
    struct Row {
        var line: Int
        var term: TermOfAddress
        var input: String
        var accepted: [String]
    }

    struct Score: CustomStringConvertible {
        var correct = 0
        var total = 0
        var accuracy: Double { total == 0 ? 1 : Double(correct) / Double(total) }
        var description: String { String(format: "%.1f %% (%d/%d)", accuracy * 100, correct, total) }
    }

    static func rows(_ language: String) throws -> [Row] {
        let url = try #require(
            Bundle.module.url(forResource: language, withExtension: "tsv", subdirectory: "Evaluation")
        )
        var rows: [Row] = []
        for (index, line) in try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n",
            omittingEmptySubsequences: false
        ).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(columns.count == 3, "line \(index + 1) has \(columns.count) columns")
            rows.append(
                Row(
                    line: index + 1,
                    term: columns[0] == "-" ? .unknown : try #require(TermOfAddress(columns[0])),
                    input: columns[1],
                    accepted: columns[2].components(separatedBy: " || ")
                )
            )
        }
        return rows
    }

    /// Whether every word inside the row's spans is listed (or closed-class: articles, prepositions…).
    static func isCovered(_ row: Row, lexicon: Lexicon, language: String) throws -> Bool {
        let document = try RichTextParser.parse(row.input)
        let spanText = document.runs.filter { !$0.attributes.isEmpty }.map(\.text).joined(separator: " ")
        for word in Tokenizer.phrase(spanText).words where !word.isNumber {
            let lower = word.lower
            if lexicon.entry(lower) != nil || lexicon.entry(forInflectedForm: lower) != nil { continue }
            if isClosedClass(lower, language: language, lexicon: lexicon) { continue }
            return false
        }
        return true
    }

    /// Articles, prepositions, conjunctions, and plurals of listed nouns: words a set may use freely.
    static func isClosedClass(_ lower: String, language: String, lexicon: Lexicon) -> Bool {
        switch language {
        case "en":
            return EnglishGrammar.determiners.contains(lower) || EnglishGrammar.prepositions.contains(lower)
                || ["and", "or"].contains(lower) || EnglishNouns(lexicon: lexicon).singular(of: lower) != nil
        case "es":
            return SpanishDeterminers.lemmas[lower] != nil || SpanishGrammar.prepositions.contains(lower)
                || SpanishGrammar.conjunctions.contains(lower)
                || SpanishNouns(lexicon: lexicon).singular(of: lower) != nil
        case "de":
            return GermanDeclension.determiners[lower] != nil || GermanGrammar.prepositionCases[lower] != nil
                || GermanGrammar.conjunctions.contains(lower)
                || GermanNouns(lexicon: lexicon).isPlural(lower)
        default:
            guard let rules = romanceRules(language, lexicon: lexicon) else { return false }
            return rules.determiners[lower] != nil || rules.prepositions.contains(lower)
                || rules.conjunctions.contains(lower) || rules.singular(ofNoun: lower) != nil
        }
    }

    static func romanceRules(_ language: String, lexicon: Lexicon) -> (any RomanceLanguage)? {
        switch language {
        case "fr": FrenchLanguage(lexicon: lexicon)
        case "it": ItalianLanguage(lexicon: lexicon)
        case "pt": PortugueseLanguage(lexicon: lexicon)
        default: nil
        }
    }

    /// The language's grammar with `lexicon`.
    static func grammar(_ language: String, lexicon: Lexicon) -> any LanguageGrammar {
        switch language {
        case "en": EnglishGrammar(lexicon: lexicon)
        case "es": SpanishGrammar(lexicon: lexicon)
        case "de": GermanGrammar(lexicon: lexicon)
        case "fr": FrenchGrammar(lexicon: lexicon)
        case "it": ItalianGrammar(lexicon: lexicon)
        default: PortugueseGrammar(lexicon: lexicon)
        }
    }

    static func evaluate(_ language: String, set name: String? = nil, locale: String, minimum: Double) throws {
        let name = name ?? language
        let rows = try rows(name)
        let lexicon = try Lexicon.bundled(language: language)
        let engine = try AgreementEngine(locale: locale)
        let rulesOnly = try AgreementEngine(locale: locale, grammar: grammar(language, lexicon: Lexicon()))
        let verbose = ProcessInfo.processInfo.environment["AGREEMENT_EVALUATION_VERBOSE"] == "1"
        var all = Score()
        var unseen = Score()
        var rules = Score()
        var outputs = AgreementOutputs()
        for row in rows {
            let document = try RichTextParser.parse(row.input)
            let output = engine.inflect(document, termOfAddress: row.term).plainText
            if outputs.isRecording {
                outputs.record("\(row.line)", term: row.term, output) {
                    engine.inflect(document, termOfAddress: $0).plainText
                }
                outputs.record(
                    "\(row.line) rules alone",
                    term: row.term,
                    rulesOnly.inflect(document, termOfAddress: row.term).plainText
                )
            }
            let isRight = row.accepted.contains(output)
            all.total += 1
            if isRight { all.correct += 1 }
            if !(try isCovered(row, lexicon: lexicon, language: language)) {
                unseen.total += 1
                if isRight { unseen.correct += 1 }
            }
            rules.total += 1
            if row.accepted.contains(rulesOnly.inflect(document, termOfAddress: row.term).plainText) {
                rules.correct += 1
            }
            if verbose, !isRight {
                print(
                    "\(language):\(row.line): \(row.input) → \(output) (expected \(row.accepted.joined(separator: " || ")))"
                )
            }
        }
        try outputs.write(set: name)
        print("agreement accuracy \(name): all \(all); words not in the lexicon \(unseen); rules alone \(rules)")
        #expect(all.accuracy >= minimum, "\(name): \(all)")
    }

    @Test func english() throws {
        try Self.evaluate("en", locale: "en-US", minimum: 0.99)
    }

    @Test func spanish() throws {
        try Self.evaluate("es", locale: "es-ES", minimum: 0.98)
    }

    // The held-out sets use only words the lexicons and the sets above do not have. First measured
    // before any change for them: English 99.1 %, Spanish 93.1 %. Their misses then led to five
    // general rule fixes (no words added to the lexicons); the floors guard against regressions.

    @Test func englishHeldOut() throws {
        try Self.evaluate("en", set: "en-heldout", locale: "en-US", minimum: 0.98)
    }

    @Test func spanishHeldOut() throws {
        try Self.evaluate("es", set: "es-heldout", locale: "es-ES", minimum: 0.95)
    }

    // Written for issue 23 before the engine's French, German, Italian and Portuguese rules were
    // tuned; the held-out sets use only nouns none of the lexicons or first sets have.

    @Test func french() throws {
        try Self.evaluate("fr", locale: "fr-FR", minimum: 0.99)
    }

    @Test func german() throws {
        try Self.evaluate("de", locale: "de-DE", minimum: 0.99)
    }

    @Test func italian() throws {
        try Self.evaluate("it", locale: "it-IT", minimum: 0.99)
    }

    @Test func portuguese() throws {
        try Self.evaluate("pt", locale: "pt-BR", minimum: 0.99)
    }

    // Since issue 27 a word neither lexicon (hand-written or compiled from dictionaries) knows is left
    // as written instead of inflected by guess: the held-out rows whose noun no dictionary has (lassi,
    // chaï, samossa, bagnat in French; pasticciotto, ginger in Italian) now keep it, by design.

    @Test func frenchHeldOut() throws {
        try Self.evaluate("fr", set: "fr-heldout", locale: "fr-FR", minimum: 0.93)
    }

    @Test func germanHeldOut() throws {
        try Self.evaluate("de", set: "de-heldout", locale: "de-DE", minimum: 0.97)
    }

    @Test func italianHeldOut() throws {
        try Self.evaluate("it", set: "it-heldout", locale: "it-IT", minimum: 0.96)
    }

    // Since issue 46 a noun whose dictionaries give no gender no longer takes the masculine of an
    // adjective written in its dictionary form (garapa + gelado read masculine was a wrong change):
    // the adjectives beside beiju, rocambole, cupuaçu, calzone and cheesecake stay as written, and
    // are reported (unknownGender). Pasticciotto (-o) and diminutives are read by rule instead.
    @Test func portugueseHeldOut() throws {
        try Self.evaluate("pt", set: "pt-heldout", locale: "pt-BR", minimum: 0.96)
    }
}
