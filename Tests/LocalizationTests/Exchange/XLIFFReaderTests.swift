// Caffe — Localization tests.
import Foundation
import Testing

@testable import Localization

/// The XLIFF reader: what the exporter writes reads back unit for unit; what it cannot read
/// faithfully is an error naming the line.
@Suite("XLIFF reader")
struct XLIFFReaderTests {
    @Test("an export reads back unit for unit, for every language of the catalog")
    func exportsReadBack() throws {
        for language in ["ru", "fr", "de", "ar", "ja"] {
            let export = try LocalizationExport(
                catalogFolder: LocalizationExportTests.catalog,
                developmentLanguage: "en",
                language: language
            )
            let document = try XLIFFReader.read(Array(export.xliff(toolVersion: "test").utf8))
            #expect(document.files.map(\.original) == export.files.map(\.original))
            for (read, written) in zip(document.files, export.files) {
                #expect(read.targetLanguage == language && read.sourceLanguage == written.sourceLanguage)
                #expect(read.units.map(\.id) == written.units.map(\.id))
                #expect(read.units.map(\.source) == written.units.map(\.source))
                #expect(read.units.map(\.target) == written.units.map { $0.target ?? "" })
                #expect(read.units.map(\.state) == written.units.map(\.state))
            }
        }
    }

    @Test("references, CDATA, comments, an empty target, attributes in single quotes")
    func xmlForms() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a translator's tool wrote this -->
            <xliff version="1.2"><file original='Localizable.xcstrings' source-language="en" target-language="ru">
            <body>
              <trans-unit id="a&amp;b&#10;c">
                <source>1 &lt; 2 &#x1F600; &quot;q&quot; &apos;</source>
                <target state="translated"><![CDATA[<b>raw</b> & more]]></target>
              </trans-unit>
              <trans-unit id="empty"><source>x</source><target state="new"/></trans-unit>
              <trans-unit id="none"><source>y</source></trans-unit>
            </body></file></xliff>
            """
        let units = try XLIFFReader.read(Array(xml.utf8)).files[0].units
        #expect(units.map(\.id) == ["a&b\nc", "empty", "none"])
        #expect(units[0].source == "1 < 2 😀 \"q\" '")
        #expect(units[0].target == "<b>raw</b> & more" && units[0].state == "translated")
        #expect(units[1].target == "" && units[1].state == "new")
        #expect(units[2].target == nil && units[2].state == nil)
    }

    @Test("what it cannot read faithfully is an error naming the line")
    func refusals() {
        let cases: [(String, String)] = [
            (
                "<xliff><file><body><trans-unit id=\"a\"><source>x <g id=\"1\">y</g></source></trans-unit></body></file></xliff>",
                "XLIFF line 1: inline markup <g> inside <source> is not supported"
            ),
            (
                "<xliff><file><body><trans-unit><source>x</source></trans-unit></body></file></xliff>",
                "XLIFF line 1: a <trans-unit> without an id"
            ),
            (
                "<xliff><file>\n<body>\n<trans-unit id=\"a\"><source>&nbsp;</source></trans-unit></body></file></xliff>",
                "XLIFF line 3: unknown reference &nbsp;"
            ),
            ("<xliff><file><body>\n", "XLIFF line 2: <body> is never closed"),
            ("<xliff><file></body></file></xliff>", "XLIFF line 1: </body> closes <file>"),
            ("<xliff><file original=\"a></file></xliff>", "XLIFF line 1: '<' inside an attribute value"),
        ]
        for (xml, message) in cases {
            do {
                _ = try XLIFFReader.read(Array(xml.utf8))
                Issue.record("read: \(xml)")
            } catch {
                #expect(error.description.hasSuffix(message), "\(error.description)")
            }
        }
    }
}
