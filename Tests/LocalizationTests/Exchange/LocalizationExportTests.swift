// Caffe — Localization tests.
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

    @Test("a Russian export carries few and many for every plural, String Catalog and stringsdict alike")
    func russianPlurals() throws {
        let export = try LocalizationExport(catalogFolder: Self.catalog, developmentLanguage: "en", language: "ru")
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
        // Nothing is Russian yet: every target empty and new.
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
        #expect(juice.source == "juice" || !juice.source.isEmpty)
        #expect(juice.target == "jus")
        #expect(parsed.units.first { $0.id == "Open your receipt|==|device.applewatch" }?.target.isEmpty == false)
    }

    @Test("the .xcloc folder: contents.json, Localized Contents, Source Contents, Notes")
    func bundleLayout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcloc-\(UUID().uuidString)")
        let export = try LocalizationExport(catalogFolder: Self.catalog, developmentLanguage: "en", language: "ru")
        let bundle = try export.write(to: folder, catalogFolder: Self.catalog, toolVersion: "9.9.9")
        #expect(bundle.lastPathComponent == "ru.xcloc")
        let contents = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("contents.json")))
                as? [String: Any]
        )
        #expect(contents["developmentRegion"] as? String == "en")
        #expect(contents["targetLocale"] as? String == "ru")
        #expect(contents["version"] as? String == "1.0")
        #expect((contents["toolInfo"] as? [String: Any])?["toolVersion"] as? String == "9.9.9")
        let manager = FileManager.default
        #expect(manager.fileExists(atPath: bundle.appendingPathComponent("Localized Contents/ru.xliff").path))
        #expect(manager.fileExists(atPath: bundle.appendingPathComponent("Source Contents/en.lproj/Menu.strings").path))
        #expect(manager.fileExists(atPath: bundle.appendingPathComponent("Source Contents/Localizable.xcstrings").path))
        #expect(manager.fileExists(atPath: bundle.appendingPathComponent("Notes").path))
    }
}
