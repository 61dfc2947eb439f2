// Caffe — Localization tests.

import Foundation
import Localization
import Testing

/// Which localizations serve a locale: CLDR parent locales, then the development language.
@Suite("Locale fallback")
struct LocaleFallbackTests {
    typealias Support = RenderingSupport

    /// A catalog folder with one `.strings` table in each of `localizations`.
    static func catalog(_ localizations: [String], _ body: (StringCatalog) throws -> Void) throws {
        var files: [String: String] = [:]
        for localization in localizations {
            files["\(localization).lproj/Localizable.strings"] = Support.stringsFile([
                ("name", "value in \(localization)")
            ])
        }
        try Support.withCatalog(files, body)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var available: [String]
        var locale: String
        var expected: [String]
        var testDescription: String { "\(locale) with \(available) → \(expected)" }
    }

    static let cases: [Case] = [
        Case(available: ["en", "es", "es-419"], locale: "es-MX", expected: ["es-419", "es", "en"]),
        Case(available: ["en", "es", "es-419"], locale: "es-ES", expected: ["es", "en"]),
        Case(available: ["en", "es", "es-419"], locale: "es", expected: ["es", "en"]),
        Case(available: ["en", "es", "es-419"], locale: "es-419", expected: ["es-419", "es", "en"]),
        Case(available: ["en", "en-GB"], locale: "en-IN", expected: ["en-GB", "en"]),
        Case(available: ["en", "en-GB"], locale: "en-US", expected: ["en"]),
        Case(available: ["en", "pt", "pt-BR"], locale: "pt-PT", expected: ["pt", "en"]),
        Case(available: ["en", "pt-BR", "pt-PT"], locale: "pt-PT", expected: ["pt-PT", "pt-BR", "en"]),
        Case(available: ["en", "pt-BR"], locale: "pt", expected: ["pt-BR", "en"]),
        Case(
            available: ["en", "zh-Hans", "zh-Hant", "zh-HK"],
            locale: "zh-Hant-HK",
            expected: ["zh-HK", "zh-Hant", "en"]
        ),
        Case(available: ["en", "zh-Hans", "zh-Hant"], locale: "zh-TW", expected: ["zh-Hant", "en"]),
        Case(available: ["en", "zh-Hans", "zh-Hant"], locale: "zh-CN", expected: ["zh-Hans", "en"]),
        Case(available: ["en", "es"], locale: "fr-CA", expected: ["en"]),
    ]

    @Test(arguments: cases)
    func chain(_ testCase: Case) throws {
        try Self.catalog(testCase.available) { catalog in
            #expect(catalog.fallbackChain(for: testCase.locale) == testCase.expected)
        }
        // The matcher on its own gives the same chain.
        let matcher = LocalizationMatcher(available: testCase.available, developmentLanguage: "en")
        #expect(matcher.localizations(for: testCase.locale) == testCase.expected)
    }

    @Test func traditionalChineseNeverFallsToSimplified() throws {
        let matcher = LocalizationMatcher(available: ["en", "zh-Hans", "zh-Hant", "zh-HK"], developmentLanguage: "en")
        for locale in ["zh-Hant-HK", "zh-HK", "zh-Hant-MO", "zh-MO", "zh-Hant", "zh-TW"] {
            #expect(!matcher.localizations(for: locale).contains("zh-Hans"), "\(locale)")
        }
        #expect(matcher.localizations(for: "zh-HK").first == "zh-HK")
    }

    @Test func ancestry() {
        #expect(LocalizationMatcher.ancestry(of: "es-MX") == ["es-MX", "es-419", "es"])
        #expect(LocalizationMatcher.ancestry(of: "en-IN") == ["en-IN", "en-GB", "en-001", "en"])
    }

    @Test func developmentLanguageComesLastAndOnce() {
        let matcher = LocalizationMatcher(available: ["de", "en"], developmentLanguage: "de")
        #expect(matcher.localizations(for: "de-AT") == ["de"])
        #expect(matcher.localizations(for: "en-GB") == ["en", "de"])
    }

    @Test func configCatalogChains() {
        let catalog = Support.configCatalog
        #expect(catalog.developmentLanguage == "en")
        #expect(catalog.fallbackChain(for: "es-MX") == ["es-419", "es", "en"])
        #expect(catalog.fallbackChain(for: "es-ES") == ["es", "en"])
        #expect(catalog.fallbackChain(for: "ar-EG") == ["ar", "en"])
        #expect(catalog.fallbackChain(for: "fr-CA") == ["fr", "en"])
        #expect(catalog.fallbackChain(for: "sv") == ["en"])
    }

    // MARK: An unknown locale

    @Test(arguments: ["sv-SE", "zxx", "xx-YY"])
    func unservedLocaleUsesTheDevelopmentLanguageAndSaysSo(locale: String) throws {
        let localizer = try Support.config(locale)
        #expect(localizer.localizations == ["en"])
        let note = try #require(localizer.fallbackNote)
        #expect(note.contains(locale))
        #expect(try localizer.string("juice", table: "Menu").text == "juice")
        #expect(try localizer.string("%lld items", arguments: [2]).text == "2 items")
    }

    @Test(arguments: ["en", "en-US", "es-MX", "es", "ar", "ar-EG"])
    func servedLocaleHasNoNote(locale: String) throws {
        #expect(try Support.config(locale).fallbackNote == nil)
    }

    // MARK: Key-by-key fallback in config/Localizations

    @Test(arguments: [
        ("es-MX", "juice", "jugo", "es-419"),
        ("es-MX", "salad", "ensalada", "es"),
        ("es-419", "juice", "jugo", "es-419"),
        ("es-ES", "juice", "zumo", "es"),
        ("es", "juice", "zumo", "es"),
        ("es-MX", "cafe_au_lait", "café con leche", "es"),
        ("en-GB", "juice", "juice", "en"),
        ("ar-EG", "juice", "عصير", "ar"),
        ("en", "store_name", "Caffé", "en"),
    ])
    func menuKeyByKey(locale: String, key: String, expected: String, localization: String) throws {
        let rendered = try Support.config(locale).string(key, table: "Menu")
        #expect(rendered.text == expected)
        #expect(rendered.localization == localization)
        #expect(!rendered.isMissing)
    }

    @Test func stringCatalogKeyByKey() throws {
        let mexico = try Support.config("es-MX")
        #expect(try mexico.string("Order #%@", arguments: ["42"]).text == "Orden n.º 42")
        #expect(
            try mexico.string("Your order will be ready at %@", arguments: ["9:30"]).text
                == "Hora de recogida de tu orden: 9:30"
        )
        #expect(try mexico.string("Tip").text == "Propina")
        let spain = try Support.config("es-ES")
        #expect(try spain.string("Order #%@", arguments: ["42"]).text == "Pedido n.º 42")
    }
}
