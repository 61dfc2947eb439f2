// Caffe — Localization tests.
import CaffeTestKit
import Foundation
import Testing

@testable import Localization

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `caffe catalog export`: the repository's catalog exported for translators.
@Suite("Localization export (.xcloc)")
struct LocalizationExportTests {
    static let catalog = ConcurrentRenderingTests.catalog

    /// Every `<trans-unit>` of an XLIFF as the platform's XML parser reads it: id, source, target
    /// and its state.
    final class Units: NSObject, XMLParserDelegate {
        var units: [(id: String, source: String, target: String, state: String)] = []
        var files: [String] = []
        private var text = ""
        private var current: (id: String, source: String, target: String, state: String)?

        func parser(
            _ parser: XMLParser,
            didStartElement element: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
            if element == "trans-unit" { current = (attributes["id"] ?? "", "", "", "") }
            if element == "target" { current?.state = attributes["state"] ?? "" }
            if element == "file" { files.append(attributes["original"] ?? "") }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(
            _ parser: XMLParser,
            didEndElement element: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            switch element {
            case "source": current?.source = text
            case "target": current?.target = text
            case "trans-unit":
                if let current { units.append(current) }
                current = nil
            default: break
            }
        }
    }

    static func parse(_ xliff: String) throws -> Units {
        let parser = XMLParser(data: Data(xliff.utf8))
        let units = Units()
        parser.delegate = units
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return units
    }

