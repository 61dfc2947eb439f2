// Caffe — Localization tests.
import CaffeTestKit
import Foundation
import Testing

@testable import Localization

/// The round trip: export for Russian, translate as a translator would (in the XLIFF), import,
/// lint, render — and a translation that would break a specifier refused.
@Suite("Localization import")
struct LocalizationImportTests {
    /// A copy of the repository's catalog folder, removed by the caller.
    static func catalogCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: LocalizationExportTests.catalog, to: folder)
        return folder
    }

    /// The export's XLIFF with `targets` filled in (by unit id), as a translator's tool leaves it.
    static func translated(_ folder: URL, _ targets: [String: String]) throws -> XLIFFDocument {
        let export = try LocalizationExport(catalogFolder: folder, developmentLanguage: "en", language: "ru")
        var document = try XLIFFReader.read(Array(export.xliff(toolVersion: "test").utf8))
        for file in document.files.indices {
            for unit in document.files[file].units.indices {
                if let target = targets[document.files[file].units[unit].id] {
                    document.files[file].units[unit].target = target
                    document.files[file].units[unit].state = "translated"
                }
            }
        }
        return document
    }

    @Test("export, translate, import, lint, render: exactly the edited values change, a broken one is refused")
    func roundTrip() throws {
        let folder = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalogURL = folder.appendingPathComponent("Localizable.xcstrings")
        let before = try String(contentsOf: catalogURL, encoding: .utf8)
        let document = try Self.translated(
            folder,
            [
                "Subtotal": "Промежуточный итог",
                "%lld items|==|plural.one": "%lld товар",
                "%lld items|==|plural.few": "%lld товара",
                "%lld items|==|plural.many": "%lld товаров",
                "%lld items|==|plural.other": "%lld товара",
                "juice": "сок",
                // A translator who typed %d for a string argument: lint's error, refused.
                "Welcome, %@!": "Добро пожаловать, %d!",
                "/%lld free coffees:dict/coffees:dict/few:dict/:string": "%lld бесплатных кофе",
            ]
        )
        let merge = try LocalizationImport(document: document, catalogFolder: folder)
        #expect(merge.language == "ru")
        #expect(
            Set(merge.changes.map(\.id)) == [
                "Subtotal", "%lld items|==|plural.one", "%lld items|==|plural.few", "%lld items|==|plural.many",
                "%lld items|==|plural.other", "juice",
            ]
        )
        let refusedIDs = Set(merge.refused.map(\.id))
        #expect(refusedIDs == ["Welcome, %@!", "/%lld free coffees:dict/coffees:dict/few:dict/:string"])
        let welcome = try #require(merge.refused.first { $0.id == "Welcome, %@!" })
        #expect(welcome.reason.contains("Welcome, %@!"))
        #expect(Set(merge.files.keys) == ["Localizable.xcstrings", "ru.lproj/Menu.strings"])
        try merge.write()

        // Everything else byte for byte: the file before is the file after minus inserted lines.
        let after = try String(contentsOf: catalogURL, encoding: .utf8)
        var remaining = after.split(separator: "\n", omittingEmptySubsequences: false)[...]
        for line in before.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let found = remaining.firstIndex(of: line) else {
                Issue.record("line lost or changed: \(line)")
                break
            }
            remaining = remaining[remaining.index(after: found)...]
        }
        #expect(
            try String(contentsOf: folder.appendingPathComponent("ru.lproj/Menu.strings"), encoding: .utf8)
                == "\"juice\" = \"сок\";\n"
        )

        // The catalog loads, lints no worse, and renders the Russian plural.
        let catalog = try StringCatalog(directory: folder)
        let localizer = try Localizer(catalog: catalog, locale: "ru")
        #expect(try localizer.string("%lld items", arguments: [.integer(5)]).text == "5 товаров")
        #expect(try localizer.string("%lld items", arguments: [.integer(2)]).text == "2 товара")
        #expect(try localizer.string("%lld items", arguments: [.integer(21)]).text == "21 товар")
        #expect(try localizer.string("Subtotal").text == "Промежуточный итог")
        #expect(try localizer.string("juice", table: "Menu").text == "сок")
        let errors = CatalogLinter(catalog: catalog, termTables: ["Menu"]).lint().findings.filter {
            $0.severity == .error
        }
        let original = CatalogLinter(
            catalog: try StringCatalog(directory: LocalizationExportTests.catalog),
            termTables: ["Menu"]
        )
        .lint().findings.filter { $0.severity == .error }
        #expect(errors.count == original.count)

        // Importing the same XLIFF again changes nothing.
        let again = try LocalizationImport(document: document, catalogFolder: folder)
        #expect(again.changes.isEmpty && again.files.isEmpty)
        #expect(again.unchanged == 6)
    }

    @Test("caffe catalog import: the .xcloc back, what changed and what was refused, exit 1 on a refusal")
    func commandLine() throws {
        let caffe = try #require(ExecutableRunner.locate("caffe"))
        let folder = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let exports = FileManager.default.temporaryDirectory.appendingPathComponent("exports-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: exports) }
        let exported = try ExecutableRunner.run(
            caffe,
            ["catalog", "export", "--language", "ru", "--output", exports.path, "--catalog", folder.path]
        )
        #expect(exported.status == 0)
        let xliff = exports.appendingPathComponent("ru.xcloc/Localized Contents/ru.xliff")
        let text = try String(contentsOf: xliff, encoding: .utf8)
        func translate(_ source: String, _ target: String, in text: String) -> String {
            text.replacingOccurrences(
                of: "<source>\(source)</source>\n        <target state=\"new\"></target>",
                with: "<source>\(source)</source>\n        <target state=\"translated\">\(target)</target>"
            )
        }
        try translate("Subtotal", "Промежуточный итог", in: text).write(to: xliff, atomically: true, encoding: .utf8)
        let imported = try ExecutableRunner.run(
            caffe,
            ["catalog", "import", exports.appendingPathComponent("ru.xcloc").path, "--catalog", folder.path]
        )
        #expect(imported.status == 0)
        #expect(imported.standardOutput.hasPrefix("caffe catalog import (ru): changed 1 values in 1 files;"))
        #expect(
            imported.standardOutput.contains("Localizable.xcstrings: \"Subtotal\": \"(new)\" -> \"Промежуточный итог\"")
        )
        let broken = translate("Welcome, %@!", "Привет, %d!", in: text)
        try broken.write(to: xliff, atomically: true, encoding: .utf8)
        let refused = try ExecutableRunner.run(caffe, ["catalog", "import", xliff.path, "--catalog", folder.path])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.contains("refused Localizable.xcstrings: \"Welcome, %@!\""))
        #expect(try ExecutableRunner.run(caffe, ["catalog", "import", "/nonexistent.xliff"]).status == 2)
    }
}
