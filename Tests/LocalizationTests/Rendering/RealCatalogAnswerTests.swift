// Caffe — Localization tests.
import Foundation
import Localization
import Testing

/// Issue 21: what running real Apple catalogs found wrong, each on a fixture of the same shape.
@Suite("Issue 21: real catalogs, real answers")
struct RealCatalogAnswerTests {
    typealias Support = RenderingSupport

    // MARK: 1. A whole-string plural is chosen by the source's numeric argument

    static let matchesKey = "Found %lld matches in “%@.”"

    /// Czech reorders the arguments and spells out "one"; Japanese has a `zero` form and only
    /// `other`; Turkish spells out "bir".
    static func matchesCatalog() throws -> String {
        try Support.xcstrings([
            matchesKey: [
                "localizations": [
                    "en": Support.plural(["one": "Found %lld match in “%@.”", "other": "Found %lld matches in “%@.”"]),
                    "cs": Support.plural([
                        "one": "V „%2$@“ nalezena jedna shoda.",
                        "few": "V „%2$@“ nalezeny %1$lld shody.",
                        "many": "V „%2$@“ nalezeno %1$lld shody.",
                        "other": "V „%2$@“ nalezeno %1$lld shod.",
                    ]),
                    "ja": Support.plural(["zero": "「%2$@」に一致する項目はありません。", "other": "「%2$@」で%1$lld件見つかりました。"]),
                    "tr": Support.plural([
                        "one": "“%2$@” içinde bir eşleşme bulundu.", "other": "“%2$@” içinde %1$lld eşleşme bulundu.",
                    ]),
                ]
            ]
        ])
    }

    @Test(arguments: [
        ("cs", FormatArgument.integer(1), "doc", "V „doc“ nalezena jedna shoda."),
        ("cs", 1, "2", "V „2“ nalezena jedna shoda."),
        ("cs", 3, "doc", "V „doc“ nalezeny 3 shody."),
        ("cs", 5, "3", "V „3“ nalezeno 5 shod."),
        ("cs", 22, "1", "V „1“ nalezeno 22 shod."),
        ("ja", 0, "doc", "「doc」に一致する項目はありません。"),
        ("ja", 1, "0", "「0」で1件見つかりました。"),
        ("tr", 1, "doc", "“doc” içinde bir eşleşme bulundu."),
        ("tr", 2, "1", "“1” içinde 2 eşleşme bulundu."),
        ("en", 1, "22", "Found 1 match in “22.”"),
    ])
    func wholeStringPluralFollowsTheSourcesNumericArgument(
        locale: String,
        count: FormatArgument,
        file: String,
        expected: String
    ) throws {
        try Support.withCatalog(["Localizable.xcstrings": try Self.matchesCatalog()]) { catalog in
            #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
            let localizer = try Localizer(catalog: catalog, locale: locale)
            #expect(try localizer.string(Self.matchesKey, arguments: [count, .string(file)]).text == expected)
        }
    }

    @Test func theSourceMayPutTheNumberSecondAndHaveNoValueOfItsOwn() throws {
        // No `en` entry: the key is the source text, and its number is argument 2.
        let key = "In “%@” found %lld matches"
        let file = try Support.xcstrings([
            key: [
                "localizations": [
                    "cs": Support.plural([
                        "one": "Nalezena jedna shoda v „%1$@“.",
                        "few": "Nalezeny %2$lld shody v „%1$@“.",
                        "other": "Nalezeno %2$lld shod v „%1$@“.",
                    ])
                ]
            ]
        ])
        try Support.withCatalog(["Localizable.xcstrings": file]) { catalog in
            let czech = try Localizer(catalog: catalog, locale: "cs")
            #expect(try czech.string(key, arguments: ["21", 1]).text == "Nalezena jedna shoda v „21“.")
            #expect(try czech.string(key, arguments: ["1", 4]).text == "Nalezeny 4 shody v „1“.")
        }
    }

    @Test func aSourceWithoutOneNumericArgumentIsReported() throws {
        let file = try Support.xcstrings([
            "%lld of %lld": [
                "localizations": ["en": Support.plural(["one": "%lld of %lld", "other": "%lld of %lld"])]
            ],
            "%@ files": ["localizations": ["en": Support.plural(["one": "%@ file", "other": "%@ files"])]],
        ])
        try Support.withCatalog(["Localizable.xcstrings": file]) { catalog in
            let findings = catalog.diagnostics.filter { $0.code == .ambiguousPluralArgument }
            #expect(findings.map(\.key) == ["%@ files", "%lld of %lld"])
            #expect(findings.allSatisfy { $0.severity == .warning })
            #expect(findings[0].message.hasPrefix("the source has no numeric argument"))
            #expect(findings[1].message.contains("argument 1 chooses the plural variants"))
            let english = try Localizer(catalog: catalog, locale: "en")
            #expect(try english.string("%@ files", arguments: [1]).text == "1 file")
        }
    }

