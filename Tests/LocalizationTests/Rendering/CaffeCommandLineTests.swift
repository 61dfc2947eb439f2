// Caffe — Localization tests.

import CaffeTestKit
import Foundation
import Localization
import Testing

/// The `caffe` executable run as a real process. It is found next to this test bundle, where
/// `swift build --build-tests` puts it; when it is not there these tests are skipped.
@Suite(
    "caffe command line",
    .enabled(if: RenderingSupport.caffeExecutable != nil, "the caffe executable is not next to the test bundle")
)
struct CaffeCommandLineTests {
    typealias Support = RenderingSupport

    @Test func pluralPrintsOneCategoryPerLine() throws {
        let result = try Support.runCaffe(["plural", "--locale", "ru", "1", "2", "5", "1.5"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "one\nfew\nmany\nother\n")
    }

    @Test func pluralCountsVisibleFractionDigits() throws {
        let english = try Support.runCaffe(["plural", "--locale", "en", "1", "1.0", "0"])
        #expect(english.standardOutput == "one\nother\nother\n")
        let spanish = try Support.runCaffe(["plural", "--locale", "es-MX", "1", "1.0", "1000000"])
        #expect(spanish.standardOutput == "one\none\nmany\n")
    }

    /// `--` ends the options, as in every caffe command; negative numbers work with or without it.
    @Test func pluralTakesEndOfOptions() throws {
        for arguments in [["--", "-1", "2"], ["-1", "2"], ["-1", "--", "2"]] {
            let result = try Support.runCaffe(["plural", "--locale", "ru"] + arguments)
            #expect(
                result.status == 0 && result.standardOutput == "one\nfew\n",
                "\(arguments): \(result.standardError)"
            )
        }
        let unknown = try Support.runCaffe(["plural", "--locale", "ru", "--bogus", "1"])
        #expect(unknown.status == 64 && unknown.standardError.contains("unknown option '--bogus'"))
        let afterEnd = try Support.runCaffe(["plural", "--locale", "ru", "--", "--3"])
        #expect(afterEnd.status == 64 && afterEnd.standardError.contains("'--3' is not a number"))
    }

