// Caffe — Localization tests.

import CaffeTestKit
import Foundation
import Localization
import Testing

@Suite("Strings file reader: malformed input")
struct StringsFileErrorTests {
    typealias Support = PropertyListTestSupport

    @Test func unterminatedStringAtTheEnd() {
        let result = Support.readStrings("\"a\" = \"1\";\n\"b\" = \"2")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 2:7"])
        #expect(result.diagnostics.first?.message == "unterminated string: no closing '\"' before the end of the file")
        #expect(Support.pairs(result.entries) == [["a", "1"]])
    }

    @Test func unterminatedKeyResumesOnTheNextLine() {
        let result = Support.readStrings("\"a\" = \"1\";\n\"b = 2;\n")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 2:1"])
        #expect(Support.pairs(result.entries) == [["a", "1"]])
    }

    @Test func missingEquals() {
        let result = Support.readStrings("\"a\" = \"1\";\n\"b\" \"2\";\n\"c\" = \"3\";")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 2:5"])
        #expect(result.diagnostics.first?.message == "expected '=' or ';' after the key, but found '\"'")
        #expect(result.diagnostics.first?.key == "b")
        #expect(Support.pairs(result.entries) == [["a", "1"], ["c", "3"]])
    }

    @Test func missingSemicolonAtTheEndOfALine() {
        let result = Support.readStrings("\"a\" = \"1\"\n\"b\" = \"2\";\n\"c\" = \"3\" // no semicolon\n\"d\" = \"4\";")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:10", "syntax-error 3:10"])
        #expect(
            result.diagnostics.map(\.message) == [
                "expected ';' after the value, but found '\"'", "expected ';' after the value, but found '\"'",
            ]
        )
        #expect(Support.pairs(result.entries) == [["a", "1"], ["b", "2"], ["c", "3"], ["d", "4"]])
    }

    @Test func missingSemicolonKeepsTheNextEntrysComment() {
        let result = Support.readStrings(
            "\"a\" = \"1\" /* after */\n/* for b */\n\"b\" = \"2\" /* x */;\n\"c\" = \"3\";"
        )
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:10"])
        #expect(result.entries.map(\.comment) == [nil, "for b", nil])
    }

    @Test func missingSemicolonWithJunkOnTheSameLine() {
        let result = Support.readStrings("\"a\" = \"1\" \"x\" = \"y\";\n\"b\" = \"2\";")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:10"])
        #expect(Support.pairs(result.entries) == [["a", "1"], ["b", "2"]])
    }

    @Test func missingSemicolonAtTheEndOfTheFile() {
        let result = Support.readStrings("\"a\" = \"1\"")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:10"])
        #expect(result.diagnostics.first?.message == "expected ';' after the value, but found end of file")
        #expect(Support.pairs(result.entries) == [["a", "1"]])
    }

    @Test func strayCharacters() {
        let result = Support.readStrings(
            "\"a\" = \"1\";\n#\n\"c\" = \"3\";\n\"d\" = @\"4\";\n\"e\" = \"5\";\n\u{200F}\"f\" = \"6\";"
        )
        #expect(Support.positions(result.diagnostics) == ["syntax-error 2:1", "syntax-error 4:7", "syntax-error 6:1"])
        #expect(
            result.diagnostics.map(\.message) == [
                "expected a key, but found '#'", "expected a value, but found '@'", "expected a key, but found U+200F",
            ]
        )
        #expect(Support.pairs(result.entries) == [["a", "1"], ["c", "3"], ["e", "5"]])
    }

    @Test func missingValue() {
        let result = Support.readStrings("\"a\" = ;\n\"b\" = \"2\";")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:7"])
        #expect(result.diagnostics.first?.message == "expected a value, but found ';'")
        #expect(Support.pairs(result.entries) == [["b", "2"]])
    }

    @Test func fileEndsAfterAKeyOrEquals() {
        let key = Support.readStrings("\"a\"")
        #expect(Support.positions(key.diagnostics) == ["syntax-error 1:4"])
        #expect(key.diagnostics.first?.message == "expected '=' or ';' after the key, but the file ends")

        let equals = Support.readStrings("\"a\" =  ")
        #expect(Support.positions(equals.diagnostics) == ["syntax-error 1:8"])
        #expect(equals.diagnostics.first?.message == "expected a value, but the file ends")
        #expect(equals.entries.isEmpty)
    }

    @Test func unterminatedComment() {
        let result = Support.readStrings("\"a\" = \"1\";\n/* never closed\n\"b\" = \"2\";")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 2:1"])
        #expect(result.diagnostics.first?.message == "unterminated comment: no closing '*/' before the end of the file")
        #expect(Support.pairs(result.entries) == [["a", "1"]])
    }

    @Test func garbageBytes() {
        let result = StringsFileReader.read(Data([0x01, 0x02, 0xFF, 0x03, 0x22]), file: "Garbage.strings")
        // After the error at U+0001, reading resumes after the next ';' or line break: there is none.
        #expect(Support.positions(result.diagnostics) == ["unreadable-file 1:3", "syntax-error 1:1"])
        #expect(
            result.diagnostics.map(\.message) == [
                "the file is not valid UTF-8; undecodable bytes were replaced with U+FFFD",
                "expected a key, but found U+0001",
            ]
        )
        #expect(result.entries.isEmpty)
    }

    @Test func randomMegabyteNeverTraps() {
        var generator = SplitMix64(seed: 2024)
        let noise = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let result = StringsFileReader.read(Data(noise), file: "Noise.strings")

        // The first diagnostic is the first byte that is not UTF-8, located independently here.
        var iterator = noise.makeIterator()
        var decoder = UTF8()
        var valid: [Unicode.Scalar] = []
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): valid.append(scalar)
            case .emptyInput, .error: break decoding
            }
        }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: valid)
        let lines = String(prefix).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let first = result.diagnostics.first
        #expect(first?.code == .unreadableFile)
        #expect(first?.location == SourceLocation(line: lines.count, column: (lines.last?.count ?? 0) + 1))

        let syntaxErrors = result.diagnostics.filter { $0.code == .syntaxError }
        #expect(syntaxErrors.count == 101)
        #expect(syntaxErrors.last?.severity == .note)
        #expect(syntaxErrors.last?.message == "more than 100 syntax errors; later ones are not reported")
    }

    @Test func randomMegabyteAfterValidEntries() {
        var generator = SplitMix64(seed: 7)
        let noise = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let result = StringsFileReader.read(Data(Array("\"a\" = \"1\";\n".utf8) + noise), file: "Noise.strings")
        #expect(
            result.entries.first == StringsFileEntry(key: "a", value: "1", location: SourceLocation(line: 1, column: 1))
        )
        #expect(result.diagnostics.first?.code == .unreadableFile)
    }
}
