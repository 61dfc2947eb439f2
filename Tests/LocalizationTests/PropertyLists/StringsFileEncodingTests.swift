// Caffe — Localization tests.

import Foundation
import Localization
import Testing

@Suite("Strings file reader: encodings")
struct StringsFileEncodingTests {
    typealias Support = PropertyListTestSupport

    static let text = "/* c */\n\"ключ\" = \"значение 😀\";\n\"b\" = \"2\";\n"

    static func utf16(_ text: String, bigEndian: Bool, byteOrderMarks: Int) -> Data {
        var bytes: [UInt8] = []
        let units = Array(repeating: UInt16(0xFEFF), count: byteOrderMarks) + Array(text.utf16)
        for unit in units {
            let high = UInt8(unit >> 8)
            let low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return Data(bytes)
    }

    static let expected = [
        StringsFileEntry(key: "ключ", value: "значение 😀", location: SourceLocation(line: 2, column: 1), comment: "c"),
        StringsFileEntry(key: "b", value: "2", location: SourceLocation(line: 3, column: 1)),
    ]

    @Test(arguments: [
        ("UTF-8", Data(text.utf8)),
        ("UTF-8 with BOM", Data([0xEF, 0xBB, 0xBF] + Array(text.utf8))),
        ("UTF-8 with two BOMs", Data([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(text.utf8))),
        ("UTF-16LE with BOM", utf16(text, bigEndian: false, byteOrderMarks: 1)),
        ("UTF-16BE with BOM", utf16(text, bigEndian: true, byteOrderMarks: 1)),
        ("UTF-16LE with two BOMs", utf16(text, bigEndian: false, byteOrderMarks: 2)),
        ("UTF-16LE without BOM", utf16(text, bigEndian: false, byteOrderMarks: 0)),
        ("UTF-16BE without BOM", utf16(text, bigEndian: true, byteOrderMarks: 0)),
    ])
    func decodes(encoding: String, data: Data) {
        let result = StringsFileReader.read(data, file: "Test.strings")
        #expect(result.diagnostics.isEmpty, "\(encoding)")
        #expect(result.entries == Self.expected, "\(encoding)")
    }

    @Test func positionsInUTF16FilesAreInDecodedCharacters() {
        // The U+FEFF left by a doubled BOM is the first character of line 1.
        let data = Self.utf16("#\n\"😀ü\" = \"v\" ?;\n\"b\";", bigEndian: false, byteOrderMarks: 2)
        let result = StringsFileReader.read(data, file: "Test.strings")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:2", "syntax-error 2:11"])
        #expect(
            result.diagnostics.map(\.message) == [
                "expected a key, but found '#'", "expected ';' after the value, but found '?'",
            ]
        )
        #expect(Support.pairs(result.entries) == [["😀ü", "v"], ["b", "b"]])
        #expect(
            result.entries.map(\.location) == [SourceLocation(line: 2, column: 1), SourceLocation(line: 3, column: 1)]
        )
    }

    @Test func invalidUTF8IsReportedAndReplaced() {
        let bytes = Array("\"a\" = \"caf".utf8) + [0xE9] + Array("\";\n\"b\" = \"ok\";".utf8)
        let result = StringsFileReader.read(Data(bytes), file: "Test.strings")
        #expect(Support.positions(result.diagnostics) == ["unreadable-file 1:11"])
        #expect(result.diagnostics.first?.severity == .error)
        #expect(
            result.diagnostics.first?.message
                == "the file is not valid UTF-8; undecodable bytes were replaced with U+FFFD"
        )
        #expect(Support.pairs(result.entries) == [["a", "caf\u{FFFD}"], ["b", "ok"]])
    }

    @Test func invalidUTF16IsReportedAndReplaced() {
        // An unpaired high surrogate inside the value, and a stray last byte.
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in Array("\"a\" = \"".utf16) + [0xD800] + Array("\";".utf16) {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        bytes.append(0x41)
        let result = StringsFileReader.read(Data(bytes), file: "Test.strings")
        #expect(Support.positions(result.diagnostics) == ["unreadable-file 1:8", "syntax-error 1:11"])
        #expect(
            result.diagnostics.first?.message
                == "the file is not valid UTF-16 (an unpaired surrogate); it was replaced with U+FFFD"
        )
        #expect(Support.pairs(result.entries) == [["a", "\u{FFFD}"]])

        let odd = StringsFileReader.read(Data([0xFF, 0xFE, 0x41, 0x00, 0x3B, 0x00, 0x0A]), file: "Odd.strings")
        #expect(Support.positions(odd.diagnostics) == ["unreadable-file 1:3", "syntax-error 1:3"])
        #expect(
            odd.diagnostics.first?.message
                == "the file is UTF-16 but has an odd number of bytes; the last byte was replaced with U+FFFD"
        )
        #expect(odd.diagnostics.last?.message == "expected a key, but found '\u{FFFD}'")
        #expect(Support.pairs(odd.entries) == [["A", "A"]])
    }
}
