// Caffe — Localization tests.

import Foundation
import Localization
import Testing

@Suite("Property list reader: binary property lists")
struct BinaryPropertyListTests {
    typealias Support = PropertyListTestSupport

    static func binary(_ object: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    }

    @Test func convertsEveryTypeAndSortsDictionaries() throws {
        let object: [String: Any] = [
            "string": "текст",
            "one": 1,
            "flag": true,
            "off": false,
            "negative": -7,
            "real": 2.5,
            "date": Date(timeIntervalSince1970: 86_400),
            "data": Data([0, 1, 254]),
            "array": ["a", 2] as [Any],
            "nested": ["z": "last", "a": "first"],
        ]
        let result = PropertyListReader.read(try Self.binary(object), file: "Test.plist")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.value?.dictionaryValue)
        #expect(root.keys == ["array", "data", "date", "flag", "negative", "nested", "off", "one", "real", "string"])
        #expect(root.entries.allSatisfy { $0.location == .unknown })
        #expect(root["string"] == .string("текст"))
        #expect(root["one"] == .integer(1))
        #expect(root["flag"] == .boolean(true))
        #expect(root["off"] == .boolean(false))
        #expect(root["negative"] == .integer(-7))
        #expect(root["real"] == .real(2.5))
        #expect(root["date"] == .date(Date(timeIntervalSince1970: 86_400)))
        #expect(root["data"] == .data([0, 1, 254]))
        #expect(root["array"] == .array([.string("a"), .integer(2)]))
        #expect(root["nested"]?.dictionaryValue?.keys == ["a", "z"])
    }

    @Test func unsignedIntegersBeyondInt64AreReported() throws {
        let result = PropertyListReader.read(
            try Self.binary(["big": UInt64.max, "small": 3] as [String: Any]),
            file: "Test.plist"
        )
        #expect(Support.positions(result.diagnostics) == ["unexpected-value-type 0:0"])
        #expect(result.diagnostics.first?.key == "big")
        #expect(result.value == .dictionary(["small": .integer(3)]))
    }

    @Test func damagedBinaryPropertyLists() throws {
        let garbage = PropertyListReader.read(Data(Array("bplist00".utf8) + [1, 2, 3, 4, 5]), file: "Bad.plist")
        #expect(Support.positions(garbage.diagnostics) == ["unreadable-file 0:0"])
        #expect(garbage.diagnostics.first?.message.hasPrefix("the binary property list could not be decoded") == true)
        #expect(garbage.value == nil)

        let real = try Support.corpusData("transmission/he.lproj/Sparkle.strings")
        let truncated = PropertyListReader.read(real.prefix(real.count / 2), file: "Half.strings")
        #expect(Support.positions(truncated.diagnostics) == ["unreadable-file 0:0"])
        #expect(truncated.value == nil)

        let asStrings = StringsFileReader.read(real.prefix(real.count / 2), file: "Half.strings")
        #expect(Support.positions(asStrings.diagnostics) == ["unreadable-file 0:0"])
        #expect(asStrings.entries.isEmpty)
    }

    @Test func binaryStringsFilesWithOtherValues() throws {
        let mixed = StringsFileReader.read(try Self.binary(["a": "x", "n": 5] as [String: Any]), file: "Mixed.strings")
        #expect(mixed.entries == [StringsFileEntry(key: "a", value: "x")])
        #expect(Support.positions(mixed.diagnostics) == ["unexpected-value-type 0:0"])
        #expect(mixed.diagnostics.first?.key == "n")
        #expect(mixed.diagnostics.first?.message == "the value is an integer, not a string; the entry is left out")

        let array = StringsFileReader.read(try Self.binary(["a", "b"]), file: "Array.strings")
        #expect(array.entries.isEmpty)
        #expect(
            array.diagnostics.map(\.message) == ["the property list's root is an array, not a dictionary of strings"]
        )
    }
}
