// Caffe — GrammarAgreement tests.
import Localization
import RichText
import Testing

@testable import GrammarAgreement

/// Issue 46: the words real menus are made of, and no wrong change. Each rule is pinned by words
/// chosen from dictionaries and grammars, not from the evaluation sets the rules were tuned on.
@Suite("Agreement on real menus")
struct RealMenuTests {
    static func render(
        _ template: String,
        _ arguments: [FormatArgument] = [],
        _ locale: String,
        term: TermOfAddress = .unknown
    ) throws -> (text: String, warnings: [String]) {
        let text = try GrammarAgreement.inflect(template, arguments: arguments, locale: locale, termOfAddress: term)
        return (text.plainText, text.warnings.map { "\($0.code.rawValue):\($0.word ?? "")" })
    }

    static func text(_ template: String, _ arguments: [FormatArgument] = [], _ locale: String) throws -> String {
        try render(template, arguments, locale).text
    }

    // MARK: Word formation

    @Test(arguments: [
        // Portuguese -inho/-inha on the stem, -zinho on the word with its plural on the base's.
        ("pt-BR", "torradinha", "torradinhas", "a"),
        ("pt-BR", "florzinha", "florezinhas", "a"),
        ("pt-BR", "pastelzinho", "pasteizinhos", "o"),
        ("pt-BR", "rosquinha", "rosquinhas", "a"),
        // Italian -ina, -etto, -one on a listed base.
        ("it-IT", "crostatina", "crostatine", "la"),
        ("it-IT", "salsiccetta", "salsiccette", "la"),
    ])
    func diminutivesTakeTheSuffixGenderAndPlural(
        locale: String,
        word: String,
        plural: String,
        article: String
    ) throws {
        let (text, warnings) = try Self.render("^[%lld %@](inflect: true)", [2, .string(word)], locale)
        #expect(text == "2 \(plural)")
        #expect(warnings.contains("inflectedByRule:\(word)"))
        #expect(!warnings.contains { $0.hasPrefix("unknown") })
        let determiner = locale == "pt-BR" ? "o" : "il"
        #expect(try Self.text("^[\(determiner) %@](inflect: true)", [.string(word)], locale) == "\(article) \(word)")
    }

