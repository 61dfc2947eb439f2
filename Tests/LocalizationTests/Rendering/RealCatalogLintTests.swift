// Caffe — Localization tests.
import Foundation
import Localization
import Testing

/// Issue 21, items 3 and 8: what `caffe lint` missed in real catalogs, and its noise.
@Suite("Issue 21: lint findings on real-catalog shapes")
struct RealCatalogLintTests {
    typealias Support = RenderingSupport

    static func lint(_ files: [String: String]) throws -> LintReport {
        try Support.withCatalog(files) { CatalogLinter(catalog: $0).lint() }
    }

    /// (severity, code, key, locale, message) of each finding whose code is in `codes`.
    static func findings(_ report: LintReport, _ codes: Set<CatalogDiagnostic.Code>)
        -> [(CatalogDiagnostic.Severity, String, String?, String?, String)]
    {
        report.findings.filter { codes.contains($0.code) }.map {
            ($0.severity, $0.code.name, $0.key, $0.locale, $0.message)
        }
    }

    @Test func aSpecifierTypedWithTheArabicPercentSignIsFound() throws {
        let report = try Self.lint([
            "en.lproj/Localizable.stringsdict": Support.stringsdict([
                ("%d files", "%#@files@", "files", [("one", "%d file"), ("other", "%d files")])
            ]),
            "ar.lproj/Localizable.stringsdict": Support.stringsdict([
                (
                    "%d files", "%#@files@", "files",
                    [
                        ("zero", "لا ملفات"), ("one", "ملف واحد"), ("two", "ملفان"), ("few", "٪ d ملفات"),
                        ("many", "٪d ملفًا"), ("other", "٪ d ملف"),
                    ]
                )
            ]),
        ])
        let found = Self.findings(report, [.numberNeverShown, .mangledSpecifier])
        #expect(found.count == 3)
        #expect(found.map(\.1) == ["number-never-shown", "mangled-specifier", "mangled-specifier"])
        #expect(found.allSatisfy { $0.0 == .warning && $0.2 == "%d files" && $0.3 == "ar" })
        #expect(
            found[0].4 == "argument 1 chooses the plural variants, but no variant shows it (nor any other argument)"
        )
        #expect(
            found[1].4
                == "'٪ d' looks like a format specifier written with '٪' (U+066A ARABIC PERCENT SIGN); it is shown as written, not as the argument"
        )
        #expect(found[2].4.hasPrefix("'٪d' looks like a format specifier"))
        // The English source, which shows its number, has neither finding.
        #expect(report.findings.filter { $0.locale == "en" }.isEmpty)
    }

    @Test func anEmptyFormatKeyIsAnErrorAndStillLoads() throws {
        let file = Support.plist(
            """
            <dict><key>n files</key><dict>
              <key>NSStringLocalizedFormatKey</key><string></string>
              <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
              <key>other</key><string>%d files</string></dict>
            </dict></dict>
            """
        )
        try Support.withCatalog(["en.lproj/Localizable.stringsdict": file]) { (catalog: StringCatalog) throws in
            let errors = catalog.diagnostics.filter { $0.severity == .error }
            #expect(
                errors.map(\.message) == [
                    "NSStringLocalizedFormatKey is empty, so the entry is shown as an empty string"
                ]
            )
            #expect(errors.first?.key == "n files")
            #expect((errors.first?.location.line ?? 0) > 0)
            #expect(try Localizer(catalog: catalog, locale: "en").string("n files", arguments: [2]).text == "")
        }
    }

    @Test func emptyDictionariesAreErrors() throws {
        let file = Support.plist(
            """
            <dict>
              <key>nothing</key><dict/>
              <key>%d files</key><dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
                <key>files</key><dict/>
              </dict>
            </dict>
            """
        )
        let report = try Self.lint(["en.lproj/Localizable.stringsdict": file])
        #expect(
            report.findings.filter { $0.severity == .error }.map { "\($0.key ?? "") \($0.code): \($0.message)" } == [
                "nothing invalid-entry: the entry is an empty dictionary: no NSStringLocalizedFormatKey, no variables",
                "%d files missing-plural-category: argument 1 has a plural rule with no variants (an empty dictionary); nothing is shown there",
            ]
        )
    }

    @Test func strayDollarPlaceholdersAreFound() throws {
        let report = try Self.lint([
            "en.lproj/Localizable.strings": Support.stringsFile([
                ("%1$@ shared %2$lld photos", "%1$@ shared %2$lld photos"), ("Price: $5", "Price: $5"),
            ]),
            "de.lproj/Localizable.strings": Support.stringsFile([
                ("%1$@ shared %2$lld photos", "%1$@ hat $2 Fotos geteilt"), ("Price: $5", "Preis: $5"),
            ]),
            "fr.lproj/Localizable.strings": Support.stringsFile([
                ("%1$@ shared %2$lld photos", "$1 a partagé %2$lld photos (US$3, $12)")
            ]),
        ])
        let found = Self.findings(report, [.strayPlaceholder])
        #expect(found.map(\.3) == ["de", "fr"])
        #expect(
            found[0].4 == "'$2' looks like a placeholder from another format; it is shown as written (write %2$lld)"
        )
        #expect(found[1].4 == "'$1' looks like a placeholder from another format; it is shown as written (write %1$@)")
    }

    /// Issue 31, items 2 and 3: `$N` beyond the string's arguments (another format's placeholders
    /// in a translation: "$2 edits by $3"), and `%1@` (a width, not a position) beside a
    /// positional variable.
    @Test func placeholdersBeyondTheArgumentsAndPositionsWithoutDollar() throws {
        let report = try Self.lint([
            "en.lproj/Localizable.strings": Support.stringsFile([
                ("%lld edits", "%lld edits"), ("Save", "Save"), ("Price: $5", "Price: $5"),
            ]),
            "ar.lproj/Localizable.strings": Support.stringsFile([
                ("%lld edits", "%lld تعديلات بواسطة $2 و $3"), ("Save", "احفظ $1"), ("Price: $5", "السعر: $5"),
            ]),
            "lt.lproj/Localizable.stringsdict": Support.stringsdict([
                (
                    "%d new", "Turite %1@ %2$#@n@", "n",
                    [("one", "%d naują"), ("few", "%d naujas"), ("other", "%d naujų")]
                )
            ]),
        ])
        let placeholders = Self.findings(report, [.strayPlaceholder]).map { "\($0.3 ?? "") \($0.4)" }
        #expect(
            placeholders == [
                "ar '$2' looks like a placeholder from another format, but the string takes 1 argument; it is shown as written",
                "ar '$3' looks like a placeholder from another format, but the string takes 1 argument; it is shown as written",
                "ar '$1' looks like a placeholder from another format, but the string takes 0 arguments; it is shown as written",
            ]
        )
        let positions = report.findings.filter { $0.code == .positionWithoutDollar }
        #expect(positions.map(\.severity) == [.error])
        #expect(positions.first?.message == "'%1@' is a field 1 wide for the next argument, not argument 1: write %1$@")
    }

    /// Issue 31, item 1: `%@` against an integer — in a variable declared `d` whose variants show
    /// `%1$@`, in one string (`%1$lld and %1$@`), and against the source's `%lld`.
    @Test func objectsAgainstNumbersAreErrors() throws {
        let report = try Self.lint([
            "en.lproj/Localizable.strings": Support.stringsFile([
                ("%lld items", "%lld items"), ("%@ items", "%@ items"), ("%lld twice", "%1$lld and %1$lld"),
            ]),
            "he.lproj/Localizable.strings": Support.stringsFile([
                ("%lld items", "%@ פריטים"), ("%@ items", "%@ פריטים"), ("%lld twice", "%1$lld ו־%1$@"),
            ]),
            "uk.lproj/Localizable.stringsdict": Support.stringsdict([
                (
                    "%d others", "%#@n@", "n",
                    [("one", "%1$@ і ще один"), ("few", "%1$@ і ще %d"), ("other", "%1$@ і ще %d")]
                )
            ]),
        ])
        let found = Self.findings(report, [.argumentTypeConflict]).map { "\($0.3 ?? "") \($0.2 ?? ""): \($0.4)" }
        #expect(
            found == [
                "he %lld items: formats argument 1 as object, the source as integer: an object where the source has a number, or the reverse",
                "he %lld twice: formats argument 1 both as an object (%@) and as a number (integer): a plural chosen by it, or the number shown, depends on which one the caller's value fits",
                "uk %d others: formats argument 1 both as an object (%@) and as a number (integer): a plural chosen by it, or the number shown, depends on which one the caller's value fits",
            ]
        )
        #expect(Self.findings(report, [.argumentTypeConflict]).allSatisfy { $0.0 == .error })
    }

    @Test func categoriesTheLanguageDoesNotHaveAreFound() throws {
        let report = try Self.lint([
            "en.lproj/Localizable.stringsdict": Support.stringsdict([
                ("%d days", "%#@days@", "days", [("zero", "No days"), ("one", "%d day"), ("other", "%d days")])
            ]),
            "ru.lproj/Localizable.stringsdict": Support.stringsdict([
                (
                    "%d days", "%#@days@", "days",
                    [
                        ("zero", "%d дней"), ("one", "%d день"), ("two", "%d дня"), ("few", "%d дня"),
                        ("many", "%d дней"), ("other", "%d дня"),
                    ]
                )
            ]),
            "he.lproj/Localizable.stringsdict": Support.stringsdict([
                (
                    "%d days", "%#@days@", "days",
                    [("one", "יום אחד"), ("two", "יומיים"), ("many", "%d ימים"), ("other", "%d ימים")]
                )
            ]),
        ])
        // English "No days" under `zero` is Apple's idiom for 0: no finding. Russian "%d дней" there
        // was exported with every category; it shows only for 0, which a note says.
        let found = Self.findings(report, [.unusedPluralCategory]).map { "\($0.0) \($0.3 ?? ""): \($0.4)" }
        #expect(
            found == [
                "warning he: argument 1 has a 'many' variant, which is not a plural category of he (one, two, other); this variant is never chosen",
                "note ru: argument 1 has a 'zero' variant, which is not a plural category of ru (one, few, many, other); it is used for the number 0 only, as Apple uses an explicit zero variant",
                "warning ru: argument 1 has a 'two' variant, which is not a plural category of ru (one, few, many, other); this variant is never chosen",
            ]
        )
    }

    // MARK: 8. Noise

    @Test func lonePercentSignsInStringsThatTakeNoArgumentsAreText() throws {
        let report = try Self.lint([
            "en.lproj/Localizable.strings": Support.stringsFile([
                ("Battery 100%", "Battery 100%"), ("%d%% done", "%d%% done"),
            ]),
            "de.lproj/Localizable.strings": Support.stringsFile([
                ("Battery 100%", "Akku 100 %"), ("%d%% done", "Fertig: %d%"),
            ]),
        ])
        // Only the translation that takes an argument and forgot to double its % is worth a warning.
        #expect(
            report.findings.map { "\($0.code) \($0.key ?? "") \($0.locale ?? "")" } == [
                "invalid-specifier %d%% done de"
            ]
        )
    }

    @Test func aRegionalLocalizationFallingBackToItsParentIsOneNote() throws {
        let keys = ["a", "b", "c", "d"]
        let report = try Self.lint([
            "en.lproj/Localizable.strings": Support.stringsFile(keys.map { ($0, $0.uppercased()) }),
            "en-GB.lproj/Localizable.strings": Support.stringsFile([("a", "A (GB)")]),
            "en-AU.lproj/Localizable.strings": Support.stringsFile([("b", "B (AU)")]),
            "fr.lproj/Localizable.strings": Support.stringsFile([("a", "A fr"), ("b", "B fr"), ("c", "C fr")]),
        ])
        #expect(
            report.findings.map { "\($0.severity) \($0.code) \($0.key ?? "-") \($0.locale ?? ""): \($0.message)" } == [
                // en-AU takes "a" from en-GB, its parent in Foundation's chain (en-AU → en-GB → en-001 → en).
                "note regional-fallback - en-AU: 2 keys of table Localizable fall back to en, the parent language of en-AU",
                "note regional-fallback - en-GB: 3 keys of table Localizable fall back to en, the parent language of en-GB",
                "warning missing-translation d fr: no translation in fr; en is shown",
            ]
        )
    }
}
