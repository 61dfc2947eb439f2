// Caffe — Localization tests.

import Foundation
import Localization
import Testing

/// `CatalogLinter` on small catalog folders, one kind of finding each.
@Suite("Lint")
struct CatalogLinterTests {
    typealias Support = RenderingSupport

    /// The fields a finding is identified by, for exact comparisons.
    struct Finding: Hashable, CustomStringConvertible {
        var severity: CatalogDiagnostic.Severity
        var code: String
        var file: String
        var key: String?
        var locale: String?

        init(_ severity: CatalogDiagnostic.Severity, _ code: String, _ file: String, _ key: String?, _ locale: String?)
        {
            self.severity = severity
            self.code = code
            self.file = file
            self.key = key
            self.locale = locale
        }

        init(_ diagnostic: CatalogDiagnostic) {
            self.init(diagnostic.severity, diagnostic.code.name, diagnostic.file, diagnostic.key, diagnostic.locale)
        }

        var description: String { "\(severity) \(code) \(file) \(key ?? "-") \(locale ?? "-")" }
    }

    static func lint(_ files: [String: String]) throws -> LintReport {
        try Support.withCatalog(files) { CatalogLinter(catalog: $0).lint() }
    }

    static func findings(_ report: LintReport, excluding codes: Set<String> = []) -> [Finding] {
        report.findings.map(Finding.init).filter { !codes.contains($0.code) }
    }

    // MARK: Missing translations

