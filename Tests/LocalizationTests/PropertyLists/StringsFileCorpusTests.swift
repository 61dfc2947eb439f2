// Caffe — Localization tests.

import Foundation
import Localization
import Testing

@Suite("Strings file reader: real .strings files")
struct StringsFileCorpusTests {
    typealias Support = PropertyListTestSupport

    static let files = [
        "food-truck/ar.lproj/Localizable.strings",
        "monitorcontrol/ru.lproj/Localizable.strings",
        "monitorcontrol/ru.lproj/Main.strings",
        "quicksilver/cs.lproj/Localizable.strings",
        "quicksilver/cs.lproj/QSAction.name.strings",
        "quicksilver/pl.lproj/QSAppearancePrefPane.strings",
        "sparkle/he.lproj/Sparkle.strings",
        "transmission/he.lproj/Sparkle.strings",
        "transmission/ru.lproj/Localizable.strings",
    ]

    @Test(arguments: files)
    func loadsWithoutErrors(path: String) throws {
        let result = try Support.readCorpusStrings(path)
        #expect(Support.errors(result.diagnostics).isEmpty, "\(result.diagnostics)")
        #expect(!result.entries.isEmpty)
    }

    // MARK: 13. transmission/ru.lproj/Localizable.strings

    @Test func transmissionRussianIsUTF16LittleEndianGenstringsOutput() throws {
        let path = "transmission/ru.lproj/Localizable.strings"
        let bytes = [UInt8](try Support.corpusData(path))
        #expect(Array(bytes.prefix(2)) == [0xFF, 0xFE])
        #expect(Array(bytes.suffix(4)) == [0x22, 0x00, 0x3B, 0x00])

        let result = try Support.readCorpusStrings(path)
        #expect(result.entries.count == 357)
        #expect(Set(result.entries.map(\.key)).count == 357)
        #expect(result.diagnostics.isEmpty)

        let table = Dictionary(result.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(table["%@ of %@"] == "%1$@ из %2$@")
        #expect(table["\"%@\" is not a valid torrent file."] == "«%@» не является торрент-файлом.")
        #expect(table["%d pieces, %@ each"] == "%1$d частей, %2$@ каждая")
    }

    @Test func transmissionRussianKeepsMultiLineComments() throws {
        let result = try Support.readCorpusStrings("transmission/ru.lproj/Localizable.strings")
        let first = try #require(result.entries.first)
        #expect(first.key == "%@ bytes")
        #expect(first.comment == "Inspector -> selected torrents\n   stats -> bytes")
        #expect(first.location == SourceLocation(line: 4, column: 1))
        let files = try #require(result.entries.first { $0.key == "%@ files" })
        #expect(
            files.comment
                == "Add torrent -> info\n   Create torrent -> info\n   Drag overlay -> torrents\n   Inspector -> selected torrents"
        )
    }

    // MARK: 14. quicksilver/cs.lproj/Localizable.strings

