// Caffe — Localization tests.

import Foundation
import Localization
import Testing

@Suite("Property list values and ordered dictionaries")
struct PropertyListValueTests {
    @Test func dictionaryKeepsOrderAndLastValueWins() {
        let dictionary = PropertyListDictionary([
            .init(key: "b", value: .string("first"), location: SourceLocation(line: 1, column: 1)),
            .init(key: "a", value: .integer(1), location: SourceLocation(line: 2, column: 1)),
            .init(key: "b", value: .string("second"), location: SourceLocation(line: 3, column: 1)),
        ])
        #expect(dictionary.keys == ["b", "a", "b"])
        #expect(dictionary["b"] == .string("second"))
        #expect(dictionary["a"] == .integer(1))
        #expect(dictionary["c"] == nil)
        #expect(dictionary.count == 3)
        #expect(!dictionary.isEmpty)
        #expect(PropertyListDictionary().isEmpty)
    }

    @Test func equalityIgnoresLocationsButNotOrder() {
        let located = PropertyListDictionary([
            .init(key: "x", value: .boolean(true), location: SourceLocation(line: 4, column: 2))
        ])
        let literal: PropertyListDictionary = ["x": .boolean(true)]
        #expect(located == literal)
        #expect(located.hashValue == literal.hashValue)
        #expect(located.entries[0] != literal.entries[0])  // entries do compare locations

        let ab: PropertyListDictionary = ["a": .integer(1), "b": .integer(2)]
        let ba: PropertyListDictionary = ["b": .integer(2), "a": .integer(1)]
        #expect(ab != ba)
    }

    @Test func accessors() {
        let dictionary: PropertyListDictionary = ["k": .string("v")]
        #expect(PropertyListValue.string("v").stringValue == "v")
        #expect(PropertyListValue.integer(3).stringValue == nil)
        #expect(PropertyListValue.dictionary(dictionary).dictionaryValue == dictionary)
        #expect(PropertyListValue.array([]).dictionaryValue == nil)
        #expect(PropertyListValue.array([.real(1.5), .data([1, 2])]).arrayValue == [.real(1.5), .data([1, 2])])
        #expect(PropertyListValue.string("v").arrayValue == nil)
    }

    @Test func valuesAreHashable() {
        let values: Set<PropertyListValue> = [
            .string("a"), .string("a"), .integer(1), .real(1), .boolean(true),
            .date(Date(timeIntervalSince1970: 0)), .data([0]), .array([.string("a")]), .dictionary(["a": .string("a")]),
        ]
        #expect(values.count == 8)
    }
}
