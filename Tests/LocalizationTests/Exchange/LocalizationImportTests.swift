// Caffe — Localization tests.
import CaffeTestKit
import Foundation
import Testing

@testable import Localization

/// The round trip: export for Ukrainian (a language the sample has no localization for), translate as a translator would (in the XLIFF), import,
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
    static func translated(_ folder: URL, _ targets: [String: String], language: String = "uk") throws -> XLIFFDocument
    {
        let export = try LocalizationExport(catalogFolder: folder, developmentLanguage: "en", language: language)
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
                "Subtotal": "Проміжний підсумок",
                "%lld items|==|plural.one": "%lld товар",
                "%lld items|==|plural.few": "%lld товари",
                "%lld items|==|plural.many": "%lld товарів",
                "%lld items|==|plural.other": "%lld товару",
                "juice": "сік",
                // A translator who typed %d for a string argument: lint's error, refused.
                "Welcome, %@!": "Ласкаво просимо, %d!",
                // Ukrainian has no Receipt.stringsdict: the entry is made from English's structure.
                "/%lld free coffees:dict/coffees:dict/one:dict/:string": "%lld безкоштовна кава",
                "/%lld free coffees:dict/coffees:dict/few:dict/:string": "%lld безкоштовні кави",
                "/%lld free coffees:dict/coffees:dict/many:dict/:string": "%lld безкоштовних кав",
                "/%lld free coffees:dict/coffees:dict/other:dict/:string": "%lld безкоштовної кави",
                // A count shown as text: lint's error, the whole entry refused with it.
                "/%1$lld lines, %2$lld items:dict/lines:dict/other:dict/:string": "%1$@ рядки",
                "/%1$lld lines, %2$lld items:dict/items:dict/other:dict/:string": "%2$lld товару",
            ]
        )
        let merge = try LocalizationImport(document: document, catalogFolder: folder)
        #expect(merge.language == "uk")
        #expect(
            Set(merge.changes.map(\.id)) == [
                "Subtotal", "%lld items|==|plural.one", "%lld items|==|plural.few", "%lld items|==|plural.many",
                "%lld items|==|plural.other", "juice",
                "/%lld free coffees:dict/coffees:dict/one:dict/:string",
                "/%lld free coffees:dict/coffees:dict/few:dict/:string",
                "/%lld free coffees:dict/coffees:dict/many:dict/:string",
                "/%lld free coffees:dict/coffees:dict/other:dict/:string",
            ]
        )
        let refusedIDs = Set(merge.refused.map(\.id))
        #expect(
            refusedIDs == [
                "Welcome, %@!", "/%1$lld lines, %2$lld items:dict/lines:dict/other:dict/:string",
                "/%1$lld lines, %2$lld items:dict/items:dict/other:dict/:string",
            ]
        )
        let welcome = try #require(merge.refused.first { $0.id == "Welcome, %@!" })
        #expect(welcome.reason.contains("Welcome, %@!"))
        #expect(
            Set(merge.files.keys) == ["Localizable.xcstrings", "uk.lproj/Menu.strings", "uk.lproj/Receipt.stringsdict"]
        )
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
            try String(contentsOf: folder.appendingPathComponent("uk.lproj/Menu.strings"), encoding: .utf8)
                == "\"juice\" = \"сік\";\n"
        )
        // English's settings and language-neutral format, Ukrainian's categories in CLDR order.
        #expect(
            try String(contentsOf: folder.appendingPathComponent("uk.lproj/Receipt.stringsdict"), encoding: .utf8)
                == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>%lld free coffees</key>
                \t<dict>
                \t\t<key>NSStringLocalizedFormatKey</key>
                \t\t<string>%#@coffees@</string>
                \t\t<key>coffees</key>
                \t\t<dict>
                \t\t\t<key>NSStringFormatSpecTypeKey</key>
                \t\t\t<string>NSStringPluralRuleType</string>
                \t\t\t<key>NSStringFormatValueTypeKey</key>
                \t\t\t<string>lld</string>
                \t\t\t<key>one</key>
                \t\t\t<string>%lld безкоштовна кава</string>
                \t\t\t<key>few</key>
                \t\t\t<string>%lld безкоштовні кави</string>
                \t\t\t<key>many</key>
                \t\t\t<string>%lld безкоштовних кав</string>
                \t\t\t<key>other</key>
                \t\t\t<string>%lld безкоштовної кави</string>
                \t\t</dict>
                \t</dict>
                </dict>
                </plist>

                """
        )

        // The catalog loads, lints no worse, and renders the Ukrainian plural.
        let catalog = try StringCatalog(directory: folder)
        let localizer = try Localizer(catalog: catalog, locale: "uk")
        #expect(try localizer.string("%lld items", arguments: [.integer(5)]).text == "5 товарів")
        #expect(try localizer.string("%lld items", arguments: [.integer(2)]).text == "2 товари")
        #expect(try localizer.string("%lld items", arguments: [.integer(21)]).text == "21 товар")
        #expect(try localizer.string("Subtotal").text == "Проміжний підсумок")
        #expect(try localizer.string("juice", table: "Menu").text == "сік")
        #expect(
            try localizer.string("%lld free coffees", table: "Receipt", arguments: [.integer(5)]).text
                == "5 безкоштовних кав"
        )
        #expect(
            try localizer.string("%lld free coffees", table: "Receipt", arguments: [.integer(21)]).text
                == "21 безкоштовна кава"
        )
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
        #expect(again.unchanged == 10)
    }

    @Test(
        "a .stringsdict edited in place: a value replaced, a category inserted in CLDR order, an entry made, the rest byte for byte"
    )
    func stringsDictInPlace() throws {
        let folder = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("de.lproj/Receipt.stringsdict")
        let original = try String(contentsOf: file, encoding: .utf8)
        // The German file without its last entry, which the translation brings back.
        let entry = try #require(original.range(of: "\t<key>%1$@ added %2$lld %3$@</key>"))
        let end = try #require(original.range(of: "</dict>\n</plist>", options: .backwards))
        try (original[..<entry.lowerBound] + original[end.lowerBound...]).write(
            to: file,
            atomically: true,
            encoding: .utf8
        )

        let coffees = "/%lld free coffees:dict/coffees:dict/"
        let added = "/%1$@ added %2$lld %3$@:dict/"
        let document = try Self.translated(
            folder,
            [
                coffees + "one:dict/:string": "%lld Gratis-Kaffee",
                coffees + "zero:dict/:string": "Noch kein Gratiskaffee",
                coffees + "other:dict/:string": "%lld Gratiskaffees",
                "/%1$lld lines, %2$lld items:dict/items:dict/other:dict/:string": "%2$lld Artikel & mehr",
                added + "NSStringLocalizedFormatKey:dict/:string": "%1$@ hat %2$#@items@ hinzugefügt",
                added + "items:dict/one:dict/:string": "%2$lld × %3$@",
                added + "items:dict/other:dict/:string": "%2$lld × %3$@",
            ],
            language: "de"
        )
        let merge = try LocalizationImport(document: document, catalogFolder: folder)
        #expect(merge.refused.isEmpty)
        // Everything German has already comes back unchanged, "other" of coffees among it.
        let translatedUnits = document.files.flatMap(\.units).filter { !($0.target ?? "").isEmpty }
        #expect(merge.unchanged == translatedUnits.count - 6)
        #expect(
            Set(merge.changes.map(\.id)) == [
                coffees + "one:dict/:string", coffees + "zero:dict/:string",
                "/%1$lld lines, %2$lld items:dict/items:dict/other:dict/:string",
                added + "NSStringLocalizedFormatKey:dict/:string", added + "items:dict/one:dict/:string",
                added + "items:dict/other:dict/:string",
            ]
        )
        #expect(Set(merge.files.keys) == ["de.lproj/Receipt.stringsdict"])
        try merge.write()
        let expected =
            original
            .replacingOccurrences(
                of: "<key>one</key>\n\t\t\t<string>%lld Gratiskaffee</string>",
                with: "<key>zero</key>\n\t\t\t<string>Noch kein Gratiskaffee</string>\n\t\t\t"
                    + "<key>one</key>\n\t\t\t<string>%lld Gratis-Kaffee</string>"
            )
            .replacingOccurrences(
                of: "<key>other</key>\n\t\t\t<string>%2$lld Artikel</string>",
                with: "<key>other</key>\n\t\t\t<string>%2$lld Artikel &amp; mehr</string>"
            )
        #expect(try String(contentsOf: file, encoding: .utf8) == expected)

        let localizer = try Localizer(catalog: try StringCatalog(directory: folder), locale: "de")
        func render(_ key: String, _ arguments: [FormatArgument]) throws -> String {
            try localizer.string(key, table: "Receipt", arguments: arguments).text
        }
        #expect(try render("%lld free coffees", [.integer(0)]) == "Noch kein Gratiskaffee")
        #expect(try render("%lld free coffees", [.integer(1)]) == "1 Gratis-Kaffee")
        #expect(try render("%1$lld lines, %2$lld items", [.integer(2), .integer(3)]) == "2 Zeilen, 3 Artikel & mehr")
        #expect(
            try render("%1$@ added %2$lld %3$@", [.string("Ana"), .integer(2), .string("Kekse")])
                == "Ana hat 2 × Kekse hinzugefügt"
        )
    }

    @Test("a .stringsdict of another hand: its indentation, comments, an empty rule, a broken file refused whole")
    func stringsDictShapes() throws {
        let source = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
              <key>%lld cups &amp; mugs</key>
              <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%#@cups@</string>
                <key>cups</key>
                <dict>
                  <key>NSStringFormatSpecTypeKey</key>
                  <string>NSStringPluralRuleType</string>
                  <key>NSStringFormatValueTypeKey</key>
                  <string>lld</string>
                  <key>one</key>
                  <string>%lld cup &amp; mug</string>
                  <key>other</key>
                  <string>%lld cups &amp; mugs</string>
                </dict>
              </dict>
            </dict>
            </plist>

            """.utf8
        )
        let target = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
              <!-- kept as written -->
              <key>%lld cups &amp; mugs</key>
              <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string><![CDATA[%#@cups@]]></string>
                <key>cups</key>
                <dict/>
              </dict>
            </dict>
            </plist>

            """.utf8
        )
        func unit(_ category: String, _ text: String) -> XLIFFDocument.Unit {
            XLIFFDocument.Unit(
                id: "/%lld cups & mugs:dict/cups:dict/\(category):dict/:string",
                source: "",
                target: text,
                state: "translated"
            )
        }
        let merge = StringsDictMerge(
            path: "pl.lproj/Cups.stringsdict",
            target: target,
            source: source,
            sourcePath: "en.lproj/Cups.stringsdict",
            units: [unit("other", "%lld kubków <i>"), unit("one", "%lld kubek")]
        )
        #expect(merge.refused.isEmpty)
        #expect(
            String(decoding: try #require(merge.bytes), as: UTF8.self) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0">
                <dict>
                  <!-- kept as written -->
                  <key>%lld cups &amp; mugs</key>
                  <dict>
                    <key>NSStringLocalizedFormatKey</key>
                    <string><![CDATA[%#@cups@]]></string>
                    <key>cups</key>
                    <dict>
                      <key>one</key>
                      <string>%lld kubek</string>
                      <key>other</key>
                      <string>%lld kubków &lt;i&gt;</string>
                    </dict>
                  </dict>
                </dict>
                </plist>

                """
        )
        let broken = StringsDictMerge(
            path: "pl.lproj/Cups.stringsdict",
            target: Array(target.dropLast(10)),
            source: source,
            sourcePath: "en.lproj/Cups.stringsdict",
            units: [unit("other", "%lld kubków")]
        )
        #expect(broken.bytes == nil)
        #expect(broken.refused.count == 1)
        #expect(broken.refused.first?.reason.hasPrefix("not imported: pl.lproj/Cups.stringsdict:") == true)
        #expect(StringsDictMerge.path(of: "/a:dict/b:dict/c:dict/few:dict/:string")! == ("a:dict/b", ["c", "few"]))
        #expect(StringsDictMerge.path(of: "/k:dict/v:dict/sometimes:dict/:string") == nil)
    }

    @Test("an XLIFF as Xcode 12 and translation services write it: a bare table name, xml:space, empty notes")
    func bareTableName() throws {
        let folder = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The shape of an Xcode 12.3 export (`original` without the .lproj folder, `<note/>`, the
        // format key's target equal to its source), written for our catalog.
        let xliff = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
              <file original="Receipt.stringsdict" source-language="en" target-language="fr" datatype="plaintext">
                <header>
                  <tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="12.3" build-num="12C33"/>
                </header>
                <body>
                  <trans-unit id="/%lld free coffees:dict/NSStringLocalizedFormatKey:dict/:string" xml:space="preserve">
                    <source>%#@coffees@</source>
                    <target>%#@coffees@</target>
                    <note/>
                  </trans-unit>
                  <trans-unit id="/%lld free coffees:dict/coffees:dict/one:dict/:string" xml:space="preserve">
                    <source>%lld free coffee</source>
                    <target>%lld café gratuit</target>
                    <note/>
                  </trans-unit>
                </body>
              </file>
              <file original="Nowhere.stringsdict" source-language="en" target-language="fr" datatype="plaintext">
                <body>
                  <trans-unit id="/x:dict/v:dict/one:dict/:string"><source>x</source><target>y</target></trans-unit>
                </body>
              </file>
            </xliff>
            """
        let merge = try LocalizationImport(document: try XLIFFReader.read(Array(xliff.utf8)), catalogFolder: folder)
        #expect(merge.unchanged == 1)
        #expect(merge.changes.map(\.file) == ["fr.lproj/Receipt.stringsdict"])
        #expect(merge.changes.map(\.old) == ["%lld café offert"])
        #expect(
            merge.refused == [
                .init(
                    file: "Nowhere.stringsdict",
                    id: "/x:dict/v:dict/one:dict/:string",
                    reason: "not imported: Nowhere.stringsdict is in no en.lproj folder"
                )
            ]
        )
    }

    /// Every `.stringsdict` of the corpus of real apps (written by their tools, not by us).
    static let corpusStringsDicts: [URL] = {
        let files = FileManager.default.enumerator(
            at: PropertyListTestSupport.corpusDirectory,
            includingPropertiesForKeys: nil
        )?
        .compactMap { $0 as? URL }.filter { $0.pathExtension == "stringsdict" }
        return (files ?? []).sorted { $0.path < $1.path }
    }()

    @Test("every corpus .stringsdict: each value replaced in place reads back as the new value, all else unchanged")
    func corpusStringsDicts() throws {
        #expect(Self.corpusStringsDicts.count == 8)
        for url in Self.corpusStringsDicts {
            let bytes = try [UInt8](Data(contentsOf: url))
            let before = try #require(PropertyListReader.read(Data(bytes), file: url.path).value?.dictionaryValue)
            // One unit per text the export would show, its value marked.
            var units: [XLIFFDocument.Unit] = []
            for entry in before.entries {
                guard let rules = entry.value.dictionaryValue else { continue }
                for rule in rules.entries {
                    let prefix = "/\(entry.key):dict/\(rule.key):dict/"
                    if let format = rule.value.stringValue, rule.key == "NSStringLocalizedFormatKey" {
                        units.append(
                            .init(id: "/\(entry.key):dict/\(rule.key):dict/:string", source: "", target: format + " ✓")
                        )
                    }
                    for category in rule.value.dictionaryValue?.entries ?? []
                    where PluralCategory(rawValue: category.key) != nil {
                        if let text = category.value.stringValue {
                            units.append(
                                .init(id: prefix + "\(category.key):dict/:string", source: "", target: text + " & ✓")
                            )
                        }
                    }
                }
            }
            let merge = StringsDictMerge(
                path: url.path,
                target: bytes,
                source: bytes,
                sourcePath: url.path,
                units: units
            )
            // paragraph's Main.stringsdict holds only a device rule, which the export does not offer.
            guard !units.isEmpty else {
                #expect(url.path.hasSuffix("paragraph/ru.lproj/Main.stringsdict") && merge.bytes == nil)
                continue
            }
            #expect(merge.refused.isEmpty, "\(url.path): \(merge.refused.first?.reason ?? "")")
            #expect(merge.changes.count == units.count)
            let written = try #require(merge.bytes)
            // Only the values' text differs: without the marks, the file's own bytes.
            let unmarked = String(decoding: written, as: UTF8.self).replacingOccurrences(of: " &amp; ✓", with: "")
                .replacingOccurrences(of: " ✓", with: "")
            #expect(unmarked == String(decoding: bytes, as: UTF8.self), "\(url.path)")
            let after = try #require(PropertyListReader.read(Data(written), file: url.path).value?.dictionaryValue)
            // The same keys in the same order, every text marked, nothing else different.
            #expect(after.keys == before.keys)
            for entry in before.entries {
                let old = try #require(entry.value.dictionaryValue)
                let new = try #require(after[entry.key]?.dictionaryValue)
                #expect(new.keys == old.keys)
                for rule in old.entries {
                    if rule.key == "NSStringLocalizedFormatKey" {
                        #expect(new[rule.key]?.stringValue == (rule.value.stringValue ?? "") + " ✓")
                    } else if let categories = rule.value.dictionaryValue {
                        let changed = try #require(new[rule.key]?.dictionaryValue)
                        for category in categories.entries {
                            let marked =
                                PluralCategory(rawValue: category.key) != nil && category.value.stringValue != nil
                            let expected = marked ? .string(category.value.stringValue! + " & ✓") : category.value
                            #expect(
                                changed[category.key] == expected,
                                "\(url.lastPathComponent): \(entry.key)/\(category.key)"
                            )
                        }
                    } else {
                        #expect(new[rule.key] == rule.value)
                    }
                }
            }
            // The same values again: nothing to write.
            let again = StringsDictMerge(
                path: url.path,
                target: bytes,
                source: bytes,
                sourcePath: url.path,
                units: units.map {
                    var unit = $0
                    unit.target = String(unit.target!.dropLast(unit.id.contains("NSStringLocalizedFormatKey") ? 2 : 4))
                    return unit
                }
            )
            #expect(again.bytes == nil && again.refused.isEmpty && again.unchanged == units.count)
        }
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
            ["catalog", "export", "--language", "uk", "--output", exports.path, "--catalog", folder.path]
        )
        #expect(exported.status == 0)
        let xliff = exports.appendingPathComponent("uk.xcloc/Localized Contents/uk.xliff")
        let text = try String(contentsOf: xliff, encoding: .utf8)
        func translate(_ source: String, _ target: String, in text: String) -> String {
            text.replacingOccurrences(
                of: "<source>\(source)</source>\n        <target state=\"new\"></target>",
                with: "<source>\(source)</source>\n        <target state=\"translated\">\(target)</target>"
            )
        }
        try translate("Subtotal", "Проміжний підсумок", in: text).write(to: xliff, atomically: true, encoding: .utf8)
        let imported = try ExecutableRunner.run(
            caffe,
            ["catalog", "import", exports.appendingPathComponent("uk.xcloc").path, "--catalog", folder.path]
        )
        #expect(imported.status == 0)
        #expect(imported.standardOutput.hasPrefix("caffe catalog import (uk): changed 1 values in 1 files;"))
        // A catalog folder with no menu beside it: the worker's check could not run, and it says so.
        #expect(
            imported.standardOutput.contains("note: no menu.json beside \(folder.path): the worker's catalog check")
        )
        #expect(
            imported.standardOutput.contains("Localizable.xcstrings: \"Subtotal\": \"(new)\" -> \"Проміжний підсумок\"")
        )
        let broken = translate("Welcome, %@!", "Привіт, %d!", in: text)
        try broken.write(to: xliff, atomically: true, encoding: .utf8)
        let refused = try ExecutableRunner.run(caffe, ["catalog", "import", xliff.path, "--catalog", folder.path])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.contains("refused Localizable.xcstrings: \"Welcome, %@!\""))
        #expect(try ExecutableRunner.run(caffe, ["catalog", "import", "/nonexistent.xliff"]).status == 2)
    }
}
