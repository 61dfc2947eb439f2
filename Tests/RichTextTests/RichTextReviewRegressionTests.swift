// Caffe — RichText tests.
import RichText
import Testing

/// Failures found in review, each pinned by a test.
@Suite("RichText review regressions")
struct RichTextReviewRegressionTests {
    @Test func placeholderScalarsInMarkupAndOverlappingSlotsDoNotCrash() throws {
        let stray = try RichTextTemplate("a \u{F0000} b &#983040; c", slots: [])
        #expect(stray.render { _ in "x" }.document.plainText == "a \u{FFFD} b \u{FFFD} c")
        let markup = "A %@ B %@ C %@"
        let overlapping = try RichTextTemplate(markup, slots: [(2..<4, 0), (3..<5, 1), (12..<14, 2)])
        #expect(overlapping.slots.map(\.argument) == [0, 2])
        #expect(overlapping.render { $0.argument == 0 ? "one" : "three" }.document.plainText == "A one B %@ C three")
    }

    @Test func slotsInLinksAreFilledAndInAttributeBodiesRejected() throws {
        let markup = "[site](https://caffe.example.com/%@)"
        let start = markup.utf8.count - 3
        let template = try RichTextTemplate(markup, slots: [(start..<(start + 2), 0)])
        let rendered = template.render { _ in "menu" }
        #expect(rendered.document.runs.map(\.link) == ["https://caffe.example.com/menu"])
        #expect(HTMLRenderer().render(rendered.document) == #"<a href="https://caffe.example.com/menu">site</a>"#)
        #expect(throws: RichTextError.self) { try RichTextTemplate("^[x](name: '%@')", slots: [(12..<14, 0)]) }
    }

    @Test func unclosedAttributeBodiesAndManyOpenersStayFast() throws {
        // Each was quadratic before (seconds at 10k repetitions in a debug build).
        let unclosed = String(repeating: "^[x](", count: 2_000)
        #expect(try RichTextParser.parse(unclosed).plainText == unclosed)
        let openers = String(repeating: "^[", count: 2_000) + String(repeating: "[a](b)", count: 2_000)
        #expect(try RichTextParser.parse(openers).runs.filter { $0.link == "b" }.count == 1)
    }

    @Test func terminalEscapesFromTextOrLinksAreRemoved() throws {
        let document = try RichTextParser.parse("a&#27;[31mb [x](<\u{1B}]52;c;aGk=\u{07}>) &#x9b;c")
        let output = ANSIRenderer().render(document)
        // The sequences' printable parts may stay as text; their ESC is gone.
        #expect(!output.contains("\u{1B}[31m"))
        #expect(!output.contains("\u{1B}]52"))
        #expect(!output.unicodeScalars.contains("\u{07}"))
        #expect(!output.unicodeScalars.contains("\u{9B}"))
    }

    @Test func unsafeLinkSchemesRenderTextOnly() throws {
        let document = try RichTextParser.parse(
            "[x](javascript:alert(1)) <javascript:alert(1)> [y](JaVaScRiPt&#58;go) [ok](/menu) [mail](mailto:a@b.c)"
        )
        #expect(
            HTMLRenderer().render(document)
                == #"x javascript:alert(1) y <a href="/menu">ok</a> <a href="mailto:a@b.c">mail</a>"#
        )
        #expect(HTMLRenderer(allowedSchemes: nil).render(document).contains(#"<a href="javascript:alert(1)">x</a>"#))
    }

    @Test func lineEndingsNulAndTrailingComments() throws {
        #expect(HTMLRenderer().render(try RichTextParser.parse("`a\r\nb`")) == "<code>a b</code>")
        #expect(try RichTextParser.parse("x\u{0}y").plainText == "x\u{FFFD}y")
        #expect(try RichTextParser.parse("a\rb").nodes == [.text("a"), .softBreak, .text("b")])
        #expect(
            JSONRunsRenderer().render(try RichTextParser.parse("^[x](a: 1 // note)"))
                == #"[{"attributes":{"a":1},"text":"x"}]"#
        )
    }
}