    @Test("a Ukrainian export carries few and many for every plural, String Catalog and stringsdict alike")
    func russianPlurals() throws {
        let export = try LocalizationExport(catalogFolder: Self.catalog, developmentLanguage: "en", language: "uk")
        let parsed = try Self.parse(export.xliff(toolVersion: "test"))
        #expect(
            parsed.files == [
                "Localizable.xcstrings", "en.lproj/Menu.strings", "en.lproj/Menu.stringsdict",
                "en.lproj/Receipt.stringsdict",
            ]
        )
        let ids = parsed.units.map(\.id)
        // String Catalog plurals: key|==|…plural.<category>.
        let catalogPlurals = Set(ids.compactMap { id in id.range(of: "plural.").map { String(id[..<$0.lowerBound]) } })
        #expect(!catalogPlurals.isEmpty)
        for base in catalogPlurals {
            for category in ["one", "few", "many", "other"] {
                #expect(ids.contains(base + "plural.\(category)"), "\(base)plural.\(category)")
            }
        }
        // stringsdict plurals: /key:dict/variable:dict/<category>:dict/:string.
        let dictPlurals = Set(
            ids.compactMap { id -> String? in
                guard id.hasSuffix(":dict/:string"), !id.contains("NSStringLocalizedFormatKey") else { return nil }
                let parts = id.split(separator: "/")
                return parts.dropLast(2).joined(separator: "/")
            }
        )
        #expect(dictPlurals.count >= 4)
        for base in dictPlurals {
            for category in ["one", "few", "many", "other"] {
                #expect(ids.contains("/\(base)/\(category):dict/:string"), "\(base) \(category)")
            }
        }
        // Nothing is Ukrainian yet: every target empty and new.
        #expect(parsed.units.allSatisfy { $0.target.isEmpty && $0.state == "new" })
        let few = try #require(
            parsed.units.first { $0.id == "%@ ordered %lld coffees|==|substitutions.coffees.plural.few" }
        )
        #expect(few.source == "%arg coffees")  // English has no few: its other
    }

    @Test("a French export carries the French texts as targets, with their state, and the sources' comments")
    func frenchTargets() throws {
        let export = try LocalizationExport(catalogFolder: Self.catalog, developmentLanguage: "en", language: "fr")
        let parsed = try Self.parse(export.xliff(toolVersion: "test"))
        let welcome = try #require(parsed.units.first { $0.id == "Welcome, %@!" })
        #expect(welcome.source == "Welcome, %@!")
        #expect(welcome.target.hasPrefix("^[Bienvenu](inflect: true"))
        #expect(welcome.state == "translated")
        let juice = try #require(parsed.units.first { $0.id == "juice" })
        #expect(juice.source == "juice")
        #expect(juice.target == "jus")
        // A String Catalog's needs_review is XLIFF's needs-review-translation.
        let arabic = try Self.parse(
            try LocalizationExport(catalogFolder: Self.catalog, developmentLanguage: "en", language: "ar")
                .xliff(toolVersion: "test")
        )
        #expect(arabic.units.first { $0.id == "%@ ordered %lld coffees" }?.state == "needs-review-translation")
        #expect(parsed.units.first { $0.id == "Open your receipt|==|device.applewatch" }?.target.isEmpty == false)
    }

    @Test("the .xcloc folder: contents.json, Localized Contents, Source Contents, Notes")
    func bundleLayout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcloc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = try LocalizationExport(catalogFolder: Self.catalog, developmentLanguage: "en", language: "uk")
        let bundle = try export.write(to: folder, catalogFolder: Self.catalog, toolVersion: "9.9.9")
        #expect(bundle.lastPathComponent == "uk.xcloc")
        let contents = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("contents.json")))
                as? [String: Any]
        )
        #expect(contents["developmentRegion"] as? String == "en")
        #expect(contents["targetLocale"] as? String == "uk")
        #expect(contents["version"] as? String == "1.0")
        #expect((contents["toolInfo"] as? [String: Any])?["toolVersion"] as? String == "9.9.9")
        let manager = FileManager.default
        #expect(manager.fileExists(atPath: bundle.appendingPathComponent("Localized Contents/uk.xliff").path))
        #expect(manager.fileExists(atPath: bundle.appendingPathComponent("Source Contents/en.lproj/Menu.strings").path))
        #expect(manager.fileExists(atPath: bundle.appendingPathComponent("Source Contents/Localizable.xcstrings").path))
        #expect(manager.fileExists(atPath: bundle.appendingPathComponent("Notes").path))
    }

    /// A catalog of our own with what the repository's does not have: a translation with plural
    /// variants where the source is plain, a key with a newline, one with a control character, a
    /// non-localized table, and a table only in French.
    @Test("translations with variants the source lacks, newlines in ids, characters XML cannot carry, tables left out")
    func edgeCases() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for path in ["en.lproj", "fr.lproj", "ru.lproj"] {
            try manager.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        let catalog: [String: Any] = [
            "sourceLanguage": "en", "version": "1.0",
            "strings": [
                "%lld items": [
                    "localizations": [
                        "en": ["stringUnit": ["state": "translated", "value": "%lld items"]],
                        "ru": [
                            "variations": [
                                "plural": [
                                    "one": ["stringUnit": ["state": "translated", "value": "%lld предмет"]],
                                    "few": ["stringUnit": ["state": "translated", "value": "%lld предмета"]],
                                ]
                            ]
                        ],
                    ]
                ],
                "Line one\nline two": [
                    "localizations": ["en": ["stringUnit": ["state": "translated", "value": "Line one\nline two"]]]
                ],
                "bell": ["localizations": ["en": ["stringUnit": ["state": "translated", "value": "ding\u{7}"]]]],
            ],
        ]
        try JSONSerialization.data(withJSONObject: catalog).write(
            to: folder.appendingPathComponent("Localizable.xcstrings")
        )
        try Data("\"global\" = \"Global\";\n".utf8).write(to: folder.appendingPathComponent("Global.strings"))
        try Data("\"only\" = \"Seulement\";\n".utf8).write(to: folder.appendingPathComponent("fr.lproj/Extra.strings"))
        try Data("\"hello\" = \"Hello\";\n".utf8).write(to: folder.appendingPathComponent("en.lproj/Menu.strings"))
        let export = try LocalizationExport(catalogFolder: folder, developmentLanguage: "en", language: "ru")
        let parsed = try Self.parse(export.xliff(toolVersion: "test"))
        let byID = Dictionary(parsed.units.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byID["%lld items"]?.target == "")
        #expect(byID["%lld items|==|plural.one"]?.target == "%lld предмет")
        #expect(byID["%lld items|==|plural.few"]?.source == "%lld items")
        #expect(byID["%lld items|==|plural.few"]?.target == "%lld предмета")
        // The newline survives the attribute as &#10;.
        #expect(byID["Line one\nline two"]?.source == "Line one\nline two")
        #expect(byID["bell"] == nil)
        #expect(export.skipped.contains { $0.contains("\"bell\"") && $0.contains("control character") })
        #expect(
            export.skipped.contains(
                "Global.strings: a non-localized table (outside any .lproj folder) is not translated"
            )
        )
        #expect(export.skipped.contains("fr.lproj/Extra.strings: no en.lproj table of that name to translate from"))
        #expect(parsed.files == ["Localizable.xcstrings", "en.lproj/Menu.strings"])
        // An export written into the catalog folder is not read as part of it next time.
        try export.write(to: folder, catalogFolder: folder, toolVersion: "test")
        let again = try LocalizationExport(catalogFolder: folder, developmentLanguage: "en", language: "ru")
        #expect(again.files.map(\.original) == ["Localizable.xcstrings", "en.lproj/Menu.strings"])
    }

    @Test("caffe catalog export writes the bundle and says what it holds")
    func commandLine() throws {
        let caffe = try #require(ExecutableRunner.locate("caffe"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ExecutableRunner.run(
            caffe,
            ["catalog", "export", "--language", "uk", "--output", folder.path, "--catalog", Self.catalog.path]
        )
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("caffe catalog export: \(folder.path)/uk.xcloc: 4 files, "))
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("uk.xcloc/Localized Contents/uk.xliff").path
            )
        )
        let refused = try ExecutableRunner.run(
            caffe,
            ["catalog", "export", "--language", "uk", "--output", folder.path, "--catalog", folder.path]
        )
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("nothing to export"))
    }
}
