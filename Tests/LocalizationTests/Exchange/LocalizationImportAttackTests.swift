import Foundation
import Testing

@testable import Localization

/// `caffe catalog import` fed what a stranger's tool or an attacker sends: repeated units, paths
/// out of the folder, encodings, characters XML forbids, files of odd shapes. Each case either
/// imports exactly what it should or refuses by name; nothing corrupt is written.
@Suite("Localization import: hostile and unusual input")
struct LocalizationImportAttackTests {
    static func plist(_ body: String, newline: String = "\n") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """.replacingOccurrences(of: "\n", with: newline)
    }

    static func cups(_ one: String, _ other: String, extra: String = "") -> String {
        """
        <dict>
        \t<key>%lld cups</key>
        \t<dict>
        \t\t<key>NSStringLocalizedFormatKey</key>
        \t\t<string>%#@cups@</string>
        \t\t<key>cups</key>
        \t\t<dict>
        \t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t<key>NSStringFormatValueTypeKey</key>
        \t\t\t<string>lld</string>
        \t\t\t<key>one</key>
        \t\t\t<string>\(one)</string>
        \t\t\t<key>other</key>
        \t\t\t<string>\(other)</string>
        \t\t</dict>
        \t</dict>\(extra)
        </dict>
        """
    }

    /// A catalog folder with `files` (path → text), removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL { try RenderingSupport.makeFolder(files) }

    static let standard: [String: String] = [
        "en.lproj/T.stringsdict": plist(cups("%lld cup", "%lld cups")),
        "fr.lproj/T.stringsdict": plist(cups("%lld tasse", "%lld tasses")),
    ]

    static func unit(_ category: String, _ target: String, key: String = "%lld cups") -> String {
        "<trans-unit id=\"/\(key):dict/cups:dict/\(category):dict/:string\"><source>x</source>"
            + "<target>\(target)</target></trans-unit>\n"
    }

    static func xliff(
        _ units: String,
        original: String = "en.lproj/T.stringsdict",
        language: String = "fr",
        more: String = ""
    ) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2"><file original="\(original)" source-language="en" target-language="\(language)">
            <body>
            \(units)</body></file>\(more)</xliff>
            """.utf8
        )
    }

    static func importing(_ bytes: [UInt8], into folder: URL) throws -> LocalizationImport {
        try LocalizationImport(document: try XLIFFReader.read(bytes), catalogFolder: folder)
    }

    @Test("a unit given twice: once when the targets agree, refused when they differ; the file stays well formed")
    func repeatedUnits() throws {
        let folder = try Self.folder(Self.standard)
        defer { try? FileManager.default.removeItem(at: folder) }
        let same = try Self.importing(
            Self.xliff(Self.unit("one", "%lld bol") + Self.unit("one", "%lld bol")),
            into: folder
        )
        #expect(same.changes.count == 1 && same.refused.isEmpty)
        let text = String(decoding: try #require(same.files["fr.lproj/T.stringsdict"]), as: UTF8.self)
        #expect(text == Self.plist(Self.cups("%lld bol", "%lld tasses")))
        let differ = try Self.importing(
            Self.xliff(Self.unit("one", "%lld bol") + Self.unit("one", "%lld verre")),
            into: folder
        )
        #expect(differ.changes.isEmpty && differ.files.isEmpty)
        #expect(differ.refused.map(\.reason) == ["not imported: the XLIFF gives it 2 different targets"])
    }

    @Test("two <file>s naming one table (with and without its folder) merge into it together")
    func twoFilesOneTable() throws {
        let folder = try Self.folder(Self.standard)
        defer { try? FileManager.default.removeItem(at: folder) }
        let second = """
            <file original="T.stringsdict" source-language="en" target-language="fr"><body>
            \(Self.unit("other", "%lld bols"))</body></file>
            """
        let merge = try Self.importing(Self.xliff(Self.unit("one", "%lld bol"), more: second), into: folder)
        let text = String(decoding: try #require(merge.files["fr.lproj/T.stringsdict"]), as: UTF8.self)
        #expect(text == Self.plist(Self.cups("%lld bol", "%lld bols")))
    }

    @Test("a language or a file that would lead out of the catalog folder is refused")
    func pathsOutOfTheFolder() throws {
        let folder = try Self.folder(Self.standard)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: LocalizationError.self) {
            try Self.importing(Self.xliff(Self.unit("one", "x"), language: "../../outside/pwn"), into: folder)
        }
        for original in [
            "../../outside/en.lproj/T.stringsdict", "/etc/en.lproj/T.stringsdict", "en.lproj/./T.stringsdict",
        ] {
            let merge = try Self.importing(Self.xliff(Self.unit("one", "x"), original: original), into: folder)
            #expect(merge.files.isEmpty && merge.changes.isEmpty)
            #expect(merge.refused.first?.reason.contains("names no file inside the catalog folder") == true)
        }
    }

    @Test("XLIFF that is not UTF-8, or carries characters XML forbids, is refused by name; CR LF is read as LF")
    func encodingsAndCharacters() throws {
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><xliff/>".utf8)
        #expect(throws: LocalizationError.self) { try XLIFFReader.read(latin1) }
        let invalid: [UInt8] = Array("<xliff><file><body>caf".utf8) + [0xE9] + Array("</body></file></xliff>".utf8)
        #expect(throws: LocalizationError.self) { try XLIFFReader.read(invalid) }
        let utf16: [UInt8] = [0xFF, 0xFE] + "<xliff/>".utf8.flatMap { [$0, 0] as [UInt8] }
        #expect(throws: LocalizationError.self) { try XLIFFReader.read(utf16) }
        #expect(throws: LocalizationError.self) { try XLIFFReader.read(Self.xliff(Self.unit("one", "a&#0;b"))) }
        #expect(throws: LocalizationError.self) { try XLIFFReader.read(Self.xliff(Self.unit("one", "a\u{1}b"))) }
        let crlf = Self.xliff(Self.unit("one", "%lld\ntasse\rx")).split(
            separator: 0x0A,
            omittingEmptySubsequences: false
        )
        .joined(separator: [0x0D, 0x0A])
        let document = try XLIFFReader.read(Array(crlf))
        #expect(document.files[0].units[0].target == "%lld\ntasse\nx")
    }

    @Test("a carriage return given as &#13; is written as one, so it reads back as a CR, not a LF")
    func carriageReturn() throws {
        let folder = try Self.folder(Self.standard)
        defer { try? FileManager.default.removeItem(at: folder) }
        let merge = try Self.importing(Self.xliff(Self.unit("one", "%lld &#13;tasse \"x\"")), into: folder)
        let written = try #require(merge.files["fr.lproj/T.stringsdict"])
        #expect(String(decoding: written, as: UTF8.self).contains("<string>%lld &#13;tasse \"x\"</string>"))
        let value = PropertyListReader.read(Data(written), file: "T").value?.dictionaryValue?["%lld cups"]?
            .dictionaryValue?["cups"]?.dictionaryValue?["one"]?.stringValue
        #expect(value == "%lld \rtasse \"x\"")
    }

    @Test("thousands of comments between units read without growing the stack")
    func manyComments() throws {
        let comments = String(repeating: "<!---->", count: 50_000)
        let document = try XLIFFReader.read(Self.xliff(comments + Self.unit("one", "%lld bol") + comments))
        #expect(document.files[0].units.count == 1)
    }

    @Test("a change of the development language that breaks another localization is refused")
    func sourceChangeBreakingATranslation() throws {
        let folder = try Self.folder(Self.standard)
        defer { try? FileManager.default.removeItem(at: folder) }
        let edit =
            "<trans-unit id=\"/%lld cups:dict/NSStringLocalizedFormatKey:dict/:string\"><source>x</source>"
            + "<target>Some cups</target></trans-unit>\n"
        let merge = try Self.importing(Self.xliff(edit, language: "en"), into: folder)
        #expect(merge.files.isEmpty && merge.changes.isEmpty)
        #expect(merge.refused.count == 1)
        #expect(merge.refused.first?.reason.contains("fr.lproj/T.stringsdict") == true)
    }

    @Test("one key in two tables: each table's unit judged by its own table's errors")
    func sameKeyInTwoTables() throws {
        var files = Self.standard
        files["en.lproj/U.stringsdict"] = Self.plist(Self.cups("%lld cup", "%lld cups"))
        files["fr.lproj/U.stringsdict"] = Self.plist(Self.cups("%lld tasse", "%lld tasses"))
        let folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let second = """
            <file original="en.lproj/U.stringsdict" source-language="en" target-language="fr"><body>
            \(Self.unit("one", "%@ bol"))</body></file>
            """
        let merge = try Self.importing(Self.xliff(Self.unit("one", "%lld bol"), more: second), into: folder)
        #expect(merge.changes.map(\.file) == ["fr.lproj/T.stringsdict"])
        #expect(merge.refused.map(\.file) == ["fr.lproj/U.stringsdict"])
        #expect(Set(merge.files.keys) == ["fr.lproj/T.stringsdict"])
    }

    @Test("odd target files: a root that is no dictionary refused, CR LF kept, a byte order mark read past")
    func oddTargetFiles() throws {
        var files = Self.standard
        files["fr.lproj/T.stringsdict"] = Self.plist("<array><string>x</string></array>")
        var folder = try Self.folder(files)
        let array = try Self.importing(Self.xliff(Self.unit("one", "%lld bol")), into: folder)
        #expect(array.files.isEmpty)
        #expect(array.refused.first?.reason == "not imported: fr.lproj/T.stringsdict's root is not a dictionary")
        try? FileManager.default.removeItem(at: folder)

        files["fr.lproj/T.stringsdict"] = Self.plist(Self.cups("%lld tasse", "%lld tasses"), newline: "\r\n")
        folder = try Self.folder(files)
        let crlf = try Self.importing(Self.xliff(Self.unit("zero", "aucune tasse")), into: folder)
        let text = String(decoding: try #require(crlf.files["fr.lproj/T.stringsdict"]), as: UTF8.self)
        #expect(text.contains("<key>zero</key>\r\n\t\t\t<string>aucune tasse</string>\r\n\t\t\t<key>one</key>"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        try? FileManager.default.removeItem(at: folder)

        files["fr.lproj/T.stringsdict"] = "\u{FEFF}" + Self.plist(Self.cups("%lld tasse", "%lld tasses"))
        folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bom = try Self.importing(Self.xliff(Self.unit("one", "%lld bol")), into: folder)
        #expect(bom.refused.isEmpty && bom.changes.count == 1)
    }

    @Test("a new entry whose source has a device rule is refused, not filled with the source's words")
    func deviceRuleInANewEntry() throws {
        let device = """
            \n\t<key>tap %lld</key>
            \t<dict>
            \t\t<key>NSStringLocalizedFormatKey</key>
            \t\t<string>%#@how@ %#@n@</string>
            \t\t<key>how</key>
            \t\t<dict>
            \t\t\t<key>NSStringDeviceSpecificRuleType</key>
            \t\t\t<dict><key>iphone</key><string>Tap</string><key>mac</key><string>Click</string></dict>
            \t\t</dict>
            \t\t<key>n</key>
            \t\t<dict>
            \t\t\t<key>NSStringFormatSpecTypeKey</key>
            \t\t\t<string>NSStringPluralRuleType</string>
            \t\t\t<key>NSStringFormatValueTypeKey</key>
            \t\t\t<string>lld</string>
            \t\t\t<key>other</key>
            \t\t\t<string>%lld times</string>
            \t\t</dict>
            \t</dict>
            """
        var files = Self.standard
        files["en.lproj/T.stringsdict"] = Self.plist(Self.cups("%lld cup", "%lld cups", extra: device))
        let folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let unit =
            "<trans-unit id=\"/tap %lld:dict/n:dict/other:dict/:string\"><source>x</source>"
            + "<target>%lld fois</target></trans-unit>\n"
        let merge = try Self.importing(Self.xliff(unit), into: folder)
        #expect(merge.files.isEmpty)
        #expect(merge.refused.first?.reason.contains("has a rule 'how' that is not a plural") == true)
    }
}
