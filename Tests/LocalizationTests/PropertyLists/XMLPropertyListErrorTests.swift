// Caffe — Localization tests.

import CaffeTestKit
import Foundation
import Localization
import Testing

@Suite("Property list reader: malformed XML")
struct XMLPropertyListErrorTests {
    typealias Support = PropertyListTestSupport

    @Test func truncatedInsideAString() {
        let result = Support.readPropertyList("<plist><dict>\n<key>a</key><string>x</string>\n<key>b</key><string>y")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 3:22"])
        #expect(result.diagnostics.first?.message == "unexpected end of file; expected </string>")
        #expect(result.value == .dictionary(["a": .string("x")]))
    }

    @Test func truncatedInsideATag() {
        let result = Support.readPropertyList("<plist><dict><key>a</key><string>x</string><ke")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:44"])
        #expect(result.diagnostics.first?.message == "unexpected end of file inside the tag <ke")
        #expect(result.value == .dictionary(["a": .string("x")]))
    }

    @Test func truncatedAfterAKey() {
        let result = Support.readPropertyList("<plist><dict><key>a</key><string>x</string><key>b</key>")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:56"])
        #expect(result.diagnostics.first?.message == "unexpected end of file; expected </dict>")
        #expect(result.value == .dictionary(["a": .string("x")]))
    }

