// Caffe — Localization tests.
import CaffeTestKit
import Foundation
import Localization
import Testing

/// Issue 21 through the `caffe` executable: lint of single files (4), unreadable catalogs (5),
/// the development language and Norwegian (6, 7), `caffe string` as `AttributedString(localized:)`
/// (10) and negative numbers (11).
@Suite(
    "Issue 21: caffe lint, string and plural on real-catalog shapes",
    .enabled(if: RenderingSupport.caffeExecutable != nil, "the caffe executable is not next to the test bundle")
)
struct RealCatalogCommandLineTests {
    typealias Support = RenderingSupport

    static let addToOrder = #"Add ^[%lld %@ ^[%@](morphology: { partOfSpeech: "noun" })](inflect: true) to your order"#

    static func cafeCatalog() throws -> String {
        try Support.xcstrings([
            addToOrder: [
                "localizations": [
                    "es": Support.unit(
                        #"Añadir ^[%1$lld %3$@ ^[%2$@](morphology: { partOfSpeech: "adjective" })](inflect: true) a tu pedido"#
                    )
                ]
            ],
            "Welcome!": [
                "localizations": [
                    "es": Support.unit(
                        "¡^[Bienvenido](inflect: true, inflectionAlternative: 'Te damos la bienvenida')!"
                    )
                ]
            ],
            "%lld degrees": ["localizations": ["en": Support.plural(["one": "%lld degree", "other": "%lld degrees"])]],
        ])
    }

    // MARK: 4. Lint takes a file, and never passes when nothing was checked

