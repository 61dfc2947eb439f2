// Caffe — GrammarAgreement tests.
import Foundation
import Localization
import RichText
import Testing

@testable import GrammarAgreement

/// Issue 27: agreement that never corrupts a customer's text — unknown words left as written,
/// multi-word items, German case after prepositions, conjunctions, declared terms, the preflight.
@Suite("Issue 27: never worse than the input")
struct IssueTwentySevenTests {
    /// The template rendered with `arguments`, and the warnings' codes and words.
    static func render(
        _ template: String,
        _ arguments: [FormatArgument],
        _ locale: String,
        term: TermOfAddress = .unknown
    )
        throws -> (text: String, warnings: [String])
    {
        let text = try GrammarAgreement.inflect(template, arguments: arguments, locale: locale, termOfAddress: term)
        return (text.plainText, text.warnings.map { "\($0.code.rawValue):\($0.word ?? "")" })
    }

    static func text(_ template: String, _ arguments: [FormatArgument], _ locale: String) throws -> String {
        try render(template, arguments, locale).text
    }

    // MARK: Unknown words

    // Words no lexicon lists and no rule reads: French -al (chevaux, bals), Italian -co (amici,
    // fuochi), a Portuguese or German consonant ending that is no English noun.
    @Test(arguments: [
        ("fr-FR", "^[%lld %@ %@](inflect: true)", [2, "grand", "zorgal"] as [FormatArgument], "2 grand zorgal"),
        ("de-DE", "^[%lld %@ %@](inflect: true)", [2, "groß", "Zorglub"], "2 groß Zorglub"),
        ("it-IT", "^[%lld %@ %@](inflect: true)", [2, "zorglico", "piccolo"], "2 zorglico piccolo"),
        ("pt-BR", "^[%lld %@ %@](inflect: true)", [2, "zorglub", "pequeno"], "2 zorglub pequeno"),
    ])
    func unknownWordsStayAsWrittenAndAreReported(
        locale: String,
        template: String,
        arguments: [FormatArgument],
        expected: String
    ) throws {
        let (text, warnings) = try Self.render(template, arguments, locale)
        #expect(text == expected)
        #expect(warnings.contains { $0.hasPrefix("unknownWord:") && $0.lowercased().hasPrefix("unknownword:zorg") })
    }

    // A menu item no lexicon lists whose plural the language's rules give takes it, reported as a
    // rule word; the words whose form depends on its unknown gender stay as written.
    @Test(arguments: [
        ("fr-FR", [2, "grand", "zorglub"] as [FormatArgument], "2 grand zorglubs"),
        ("it-IT", [2, "piccolo", "zorglata"], "2 piccolo zorglate"),
        ("pt-BR", [2, "pequeno", "zorgla"], "2 pequenas zorglas"),
    ])
    func unknownWordsTheRulesReadAreInflectedAndReported(
        locale: String,
        arguments: [FormatArgument],
        expected: String
    ) throws {
        let (text, warnings) = try Self.render("^[%lld %@ %@](inflect: true)", arguments, locale)
        #expect(text == expected)
        #expect(warnings.contains { $0.hasPrefix("inflectedByRule:") })
        #expect(!warnings.contains { $0.hasPrefix("unknownWord:") })
    }

