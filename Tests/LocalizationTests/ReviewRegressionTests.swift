// Caffe — Localization tests.
import Foundation
import Localization
import Testing

/// Failures found in review, each pinned by a test.
@Suite("Localization review regressions")
struct LocalizationReviewRegressionTests {
    /// A catalog folder written to a fresh temporary directory.
    func catalog(_ files: [String: String]) throws -> StringCatalog {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-review-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        return try StringCatalog(directory: folder)
    }

    func stringsdict(_ format: String, variables: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>k</key><dict>
        <key>NSStringLocalizedFormatKey</key><string>\(format)</string>
        \(variables)
        </dict></dict></plist>
        """
    }

    @Test func positionZeroAndBadArgNumAreReportedNotCrashes() throws {
        let zero = try catalog([
            "en.lproj/T.stringsdict": stringsdict(
                "%0#@n@",
                variables:
                    "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>other</key><string>%d</string></dict>"
            )
        ])
        #expect(zero.diagnostics.contains { $0.code == .invalidSpecifier })
        _ = try? Localizer(catalog: zero, locale: "en").string("k", table: "T", arguments: [3])

        for argNum in ["0", "-9223372036854775808", "101"] {
            let json =
                #"{"sourceLanguage":"en","strings":{"k":{"localizations":{"en":{"stringUnit":{"state":"translated","value":"%#@n@"},"substitutions":{"n":{"argNum":\#(argNum),"formatSpecifier":"lld","variations":{"plural":{"other":{"stringUnit":{"state":"translated","value":"%arg"}}}}}}}}}}}"#
            let loaded = try catalog(["T.xcstrings": json])
            #expect(loaded.diagnostics.contains { $0.code == .invalidSpecifier && $0.severity == .error })
            #expect(try Localizer(catalog: loaded, locale: "en").string("k", table: "T", arguments: [3]).text == "3")
        }
    }

    @Test func selfReferencingVariablesAreReported() throws {
        let loop = String(repeating: "%#@a@", count: 10)
        let loaded = try catalog([
            "en.lproj/T.stringsdict": stringsdict(
                "%#@a@",
                variables:
                    "<key>a</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>one</key><string>\(loop)</string><key>other</key><string>\(loop)</string></dict>"
            )
        ])
        #expect(loaded.diagnostics.contains { $0.message.contains("refers to itself") })
    }

    @Test func hugeWidthsAndPositionsAreRejected() throws {
        let loaded = try catalog(["en.lproj/T.strings": #""w" = "%1$1000000d"; "p" = "%99999999999$d";"#])
        #expect(loaded.diagnostics.filter { $0.code == .invalidSpecifier }.count == 2)
        let localizer = try Localizer(catalog: loaded, locale: "en")
        #expect(try localizer.string("w", table: "T", arguments: [5]).text == "%1$1000000d")
    }

    @Test func printfEdgeCases() throws {
        let loaded = try catalog(["en.lproj/T.strings": #""e" = "%e"; "d3" = "%.3d"; "o" = "%@";"#])
        let english = try Localizer(catalog: loaded, locale: "en")
        #expect(try english.string("e", table: "T", arguments: [.double(4.9e-303)]).text == "4.900000e-303")
        #expect(try english.string("d3", table: "T", arguments: [5]).text == "005")
        #expect(try english.string("o", table: "T", arguments: [.decimal("1.00000000001")]).text == "1.00000000001")
    }

    @Test func pluralsSeeEveryVisibleDigit() throws {
        #expect(try PluralRules(locale: "ru").category(for: .double(0.00001)) == .other)
        #expect(try PluralRules(locale: "lv").category(for: .decimal("0.0000001")) == .one)
        #expect(try PluralRules(locale: "ar").category(for: .decimal("1.0000001")) == .other)
    }

    @Test func catalogFolderThroughASymlinkLoads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-link-\(UUID().uuidString)")
        let link = folder.appendingPathExtension("link")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("en.lproj"),
            withIntermediateDirectories: true
        )
        try Data(#""a" = "b";"#.utf8).write(to: folder.appendingPathComponent("en.lproj/T.strings"))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        defer {
            try? FileManager.default.removeItem(at: link)
            try? FileManager.default.removeItem(at: folder)
        }
        let loaded = try StringCatalog(directory: link)
        #expect(loaded.entry("a", table: "T", localization: "en")?.value.source == "b")
    }

    @Test(.timeLimit(.minutes(1)))
    func norwegianLocaleTagsDoNotHang() throws {
        let loaded = try catalog(["en.lproj/T.strings": #""a" = "b";"#])
        for tag in ["no-NO", "no_NO", "no-NO-NY", "no-NO-u-nu-latn"] {
            #expect(try Localizer(catalog: loaded, locale: tag).string("a", table: "T").text == "b")
        }
    }
}
