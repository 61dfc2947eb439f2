// Caffe — Localization tests.

import Foundation
import Localization
import Testing

@Suite("Property list reader: XML syntax")
struct XMLPropertyListSyntaxTests {
    typealias Support = PropertyListTestSupport

    @Test func readsEveryElementType() throws {
        let result = Support.readPropertyList(
            Support.xml(
                """
                <dict>
                	<key>string</key><string>text</string>
                	<key>integer</key><integer>-42</integer>
                	<key>hex</key><integer>0x1F</integer>
                	<key>max</key><integer>9223372036854775807</integer>
                	<key>min</key><integer>-9223372036854775808</integer>
                	<key>real</key><real>2.5</real>
                	<key>exponent</key><real>-1e3</real>
                	<key>yes</key><true/>
                	<key>no</key><false/>
                	<key>date</key><date>2024-02-29T13:14:15Z</date>
                	<key>data</key><data>AAEC/w==</data>
                	<key>array</key><array><string>a</string><integer>1</integer><array/></array>
                	<key>empty</key><dict/>
                </dict>
                """
            )
        )
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let root = try #require(result.value?.dictionaryValue)
        #expect(
            root.keys == [
                "string", "integer", "hex", "max", "min", "real", "exponent", "yes", "no", "date", "data", "array",
                "empty",
            ]
        )
        #expect(root["string"] == .string("text"))
        #expect(root["integer"] == .integer(-42))
        #expect(root["hex"] == .integer(31))
        #expect(root["max"] == .integer(.max))
        #expect(root["min"] == .integer(.min))
        #expect(root["real"] == .real(2.5))
        #expect(root["exponent"] == .real(-1000))
        #expect(root["yes"] == .boolean(true))
        #expect(root["no"] == .boolean(false))
        #expect(root["date"] == .date(Date(timeIntervalSince1970: 1_709_212_455)))
        #expect(root["data"] == .data([0, 1, 2, 255]))
        #expect(root["array"] == .array([.string("a"), .integer(1), .array([])]))
        #expect(root["empty"] == .dictionary([:]))
    }

    @Test func keyLocationsAreLineAndCharacterColumn() throws {
        let text = """
            <plist><dict>
              <key>a</key><string>x</string>
            \t<key>b</key><string>y</string>
              <key>ключ</key><string>z</string> <key>c</key><string>w</string>
            </dict></plist>
            """
        let root = try #require(Support.readPropertyList(text).value?.dictionaryValue)
        #expect(
            root.entries.map(\.location) == [
                SourceLocation(line: 2, column: 3),
                SourceLocation(line: 3, column: 2),
                SourceLocation(line: 4, column: 3),
                // "  <key>ключ</key><string>z</string> " is 36 characters, though 40 bytes.
                SourceLocation(line: 4, column: 37),
            ]
        )
    }

    @Test func crLineEndingsCountAsLines() throws {
        let text = "<plist>\r\n<dict>\r<key>a</key><string>x\r\ny</string>\n<key>b</key><true/></dict></plist>"
        let root = try #require(Support.readPropertyList(text).value?.dictionaryValue)
        #expect(
            root.entries.map(\.location) == [SourceLocation(line: 3, column: 1), SourceLocation(line: 5, column: 1)]
        )
        // Line endings inside strings are kept as written.
        #expect(root["a"] == .string("x\r\ny"))
    }

    @Test func whitespaceInStringsIsKeptExactly() throws {
        let result = Support.readPropertyList(
            Support.xml("<dict><key> padded key </key><string>\n\t two  spaces \n</string></dict>")
        )
        #expect(result.diagnostics.isEmpty)
        #expect(result.value?["padded key"] == nil)
        #expect(result.value?[" padded key "] == .string("\n\t two  spaces \n"))
    }

    @Test func emptyStringForms() throws {
        let result = Support.readPropertyList(
            Support.xml("<array><string/><string></string><string /></array>")
        )
        #expect(result.diagnostics.isEmpty)
        #expect(result.value == .array([.string(""), .string(""), .string("")]))
    }

    @Test func entitiesAndCharacterReferences() throws {
        let result = Support.readPropertyList(
            Support.xml(
                "<array><string>&lt;&gt;&amp;&quot;&apos;</string><string>&#x200F;%@&#160;x&#x41;&#65;&#x1F600;</string></array>"
            )
        )
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.value == .array([.string("<>&\"'"), .string("\u{200F}%@\u{A0}xAA😀")]))
    }

    @Test func cdataCommentsAndProcessingInstructions() throws {
        let text = """
            <?xml version="1.0"?>
            <!-- a comment before the root -->
            <!DOCTYPE plist [ <!ENTITY x "y"> <!-- ] > --> ]>
            <plist version="1.0">
            <?editor hint?>
            <dict>
              <!-- <key>commented</key><string>out</string> -->
              <key>cdata</key><string><![CDATA[<b>&amp;</b>]]></string>
              <key>split</key><string>a<!-- inside -->b<?pi?>c</string>
            </dict>
            </plist>
            <!-- trailing -->
            """
        let result = Support.readPropertyList(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.value?.dictionaryValue?.keys == ["cdata", "split"])
        #expect(result.value?["cdata"] == .string("<b>&amp;</b>"))
        #expect(result.value?["split"] == .string("abc"))
    }

    @Test func base64MayContainWhitespaceAndOmitPadding() throws {
        let result = Support.readPropertyList(
            Support.xml("<array><data>\n\tSGVs\n\tbG8=\n</data><data>SGk</data><data></data><data/></array>")
        )
        #expect(result.diagnostics.isEmpty)
        #expect(result.value == .array([.data(Array("Hello".utf8)), .data(Array("Hi".utf8)), .data([]), .data([])]))
    }

    @Test func datesWithFractionsAndBeforeTheEpoch() throws {
        let result = Support.readPropertyList(
            Support.xml("<array><date>1969-12-31T23:59:59Z</date><date>2001-01-01T00:00:00.5Z</date></array>")
        )
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.value
                == .array([
                    .date(Date(timeIntervalSince1970: -1)), .date(Date(timeIntervalSinceReferenceDate: 0.5)),
                ])
        )
    }

    @Test func realSpecialValuesAndTrimmedNumbers() throws {
        let result = Support.readPropertyList(
            Support.xml(
                "<array><real>+infinity</real><real>-infinity</real><real> 0.25 </real><integer>\n7\n</integer></array>"
            )
        )
        #expect(result.diagnostics.isEmpty)
        #expect(result.value == .array([.real(.infinity), .real(-.infinity), .real(0.25), .integer(7)]))
    }

    @Test func bareRootValueWithoutPlistElement() {
        let result = Support.readPropertyList("<dict><key>a</key><string>b</string></dict>")
        #expect(result.diagnostics.isEmpty)
        #expect(result.value == .dictionary(["a": .string("b")]))
    }

    @Test func duplicateKeysAreKeptAndWarned() throws {
        let result = Support.readPropertyList(
            "<plist><dict>\n<key>a</key><string>1</string>\n<key>a</key><string>2</string>\n</dict></plist>"
        )
        #expect(result.value?.dictionaryValue?.keys == ["a", "a"])
        #expect(result.value?["a"] == .string("2"))
        #expect(Support.positions(result.diagnostics) == ["duplicate-key 3:1"])
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.diagnostics.first?.key == "a")
        #expect(
            result.diagnostics.first?.message
                == "the key is already defined at 2:1 in this dictionary; the last value wins"
        )
    }

    @Test func utf16AndByteOrderMarkedXML() throws {
        let text = Support.xml("<dict><key>k</key><string>ß</string></dict>")
        var littleEndian: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 {
            littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let utf16 = PropertyListReader.read(Data(littleEndian), file: "Test.plist")
        #expect(utf16.diagnostics.isEmpty)
        #expect(utf16.value == .dictionary(["k": .string("ß")]))

        let bom = PropertyListReader.read(Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)), file: "Test.plist")
        #expect(bom.diagnostics.isEmpty)
        #expect(bom.value == .dictionary(["k": .string("ß")]))
        #expect(bom.value?.dictionaryValue?.entries.first?.location == SourceLocation(line: 4, column: 7))
    }
}