    // MARK: 2. Text in another language takes that language's plural rules

    static let loopsCatalog: [String: String] = [
        "en.lproj/Localizable.stringsdict": Support.plist(
            """
            <dict>
              <key>%lld Loops left</key>
              <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@loops@</string>
                <key>loops</key>
                <dict>
                  <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                  <key>NSStringFormatValueTypeKey</key><string>lld</string>
                  <key>one</key><string>%lld Loop left</string>
                  <key>other</key><string>%lld Loops left</string>
                </dict>
              </dict>
              <key>%lld matches in %lld files</key>
              <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@matches@ in %#@files@</string>
                <key>matches</key>
                <dict>
                  <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                  <key>NSStringFormatValueTypeKey</key><string>lld</string>
                  <key>one</key><string>%lld match</string>
                  <key>other</key><string>%lld matches</string>
                </dict>
                <key>files</key>
                <dict>
                  <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                  <key>NSStringFormatValueTypeKey</key><string>lld</string>
                  <key>one</key><string>%lld file</string>
                  <key>other</key><string>%lld files</string>
                </dict>
              </dict>
            </dict>
            """
        ),
        "uk.lproj/Localizable.strings": Support.stringsFile([("Cancel", "Скасувати")]),
    ]

    @Test func englishFallbackTextTakesEnglishPluralRules() throws {
        try Support.withCatalog(Self.loopsCatalog) { catalog in
            let ukrainian = try Localizer(catalog: catalog, locale: "uk")
            #expect(try ukrainian.string("%lld Loops left", arguments: [21]).text == "21 Loops left")
            #expect(try ukrainian.string("%lld Loops left", arguments: [1]).text == "1 Loop left")
            #expect(
                try ukrainian.string("%lld matches in %lld files", arguments: [5, 21]).text == "5 matches in 21 files"
            )
            // Numbers are still the customer's, and the rules of the locale itself are unchanged.
            #expect(ukrainian.pluralRules.category(for: 21) == .one)
            #expect(ukrainian.pluralRules(forLocalization: "en").category(for: 21) == .other)
            #expect(ukrainian.pluralRules(forLocalization: "uk").category(for: 21) == .one)
        }
    }

    // MARK: 6. The development language comes from the catalog

    @Test func aSingleLocalizationIsTheDevelopmentLanguage() throws {
        try Support.withCatalog(["ar.lproj/Localizable.strings": Support.stringsFile([("Hello", "مرحبا")])]) {
            catalog in
            #expect(catalog.developmentLanguage == "ar")
            #expect(catalog.developmentLanguageOrigin == .onlyLocalization)
            let english = try Localizer(catalog: catalog, locale: "en")
            #expect(try english.string("Hello").text == "مرحبا")
            #expect(
                english.fallbackNote
                    == "no localization serves 'en'; using the development language 'ar' (the catalog's only localization)"
            )
        }
    }

    @Test func severalLocalizationsWithoutASourceAreReported() throws {
        let files = [
            "ar.lproj/Localizable.strings": Support.stringsFile([("Hello", "مرحبا")]),
            "he.lproj/Localizable.strings": Support.stringsFile([("Hello", "שלום")]),
        ]
        try Support.withCatalog(files) { catalog in
            #expect(catalog.developmentLanguageOrigin == .unknown)
            #expect(catalog.diagnostics.map(\.code) == [.unknownDevelopmentLanguage])
            let english = try Localizer(catalog: catalog, locale: "en")
            #expect(try english.string("Hello").text == "Hello")
            #expect(english.fallbackNote?.hasSuffix("keys are shown as written") == true)
        }
        try Support.withFolder(files) { folder in
            let configured = try StringCatalog(directory: folder, developmentLanguage: "he")
            #expect(configured.developmentLanguageOrigin == .configured)
            #expect(configured.diagnostics.isEmpty)
            #expect(try Localizer(catalog: configured, locale: "en").string("Hello").text == "שלום")
        }
    }

    @Test func aStringCatalogsSourceLanguageWins() throws {
        let file = try Support.xcstrings(["Hi": ["localizations": ["ar": Support.unit("مرحبا")]]], sourceLanguage: "de")
        try Support.withCatalog(["Localizable.xcstrings": file]) { catalog in
            #expect(catalog.developmentLanguage == "de")
            #expect(catalog.developmentLanguageOrigin == .stringCatalog)
        }
    }

    // MARK: 7. Norwegian: `no` is Apple's alias of `nb`

    static let norwegian = [
        "en.lproj/Localizable.strings": Support.stringsFile([("Hello", "Hello")]),
        "nb.lproj/Localizable.strings": Support.stringsFile([("Hello", "Hei")]),
        "nb-NO.lproj/Localizable.strings": Support.stringsFile([("Hello", "Hei fra Norge")]),
    ]

    @Test(arguments: [
        ("no", "Hei", "nb"), ("no-NO", "Hei fra Norge", "nb-NO"), ("no_NO", "Hei fra Norge", "nb-NO"),
        ("nb", "Hei", "nb"), ("nob", "Hei", "nb"), ("no-bok", "Hei", "nb"), ("nn", "Hei", "nb"), ("en", "Hello", "en"),
    ])
    func norwegianLocalesFindBokmål(locale: String, expected: String, localization: String) throws {
        try Support.withCatalog(Self.norwegian) { catalog in
            let localizer = try Localizer(catalog: catalog, locale: locale)
            let rendered = try localizer.string("Hello")
            #expect(rendered.text == expected)
            #expect(rendered.localization == localization)
            #expect(localizer.fallbackNote == nil)
        }
    }

    @Test func aNoFolderServesBokmålCustomers() throws {
        try Support.withCatalog(["no.lproj/Localizable.strings": Support.stringsFile([("Hello", "Hei")])]) { catalog in
            let rendered = try Localizer(catalog: catalog, locale: "nb-NO").string("Hello")
            #expect(rendered.localization == "no")
        }
        #expect(LocalizationMatcher.canonical("no-NO") == "nb-NO")
        #expect(LocalizationMatcher.canonical("no_nyn") == "nn")
        #expect(LocalizationMatcher.canonical("nor") == "nb")
        #expect(LocalizationMatcher.canonical("nl-NL") == "nl-NL")
    }
}