    /// The issue's non-words, now real words (or the input as written).
    @Test(arguments: [
        ("fr-FR", [1, "bouteille d'eau"] as [FormatArgument], "1 bouteille d'eau"),
        ("fr-FR", [2, "bouteille d'eau"], "2 bouteilles d'eau"),
        ("fr-FR", [2, "verre d'eau"], "2 verres d'eau"),
        ("fr-FR", [2, "thé gourmand"], "2 thés gourmands"),
        ("fr-FR", [2, "croque-monsieur"], "2 croque-monsieur"),
        ("de-DE", [2, "stilles Wasser"], "2 stille Wasser"),
        ("de-DE", [2, "Tonic"], "2 Tonics"),
        ("de-DE", [2, "Grog"], "2 Grogs"),
        ("de-DE", [2, "Flat White"], "2 Flat Whites"),
        ("it-IT", [2, "acqua tonica"], "2 acque toniche"),
        ("it-IT", [2, "mojito"], "2 mojito"),
        ("it-IT", [2, "brownie"], "2 brownie"),
        ("pt-BR", [2, "vinho quente"], "2 vinhos quentes"),
        ("pt-BR", [2, "bem-casado"], "2 bem-casados"),
        ("pt-BR", [2, "pão sírio"], "2 pães sírios"),
        ("pt-BR", [2, "coração de frango"], "2 corações de frango"),
        ("es-ES", [2, "flat white"], "2 flat whites"),
    ])
    func menuItemsOfSeveralWordsInflectTheirHead(locale: String, arguments: [FormatArgument], expected: String) throws {
        #expect(try Self.text("^[%lld %@](inflect: true)", arguments, locale) == expected)
    }

