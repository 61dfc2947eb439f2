// Caffe — GrammarAgreement tests.
import Foundation
import GrammarAgreement
import Localization
import RichText
import Testing

/// Defects a review found, each pinned.
@Suite("Review regressions")
struct ReviewRegressionTests {
    @Test func overlappingEditsDoNotGarbleAttributedStrings() throws {
        let text = try RichTextParser.parse("Precio de ^[los café](inflect: true) hoy").attributedString()
        #expect(String(try text.inflected(locale: Locale(identifier: "es-ES")).characters) == "Precio del café hoy")
    }

    @Test func argumentRangesFollowAContraction() throws {
        let text = try GrammarAgreement.inflect(
            "Precio de ^[los %1$@](inflect: true): %2$@",
            arguments: ["café", "3 €"],
            locale: "es-ES"
        )
        #expect(text.plainText == "Precio del café: 3 €")
        #expect(text.arguments.map(\.utf8Range) == [11..<16, 18..<23])
    }

    @Test func theCacheTellsEnginesApart() throws {
        let template = try AgreementTemplate("^[%lld %@ %@](inflect: true)")
        var cache = AgreementCache()
        let english = try template.render(
            [2, "bar", "pan"],
            engine: try GrammarAgreement.engine(for: "en-US"),
            formatter: try Localizer(catalog: .empty(), locale: "en-US"),
            cache: &cache
        )
        let spanish = try template.render(
            [2, "bar", "pan"],
            engine: try GrammarAgreement.engine(for: "es-ES"),
            formatter: try Localizer(catalog: .empty(), locale: "es-ES"),
            cache: &cache
        )
        #expect(english.plainText == "2 bar pans")
        #expect(spanish.plainText == "2 bares pan")
    }

    @Test(arguments: [
        ("^[Te has suscrito](inflect: true)", "Te has suscrito"),
        ("^[Has ganado](inflect: true)", "Has ganado"),
        ("^[Estás suscrito](inflect: true)", "Estás suscrita"),
    ])
    func participlesAfterHaberDoNotAgree(markup: String, expected: String) throws {
        #expect(try plain(markup, "es-ES", term: .feminine) == expected)
    }

    @Test func explicitRulesWithoutANoun() throws {
        #expect(try plain("^[pequeño](inflect: {grammaticalGender: 'feminine'})", "es-ES") == "pequeña")
        #expect(try plain("^[listo](inflect: {grammaticalGender: 'feminine', number: 'plural'})", "es-ES") == "listas")
    }

    @Test func theGuideExampleOfAHint() throws {
        let text = try GrammarAgreement.inflect(
            "^[%lld ^[%@](morphology: {partOfSpeech: 'noun'}) box](inflect: true)",
            arguments: [2, "juice"],
            locale: "en-US"
        )
        #expect(text.plainText == "2 juice boxes")
        #expect(text.warnings.isEmpty)
    }

    @Test func englishArgumentsAgreeWithTheirHead() throws {
        let template = "Your %@ ^[is](agreeWithArgument: 1) ready"
        #expect(
            try GrammarAgreement.inflect(template, arguments: ["cups of coffee"], locale: "en-US").plainText
                == "Your cups of coffee are ready"
        )
        #expect(
            try GrammarAgreement.inflect(template, arguments: ["cup of beans"], locale: "en-US").plainText
                == "Your cup of beans is ready"
        )
    }

    @Test(arguments: [
        ("^[1,000,000 pizza](inflect: true)", "1,000,000 pizzas"),
        ("^[2,500.50 pizza](inflect: true)", "2,500.50 pizzas"),
        ("^[a horse](inflect: true)", "a horse"),
        ("^[a horseradish sauce](inflect: true)", "a horseradish sauce"),
        ("^[a hors d'oeuvre](inflect: true)", "an hors d'oeuvre"),
        ("^[2 cheese](inflect: true)", "2 cheeses"),
        ("^[2 widgets](inflect: true)", "2 widgets"),
        ("^[2 monarch](inflect: true)", "2 monarchs"),
        ("^[2 axis](inflect: true)", "2 axes"),
    ])
    func englishSpellings(markup: String, expected: String) throws {
        #expect(try plain(markup, "en-US") == expected)
    }

    @Test(arguments: [
        ("^[1.000.000 ensalada](inflect: true)", "1.000.000 ensaladas"),
        ("¿De ^[el sopa](inflect: true)?", "¿De la sopa?"),
        ("¿De ^[el café](inflect: true)?", "¿Del café?"),
        ("^[1 el aula](inflect: true)", "1 el aula"),
        ("^[2 sherry](inflect: true)", "2 sherrys"),
        ("^[2 mamey](inflect: true)", "2 mameyes"),
    ])
    func spanishSpellings(markup: String, expected: String) throws {
        #expect(try plain(markup, "es-ES") == expected)
    }

    @Test func pronounsLeaveThingsAloneAndTheirVerbsAgree() throws {
        let masculine = try inflectPlain(
            "^[Tell her that it is ready](referentConcept: 1)",
            locale: "en-US",
            concepts: [.termsOfAddress([.masculine])]
        )
        #expect(masculine.plainText == "Tell him that it is ready")
        let neutral = try inflectPlain(
            "^[He is here](referentConcept: 1)",
            locale: "en-US",
            concepts: [.termsOfAddress([.neutral])]
        )
        #expect(neutral.plainText == "They are here")
    }
}