/// Issue 21, item 5: a String Catalog that cannot be read whole is an error with a position, and
/// the keys before the damage still load.
@Suite("Issue 21: damaged String Catalogs")
struct DamagedStringCatalogTests {
    typealias Support = RenderingSupport

    static func catalogText() throws -> String {
        try Support.xcstrings([
            "a": ["localizations": ["de": Support.unit("A de")]],
            "b": ["localizations": ["de": Support.unit("B de")]],
            "c": ["localizations": ["de": Support.unit("C de")]],
        ])
    }

    @Test func aTruncatedFileKeepsTheKeysBeforeTheCut() throws {
        let text = try Self.catalogText()
        let cut = String(text[..<(try #require(text.range(of: "C de"))).lowerBound])
        try Support.withCatalog(["Localizable.xcstrings": cut]) { (catalog: StringCatalog) throws in
            let error = try #require(catalog.diagnostics.first)
            #expect(catalog.diagnostics.count == 1)
            #expect(error.severity == .error)
            #expect(error.code == .syntaxError)
            #expect(error.file == "Localizable.xcstrings")
            let lines = cut.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(error.location == SourceLocation(line: lines.count, column: (lines.last?.count ?? 0) + 1))
            #expect(
                error.message
                    == "not valid JSON: Unexpected end of file during JSON parse; the 2 keys before it are loaded, the rest is not"
            )
            let german = try Localizer(catalog: catalog, locale: "de")
            #expect(try german.string("b").text == "B de")
            #expect(try german.string("c").isMissing)
            #expect(catalog.developmentLanguage == "en")
        }
    }

    @Test func aSyntaxErrorInTheMiddleKeepsTheKeysBeforeIt() throws {
        let text = try Self.catalogText()
        let broken = text.replacingOccurrences(of: #""b" : {"#, with: #""b" : { oops"#)
        #expect(broken != text)
        try Support.withCatalog(["Localizable.xcstrings": broken]) { (catalog: StringCatalog) throws in
            #expect(catalog.diagnostics.map(\.code) == [.syntaxError])
            #expect(
                catalog.diagnostics.first?.message.hasSuffix("the 1 key before it is loaded, the rest is not") == true
            )
            #expect(try Localizer(catalog: catalog, locale: "de").string("a").text == "A de")
        }
    }
}