    @Test func sizesAndGenderComeFromTheLexiconNotTheEnding() throws {
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true)", [2, "grand", "margarita"], "fr-FR") == "2 grandes margaritas"
        )
        #expect(try Self.text("^[%lld %@ %@](inflect: true)", [2, "dose", "pequeno"], "pt-BR") == "2 doses pequenas")
        #expect(try Self.text("^[%lld %@ %@](inflect: true)", [2, "grand", "latte"], "fr-FR") == "2 grands lattes")
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true)", [2, "jambon-beurre", "moyen"], "fr-FR")
                == "2 jambons-beurre moyens"
        )
    }

    @Test func anAdjectiveGivenApartDescribesTheItemNotItsComplement() throws {
        // "vegano" is an argument of its own: it describes the torta, not the cioccolato.
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true)", [5, "torta al cioccolato", "vegano"], "it-IT")
                == "5 torte al cioccolato vegane"
        )
        // Written inside the item, it stays with the noun it follows (vin rouge).
        #expect(
            try Self.text("^[%lld %@](inflect: true)", [2, "verre de vin rouge"], "fr-FR") == "2 verres de vin rouge"
        )
        // A form only the head can take belongs to the head (jus d'orange pressé).
        #expect(
            try Self.text("^[%lld %@](inflect: true)", [2, "jus d'orange pressé"], "fr-FR") == "2 jus d'orange pressés"
        )
    }

    // MARK: German case after prepositions

    @Test(arguments: [
        ("Kaffee ^[mit %lld %@](inflect: true)", [2, "Keks"] as [FormatArgument], "Kaffee mit 2 Keksen"),
        ("Tee ^[ohne %@](inflect: true)", ["Zucker"], "Tee ohne Zucker"),
        ("Tisch ^[für %lld %@](inflect: true)", [2, "Person"], "Tisch für 2 Personen"),
        ("Menü ^[mit ein %@](inflect: true)", ["Salat"], "Menü mit einem Salat"),
        ("Menü ^[mit ein %@ %@](inflect: true)", ["groß", "Salat"], "Menü mit einem großen Salat"),
        ("Gutschein ^[für ein %@](inflect: true)", ["Zimtschnecke"], "Gutschein für eine Zimtschnecke"),
        ("Kuchen ^[mit %lld %@](inflect: true)", [2, "Cookie"], "Kuchen mit 2 Cookies"),
        ("Bestellung ^[aus dem %@](inflect: true)", ["Café"], "Bestellung aus dem Café"),
    ])
    func prepositionsInTheSpanGovernItsCase(template: String, arguments: [FormatArgument], expected: String) throws {
        #expect(try Self.text(template, arguments, "de-DE") == expected)
    }

    @Test func aTwoWayPrepositionTakesTheCaseAHintStates() throws {
        // A verb of putting asks for the accusative (where to); with a hint, the case it states;
        // with neither, the case the words are written in, or they stay as written.
        #expect(
            try Self.text("Stell es ^[auf ein %@](inflect: true)", ["Tablett"], "de-DE") == "Stell es auf ein Tablett"
        )
        #expect(
            try Self.text(
                "Stell es ^[auf ein %@](inflect: true, morphology: {grammaticalCase: 'dative'})",
                ["Tablett"],
                "de-DE"
            ) == "Stell es auf einem Tablett"
        )
        #expect(
            try Self.text("Serviert ^[auf dem %@](inflect: true)", ["Platte"], "de-DE") == "Serviert auf der Platte"
        )
        #expect(try Self.text("Lust ^[auf ein %@](inflect: true)?", ["Kaffee"], "de-DE") == "Lust auf einen Kaffee?")
        #expect(
            try Self.render("Kuchen ^[auf ein %@](inflect: true)", ["Teller"], "de-DE").warnings == [
                "unknownCase:Teller"
            ]
        )
        #expect(
            try Self.text(
                "Stell es ^[auf ein %@](inflect: true, morphology: {grammaticalCase: 'accusative'})",
                ["Tablett"],
                "de-DE"
            ) == "Stell es auf ein Tablett"
        )
    }

    // MARK: Conjunctions

    @Test(arguments: [
        (
            "en-US", "^[%lld %@ and %@](inflect: true)", [2, "bagel", "coffee"] as [FormatArgument],
            "2 bagels and coffee"
        ),
        (
            "es-ES", "^[%lld %@ y %@](inflect: true)", [5, "churro", "chocolate caliente"],
            "5 churros y chocolate caliente"
        ),
        ("fr-FR", "^[%lld %@ et %@](inflect: true)", [2, "croissant", "café"], "2 croissants et café"),
        ("de-DE", "^[%lld %@ und %@](inflect: true)", [2, "Brezel", "Kaffee"], "2 Brezeln und Kaffee"),
        ("it-IT", "^[%lld %@ e %@](inflect: true)", [2, "cornetto", "cappuccino"], "2 cornetti e cappuccino"),
        ("pt-BR", "^[%lld %@ e %@](inflect: true)", [2, "pão de queijo", "café"], "2 pães de queijo e café"),
        ("de-DE", "^[%lld %@ und %lld %@](inflect: true)", [2, "Espresso", 1, "Waffel"], "2 Espressos und 1 Waffel"),
    ])
    func theNumberAgreesWithTheNounItCounts(
        locale: String,
        template: String,
        arguments: [FormatArgument],
        expected: String
    ) throws {
        #expect(try Self.text(template, arguments, locale) == expected)
    }

    @Test func aConjunctionInsideAnItemsNameIsPartOfTheName() throws {
        #expect(
            try Self.text("^[%lld %@](inflect: true)", [5, "tramezzino tonno e pomodoro"], "it-IT")
                == "5 tramezzini tonno e pomodoro"
        )
    }

    // MARK: Declared terms

    @Test func aDeclaredTermIsUsedBeforeTheLexicon() throws {
        let term = DeclaredTerm(text: "Zorglub", gender: .feminine, plural: "Zorgluben")
        let engine = try AgreementEngine(locale: "de-DE", declaring: [term])
        let formatter = try Localizer(catalog: .empty(), locale: "de-DE")
        let template = try AgreementTemplate("^[%lld %@ %@](inflect: true) hinzufügen")
        let text = try template.render([2, "groß", "Zorglub"], engine: engine, formatter: formatter)
        #expect(text.plainText == "2 große Zorgluben hinzufügen")
        let one = try template.render([1, "groß", "Zorglub"], engine: engine, formatter: formatter)
        #expect(one.plainText == "1 große Zorglub hinzufügen")
        // The shared engine does not know it.
        #expect(
            try Self.text("^[%lld %@ %@](inflect: true) hinzufügen", [2, "groß", "Zorglub"], "de-DE")
                == "2 groß Zorglub hinzufügen"
        )
    }

    static let configuration = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config")

    @Test func theSampleCatalogDeclaresACortadito() throws {
        let catalog = try StringCatalog(directory: Self.configuration.appendingPathComponent("Localizations"))
        let german = DeclaredTerm.declared(in: catalog, table: "Menu", localization: "de")
        let cortadito = try #require(german.first { $0.key == "cortadito" })
        #expect(cortadito.text == "Cortadito")
        #expect(cortadito.gender == .masculine)
        #expect(cortadito.plural == "Cortaditos")
        let italian = try #require(DeclaredTerm.declared(in: catalog, table: "Menu", localization: "it").first)
        #expect(italian.plural == "cortadito")
        // A name without morphology or plural variations declares nothing.
        #expect(!german.contains { $0.key == "coffee" })
        let value = try #require(catalog.entry("cortadito", table: "Menu", localization: "fr")?.value)
        #expect(displayedName(value) == "cortadito")
    }

    // MARK: The preflight

    @Test func thePreflightPassesTheSampleCatalogAndNamesAnUnknownItem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.configuration.appendingPathComponent("Localizations"), to: folder)
        let uses = [
            AgreementPreflight.Use(key: "%lld %@ %@", arguments: [1: ["small", "large"], 2: ["coffee", "zorgal"]])
        ]
        let clean = AgreementPreflight(catalog: try StringCatalog(directory: folder), uses: uses).run()
        #expect(clean.unknown == 0 && clean.ambiguous == 0)
        #expect(clean.withoutRules == ["ar", "ja"])
        let french = try FileHandle(forWritingTo: folder.appendingPathComponent("fr.lproj/Menu.strings"))
        try french.seekToEnd()
        try french.write(contentsOf: Data("\"zorgal\" = \"zorgal\";\n".utf8))
        try french.close()
        let report = AgreementPreflight(catalog: try StringCatalog(directory: folder), uses: uses).run()
        #expect(report.unknown == 1)
        let locale = try #require(report.locales.first { $0.locale == "fr" })
        let word = try #require(locale.words.first { $0.treatment == .unknown })
        #expect(word.word == "zorgal")
        #expect(word.from == ["Menu/zorgal"])
    }

    // MARK: The lexicon format

    @Test func genderColumnsAndCaseFormsAreRead() throws {
        let text = """
            Cookie\tnoun\tnm\tpl=Cookies
            Kunde\tnoun\tm\tpl=Kunden;obl=Kunden
            Keks\tnoun\tm\tpl=Kekse
            Panini\tnoun\tn\tpl=Panini;dpl=Panini
            bombolone\tnoun\t?
            """
        let lexicon = try Lexicon(parsing: text, source: "t.tsv", hasGenderColumn: true)
        #expect(lexicon.entry("cookie")?.gender == .neuter)
        #expect(lexicon.entry("cookie")?.alternativeGenders == [.masculine])
        #expect(lexicon.entry("bombolone")?.gender == nil)
        #expect(lexicon.entry("bombolone")?.canBeNoun == true)
        #expect(lexicon.entry(forInflectedForm: "kunden")?.entry.lemma == "Kunde")
        let nouns = GermanNouns(lexicon: lexicon)
        #expect(nouns.reading(of: "keks")?.form(plural: true, case: .dative) == "keksen")
        #expect(nouns.reading(of: "panini")?.form(plural: true, case: .dative) == "panini")
        #expect(nouns.reading(of: "kunde")?.form(plural: false, case: .accusative) == "kunden")
        #expect(nouns.reading(of: "zorglub") == nil)
    }

    @Test func aHandWrittenEntryWinsAndTheDictionaryAddsWhatItLacks() throws {
        let handWritten = "frappé\tnoun\tm\n"
        let dictionary = "frappé\tadjective\t-\nfrappé\tnoun\tf\n".split(separator: "\n").dropLast().joined(
            separator: "\n"
        )
        let lexicon = try Lexicon(
            files: [(handWritten, "fr.tsv"), (dictionary + "\n", "fr.dictionary.tsv")],
            hasGenderColumn: true
        )
        let entry = try #require(lexicon.entry("frappé"))
        #expect(entry.partsOfSpeech == [.noun, .adjective])
        #expect(entry.gender == .masculine)
        #expect(entry.isCompiled == false)
        #expect(throws: LexiconError.self) {
            try Lexicon(files: [("a\tnoun\tm\na\tnoun\tf\n", "x.tsv")], hasGenderColumn: true)
        }
    }
}