    @Test func mismatchedEndTagClosesTheElementItNames() {
        let result = Support.readPropertyList(
            "<plist><dict>\n<key>a</key><string>hello</dict>\n<key>b</key><string>2</string></plist>"
        )
        // </dict> ends the dictionary, so what follows is a second value inside <plist>.
        #expect(
            Support.positions(result.diagnostics) == ["syntax-error 2:26", "syntax-error 3:1", "syntax-error 3:13"]
        )
        #expect(
            result.diagnostics.map(\.message) == [
                "expected </string> but found </dict>",
                "<plist> holds one value, but a second one, <key>, follows the first",
                "<plist> holds one value, but a second one, <string>, follows the first",
            ]
        )
        #expect(result.value == .dictionary([:]))
    }

    @Test func strayEndTagInADictionaryIsDropped() {
        let result = Support.readPropertyList(
            "<plist><dict><key>a</key><string>1</string></string><key>b</key><string>2</string></dict></plist>"
        )
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:44"])
        #expect(result.diagnostics.first?.message == "expected </dict> but found </string>")
        #expect(result.value == .dictionary(["a": .string("1"), "b": .string("2")]))
    }

    @Test func misspelledEndTagLosesOnlyItsEntry() {
        let result = Support.readPropertyList(
            "<plist><dict>\n<key>a</key><string>1</strin>\n<key>b</key><string>2</string>\n</dict></plist>"
        )
        #expect(Support.positions(result.diagnostics) == ["syntax-error 2:22"])
        #expect(result.diagnostics.first?.message == "expected </string> but found </strin>")
        #expect(result.value == .dictionary(["b": .string("2")]))
    }

    @Test func missingEndTagBeforeTheNextKey() {
        let result = Support.readPropertyList(
            "<plist><dict>\n<key>a</key><string>abc\n<key>b</key><string>2</string>\n</dict></plist>"
        )
        #expect(Support.positions(result.diagnostics) == ["syntax-error 3:1"])
        #expect(result.diagnostics.first?.message == "expected </string> but found <key>")
        #expect(result.value == .dictionary(["b": .string("2")]))
    }

    @Test func badEntitiesAreReportedAndKeptAsWritten() {
        let result = Support.readPropertyList(
            "<plist><dict>\n<key>a</key><string>x &nbsp; &#xD800; & &#X41; y</string>\n<key>b</key><string>ok</string>\n</dict></plist>"
        )
        #expect(
            Support.positions(result.diagnostics) == [
                "syntax-error 2:23", "syntax-error 2:30", "syntax-error 2:39", "syntax-error 2:41",
            ]
        )
        #expect(
            result.diagnostics.map(\.message) == [
                "unknown entity '&nbsp;'; property lists know only &lt; &gt; &amp; &quot; &apos; and character references",
                "invalid character reference '&#xD800;'",
                "'&' does not start an entity; write &amp; for a literal '&'",
                "invalid character reference '&#X41;'",
            ]
        )
        #expect(result.value == .dictionary(["a": .string("x &nbsp; &#xD800; & &#X41; y"), "b": .string("ok")]))
    }

    @Test func invalidBase64() {
        let result = Support.readPropertyList(
            """
            <plist><dict>
            <key>a</key><data>SGV$sbG8=</data>
            <key>b</key><data>QUJD</data>
            <key>c</key><data>QQ==QQ==</data>
            <key>d</key><data>QUJDR</data>
            </dict></plist>
            """
        )
        #expect(
            Support.positions(result.diagnostics) == ["syntax-error 2:22", "syntax-error 4:23", "syntax-error 5:24"]
        )
        #expect(
            result.diagnostics.map(\.message) == [
                "invalid base64 in <data>: '$'",
                "invalid base64 in <data>: 'Q' after '=' padding",
                "invalid base64 in <data>: it ends with a single character of a group of four",
            ]
        )
        #expect(result.value == .dictionary(["b": .data(Array("ABC".utf8))]))
    }

    @Test func invalidScalars() {
        let result = Support.readPropertyList(
            """
            <plist><array>
            <integer>12a</integer>
            <integer>9223372036854775808</integer>
            <integer></integer>
            <real>one</real>
            <date>2023-02-29T00:00:00Z</date>
            <date>2023-01-01</date>
            <true>yes</true>
            <integer>-0x10</integer>
            </array></plist>
            """
        )
        #expect(
            Support.positions(result.diagnostics) == [
                "syntax-error 2:12", "syntax-error 3:10", "syntax-error 4:10", "syntax-error 5:7", "syntax-error 6:7",
                "syntax-error 7:7", "syntax-error 8:7",
            ]
        )
        #expect(
            result.diagnostics.map(\.message) == [
                "invalid integer '12a'",
                "the integer '9223372036854775808' does not fit in a signed 64-bit integer",
                "empty <integer>",
                "invalid real number 'one'",
                "invalid date '2023-02-29T00:00:00Z'; expected YYYY-MM-DDTHH:MM:SSZ",
                "invalid date '2023-01-01'; expected YYYY-MM-DDTHH:MM:SSZ",
                "<true> must be empty",
            ]
        )
        #expect(result.value == .array([.boolean(true), .integer(-16)]))
    }

    @Test func dictionaryWithMissingValues() {
        let result = Support.readPropertyList(
            "<plist><dict>\n<key>a</key>\n<key>b</key><string>2</string>\n<key>c</key>\n</dict></plist>"
        )
        #expect(Support.positions(result.diagnostics) == ["syntax-error 3:1", "syntax-error 5:1"])
        #expect(
            result.diagnostics.map(\.message) == [
                "missing value for key 'a': found <key>", "missing value for key 'c': found </dict>",
            ]
        )
        #expect(result.diagnostics.map(\.key) == ["a", "c"])
        #expect(result.value == .dictionary(["b": .string("2")]))
    }

    @Test func valueWithoutKey() {
        let result = Support.readPropertyList("<dict><string>x</string><key>a</key><true/></dict>")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:7"])
        #expect(result.diagnostics.first?.message == "expected <key> but found <string>")
        #expect(result.value == .dictionary(["a": .boolean(true)]))
    }

    @Test func unknownElementsAreSkippedWhole() {
        let result = Support.readPropertyList(
            """
            <plist><dict>
            <key>a</key><color><r>1</r><key>inner</key></color>
            <key>b</key><array><string>1</string><uid>7</uid><string>2</string></array>
            <key>c</key><string>x<b>bold</b>y</string>
            <key>d</key><string>ok</string>
            </dict></plist>
            """
        )
        #expect(
            Support.positions(result.diagnostics) == ["syntax-error 2:13", "syntax-error 3:38", "syntax-error 4:22"]
        )
        #expect(
            result.diagnostics.map(\.message) == [
                "unknown element <color>", "unknown element <uid>", "unexpected element <b> inside <string>",
            ]
        )
        #expect(result.value == .dictionary(["b": .array([.string("1"), .string("2")]), "d": .string("ok")]))
    }

    @Test func strayTextAndCharacters() {
        let result = Support.readPropertyList(
            "<plist><dict>junk<key>a</key><string>1 < 2</string><key>b</key><string>3</string></dict></plist>"
        )
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:14", "syntax-error 1:40"])
        #expect(
            result.diagnostics.map(\.message) == [
                "unexpected text in <dict>; expected <key>",
                "'<' is not followed by an element name; write &lt; for a literal '<'",
            ]
        )
        #expect(result.value == .dictionary(["a": .string("1 < 2"), "b": .string("3")]))
    }

    @Test func unterminatedComment() {
        let result = Support.readPropertyList("<plist><dict><key>a</key><string>1</string><!-- oops\n</dict></plist>")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:44"])
        #expect(result.diagnostics.first?.message == "unterminated comment")
        #expect(result.value == .dictionary(["a": .string("1")]))
    }

    @Test func unterminatedCDATAAndDeclaration() {
        let cdata = Support.readPropertyList("<plist><string><![CDATA[abc</string></plist>")
        #expect(Support.positions(cdata.diagnostics) == ["syntax-error 1:16"])
        #expect(cdata.diagnostics.first?.message == "unterminated CDATA section")
        #expect(cdata.value == nil)

        let doctype = Support.readPropertyList("<!DOCTYPE plist [ <!ENTITY a 'b'> <plist/>")
        #expect(Support.positions(doctype.diagnostics) == ["syntax-error 1:1"])
        #expect(doctype.diagnostics.first?.message == "unterminated declaration")
        #expect(doctype.value == nil)
    }

    @Test func emptyAndMisshapenDocuments() {
        let emptyPlist = Support.readPropertyList("<plist/>")
        #expect(Support.positions(emptyPlist.diagnostics) == ["syntax-error 1:1"])
        #expect(emptyPlist.value == nil)

        let noValue = Support.readPropertyList("<plist>\n</plist>")
        #expect(Support.positions(noValue.diagnostics) == ["syntax-error 2:1"])
        #expect(noValue.diagnostics.first?.message == "the <plist> element is empty; expected a value inside it")

        let noRoot = Support.readPropertyList("<?xml version=\"1.0\"?>\n<!-- only a comment -->\n")
        #expect(Support.positions(noRoot.diagnostics) == ["syntax-error 3:1"])
        #expect(noRoot.diagnostics.first?.message == "no <plist> element found")

        let twoValues = Support.readPropertyList("<plist><string>a</string><string>b</string></plist>")
        #expect(Support.positions(twoValues.diagnostics) == ["syntax-error 1:26"])
        #expect(twoValues.value == .string("a"))

        let malformedTag = Support.readPropertyList("<plist version=1.0><string>a</string></plist>")
        #expect(Support.positions(malformedTag.diagnostics) == ["syntax-error 1:16"])
        #expect(malformedTag.diagnostics.first?.message == "malformed tag <plist>: unexpected '1'")
        #expect(malformedTag.value == .string("a"))

        let attributeWithoutValue = Support.readPropertyList("<plist version><string>a</string></plist>")
        #expect(Support.positions(attributeWithoutValue.diagnostics) == ["syntax-error 1:15"])
        #expect(
            attributeWithoutValue.diagnostics.first?.message
                == "malformed tag <plist>: attribute 'version' has no value"
        )
        #expect(attributeWithoutValue.value == .string("a"))

        let keyAtRoot = Support.readPropertyList("<plist><key>a</key></plist>")
        #expect(Support.positions(keyAtRoot.diagnostics) == ["syntax-error 1:8"])
        #expect(keyAtRoot.diagnostics.first?.message == "<key> is only allowed directly inside <dict>")
        #expect(keyAtRoot.value == nil)
    }

    @Test func emptyAndNonPropertyListFiles() {
        let empty = PropertyListReader.read(Data(), file: "Empty.plist")
        #expect(Support.positions(empty.diagnostics) == ["unreadable-file 0:0"])
        #expect(empty.diagnostics.first?.message == "the file is empty")
        #expect(empty.diagnostics.first?.severity == .error)
        #expect(empty.value == nil)

        let blank = Support.readPropertyList(" \n\t")
        #expect(Support.positions(blank.diagnostics) == ["unreadable-file 0:0"])
        #expect(blank.diagnostics.first?.message == "the file holds only white space")

        let text = Support.readPropertyList("\n  hello world")
        #expect(Support.positions(text.diagnostics) == ["unreadable-file 2:3"])
        #expect(text.value == nil)
    }

    @Test func invalidUTF8IsReportedAndTheRestRead() {
        let bytes =
            Array("<plist><dict>\n<key>a</key><string>x".utf8) + [0xC3, 0x28] + Array("</string></dict></plist>".utf8)
        let result = PropertyListReader.read(Data(bytes), file: "Test.plist")
        #expect(Support.positions(result.diagnostics) == ["unreadable-file 2:22"])
        #expect(result.diagnostics.first?.severity == .error)
        #expect(result.value == .dictionary(["a": .string("x\u{FFFD}(")]))
    }

    @Test func deepNestingIsCutOffNotRecursedInto() {
        let depth = 1_000
        let text =
            "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
            + "</plist>"
        let result = Support.readPropertyList(text)
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:\(7 + 511 * 7 + 1)"])
        var levels = 0
        var value = result.value
        while let elements = value?.arrayValue {
            levels += 1
            value = elements.first
        }
        #expect(levels == 511)
    }

    @Test func unclosedNestingToTheEndOfAHugeFile() {
        let text = "<plist>" + String(repeating: "<array><dict><key>k</key>", count: 100_000)
        let result = Support.readPropertyList(text)
        #expect(
            result.diagnostics.map(\.message) == [
                "arrays and dictionaries are nested more than 512 deep", "unexpected end of file; expected </dict>",
            ]
        )
        #expect(result.value?.arrayValue != nil)
    }

    @Test func randomBytesNeverTrap() {
        var generator = SplitMix64(seed: 0x5EED)
        let noise = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }

        let raw = PropertyListReader.read(Data(noise), file: "Noise.plist")
        #expect(raw.value == nil)
        #expect(raw.diagnostics.map(\.code) == [.unreadableFile, .unreadableFile])
        #expect(raw.diagnostics.last?.message.hasPrefix("not a property list") == true)

        let xml = PropertyListReader.read(Data(Array("<plist><dict>".utf8) + noise), file: "Noise.plist")
        #expect(xml.diagnostics.first?.code == .unreadableFile)
        #expect(xml.diagnostics.filter { $0.code == .syntaxError && $0.severity == .error }.count == 100)
        #expect(xml.diagnostics.last?.severity == .note)
        #expect(xml.value?.dictionaryValue != nil)
    }
}
