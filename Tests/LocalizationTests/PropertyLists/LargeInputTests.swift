// Caffe — Localization tests.

import Foundation
import Localization
import Testing

/// Large inputs: these only check that parsing finishes with the right result, which it would not
/// in reasonable time if the readers were quadratic.
@Suite("Property list and strings readers: large inputs")
struct LargeInputTests {
    static let count = 50_000

    @Test func fiftyThousandStringsEntries() {
        var text = ""
        for index in 0..<Self.count {
            text += "/* Entry \(index) */\n\"key.\(index)\" = \"Значение \\\"\(index)\\\"\\n\";\n"
        }
        let result = StringsFileReader.read(Data(text.utf8), file: "Large.strings")
        #expect(result.diagnostics.isEmpty)
        #expect(result.entries.count == Self.count)
        #expect(
            result.entries.last
                == StringsFileEntry(
                    key: "key.49999",
                    value: "Значение \"49999\"\n",
                    location: SourceLocation(line: 2 * Self.count, column: 1),
                    comment: "Entry 49999"
                )
        )
    }

    @Test func fiftyThousandEntriesOnOneLineInUTF16() {
        var text = ""
        for index in 0..<Self.count {
            text += "\"ключ\(index)\"=\"v\";"
        }
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        // A duplicate at the very end, so its location is computed far along the one line.
        bytes += [0x22, 0, 0x3A, 0x04, 0x3B, 0x04, 0x4E, 0x04, 0x47, 0x04, 0x30, 0, 0x22, 0, 0x3B, 0]
        let result = StringsFileReader.read(Data(bytes), file: "Line.strings")
        #expect(result.entries.count == Self.count + 1)
        #expect(result.entries.last?.location == SourceLocation(line: 1, column: text.count + 1))
        #expect(result.diagnostics.map(\.code) == [.duplicateKey])
    }

    @Test func fiftyThousandDictionaryEntries() {
        var text = "<plist><dict>"
        for index in 0..<Self.count {
            text += "<key>k\(index)</key><string>&lt;\(index)&gt;</string>"
        }
        text += "</dict></plist>"
        let result = PropertyListReader.read(Data(text.utf8), file: "Large.plist")
        #expect(result.diagnostics.isEmpty)
        let dictionary = result.value?.dictionaryValue
        #expect(dictionary?.count == Self.count)
        #expect(dictionary?.entries.last?.value == .string("<49999>"))
        #expect(dictionary?.entries.last?.location.line == 1)
    }
}
