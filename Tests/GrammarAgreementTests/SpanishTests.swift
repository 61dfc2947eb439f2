import Localization
import RichText
import Testing

// Caffe — GrammarAgreement tests.
@testable import GrammarAgreement

@Suite("Spanish agreement")
struct SpanishTests {
    @Test(arguments: [
        // Vowels +s, consonants +es, z → ces.
        ("ensalada", "ensaladas"), ("café", "cafés"), ("sofá", "sofás"), ("ají", "ajíes"), ("menú", "menús"),
        ("pan", "panes"), ("pastel", "pasteles"), ("flor", "flores"), ("maíz", "maíces"), ("nuez", "nueces"),
        ("arroz", "arroces"), ("rey", "reyes"),
        // Accents dropped or added.
        ("jamón", "jamones"), ("limón", "limones"), ("inglés", "ingleses"), ("autobús", "autobuses"),
        ("joven", "jóvenes"), ("imagen", "imágenes"), ("examen", "exámenes"), ("origen", "orígenes"),
        // Unstressed -s/-x do not change; one-syllable ones do.
        ("lunes", "lunes"), ("crisis", "crisis"), ("tórax", "tórax"), ("mes", "meses"), ("fax", "faxes"),
        // Loans.
        ("sándwich", "sándwiches"), ("bistec", "bistecs"), ("chef", "chefs"), ("iceberg", "icebergs"),
        ("croissant", "croissants"),
    ])
    func pluralsBySpelling(singular: String, plural: String) {
        #expect(SpanishNouns.regularPlural(of: singular) == plural)
    }

    @Test(arguments: [
        ("canción", Morphology.GrammaticalGender.feminine), ("ciudad", .feminine), ("legumbre", .feminine),
        ("virtud", .feminine), ("serie", .feminine), ("tesis", .feminine), ("actriz", .feminine),
        ("tomate", .masculine), ("helado", .masculine), ("potaje", .masculine), ("licor", .masculine),
        ("melón", .masculine), ("arroz", .masculine), ("galleta", .feminine), ("crema", .feminine),
    ])
    func genderFromEndings(noun: String, gender: Morphology.GrammaticalGender) {
        #expect(SpanishNouns.guessedGender(of: noun) == gender)
    }

    @Test(arguments: [
        ("pequeño", "pequeña", "pequeños", "pequeñas"),
        ("grande", "grande", "grandes", "grandes"),
        ("enorme", "enorme", "enormes", "enormes"),
        ("azul", "azul", "azules", "azules"),
        ("feliz", "feliz", "felices", "felices"),
        ("francés", "francesa", "franceses", "francesas"),
        ("español", "española", "españoles", "españolas"),
        ("trabajador", "trabajadora", "trabajadores", "trabajadoras"),
        ("mejor", "mejor", "mejores", "mejores"),
        ("común", "común", "comunes", "comunes"),
        ("joven", "joven", "jóvenes", "jóvenes"),
        ("glotón", "glotona", "glotones", "glotonas"),
    ])
    func adjectiveForms(masculine: String, feminine: String, masculinePlural: String, femininePlural: String) {
        let adjectives = SpanishAdjectives(lexicon: Lexicon())
        func form(_ gender: Morphology.GrammaticalGender, _ number: Morphology.GrammaticalNumber) -> String {
            adjectives.form(of: masculine, entry: nil, features: GrammaticalFeatures(gender: gender, number: number))
        }
        #expect(form(.feminine, .singular) == feminine)
        #expect(form(.masculine, .plural) == masculinePlural)
        #expect(form(.feminine, .plural) == femininePlural)
    }

    @Test(arguments: [
        ("^[2 taza de café pequeño](inflect: true)", "2 tazas de café pequeñas"),
        ("^[2 vaso de leche pequeño](inflect: true)", "2 vasos de leche pequeños"),
        ("^[2 café con leche grande](inflect: true)", "2 cafés con leche grandes"),
        ("^[el ensalada fresco](inflect: true)", "la ensalada fresca"),
        ("^[un galleta casero](inflect: true)", "una galleta casera"),
        ("^[este tarta](inflect: true)", "esta tarta"),
        ("^[mi 2 bocadillo](inflect: true)", "mis 2 bocadillos"),
        ("Hablamos ^[del sopa](inflect: true)", "Hablamos de la sopa"),
        ("Vamos ^[al cafetería](inflect: true)", "Vamos a la cafetería"),
        ("El precio de ^[la pastel](inflect: true)", "El precio del pastel"),
        ("Pan y ^[infusión](inflect: true)", "Pan e infusión"),
        ("^[2 canción alegre](inflect: true)", "2 canciones alegres"),
        ("^[1.5 pizza](inflect: true)", "1.5 pizzas"),
        ("^[1.0 pizza](inflect: true)", "1.0 pizza"),
        ("^[1 pizzas](inflect: true)", "1 pizza"),
        ("^[2 Ensalada](inflect: true)", "2 Ensaladas"),
        ("^[2 ENSALADA](inflect: true)", "2 ENSALADAS"),
    ])
    func phrasesAgree(markup: String, expected: String) throws {
        #expect(try plain(markup, "es-ES") == expected)
    }