    @Test func missingTranslation() throws {
        let report = try Self.lint([
            "en.lproj/T.strings": Support.stringsFile([("a", "A"), ("b", "B"), ("c", "C")]),
            "es.lproj/T.strings": Support.stringsFile([("a", "A es"), ("b", "B es")]),
            // es-419 leaves b to es, which is fine; c is in neither.
            "es-419.lproj/T.strings": Support.stringsFile([("a", "A 419")]),
        ])
        #expect(
            Set(Self.findings(report)) == [
                Finding(.warning, "missing-translation", "en.lproj/T.strings", "c", "es"),
                Finding(.warning, "missing-translation", "en.lproj/T.strings", "c", "es-419"),
            ]
        )
        #expect(report.findings.count == 2)
        #expect(report.errorCount == 0)
        #expect(report.warningCount == 2)
        #expect(report.summary == "0 errors, 2 warnings, 0 notes")
    }

    @Test func doNotTranslateKeysAreNeverMissing() throws {
        let catalog = try Support.xcstrings([
            "Brand": ["shouldTranslate": false, "localizations": ["en": Support.unit("Caffè")]],
            "Hello": ["localizations": ["en": Support.unit("Hello"), "es": Support.unit("Hola")]],
            "Bye": ["localizations": ["en": Support.unit("Bye")]],
        ])
        let report = try Self.lint(["T.xcstrings": catalog])
        #expect(Self.findings(report) == [Finding(.warning, "missing-translation", "T.xcstrings", "Bye", "es")])
    }

    // MARK: Specifier mismatches

    @Test func specifierMismatch() throws {
        let report = try Self.lint([
            "en.lproj/T.strings": Support.stringsFile([
                ("count", "%d items"),
                ("name", "%s ordered"),
                ("hello", "Hello %@"),
                ("object", "Total %@"),
                ("drop", "%d of %d"),
                ("unsigned", "%u cups"),
                ("character", "Add %@"),
                ("string", "%@ ready"),
                ("memory", "%@ ready"),
                ("percent", "%@ at 100 %"),
            ]),
            "es.lproj/T.strings": Support.stringsFile([
                ("count", "%s artículos"),  // an integer shown as text
                ("name", "%d pidió"),  // text shown as an integer
                ("hello", "Hola %1$@ %2$@"),  // an argument the source does not have
                ("object", "Total %d"),  // a number where the source has %@: a type conflict (issue 31)
                ("drop", "%1$d"),  // argument 2 never shown
                ("unsigned", "%d tazas"),  // integers fit unsigned
                ("character", "Añadir %c"),  // C types for a Swift value (issue 45)
                ("string", "%s lista"),
                ("memory", "%@ lista%n"),  // no conversion, and %n writes memory in C
                ("percent", "%@ al 100 %"),  // a percent sign before a space, as the source has
            ]),
        ])
        #expect(
            Set(Self.findings(report, excluding: ["invalid-specifier"])) == [
                Finding(.error, "specifier-mismatch", "es.lproj/T.strings", "count", "es"),
                Finding(.error, "specifier-mismatch", "es.lproj/T.strings", "name", "es"),
                Finding(.error, "specifier-mismatch", "es.lproj/T.strings", "hello", "es"),
                Finding(.warning, "specifier-mismatch", "es.lproj/T.strings", "drop", "es"),
                Finding(.error, "argument-type-conflict", "es.lproj/T.strings", "object", "es"),
                Finding(.error, "specifier-mismatch", "es.lproj/T.strings", "character", "es"),
                Finding(.error, "specifier-mismatch", "es.lproj/T.strings", "string", "es"),
                Finding(.error, "specifier-mismatch", "es.lproj/T.strings", "memory", "es"),
            ]
        )
        #expect(report.findings.filter { $0.code.name != "invalid-specifier" }.count == 8)
        #expect(
            report.findings.first { $0.key == "character" }?.message
                == "formats argument 1 as '%c', a C type the app never passes; write %@ as the source does"
        )
        #expect(
            report.findings.first { $0.key == "memory" && $0.code.name == "specifier-mismatch" }?.message
                == "has '%n', which is no conversion (in C's printf family %n writes to memory); the source has none "
                + "like it: write %% for a percent sign"
        )
        let count = try #require(report.findings.first { $0.key == "count" })
        #expect(count.location.line == 1)
        let hello = try #require(report.findings.first { $0.key == "hello" })
        #expect(hello.location.line == 3)
        #expect(hello.message.contains("2"))
    }

    // MARK: Plural categories

    @Test func missingPluralCategory() throws {
        let catalog = try Support.xcstrings([
            "%lld files": [
                "localizations": [
                    "en": Support.plural(["one": "%lld file", "other": "%lld files"]),
                    // Russian needs one, few, many, other: many is missing, other is there.
                    "ru": Support.plural(["one": "%lld файл", "few": "%lld файла", "other": "%lld файлов"]),
                ]
            ]
        ])
        let stringsdict = Support.plist(
            """
            <dict>
                <key>%lld files</key>
                <dict>
                    <key>NSStringLocalizedFormatKey</key>
                    <string>%#@files@</string>
                    <key>files</key>
                    <dict>
                        <key>NSStringFormatSpecTypeKey</key>
                        <string>NSStringPluralRuleType</string>
                        <key>NSStringFormatValueTypeKey</key>
                        <string>lld</string>
                        <key>one</key>
                        <string>%lld plik</string>
                        <key>few</key>
                        <string>%lld pliki</string>
                        <key>many</key>
                        <string>%lld plików</string>
                    </dict>
                </dict>
            </dict>
            """
        )
        let report = try Self.lint(["T.xcstrings": catalog, "pl.lproj/T.stringsdict": stringsdict])
        #expect(
            Set(Self.findings(report)) == [
                Finding(.warning, "missing-plural-category", "T.xcstrings", "%lld files", "ru"),
                Finding(.error, "missing-plural-category", "pl.lproj/T.stringsdict", "%lld files", "pl"),
            ]
        )
        #expect(report.findings.count == 2)
        let russian = try #require(report.findings.first { $0.locale == "ru" })
        #expect(russian.message.contains("many"))
        #expect(!russian.message.contains("few"))
        let polish = try #require(report.findings.first { $0.locale == "pl" })
        #expect(polish.message.contains("other"))
        #expect(polish.location.line == 5)
    }

    @Test func completePluralsAreClean() throws {
        let catalog = try Support.xcstrings([
            "%lld files": [
                "localizations": [
                    "en": Support.plural(["one": "%lld file", "other": "%lld files"]),
                    "ja": Support.plural(["other": "%lld ファイル"]),
                    "ar": Support.plural([
                        "zero": "لا ملفات", "one": "ملف واحد", "two": "ملفان", "few": "%lld ملفات", "many": "%lld ملفًا",
                        "other": "%lld ملف",
                    ]),
                ]
            ]
        ])
        #expect(try Self.lint(["T.xcstrings": catalog]).findings.isEmpty)
    }

    // MARK: Translation states

    @Test func translationStates() throws {
        let catalog = try Support.xcstrings([
            "Review me": [
                "localizations": [
                    "en": Support.unit("Review me"),
                    "es": Support.unit("Revísame", state: "needs_review"),
                ]
            ],
            "Old": [
                "localizations": [
                    "en": Support.unit("Old"),
                    "es": Support.unit("Viejo", state: "stale"),
                ]
            ],
            "Gone": [
                "extractionState": "stale",
                "localizations": [
                    "en": Support.unit("Gone"),
                    "es": Support.unit("Ido"),
                ],
            ],
            "Fine": [
                "localizations": [
                    "en": Support.unit("Fine"),
                    "es": Support.unit("Bien"),
                ]
            ],
        ])
        let report = try Self.lint(["T.xcstrings": catalog])
        #expect(
            Set(Self.findings(report)) == [
                Finding(.warning, "needs-review", "T.xcstrings", "Review me", "es"),
                Finding(.warning, "stale", "T.xcstrings", "Old", "es"),
                Finding(.note, "stale", "T.xcstrings", "Gone", "en"),
            ]
        )
        #expect(report.findings.count == 3)
        #expect(report.summary == "0 errors, 2 warnings, 1 note")
    }

    // MARK: Unreadable and broken files

    static let brokenJSON = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "a" : { x }
          }
        }
        """

    /// Broken JSON is a syntax error; the good files beside it still load.
    @Test func invalidJSONStringCatalog() throws {
        let report = try Support.withCatalog([
            "Broken.xcstrings": Self.brokenJSON,
            "en.lproj/Good.strings": Support.stringsFile([("a", "A")]),
        ]) { catalog in
            #expect(catalog.entry("a", table: "Good", localization: "en")?.value.source == "A")
            return CatalogLinter(catalog: catalog).lint()
        }
        #expect(Self.findings(report) == [Finding(.error, "syntax-error", "Broken.xcstrings", nil, nil)])
        #expect(report.errorCount == 1)
    }

    /// The `x` is on line 4, column 13 (1-based, as ``SourceLocation`` counts).
    @Test
    func invalidJSONStringCatalogLocation() throws {
        let report = try Self.lint(["Broken.xcstrings": Self.brokenJSON])
        let finding = try #require(report.findings.first)
        #expect(finding.location == SourceLocation(line: 4, column: 13))
    }

    /// A path that looks like a catalog file but cannot be read (here, a folder).
    @Test func unreadableFile() throws {
        let report = try Support.withFolder(["en.lproj/Good.strings": Support.stringsFile([("a", "A")])]) { folder in
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("Folder.xcstrings"),
                withIntermediateDirectories: true
            )
            let catalog = try StringCatalog(directory: folder)
            #expect(catalog.entry("a", table: "Good", localization: "en")?.value.source == "A")
            return CatalogLinter(catalog: catalog).lint()
        }
        #expect(Self.findings(report) == [Finding(.error, "unreadable-file", "Folder.xcstrings", nil, nil)])
    }

    @Test func unreadableFolderThrows() {
        let error = #expect(throws: LocalizationError.self) {
            try StringCatalog(directory: URL(fileURLWithPath: "/nonexistent/caffe/catalog"))
        }
        #expect(error?.code == .unreadableCatalog)
    }

    // MARK: Duplicate keys

    static let duplicateFiles = [
        "en.lproj/T.strings": Support.stringsFile([("a", "A")]),
        "es.lproj/T.strings": "\"a\" = \"uno\";\n\"a\" = \"dos\";\n",
    ]

    @Test func duplicateKeyInOneFile() throws {
        try Support.withCatalog(Self.duplicateFiles) { catalog throws in
            let report = CatalogLinter(catalog: catalog).lint()
            #expect(report.findings.count == 1)
            let finding = try #require(report.findings.first)
            #expect(finding.severity == .warning)
            #expect(finding.code == .duplicateKey)
            #expect(finding.file == "es.lproj/T.strings")
            #expect(finding.key == "a")
            #expect(finding.location.line == 2)
            // The last value wins.
            #expect(try Localizer(catalog: catalog, locale: "es").string("a", table: "T").text == "dos")
        }
    }

    /// A finding about a file in `es.lproj` concerns `es`, as the linter's and the catalog's own
    /// findings (and the compiler's findings for the same file) say.
    @Test
    func duplicateKeyInOneFileNamesTheLocalization() throws {
        try Support.withCatalog(Self.duplicateFiles) { catalog in
            let report = CatalogLinter(catalog: catalog).lint()
            #expect(Self.findings(report) == [Finding(.warning, "duplicate-key", "es.lproj/T.strings", "a", "es")])
        }
    }

    @Test func duplicateKeyAcrossFiles() throws {
        let first = try Support.xcstrings(["Hello": ["localizations": ["en": Support.unit("Hello from A")]]])
        let second = try Support.xcstrings(["Hello": ["localizations": ["en": Support.unit("Hello from B")]]])
        try Support.withCatalog(["A/T.xcstrings": first, "B/T.xcstrings": second]) { catalog throws in
            let report = CatalogLinter(catalog: catalog).lint()
            #expect(Self.findings(report) == [Finding(.warning, "duplicate-key", "B/T.xcstrings", "Hello", "en")])
            #expect(try Localizer(catalog: catalog, locale: "en").string("Hello", table: "T").text == "Hello from B")
        }
    }

    // MARK: The sample catalog

    @Test func configCatalogHasNoErrors() {
        let report = CatalogLinter(catalog: Support.configCatalog).lint()
        #expect(report.errorCount == 0, "\(report.findings.filter { $0.severity == .error })")
    }
}
