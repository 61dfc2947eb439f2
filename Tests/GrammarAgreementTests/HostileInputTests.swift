// Caffe — GrammarAgreement tests.
import CaffeTestKit
import GrammarAgreement
import Localization
import RichText
import Testing

/// Seeded random templates: agreement never crashes, keeps the text outside its spans, and keeps
/// the numbers as written.
@Suite("Hostile and random input")
struct HostileInputTests {
    static let pieces = [
        "2", "1", "1.0", "0", "21", "1.5", "1,000", "a", "an", "el", "la", "del", "al", "de", "y", "o", "pizza",
        "ensalada", "pequeño", "large", "agua", "cup", "of", "coffee", "PIZZA", "Ñandú", "—", "'", "-", "é",
        "\u{301}", "🍕", "٢١", "\u{2068}", "they", "her", "él", "listo", "Bienvenido", "juice", "grande", "%", "",
    ]
    static let attributes = [
        "inflect: true", "inflect: {number: 'plural'}", "agreeWithArgument: 1", "agreeWithArgument: -3",
        "agreeWithConcept: 1", "referentConcept: 2", "inflect: true, inflectionAlternative: 'x'",
        "morphology: {partOfSpeech: 'noun', grammaticalGender: 'feminine'}",
        "inflect: true, morphology: {number: 'zero'}",
    ]

    @Test(arguments: ["en-US", "es-ES", "fr-FR"])
    func randomTemplatesNeverCrash(locale: String) throws {
        var random = SplitMix64(seed: 2026)
        let engine = try GrammarAgreement.engine(for: locale)
        for _ in 0..<1500 {
            var markup = ""
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let words = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    Self.pieces.randomElement(using: &random) ?? ""
                }
                let text = words.joined(separator: Bool.random(using: &random) ? " " : "")
                if Bool.random(using: &random) {
                    markup += "^[\(text)](\(Self.attributes.randomElement(using: &random) ?? ""))"
                } else {
                    markup += text
                }
                markup += [" ", "**", "_", " ", ", "].randomElement(using: &random) ?? " "
            }
            guard let document = try? RichTextParser.parse(markup) else { continue }
            let concepts: [InflectionConcept] = [.termsOfAddress([.feminine]), .localizedPhrase("las tostadas")]
            let text = engine.inflect(document, termOfAddress: .neutral, concepts: concepts)
            // Numbers are never rewritten (an inflection alternative replaces its whole span, so
            // those inputs are left out); runs and tree say the same text.
            let digits = { (text: String) in Array(text.unicodeScalars.filter { $0.properties.numericType != nil }) }
            if !markup.contains("inflectionAlternative") {
                #expect(digits(document.plainText) == digits(text.plainText), "\(markup)")
            }
            #expect(text.document.runs.map(\.text).joined() == text.document.nodes.map(\.plainText).joined())
        }
    }

    @Test func argumentRecordsOutsideTheTextAreIgnored() throws {
        let engine = try GrammarAgreement.engine(for: "es-ES")
        let document = try RichTextParser.parse("^[2 ensalada](inflect: true)")
        let text = engine.inflect(
            document,
            arguments: [
                ArgumentRecord(argument: 1, utf8Range: 40..<90, value: 1),
                ArgumentRecord(argument: 2, utf8Range: 0..<1, value: 7),
            ]
        )
        // The record over "2" says 7, which decides: plural either way here, and nothing crashes.
        #expect(text.plainText == "2 ensaladas")
    }

    @Test func aVeryLongSpanIsLinear() throws {
        let engine = try GrammarAgreement.engine(for: "en-US")
        let words = Array(repeating: "large", count: 5_000).joined(separator: " ")
        let document = try RichTextParser.parse("^[2 \(words) pizza](inflect: true)")
        #expect(engine.inflect(document).plainText.hasSuffix("large pizzas"))
    }
}