    @Test(arguments: [
        (TermOfAddress.feminine, "¿Estás lista, querida clienta?"),
        (.masculine, "¿Estás listo, querido cliente?"),
        (.unknown, "¿Estás listo, querido cliente?"),
    ])
    func readerAgreement(term: TermOfAddress, expected: String) throws {
        #expect(
            try plain("¿Estás ^[listo](inflect: true), ^[querido cliente](inflect: true)?", "es-MX", term: term)
                == expected
        )
    }

    @Test func conceptsGiveGenderAndPronouns() throws {
        let markup = "^[Él](referentConcept: 1) está ^[ocupado](agreeWithConcept: 1)."
        #expect(
            try inflectPlain(markup, locale: "es-ES", concepts: [.termsOfAddress([.feminine])]).plainText
                == "Ella está ocupada."
        )
        #expect(
            try inflectPlain(markup, locale: "es-ES", concepts: [.termsOfAddress([.masculine])]).plainText
                == "Él está ocupado."
        )
        let phrase = "^[Él](referentConcept: 1) ^[está](agreeWithConcept: 1) ^[listo](agreeWithConcept: 1)."
        #expect(
            try inflectPlain(phrase, locale: "es-ES", concepts: [.localizedPhrase("las tostadas")]).plainText
                == "Ellas están listas."
        )
    }

    @Test func agreeWithANumericArgument() throws {
        let template = "^[%lld %@](inflect: true) ^[está](agreeWithArgument: 1) ^[listo](agreeWithArgument: 2)"
        #expect(
            try GrammarAgreement.inflect(template, arguments: [3, "galleta"], locale: "es-ES").plainText
                == "3 galletas están listas"
        )
    }

    @Test func morphologyOverridesTheGender() throws {
        // An unknown noun in -e reads as masculine; a hint says otherwise.
        #expect(try plain("^[2 fuentecilla hondo](inflect: true)", "es-ES") == "2 fuentecillas hondas")
        #expect(
            try plain("^[2 ^[pirule](morphology: {grammaticalGender: 'feminine'}) rico](inflect: true)", "es-ES")
                == "2 pirules ricas"
        )
    }

    @Test func conjunctionRule() {
        #expect(SpanishGrammar.conjunction("y", before: "hielo") == "y")
        #expect(SpanishGrammar.conjunction("y", before: "higo") == "e")
        #expect(SpanishGrammar.conjunction("o", before: "horchata") == "u")
        #expect(SpanishGrammar.conjunction("o", before: "agua") == "o")
    }

    @Test(arguments: [
        ("agua", true), ("hacha", true), ("área", true), ("ala", true), ("ansia", true), ("alcuza", false),
        ("almeja", false), ("aceituna", false), ("auto", true), ("ensalada", false),
    ])
    func stressedAFromSpelling(noun: String, takesEl: Bool) {
        #expect(SpanishNouns.startsWithStressedA(noun) == takesEl)
    }

    @Test(arguments: [
        ("^[el hachita](inflect: true)", "la hachita"),
        ("^[un tagarnina](inflect: true)", "una tagarnina"),
        ("^[1 escurreplatos](inflect: true)", "1 escurreplatos"),
        ("^[2 escurreplatos](inflect: true)", "2 escurreplatos"),
        ("^[un cocinillas](inflect: true)", "un cocinillas"),
        ("^[2 creación audaz](inflect: true)", "2 creaciones audaces"),
    ])
    func unknownWordsByTheirShape(markup: String, expected: String) throws {
        #expect(try plain(markup, "es-ES") == expected)
    }

    @Test func unknownFeminineNounsStartingWithStressedATakeEl() throws {
        // "hacha" is deliberately not in the lexicon's food lists: the spelling rule decides.
        #expect(try plain("^[el hacha afilado](inflect: true)", "es-ES") == "el hacha afilada")
        #expect(try plain("^[2 hacha afilado](inflect: true)", "es-ES") == "2 hachas afiladas")
    }
}