    @Test func germanDiminutivesAreNeuterWithoutAPluralEnding() throws {
        #expect(try Self.text("^[%lld %@](inflect: true)", [2, "Zimtschneckchen"], "de-DE") == "2 Zimtschneckchen")
        #expect(
            try Self.text("Das ist ^[die %@](inflect: true).", ["Zimtschneckchen"], "de-DE")
                == "Das ist das Zimtschneckchen."
        )
    }

    @Test func aWordNoBaseExplainsStaysUnknown() throws {
        // -inha on a stem that is no listed word: not a diminutive, and no vowel rule for -ão.
        let (text, warnings) = try Self.render("^[%lld %@](inflect: true)", [2, "zorglão"], "pt-BR")
        #expect(text == "2 zorglão")
        #expect(warnings == ["unknownWord:zorglão"])
    }

    // MARK: Loans

    @Test(arguments: [
        ("pt-BR", "pancake", "2 pancakes"),
        ("fr-FR", "pancake", "2 pancakes"),
        ("it-IT", "pancake", "2 pancake"),
        ("de-DE", "Pancake", "2 Pancakes"),
        ("de-DE", "Espressino", "2 Espressinos"),
        ("fr-FR", "açaï bowl", "2 açaï bowls"),
    ])
    func loansTakeTheBorrowingLanguagesPlural(locale: String, item: String, expected: String) throws {
        #expect(try Self.text("^[%lld %@](inflect: true)", [2, .string(item)], locale) == expected)
    }

    @Test func aLoansGenderIsNotGuessed() throws {
        // The plural, but the French adjective and German article stay as written.
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true)", [2, "grand", "shortbread"], "fr-FR") == "2 grand shortbreads"
        )
        #expect(try Self.text("^[ein %@](inflect: true)", ["Pancake"], "de-DE") == "ein Pancake")
    }

    // MARK: Articles by spelling and sound

    @Test func frenchHAspireComesFromTheDictionary() throws {
        #expect(try Self.text("^[le %@](inflect: true)", ["hareng"], "fr-FR") == "le hareng")
        #expect(try Self.text("^[un beau %@](inflect: true)", ["hareng"], "fr-FR") == "un beau hareng")
        #expect(try Self.text("Une assiette ^[de %@](inflect: true)", ["hareng"], "fr-FR") == "Une assiette de hareng")
        #expect(try Self.text("^[le %@](inflect: true)", ["huître"], "fr-FR") == "l'huître")
        // A word no lexicon lists elides by its spelling, in the gender its article is written in.
        #expect(try Self.text("^[ce %@](inflect: true)", ["acra"], "fr-FR") == "cet acra")
    }

    @Test func italianArticlesFollowHowNumbersAreRead() throws {
        #expect(try Self.text("^[i %lld %@](inflect: true)", [8, "biscotto"], "it-IT") == "gli 8 biscotti")
        #expect(try Self.text("^[dei %lld %@](inflect: true)", [11, "biscotto"], "it-IT") == "degli 11 biscotti")
        #expect(try Self.text("^[i %lld %@](inflect: true)", [18, "biscotto"], "it-IT") == "i 18 biscotti")
        #expect(try Self.text("^[i %lld %@](inflect: true)", [80, "biscotto"], "it-IT") == "gli 80 biscotti")
        #expect(try Self.text("^[un %@](inflect: true)", ["zabaione"], "it-IT") == "uno zabaione")
    }

    @Test func portugueseContractionsFollowTheGender() throws {
        #expect(
            try Self.text("Tem açúcar ^[nesse %@](inflect: true)?", ["torta"], "pt-BR") == "Tem açúcar nessa torta?"
        )
        #expect(try Self.text("^[do %@](inflect: true)", ["torta"], "pt-BR") == "da torta")
    }

    // MARK: No wrong change

    @Test func aComplementIsNeverTheCountedNoun() throws {
        #expect(try Self.text("^[%lld %@](inflect: true)", [2, "calice di rosso"], "it-IT") == "2 calici di rosso")
        #expect(try Self.text("^[%lld %@](inflect: true)", [2, "ballon de rouge"], "fr-FR") == "2 ballons de rouge")
    }

    @Test func withoutAGenderTheAdjectiveKeepsItsOwn() throws {
        // garapa's dictionary gives no gender: gelado (dictionary form) says nothing, gelada does.
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true)", [2, "boccale", "piccolo"], "it-IT") == "2 boccali piccolo"
        )
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true)", [2, "boccale", "piccola"], "it-IT") == "2 boccali piccole"
        )
    }

    @Test func germanCaseComesFromWhatGovernsIt() throws {
        let (text, warnings) = try Self.render("Heute ^[kein %@](inflect: true) mehr da", ["Kuchen"], "de-DE")
        #expect(text == "Heute kein Kuchen mehr da")
        #expect(warnings == ["unknownCase:Kuchen"])
        #expect(
            try Self.text("Möchten Sie noch ^[ein %@](inflect: true)?", ["Kuchen"], "de-DE")
                == "Möchten Sie noch einen Kuchen?"
        )
        #expect(
            try Self.text("Dazu passt ^[ein %@ %@](inflect: true).", ["warm", "Kuchen"], "de-DE")
                == "Dazu passt ein warmer Kuchen."
        )
        #expect(try Self.text("Frisch ^[von der %@](inflect: true)", ["Grill"], "de-DE") == "Frisch vom Grill")
        #expect(try Self.text("^[Zum %@](inflect: true)", ["Torte"], "de-DE") == "Zur Torte")
    }

    @Test func germanParticiplesAndCompoundAdjectivesDecline() throws {
        #expect(
            try Self.text("Bitte ^[ohne %@ %@](inflect: true)", ["geröstet", "Speck"], "de-DE")
                == "Bitte ohne gerösteten Speck"
        )
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true)", [2, "riesengroß", "Brezel"], "de-DE")
                == "2 riesengroße Brezeln"
        )
    }

    @Test func germanTermOfAddressKeepsAFormAlreadyRight() throws {
        let masculine = try Self.render("Als ^[Neukunde](inflect: true) erhalten Sie", [], "de-DE", term: .masculine)
        #expect(masculine.text == "Als Neukunde erhalten Sie")
        let feminine = try Self.render("Als ^[Neukunde](inflect: true) erhalten Sie", [], "de-DE", term: .feminine)
        #expect(feminine.text == "Als Neukundin erhalten Sie")
        let reader = try Self.render("^[Lieber Teetrinker](inflect: true)", [], "de-DE", term: .feminine)
        #expect(reader.text == "Liebe Teetrinkerin")
        // A menu item is no person, whatever the lexicon pairs it with (Berliner / Berlinerin).
        let item = try Self.render("^[Ein %@](inflect: true) gratis", ["Berliner"], "de-DE", term: .feminine)
        #expect(item.text == "Ein Berliner gratis")
    }

    @Test func numbersThatCountNothing() throws {
        #expect(
            try Self.text("Sie sind ^[unser %lld. Kunde](inflect: true)!", [500], "de-DE")
                == "Sie sind unser 500. Kunde!"
        )
        #expect(
            try Self.text("Share ^[a %lld-inch %@](inflect: true)", [18, "pizza"], "en-US") == "Share an 18-inch pizza"
        )
    }

    // A review of the change, as a native localizer would write these: right text stays right.
    @Test(
        arguments: [
            (
                "de-DE", "Probieren Sie Klassiker ^[wie den %@](inflect: true)", ["Käsekuchen"],
                "Probieren Sie Klassiker wie den Käsekuchen"
            ),
            (
                "de-DE", "Bestellen Sie mehr als ^[einen %@](inflect: true)", ["Kaffee"],
                "Bestellen Sie mehr als einen Kaffee"
            ),
            (
                "de-DE", "Heute empfiehlt ^[unser %@](inflect: true) den Apfelstrudel", ["Küchenchef"],
                "Heute empfiehlt unser Küchenchef den Apfelstrudel"
            ),
            (
                "de-DE", "Viel Freude ^[an Ihrem %@](inflect: true)", ["Kaffeebecher"],
                "Viel Freude an Ihrem Kaffeebecher"
            ),
            (
                "de-DE", "Bitte geben Sie den Bon ^[an der %@](inflect: true) ab", ["Kasse"],
                "Bitte geben Sie den Bon an der Kasse ab"
            ),
            ("de-DE", "Rabatt ^[aufs %@](inflect: true)", ["Frühstück"], "Rabatt aufs Frühstück"),
            ("it-IT", "^[Un %@](inflect: true), grazie!", ["Bellini"], "Un Bellini, grazie!"),
            ("pt-BR", "^[Seu %@](inflect: true) está pronto.", ["Matcha"], "Seu Matcha está pronto."),
            ("fr-FR", "^[le %@](inflect: true)", ["yuzu"], "le yuzu"),
            ("fr-FR", "^[le %@](inflect: true)", ["hot dog"], "le hot dog"),
            ("fr-FR", "^[%lld %@](inflect: true)", [2, "Red Bull"], "2 Red Bull"),
            ("pt-BR", "^[%lld %@](inflect: true)", [2, "pizza pepperoni"], "2 pizzas pepperoni"),
        ] as [(String, String, [FormatArgument], String)]
    )
    func rightTextStaysRight(locale: String, template: String, arguments: [FormatArgument], expected: String) throws {
        #expect(try Self.text(template, arguments, locale) == expected)
    }

    @Test func aSpanishShortFormOnlyBeforeANoun() throws {
        let right = try Self.render("¡Eres ^[bueno](inflect: true) de verdad!", [], "es-ES", term: .masculine)
        #expect(right.text == "¡Eres bueno de verdad!")
        let first = try Self.render("Eres ^[el primer cliente](inflect: true) del día.", [], "es-ES", term: .masculine)
        #expect(first.text == "Eres el primer cliente del día.")
        // a + el contracts inside a span, with or without a conjunction in it.
        #expect(
            try Self.text("Añade nata ^[a la %@](inflect: true)", ["bizcocho"], "es-ES") == "Añade nata al bizcocho"
        )
        #expect(
            try Self.text("Añade nata ^[a la %@ y al café](inflect: true)", ["bizcocho"], "es-ES")
                == "Añade nata al bizcocho y al café"
        )
    }

    @Test func aVeryLongWordIsReadByNoRule() throws {
        let word = String(repeating: "zorgla", count: 2_000)
        #expect(try Self.text("^[%lld %@](inflect: true)", [2, .string(word)], "it-IT") == "2 \(word)")
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true)", [2, .string(String(word.dropLast())), "Brezel"], "de-DE")
                .hasSuffix("Brezeln")
        )
    }
}
