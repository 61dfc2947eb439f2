// The JSON5 body of Apple's `^[text](body)`: each input is a body, put around agreement-ready
// text as `^[2 ensalada pequeño](<input>)`. Valid bodies go on to where their values are read:
// `AttributedString` with the typed keys (`inflect`, `morphology`, `agreeWithArgument`,
// `inflectionAlternative`, the concepts), agreement in Spanish and German, and the JSON runs,
// whose hand-written JSON must parse back to the same text.
import Foundation
import FuzzSupport
import GrammarAgreement
import RichText

let concepts: [InflectionConcept] = [.localizedPhrase("la ensalada"), .termsOfAddress([.masculine, .feminine])]
let engines: [AgreementEngine] = ["es-ES", "de-DE"].compactMap { try? GrammarAgreement.engine(for: $0) }
guard engines.count == 2 else { FuzzDriver.fail("no agreement engines for es-ES and de-DE") }
let spanish = Locale(identifier: "es-ES")

FuzzDriver.run { input in
    guard let document = try? RichTextParser.parse("^[2 ensalada pequeño](" + input.text + ")") else { return }
    let json = JSONRunsRenderer().render(document)
    if let problem = JSONTextCheck.problem(json, as: [JSONValue].self, rewrite: { JSONValue.array($0).jsonText }) {
        FuzzDriver.fail("JSON runs: \(problem)")
    }
    for engine in engines {
        _ = engine.inflect(document, termOfAddress: .feminine, concepts: concepts).plainText
    }
    if let typed = try? document.attributedString() {
        _ = try? typed.inflected(locale: spanish, userTermOfAddress: .feminine, inflectionConcepts: concepts)
    }
    _ = try? document.attributedString(keepingUnknownAttributes: true)
}
