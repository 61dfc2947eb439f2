// Agreement markup, the two ways `caffe inflect` takes it: a line with its words in place
// (`Añadir ^[2 ensalada pequeño](inflect: true)`, parsed and inflected), and a catalog format
// compiled once as an `AgreementTemplate` (`^[%lld %@ %@](inflect: true)`) and rendered with
// arguments that fit its specifiers.
//
// Input: one byte choosing the locale and the reader's term of address, then the markup.
// Checked beyond "no crash": argument ranges stay inside the rendered text, and the HTML and
// ANSI renderings pass ``OutputChecks``.
import CatalogFuzzing
import FuzzSupport
import GrammarAgreement
import Localization
import RichText

/// One locale's engine and number formatter, made once.
struct Subject {
    var engine: AgreementEngine
    var formatter: Localizer
}

let locales = ["en-US", "es-ES", "es-MX", "fr-FR", "de-DE", "it-IT", "pt-BR", "ja-JP"]
let terms: [TermOfAddress] = [.unknown, .feminine, .masculine, .neutral]
let concepts: [InflectionConcept] = [.localizedPhrase("la ensalada"), .termsOfAddress([.feminine])]
let subjects: [Subject] = locales.compactMap { locale in
    guard let engine = try? GrammarAgreement.engine(for: locale),
        let formatter = try? Localizer(catalog: .empty(), locale: locale)
    else { return nil }
    return Subject(engine: engine, formatter: formatter)
}
guard subjects.count == locales.count else { FuzzDriver.fail("no engine or formatter for one of \(locales)") }

/// Checks a render: ranges inside the text, renderers' output.
func check(_ text: InflectedText) {
    let length = text.plainText.utf8.count
    for record in text.arguments where record.utf8Range.lowerBound < 0 || record.utf8Range.upperBound > length {
        FuzzDriver.fail("argument \(record.argument) at \(record.utf8Range) outside the text of \(length) bytes")
    }
    if let problem = OutputChecks.htmlProblem(HTMLRenderer().render(text.document), safeLinks: true) {
        FuzzDriver.fail("HTML: \(problem)")
    }
    if let problem = OutputChecks.ansiProblem(ANSIRenderer().render(text.document)) {
        FuzzDriver.fail("ANSI: \(problem)")
    }
}

FuzzDriver.run { input in
    var input = input
    let choice = Int(input.byte())
    let subject = subjects[choice % subjects.count]
    let term = terms[choice / subjects.count % terms.count]
    let markup = String(decoding: input.rest, as: UTF8.self)

    if let document = try? RichTextParser.parse(markup) {
        check(subject.engine.inflect(document, termOfAddress: term, concepts: concepts))
    }
    guard let template = try? AgreementTemplate(markup) else { return }
    for variant in 0..<2 {
        let arguments = SampleArguments.arguments(for: markup, variant: variant)
        guard
            let text = try? template.render(
                arguments,
                engine: subject.engine,
                formatter: subject.formatter,
                termOfAddress: term,
                concepts: concepts
            )
        else { continue }
        check(text)
        _ = template.warningsToLog(text)
    }
}
