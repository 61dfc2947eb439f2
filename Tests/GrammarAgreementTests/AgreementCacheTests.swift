// Caffe — GrammarAgreement tests.
import GrammarAgreement
import Localization
import Testing

@Suite("Agreement cache")
struct AgreementCacheTests {
    @Test func hitsGiveWhatTheGrammarGives() throws {
        let template = try AgreementTemplate("Añadir ^[%1$lld %3$@ %2$@](inflect: true) a tu pedido")
        let engine = try GrammarAgreement.engine(for: "es-ES")
        let formatter = try Localizer(catalog: .empty(), locale: "es-ES")
        var cache = AgreementCache(capacity: 2)
        let cases: [([FormatArgument], String)] = [
            ([2, "pequeño", "ensalada"], "Añadir 2 ensaladas pequeñas a tu pedido"),
            ([2, "pequeño", "ensalada"], "Añadir 2 ensaladas pequeñas a tu pedido"),
            ([3, "pequeño", "ensalada"], "Añadir 3 ensaladas pequeñas a tu pedido"),
            ([1, "pequeño", "ensalada"], "Añadir 1 ensalada pequeña a tu pedido"),
            ([2, "pequeño", "jugo"], "Añadir 2 jugos pequeños a tu pedido"),
            ([2, "pequeño", "ensalada"], "Añadir 2 ensaladas pequeñas a tu pedido"),
        ]
        for (arguments, expected) in cases {
            let cached = try template.render(arguments, engine: engine, formatter: formatter, cache: &cache)
            let direct = try template.render(arguments, engine: engine, formatter: formatter)
            #expect(cached.plainText == expected)
            #expect(cached == direct)
        }
        // Only the repeated second render hit: 3 differs in its text, the capacity of 2 was reached
        // at the fourth, so the last render was computed again.
        #expect(cache.lookups == 6)
        #expect(cache.hits == 1)
        #expect(cache.count <= 2)
    }

    @Test func theTermOfAddressIsPartOfTheKey() throws {
        let template = try AgreementTemplate("^[Bienvenido](inflect: true, inflectionAlternative: 'Hola')")
        let engine = try GrammarAgreement.engine(for: "es-MX")
        let formatter = try Localizer(catalog: .empty(), locale: "es-MX")
        var cache = AgreementCache()
        let outputs = try [TermOfAddress.feminine, .masculine, .unknown, .feminine].map { term in
            try template.render([], engine: engine, formatter: formatter, termOfAddress: term, cache: &cache).plainText
        }
        #expect(outputs == ["Bienvenida", "Bienvenido", "Hola", "Bienvenida"])
        #expect(cache.hits == 1)
    }

    @Test func templatesWithoutSpansSkipTheCache() throws {
        let template = try AgreementTemplate("**%1$@**: %2$@")
        #expect(!template.hasAgreementSpans)
        #expect(try AgreementTemplate("^[%lld %@](inflect: true)").hasAgreementSpans)
        let engine = try GrammarAgreement.engine(for: "es-ES")
        let formatter = try Localizer(catalog: .empty(), locale: "es-ES")
        var cache = AgreementCache()
        let rendered = try template.render(["Total", "5,00 €"], engine: engine, formatter: formatter, cache: &cache)
        #expect(rendered.plainText == "Total: 5,00 €")
        #expect(rendered == (try template.render(["Total", "5,00 €"], engine: engine, formatter: formatter)))
        #expect(cache.lookups == 0)
        #expect(cache.count == 0)
    }
}

@Suite("Warnings once per string")
struct WarningsOnceTests {
    @Test func aTemplateHandsOutItsWarningsOnce() throws {
        let template = try AgreementTemplate("Add ^[%lld %@](inflect: true)")
        let engine = try GrammarAgreement.engine(for: "en-US")
        let formatter = try Localizer(catalog: .empty(), locale: "en-US")
        let plain = try template.render([2, "muffin"], engine: engine, formatter: formatter)
        #expect(plain.warnings.isEmpty)
        #expect(template.warningsToLog(plain).isEmpty)
        let first = try template.render([2, "juice"], engine: engine, formatter: formatter)
        #expect(first.plainText == "Add 2 juices")
        #expect(template.warningsToLog(first).map(\.code) == [.ambiguousWord])
        let second = try template.render([3, "juice"], engine: engine, formatter: formatter)
        #expect(second.warnings.map(\.code) == [.ambiguousWord])
        #expect(template.warningsToLog(second).isEmpty)
    }
}
