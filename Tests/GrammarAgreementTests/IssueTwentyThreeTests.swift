// Caffe — GrammarAgreement tests.
import GrammarAgreement
import Localization
import RichText
import Testing

/// French, German, Italian and Portuguese (issue 23): the examples the issue names, exactly.
@Suite("French, German, Italian and Portuguese")
struct IssueTwentyThreeTests {
    @Test func frenchPlacesAndAgreesAdjectives() throws {
        #expect(try plain("Ajouter ^[2 grand pizza](inflect: true)", "fr-FR") == "Ajouter 2 grandes pizzas")
        #expect(try plain("Ajouter ^[1 petit café](inflect: true)", "fr-FR") == "Ajouter 1 petit café")
        #expect(try plain("Ajouter ^[2 café crème](inflect: true)", "fr-FR") == "Ajouter 2 cafés crème")
        #expect(try plain("Ajouter ^[0 petit café](inflect: true)", "fr-FR") == "Ajouter 0 petit café")
        #expect(try plain("Ajouter ^[1,5 litre](inflect: true)", "fr-FR") == "Ajouter 1,5 litre")
        #expect(try plain("Ajouter ^[1 beau éclair](inflect: true)", "fr-FR") == "Ajouter 1 bel éclair")
    }

    @Test func frenchElidesAndContracts() throws {
        #expect(try plain("Voici ^[le eau](inflect: true)", "fr-FR") == "Voici l'eau")
        #expect(try plain("Voici ^[le homard](inflect: true)", "fr-FR") == "Voici le homard")
        #expect(try plain("Un morceau ^[de le gâteau](inflect: true)", "fr-FR") == "Un morceau du gâteau")
        #expect(try plain("Un jus ^[de orange](inflect: true)", "fr-FR") == "Un jus d'orange")
        #expect(try plain("Une glace ^[à le chocolat](inflect: true)", "fr-FR") == "Une glace au chocolat")
    }

    @Test func germanCaseFromTheSentence() throws {
        #expect(try plain("^[1 groß Kaffee](inflect: true) hinzufügen", "de-DE") == "1 großen Kaffee hinzufügen")
        #expect(try plain("^[2 groß Pizza](inflect: true) hinzufügen", "de-DE") == "2 große Pizzen hinzufügen")
        #expect(try plain("^[1 groß Wasser](inflect: true) hinzufügen", "de-DE") == "1 großes Wasser hinzufügen")
        #expect(try plain("^[1 klein Kaffee](inflect: true) ist fertig.", "de-DE") == "1 kleiner Kaffee ist fertig.")
        #expect(try plain("Mit ^[ein groß Kaffee](inflect: true)", "de-DE") == "Mit einem großen Kaffee")
        #expect(try plain("^[1 mittel Tee](inflect: true)", "de-DE") == "1 mittlerer Tee")
        #expect(try plain("^[2 Erdbeertorte](inflect: true)", "de-DE") == "2 Erdbeertorten")
    }

