// Caffe — Localization tests.

import Foundation
import Localization
import Testing

@Suite("Strings file reader: OpenStep syntax")
struct StringsFileSyntaxTests {
    typealias Support = PropertyListTestSupport

    @Test func simpleEntriesWithLocationsAndComments() {
        let result = Support.readStrings(
            """
            /* Greeting on the home screen */
            "hello" = "Привет";

              "bye" = "Пока";
            // Line comment
            "ok" = "OK";
            """
        )
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.entries == [
                StringsFileEntry(
                    key: "hello",
                    value: "Привет",
                    location: SourceLocation(line: 2, column: 1),
                    comment: "Greeting on the home screen"
                ),
                StringsFileEntry(key: "bye", value: "Пока", location: SourceLocation(line: 4, column: 3)),
                StringsFileEntry(
                    key: "ok",
                    value: "OK",
                    location: SourceLocation(line: 6, column: 1),
                    comment: "Line comment"
                ),
            ]
        )
    }

    @Test func commentsAndWhitespaceAnywhere() {
        let result = Support.readStrings(
            "/* first */ /* nearest */ \"a\" /* x */ = /* y */\n\"b\"\n/* z */ ;// trailing\n\"c\"\t=\u{2028}\"d\";\n/**/\"e\" = \"f\";"
        )
        #expect(result.diagnostics.isEmpty)
        #expect(result.entries.map(\.comment) == ["nearest", "trailing", ""])
        #expect(Support.pairs(result.entries) == [["a", "b"], ["c", "d"], ["e", "f"]])
    }

    @Test func multiLineCommentsAreTrimmedOnly() {
        let result = Support.readStrings("/*\n   Line one\n     Line two\n*/\n\"k\" = \"v\";")
        #expect(result.entries.first?.comment == "Line one\n     Line two")
    }

    @Test func unquotedStringsAndTheShortForm() {
        let result = Support.readStrings(
            "key.name = value_1;\nPath/to:thing-$ = \"quoted\";\n\"Only key\";\nbare;\n'single' = 'quote \"d\"';"
        )
        #expect(result.diagnostics.isEmpty)
        #expect(
            Support.pairs(result.entries) == [
                ["key.name", "value_1"], ["Path/to:thing-$", "quoted"], ["Only key", "Only key"], ["bare", "bare"],
                ["single", "quote \"d\""],
            ]
        )
    }

    @Test func simpleEscapes() {
        let result = Support.readStrings(#""k" = "n\n t\t r\r q\" b\\ a\' bell\a bs\b ff\f vt\v";"#)
        #expect(result.diagnostics.isEmpty)
        #expect(result.entries.first?.value == "n\n t\t r\r q\" b\\ a' bell\u{7} bs\u{8} ff\u{C} vt\u{B}")
    }

    @Test func unicodeEscapes() {
        let result = Support.readStrings(#""k" = "\U00e9|\u00E9|\UD83D\UDE00|\ud83d\ude00|\U41|\U200f%@";"#)
        #expect(result.diagnostics.isEmpty)
        #expect(result.entries.first?.value == "é|é|😀|😀|A|\u{200F}%@")
    }

    @Test func octalAndUnknownEscapes() {
        // The last escape is a backslash before a line break, which keeps the line break.
        let result = Support.readStrings(#""k" = "\101\0\1010\351|\x\é\%\"# + "\n\";")
        #expect(result.diagnostics.isEmpty)
        // Octal takes at most three digits; 0351 is NeXTSTEP Latin for 'Ø', as in Core Foundation.
        #expect(result.entries.first?.value == "A\u{0}A0Ø|xé%\n")
    }

    @Test func badUnicodeEscapesAreReportedAndTheEntryKept() {
        let result = Support.readStrings("\"a\" = \"x\\Uzz\";\n\"b\" = \"\\UD800y\\uDC00\";\n\"c\" = \"ok\";")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:9", "syntax-error 2:8", "syntax-error 2:15"])
        #expect(
            result.diagnostics.map(\.message) == [
                "'\\U' must be followed by hexadecimal digits",
                "unpaired UTF-16 surrogate \\UD800; it was replaced with U+FFFD",
                "unpaired UTF-16 surrogate \\UDC00; it was replaced with U+FFFD",
            ]
        )
        #expect(Support.pairs(result.entries) == [["a", "xUzz"], ["b", "\u{FFFD}y\u{FFFD}"], ["c", "ok"]])
    }

    @Test func valuesKeepTheirWhitespaceAndNewlines() {
        let result = Support.readStrings("\"k\" = \"  two  spaces\nand a line  \";")
        #expect(result.entries.first?.value == "  two  spaces\nand a line  ")
    }

    @Test func duplicatesAreKeptInOrderAndWarned() {
        let result = Support.readStrings("\"a\" = \"1\";\n\"b\" = \"2\";\n  \"a\" = \"3\";\n\"a\" = \"4\";")
        #expect(Support.pairs(result.entries) == [["a", "1"], ["b", "2"], ["a", "3"], ["a", "4"]])
        #expect(Support.positions(result.diagnostics) == ["duplicate-key 3:3", "duplicate-key 4:1"])
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning && $0.key == "a" })
        #expect(result.diagnostics.first?.message == "the key is already defined at 1:1; the last value wins")
        #expect(
            result.diagnostics.first?.description
                == "Test.strings:3:3: warning: [duplicate-key] 'a': the key is already defined at 1:1; the last value wins"
        )
    }

    @Test func emptyAndCommentOnlyFiles() {
        for text in ["", " \n\t\n", "/* nothing */\n// here\n", "\u{FEFF}"] {
            let result = Support.readStrings(text)
            #expect(result.entries.isEmpty)
            #expect(result.diagnostics.isEmpty)
        }
        #expect(
            StringsFileReader.read(Data(), file: "Empty.strings") == StringsFileReadResult(entries: [], diagnostics: [])
        )
    }

    @Test func columnsCountCharactersNotBytes() {
        // "é" written as e + U+0301 is one character (two scalars, three bytes); Hebrew letters are
        // one each (two bytes). The ';' is missing right after the value's closing quote, column 13.
        let result = Support.readStrings("\"e\u{301}\" = \"שלום\" x;")
        #expect(Support.positions(result.diagnostics) == ["syntax-error 1:13"])
        #expect(result.entries.map(\.key) == ["e\u{301}"])
    }

    @Test func xmlPropertyListStringsFiles() {
        let result = Support.readStrings(
            Support.xml(
                "<dict>\n<key>a</key><string>x</string>\n<key>n</key><integer>1</integer>\n<key>b</key><string/>\n</dict>"
            )
        )
        #expect(
            result.entries == [
                StringsFileEntry(key: "a", value: "x", location: SourceLocation(line: 5, column: 1)),
                StringsFileEntry(key: "b", value: "", location: SourceLocation(line: 7, column: 1)),
            ]
        )
        #expect(Support.positions(result.diagnostics) == ["unexpected-value-type 6:1"])
        #expect(result.diagnostics.first?.key == "n")

        let array = Support.readStrings("<plist><array><string>x</string></array></plist>")
        #expect(array.entries.isEmpty)
        #expect(array.diagnostics.map(\.code) == [.unexpectedValueType])

        let broken = Support.readStrings(
            "\n<plist><dict><key>a</key><string>x</string><key>b</key><string>y</dict></plist>"
        )
        #expect(broken.entries.map(\.key) == ["a"])
        #expect(Support.positions(broken.diagnostics) == ["syntax-error 2:65"])
    }
}