    /// Issue 31, item 6: one catalog file is its own table, as Bundle names a table after its file
    /// (`Positional.xcstrings` is `Positional`); `--table` still chooses.
    @Test func aSingleCatalogFileIsItsOwnTable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Positional.xcstrings")
        try Data(
            #"""
            {"sourceLanguage":"en","version":"1.0","strings":{"greeting %@":{"localizations":{
            "en":{"stringUnit":{"state":"translated","value":"Hello, %@!"}},
            "fr":{"stringUnit":{"state":"translated","value":"Bonjour, %@ !"}}}}}}
            """#.utf8
        ).write(to: file)
        let own = try Support.runCaffe(["string", "--catalog", file.path, "--locale", "fr", "greeting %@", "Ana"])
        #expect(own.status == 0 && own.standardOutput == "Bonjour, Ana !\n", "\(own.standardError)")
        let other = try Support.runCaffe([
            "string", "--catalog", file.path, "--locale", "fr", "--table", "Localizable", "greeting %@", "Ana",
        ])
        #expect(other.status == 1 && other.standardError.contains("in table Localizable"))
    }

    /// Issue 31, item 4: one broken entry does not fail lookups of the others. CFBundle stores a
    /// table's entries as they are and looks each key up on its own (`_copyStringFromTable`,
    /// CFBundle_Strings.c); only the broken key, or a broken file of the key's table, exits 1.
    @Test func oneBrokenEntryFailsOnlyItsOwnLookup() throws {
        let stringsdict = Support.stringsdict(
            [("%d cups", "%#@cups@", "cups", [("one", "%d cup"), ("other", "%d cups")])],
            before: "<key>broken</key><dict><key>NSStringLocalizedFormatKey</key><string></string></dict>\n"
        )
        let files = [
            "en.lproj/Localizable.stringsdict": stringsdict,
            "en.lproj/Other.strings": "\"a\" = \"b\";\n\"c\" = ",
        ]
        try Support.withFolder(files) { folder in
            func string(_ arguments: [String]) throws -> Support.ProcessResult {
                try Support.runCaffe(["string", "--catalog", folder.path, "--locale", "en"] + arguments)
            }
            let cups = try string(["%d cups", "3"])
            #expect(cups.status == 0 && cups.standardOutput == "3 cups\n")
            #expect(
                cups.standardError
                    == "caffe string: 2 errors elsewhere in the catalog (other keys or tables) do not affect this key; "
                    + "caffe lint lists them\n"
            )
            let broken = try string(["broken"])
            #expect(broken.status == 1 && broken.standardOutput == "\n")
            #expect(
                broken.standardError
                    == "caffe string: en.lproj/Localizable.stringsdict:5:1: error: [invalid-entry] 'broken' (en): "
                    + "NSStringLocalizedFormatKey is empty, so the entry is shown as an empty string\n"
                    + "caffe string: 1 error elsewhere in the catalog (other keys or tables) does not affect this "
                    + "key; caffe lint lists it\n",
                "\(broken.standardError)"
            )
            // A file cut short may have lost any key of its table.
            let other = try string(["--table", "Other", "a"])
            #expect(other.status == 1 && other.standardOutput == "b\n")
            #expect(other.standardError.contains("en.lproj/Other.strings:2:"), "\(other.standardError)")
        }
    }

    /// Issue 31, item 5: a table outside any `.lproj` folder serves every locale, from a folder or
    /// as one file, as Bundle searches global resources first.
    @Test func aNonLocalizedTableServesEveryLocale() throws {
        let files = ["Localizable.strings": Support.stringsFile([("Welcome", "Welcome to the café")])]
        try Support.withFolder(files) { folder in
            for catalog in [folder.path, folder.appendingPathComponent("Localizable.strings").path] {
                let result = try Support.runCaffe([
                    "string", "--catalog", catalog, "--locale", "fr", "--development-language", "en", "Welcome",
                ])
                #expect(
                    result.status == 0 && result.standardOutput == "Welcome to the café\n",
                    "\(result.standardError)"
                )
                #expect(result.standardError.isEmpty)
            }
        }
    }

    /// Issue 31, item 7, from the command line: a catalog whose "100% accurate" takes no arguments
    /// lints clean and renders as written.
    @Test func aPercentSignInAStringWithoutArgumentsLintsClean() throws {
        let catalog = try Support.xcstrings([
            "100% accurate": [
                "localizations": [
                    "en": Support.unit("100% accurate"), "es": Support.unit("100 % de precisión"),
                ]
            ]
        ])
        try Support.withFolder(["Localizable.xcstrings": catalog]) { folder throws in
            let lint = try Support.runCaffe(["lint", folder.path])
            #expect(
                lint.status == 0 && lint.standardOutput == "0 errors, 0 warnings, 0 notes\n",
                "\(lint.standardOutput)"
            )
            let string = try Support.runCaffe(["string", "--catalog", folder.path, "--locale", "es", "100% accurate"])
            #expect(string.status == 0 && string.standardOutput == "100 % de precisión\n")
        }
    }

    @Test func pluralRejectsText() throws {
        let result = try Support.runCaffe(["plural", "--locale", "ru", "two"])
        #expect(result.status != 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("'two' is not a number"))
    }

    @Test func lintSampleCatalogExitsZero() throws {
        let result = try Support.runCaffe(["lint", Support.configDirectory.path])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let lastLine = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasPrefix("0 errors, "), "\(lastLine)")
    }

    static let brokenFolder: [String: String] = [
        "Broken.xcstrings": "{ \"sourceLanguage\" : \"en\", \"strings\" : { \"a\" : { x } } }",
        "en.lproj/Menu.strings": "\"juice\" = \"juice\";\n",
    ]

    @Test func lintWithAnErrorExitsOne() throws {
        try Support.withFolder(Self.brokenFolder) { folder in
            let result = try Support.runCaffe(["lint", folder.path])
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("Broken.xcstrings"))
            #expect(result.standardOutput.contains("error: [syntax-error]"))
            #expect(result.standardOutput.hasSuffix("1 error, 0 warnings, 0 notes\n"))
        }
    }

    @Test func lintJSON() throws {
        try Support.withFolder(Self.brokenFolder) { folder in
            let result = try Support.runCaffe(["lint", "--json", folder.path])
            #expect(result.status == 1)
            let parsed = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
            let findings = try #require(parsed as? [[String: Any]])
            #expect(findings.count == 1)
            for finding in findings {
                for key in ["severity", "code", "file", "message"] {
                    #expect(finding[key] is String, "\(key) in \(finding)")
                }
            }
            #expect(findings.first?["severity"] as? String == "error")
            #expect(findings.first?["code"] as? String == "syntax-error")
            #expect(findings.first?["file"] as? String == "Broken.xcstrings")
        }
    }

    @Test func lintJSONOnTheSampleCatalog() throws {
        let result = try Support.runCaffe(["lint", "--json", Support.configDirectory.path])
        #expect(result.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        let findings = try #require(parsed as? [[String: Any]])
        for finding in findings {
            for key in ["severity", "code", "file", "message"] {
                #expect(finding[key] is String, "\(key) in \(finding)")
            }
            #expect(finding["severity"] as? String != "error")
        }
    }

    @Test func stringRendersForALocale() throws {
        let result = try Support.runCaffe([
            "string", "--catalog", Support.configDirectory.path, "--locale", "es-MX", "%lld items", "1000000",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "1,000,000 de artículos\n")
    }
}