    @Test func lintChecksASingleStringCatalogFile() throws {
        try Support.withFolder(["Localizable.xcstrings": try Self.cafeCatalog()]) { folder in
            let file = folder.appendingPathComponent("Localizable.xcstrings").path
            let result = try Support.runCaffe(["lint", file])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(
                result.standardOutput
                    == "Localizable.xcstrings: warning: [missing-translation] '%lld degrees' (es): no translation in es; en is shown\n0 errors, 1 warning, 0 notes\n"
            )
        }
        let broken =
            #"{"sourceLanguage": "en", "strings": {"a": {"localizations": {"de": {"stringUnit": {"value": "%d%"}}}}}}"#
        try Support.withFolder(["Broken.xcstrings": broken]) { folder in
            let result = try Support.runCaffe(["lint", folder.appendingPathComponent("Broken.xcstrings").path])
            #expect(result.status == 1)
            #expect(
                result.standardOutput == """
                    Broken.xcstrings: warning: [invalid-specifier] 'a' (de): '%' in "%d%": a lone % at the end; write %% for a percent sign
                    Broken.xcstrings: error: [specifier-mismatch] 'a' (de): uses argument 1 (integer), which the source does not have
                    1 error, 1 warning, 0 notes

                    """
            )
        }
    }

    @Test func lintChecksAStringsFileInItsLprojFolder() throws {
        let files = ["ru.lproj/Localizable.strings": Support.stringsFile([("%d files", "%d файлов ($1)")])]
        try Support.withFolder(files) { folder in
            let file = folder.appendingPathComponent("ru.lproj/Localizable.strings").path
            let result = try Support.runCaffe(["lint", file])
            #expect(result.status == 0)
            #expect(
                result.standardOutput
                    == "ru.lproj/Localizable.strings:1:1: warning: [stray-placeholder] '%d files' (ru): '$1' looks like a "
                    + "placeholder from another format; it is shown as written (write %1$d)\n0 errors, 1 warning, 0 notes\n"
            )
        }
    }

    @Test func lintFailsWhenThereIsNothingToCheck() throws {
        try Support.withFolder(["README.md": "no catalogs here\n"]) { folder in
            let empty = try Support.runCaffe(["lint", folder.path])
            #expect(empty.status == 1)
            #expect(
                empty.standardOutput.contains(
                    "error: [unreadable-file]: no .strings, .stringsdict or .xcstrings files found"
                )
            )
            let notACatalog = try Support.runCaffe(["lint", folder.appendingPathComponent("README.md").path])
            #expect(notACatalog.status == 1)
            #expect(
                notACatalog.standardError.hasSuffix("README.md is not a .strings, .stringsdict or .xcstrings file\n")
            )
            let missing = try Support.runCaffe(["lint", folder.appendingPathComponent("nope").path])
            #expect(missing.status == 1)
            #expect(missing.standardError.hasSuffix("nope does not exist\n"))
        }
        // A table outside any .lproj is a non-localized table (issue 31, item 5): checked, and the
        // language it is taken as written in is said.
        try Support.withFolder(["Localizable.strings": Support.stringsFile([("a", "b")])]) { folder in
            let file = folder.appendingPathComponent("Localizable.strings").path
            let loose = try Support.runCaffe(["lint", file])
            #expect(loose.status == 0, "\(loose.standardError)")
            #expect(
                loose.standardOutput
                    == "Localizable.strings: warning: [unknown-development-language]: Localizable.strings is outside "
                    + "any .lproj folder, so its language is the development language, which nothing names; taken as "
                    + "en (configure --development-language)\n0 errors, 1 warning, 0 notes\n"
            )
            let configured = try Support.runCaffe(["lint", file, "--development-language", "en"])
            #expect(configured.status == 0 && configured.standardOutput == "0 errors, 0 warnings, 0 notes\n")
        }
    }

    // MARK: 5. A catalog that cannot be read is reported, and the exit status says so

    @Test func stringReportsATruncatedCatalogAndExitsOne() throws {
        let text = try Self.cafeCatalog()
        let cut = String(text[..<(try #require(text.range(of: "Bienvenido"))).lowerBound])
        try Support.withFolder(["Localizable.xcstrings": cut]) { folder in
            let welcome = try Support.runCaffe(["string", "--catalog", folder.path, "--locale", "es", "Welcome!"])
            #expect(welcome.status == 1)
            #expect(welcome.standardOutput == "Welcome!\n")
            let errorLine = try #require(welcome.standardError.split(separator: "\n").first)
            #expect(errorLine.hasPrefix("caffe string: Localizable.xcstrings:"))
            #expect(
                errorLine.hasSuffix(
                    ": error: [syntax-error]: not valid JSON: Unexpected end of file during JSON parse; the 2 keys before it are loaded, the rest is not"
                )
            )
            #expect(welcome.standardError.contains("no localization has the key 'Welcome!' in table Localizable"))
            // What was read is still served, but the answer is not trusted: exit 1.
            let earlier = try Support.runCaffe([
                "string", "--catalog", folder.path, "--locale", "en", "%lld degrees", "1",
            ])
            #expect(earlier.standardOutput == "1 degree\n")
            #expect(earlier.status == 1)
        }
    }

    // MARK: 6, 7. Which text a customer gets

    @Test func stringUsesTheOnlyLocalizationAndNorwegianAliases() throws {
        try Support.withFolder(["ar.lproj/Localizable.strings": Support.stringsFile([("Hello", "مرحبا")])]) { folder in
            let result = try Support.runCaffe(["string", "--catalog", folder.path, "--locale", "en", "Hello"])
            #expect(result.status == 0)
            #expect(result.standardOutput == "مرحبا\n")
            #expect(
                result.standardError
                    == "caffe string: no localization serves 'en'; using the development language 'ar' (the catalog's only localization)\n"
            )
        }
        let norwegian = [
            "en.lproj/Localizable.strings": Support.stringsFile([("Hello", "Hello")]),
            "nb.lproj/Localizable.strings": Support.stringsFile([("Hello", "Hei")]),
            "nb-NO.lproj/Localizable.strings": Support.stringsFile([("Hello", "Hei fra Norge")]),
        ]
        try Support.withFolder(norwegian) { folder in
            for (locale, expected) in [("no", "Hei\n"), ("no-NO", "Hei fra Norge\n")] {
                let result = try Support.runCaffe(["string", "--catalog", folder.path, "--locale", locale, "Hello"])
                #expect(result.standardOutput == expected)
                #expect(result.standardError.isEmpty)
            }
        }
    }

    // MARK: 10. caffe string answers as AttributedString(localized:)

    @Test func stringRendersMarkdownAndAgreementInEveryFormat() throws {
        try Support.withFolder(["Localizable.xcstrings": try Self.cafeCatalog()]) { folder in
            func caffe(_ arguments: [String]) throws -> Support.ProcessResult {
                try Support.runCaffe(["string", "--catalog", folder.path] + arguments)
            }
            let english = try caffe(["--locale", "en-US", Self.addToOrder, "2", "large", "pizza"])
            #expect(english.status == 0, "\(english.standardError)")
            #expect(english.standardOutput == "Add 2 large pizzas to your order\n")
            let spanish = ["--locale", "es-ES", Self.addToOrder, "2", "pequeño", "ensalada"]
            #expect(try caffe(spanish).standardOutput == "Añadir 2 ensaladas pequeñas a tu pedido\n")
            #expect(
                try caffe(["--format", "html"] + spanish).standardOutput == "Añadir 2 ensaladas pequeñas a tu pedido\n"
            )
            #expect(
                try caffe(["--format", "json"] + spanish).standardOutput
                    == #"[{"attributes":{},"text":"Añadir 2 ensaladas pequeñas a tu pedido"}]"# + "\n"
            )
            #expect(
                try caffe(["--raw"] + spanish).standardOutput
                    == #"Añadir ^[2 ensalada ^[pequeño](morphology: { partOfSpeech: "adjective" })](inflect: true) a tu pedido"#
                    + "\n"
            )
            let welcome = ["--locale", "es-MX", "Welcome!"]
            #expect(try caffe(["--term-of-address", "feminine"] + welcome).standardOutput == "¡Bienvenida!\n")
            #expect(try caffe(welcome).standardOutput == "¡Te damos la bienvenida!\n")
            let bold = try caffe(["--locale", "en", "--format", "ansi", "Only **%lld** left", "3"])
            #expect(bold.standardOutput == "Only \u{1B}[1m3\u{1B}[0m left\n")
            #expect(bold.status == 1)  // no localization has that key
        }
    }

    // MARK: 11. Negative numbers are arguments

    @Test func negativeNumbersAreArguments() throws {
        let plural = try Support.runCaffe(["plural", "--locale", "en", "-1", "2", "-1.5"])
        #expect(plural.status == 0, "\(plural.standardError)")
        #expect(plural.standardOutput == "one\nother\nother\n")
        let russian = try Support.runCaffe(["plural", "--locale", "ru", "-21", "-2"])
        #expect(russian.standardOutput == "one\nfew\n")
        let unknown = try Support.runCaffe(["plural", "--locale", "en", "--bogus", "1"])
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("--bogus"))
        try Support.withFolder(["Localizable.xcstrings": try Self.cafeCatalog()]) { folder in
            let degrees = try Support.runCaffe([
                "string", "--catalog", folder.path, "--locale", "en", "%lld degrees", "-1",
            ])
            #expect(degrees.status == 0, "\(degrees.standardError)")
            #expect(degrees.standardOutput == "-1 degree\n")
            let dashed = try Support.runCaffe([
                "string", "--catalog", folder.path, "--locale", "en", "--raw", "Welcome!", "--", "--not-an-option",
            ])
            #expect(dashed.status == 0)
            #expect(dashed.standardOutput == "Welcome!\n")
        }
    }
}