    @Test func quicksilverCzechHasADoubledByteOrderMark() throws {
        let path = "quicksilver/cs.lproj/Localizable.strings"
        let bytes = [UInt8](try Support.corpusData(path))
        #expect(Array(bytes.prefix(4)) == [0xFF, 0xFE, 0xFF, 0xFE])
        // After UTF-16LE decoding removes one BOM, the first character is U+FEFF.
        let units = stride(from: 2, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
        #expect(String(decoding: units, as: UTF16.self).unicodeScalars.first == "\u{FEFF}")

        let result = try Support.readCorpusStrings(path)
        #expect(result.entries.count == 147)
        #expect(Support.errors(result.diagnostics).isEmpty)
        let first = try #require(result.entries.first)
        #expect(first.key == "OK")
        #expect(first.value == "Budiž")
        #expect(first.comment == "Typical strings")
        #expect(first.location == SourceLocation(line: 4, column: 1))
    }

    @Test func quicksilverCzechKeepsRepeatedKeys() throws {
        let result = try Support.readCorpusStrings("quicksilver/cs.lproj/Localizable.strings")
        let keys = result.entries.map(\.key)
        #expect(Set(keys).count == 143)
        #expect(keys.filter { $0 == "OK" }.count == 2)
        #expect(keys.filter { $0 == "Later" }.count == 2)
        #expect(keys.filter { $0 == "Relaunch" }.count == 3)
        for key in ["OK", "Later", "Relaunch"] {
            #expect(Set(result.entries.filter { $0.key == key }.map(\.value)).count == 1)
        }

        let duplicates = result.diagnostics.filter { $0.code == .duplicateKey }
        #expect(duplicates.count == 4)
        #expect(duplicates.allSatisfy { $0.severity == .warning })
        #expect(duplicates.compactMap(\.key).sorted() == ["Later", "OK", "Relaunch", "Relaunch"])
        #expect(result.diagnostics.count == 4)

        let table = Dictionary(result.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(table["%d of %d"] == "%1$d z %2$d")
        #expect(table["OK"] == "Budiž")
    }

    // MARK: 15. transmission/he.lproj/Sparkle.strings

    @Test func transmissionHebrewIsACompiledBinaryPropertyList() throws {
        let path = "transmission/he.lproj/Sparkle.strings"
        #expect(Array(try Support.corpusData(path).prefix(8)) == Array("bplist00".utf8))

        let result = try Support.readCorpusStrings(path)
        #expect(result.diagnostics.isEmpty)
        #expect(result.entries.count == 74)
        #expect(result.entries.allSatisfy { $0.location == .unknown && $0.comment == nil })
        #expect(result.entries.map(\.key) == result.entries.map(\.key).sorted())
        let table = Dictionary(result.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(table["Cancel"] == "ביטול")
        let key =
            "%1$@ %2$@ is available but your macOS version is too new for this update. This update only supports up to macOS\u{A0}%3$@."
        #expect(table[key] != nil)
    }

    // MARK: 16. Other .strings files

    @Test func sparkleHebrew() throws {
        let result = try Support.readCorpusStrings("sparkle/he.lproj/Sparkle.strings")
        #expect(result.entries.count == 64)
        #expect(result.diagnostics.isEmpty)
        let table = Dictionary(result.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(table["Cancel"] == "ביטול")
        #expect(
            table["%@ %@ is currently the newest version available.\n(You are currently running version\u{A0}%@.)"]
                == "%@ %@ היא הגרסה החדשה ביותר שזמינה.\n(אתה מפעיל כעת את גרסה\u{A0}%@.)"
        )
    }

    @Test func quicksilverActionNamesAreAnXMLPropertyList() throws {
        let result = try Support.readCorpusStrings("quicksilver/cs.lproj/QSAction.name.strings")
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.entries == [
                StringsFileEntry(
                    key: "FinderOpenTrashAction",
                    value: "Open",
                    location: SourceLocation(line: 5, column: 5)
                ),
                StringsFileEntry(
                    key: "FinderEmptyTrashAction",
                    value: "Empty",
                    location: SourceLocation(line: 7, column: 5)
                ),
            ]
        )
    }

    @Test func quicksilverPolishHasAUTF8ByteOrderMark() throws {
        let path = "quicksilver/pl.lproj/QSAppearancePrefPane.strings"
        #expect(Array(try Support.corpusData(path).prefix(3)) == [0xEF, 0xBB, 0xBF])
        let result = try Support.readCorpusStrings(path)
        #expect(result.diagnostics.isEmpty)
        #expect(result.entries.count == 20)
        #expect(
            result.entries.first
                == StringsFileEntry(key: "Box", value: "Kontener", location: SourceLocation(line: 1, column: 1))
        )
    }

    @Test func monitorControlStoryboardStrings() throws {
        let result = try Support.readCorpusStrings("monitorcontrol/ru.lproj/Main.strings")
        #expect(result.diagnostics.isEmpty)
        #expect(result.entries.count == 140)
        let entry = try #require(result.entries.first { $0.key == "0ca-DG-AgB.title" })
        #expect(entry.value == "Синхронизация изменений яркости со встроенными дисплеями и дисплеями Apple.")
        // ibtool comments hold quotes and semicolons; they must not confuse the reader.
        #expect(result.entries.allSatisfy { $0.comment?.hasPrefix("Class = \"") == true })
    }

    @Test func monitorControlLocalizable() throws {
        let result = try Support.readCorpusStrings("monitorcontrol/ru.lproj/Localizable.strings")
        #expect(result.diagnostics.isEmpty)
        let about = try #require(result.entries.first)
        #expect(about.key == "About")
        #expect(about.comment == "Shown in the main prefs window")
        #expect(about.location == SourceLocation(line: 2, column: 1))
        #expect(result.entries.contains { $0.value.contains("\n\n") })
    }

    @Test func foodTruckArabic() throws {
        let result = try Support.readCorpusStrings("food-truck/ar.lproj/Localizable.strings")
        #expect(result.diagnostics.isEmpty)
        #expect(result.entries.count == 182)
        #expect(result.entries.allSatisfy { $0.comment != nil })
        let table = Dictionary(result.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(table["%@ for %@ on %@"] == "%@ لـ  %@ في %@")
        #expect(table["2 Weeks"] == "أسبوعان")
        // The licence block at the top is not the first entry's comment: the nearer one is.
        #expect(result.entries.first?.comment?.contains("LICENSE") == false)
    }

    @Test func textAndCompiledSparkleTablesAgree() throws {
        let text = try Support.readCorpusStrings("sparkle/he.lproj/Sparkle.strings")
        let binary = try Support.readCorpusStrings("transmission/he.lproj/Sparkle.strings")
        let textTable = Dictionary(text.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        let binaryTable = Dictionary(binary.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(textTable["Cancel"] == binaryTable["Cancel"])
    }
}
