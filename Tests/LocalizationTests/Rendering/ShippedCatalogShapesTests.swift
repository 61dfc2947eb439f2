// Caffe — Localization tests.

import Foundation
import Localization
import Testing

/// Catalog shapes real apps ship that Caffe misread (issue 31, items 5 and 7), each on a fixture
/// of the same shape, with the behaviour of Apple's Foundation it follows.
@Suite("Catalog shapes apps ship")
struct ShippedCatalogShapesTests {
    typealias Support = RenderingSupport
    typealias Finding = CatalogLinterTests.Finding

    // MARK: Item 5: a table outside any .lproj folder

    /// Bundle searches global resources before any `.lproj` folder (Bundle Programming Guide, "The
    /// Bundle Search Pattern"), so a non-localized table serves every locale; its text is taken as
    /// written in the development language.
    @Test func aTableOutsideAnyLprojServesEveryLocale() throws {
        let files = [
            "Localizable.strings": Support.stringsFile([("Welcome", "Welcome to the café"), ("%d cups", "%d cups")])
        ]
        try Support.withFolder(files) { folder throws in
            let guessed = try StringCatalog(directory: folder)
            #expect(guessed.diagnostics.map(\.code) == [.unknownDevelopmentLanguage])
            let catalog = try StringCatalog(directory: folder, developmentLanguage: "en")
            #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
            #expect(catalog.localizations.isEmpty)
            #expect(catalog.tableNames == ["Localizable"])
            for locale in ["en", "fr", "ja"] {
                let localizer = try Localizer(catalog: catalog, locale: locale)
                #expect(localizer.fallbackNote == nil)
                let welcome = try localizer.string("Welcome")
                #expect(welcome.text == "Welcome to the café" && welcome.localization == "en")
                #expect(try localizer.string("%d cups", arguments: [3]).text == "3 cups")
            }
            let single = try StringCatalog(
                file: folder.appendingPathComponent("Localizable.strings"),
                developmentLanguage: "en"
            )
            #expect(try Localizer(catalog: single, locale: "de").string("Welcome").text == "Welcome to the café")
            #expect(CatalogLinter(catalog: single).lint().findings.isEmpty)
        }
    }

    /// A global file hides the `.lproj` copies of the same file (no per-key fallback: CFBundle
    /// picks one URL per file type and looks the key up there only); a `.stringsdict` of the
    /// table in an `.lproj` is another file type and still serves. Caffe says what is hidden.
    @Test func aNonLocalizedTableHidesItsLprojCopies() throws {
        let frenchPlural = Support.stringsdict([
            ("%d cups", "%#@cups@", "cups", [("one", "%d tasse"), ("many", "%d de tasses"), ("other", "%d tasses")])
        ])
        let files = [
            "Localizable.strings": Support.stringsFile([("Welcome", "Welcome")]),
            "fr.lproj/Localizable.strings": Support.stringsFile([("Welcome", "Bienvenue"), ("Only", "Seulement")]),
            "fr.lproj/Localizable.stringsdict": frenchPlural,
        ]
        try Support.withCatalog(files) { catalog throws in
            let hidden = try #require(catalog.diagnostics.first { $0.code == .hiddenByNonLocalizedTable })
            #expect(
                Finding(hidden)
                    == Finding(.warning, "hidden-by-non-localized-table", "fr.lproj/Localizable.strings", nil, "fr")
            )
            #expect(
                hidden.message
                    == "2 keys are never used: the non-localized Localizable.strings serves every locale, as Bundle "
                    + "searches global resources before .lproj folders"
            )
            let french = try Localizer(catalog: catalog, locale: "fr")
            #expect(try french.string("Welcome").text == "Welcome")
            #expect(try french.string("Only").isMissing)
            #expect(try french.string("%d cups", arguments: [2]).text == "2 tasses")
        }
    }

    // MARK: Item 7: "100% accurate" in a string that takes no arguments

    /// CFString reads `% a` as a conversion with the space flag, but a string called without
    /// arguments is not formatted (`String(localized:)` returns it as written), so lint does not
    /// compare its "specifiers"; where the key does take arguments, the percent sign is named.
    @Test func aPercentSignBeforeAWordIsTextInAStringWithoutArguments() throws {
        let catalog = try Support.xcstrings([
            "100% accurate": [
                "localizations": [
                    "en": Support.unit("100% accurate"),
                    "fr": Support.unit("Précis à 100 % dans tous les cas"),
                    "es": Support.unit("100 % de precisión"),
                    "de": Support.unit("Ganz genau"),
                ]
            ],
            "Fully accurate": [
                "localizations": [
                    "en": Support.unit("Fully accurate"),
                    "fr": Support.unit("Fiable à 100 % dans les faits"),
                ]
            ],
            "%@ is 100%% accurate": [
                "localizations": [
                    "en": Support.unit("%@ is 100%% accurate"),
                    "fr": Support.unit("%@ est précis à 100 % dans tous les cas"),
                ]
            ],
        ])
        try Support.withCatalog(["T.xcstrings": catalog]) { catalog throws in
            let report = CatalogLinter(catalog: catalog).lint()
            let findings = CatalogLinterTests.findings(report, excluding: ["missing-translation"])
            #expect(findings == [Finding(.error, "specifier-mismatch", "T.xcstrings", "%@ is 100%% accurate", "fr")])
            #expect(
                report.findings.first { $0.code == .specifierMismatch }?.message
                    == "uses argument 2 (integer), which the source does not have; '% d' is a percent sign read as a "
                    + "specifier with the space flag (write %%)"
            )
            #expect(
                try Localizer(catalog: catalog, locale: "es").string("100% accurate", table: "T").text
                    == "100 % de precisión"
            )
            #expect(
                try Localizer(catalog: catalog, locale: "fr").string("100% accurate", table: "T").text
                    == "Précis à 100 % dans tous les cas"
            )
        }
    }
}