    @Test func germanCaseFromAHint() throws {
        #expect(
            try plain("^[2 groß Glas](inflect: true, morphology: {grammaticalCase: 'dative'})", "de-DE")
                == "2 großen Gläsern"
        )
        #expect(
            try plain("^[1 groß Kaffee](inflect: {grammaticalCase: 'nominative'}) hinzufügen", "de-DE")
                == "1 großer Kaffee hinzufügen"
        )
    }

    @Test func italianArticlesAndApocope() throws {
        #expect(try plain("Aggiungi ^[2 pizza grande](inflect: true)", "it-IT") == "Aggiungi 2 pizze grandi")
        #expect(try plain("Aggiungi ^[2 caffè piccolo](inflect: true)", "it-IT") == "Aggiungi 2 caffè piccoli")
        #expect(try plain("Ecco ^[il zucchero](inflect: true)", "it-IT") == "Ecco lo zucchero")
        #expect(try plain("Ecco ^[un aranciata](inflect: true)", "it-IT") == "Ecco un'aranciata")
        #expect(try plain("Un bicchiere ^[di il acqua](inflect: true)", "it-IT") == "Un bicchiere dell'acqua")
        #expect(try plain("Aggiungi ^[2 bello spuntino](inflect: true)", "it-IT") == "Aggiungi 2 begli spuntini")
    }

    @Test func portuguesePluralsAndContractions() throws {
        #expect(try plain("Adicionar ^[2 salada pequeno](inflect: true)", "pt-BR") == "Adicionar 2 saladas pequenas")
        #expect(try plain("Adicionar ^[2 pão pequeno](inflect: true)", "pt-BR") == "Adicionar 2 pães pequenos")
        #expect(try plain("Adicionar ^[2 pastel](inflect: true)", "pt-BR") == "Adicionar 2 pastéis")
        #expect(try plain("Uma fatia ^[de o torta](inflect: true)", "pt-BR") == "Uma fatia da torta")
        #expect(try plain("Está ^[em o xícara](inflect: true)", "pt-BR") == "Está na xícara")
    }

    @Test(arguments: [
        (
            "fr-FR", "^[Bienvenu](inflect: true, inflectionAlternative: 'Bienvenu·e')", "Bienvenue", "Bienvenu",
            "Bienvenu·e"
        ),
        ("de-DE", "^[Willkommen](inflect: true)", "Willkommen", "Willkommen", "Willkommen"),
        (
            "it-IT", "^[Benvenuto](inflect: true, inflectionAlternative: 'Benvenuto/a')", "Benvenuta", "Benvenuto",
            "Benvenuto/a"
        ),
        (
            "pt-BR", "^[Bem-vindo](inflect: true, inflectionAlternative: 'Bem-vindo/a')", "Bem-vinda", "Bem-vindo",
            "Bem-vindo/a"
        ),
    ])
    func termOfAddress(locale: String, markup: String, feminine: String, masculine: String, unknown: String) throws {
        #expect(try plain(markup, locale, term: .feminine) == feminine)
        #expect(try plain(markup, locale, term: .masculine) == masculine)
        #expect(try plain(markup, locale) == unknown)
    }

    /// The plural category comes from the number as the template shows it: `%.1f` with 1 is *1,0*.
    @Test(arguments: [
        ("de-DE", "^[%.1f %@](inflect: true)", "Liter", "1,0 Liter"),
        ("it-IT", "^[%.1f %@](inflect: true)", "litro", "1,0 litri"),
        ("fr-FR", "^[%.1f %@](inflect: true)", "litre", "1,0 litre"),
        ("pt-BR", "^[%.1f %@](inflect: true)", "litro", "1,0 litro"),
        ("it-IT", "^[%lld %@](inflect: true)", "litro", "1 litro"),
    ])
    func numbersAsFormatted(locale: String, template: String, noun: String, expected: String) throws {
        let text = try GrammarAgreement.inflect(template, arguments: [1, .string(noun)], locale: locale)
        #expect(text.plainText == expected)
    }

    @Test func zeroWithAnIntegerSpecifier() throws {
        let template = "^[%lld %@](inflect: true)"
        #expect(
            try GrammarAgreement.inflect(template, arguments: [0, "Kaffee"], locale: "de-DE").plainText == "0 Kaffees"
        )
        #expect(
            try GrammarAgreement.inflect(template, arguments: [0, "caffè"], locale: "it-IT").plainText == "0 caffè"
        )
        #expect(try GrammarAgreement.inflect(template, arguments: [0, "café"], locale: "fr-FR").plainText == "0 café")
        #expect(try GrammarAgreement.inflect(template, arguments: [0, "café"], locale: "pt-BR").plainText == "0 café")
    }

    @Test func ambiguousWordsAreWarnedAbout() throws {
        let text = try inflectPlain("Aggiungi ^[2 caffè dolce](inflect: true)", locale: "it-IT")
        #expect(text.plainText == "Aggiungi 2 caffè dolci")
        #expect(text.warnings.map(\.code) == [.ambiguousWord])
    }
}
