// Caffe — RichText tests.
import CaffeTestKit
import Foundation
import RichText
import Testing

/// Issue 21, item 13: where a `^[…](body)` body ends. Apple's parser is swift-cmark, whose
/// `manual_scan_attribute_attributes` ends the body at the first `)` outside nested parentheses,
/// quotes or not; the body then goes to the JSON5 decoder, for which an unterminated string is an error.
@Suite("Issue 21: attribute bodies end where swift-cmark ends them")
struct AttributeBodyBoundaryTests {
    func html(_ markdown: String, _ options: RichTextParser.Options = .init()) throws -> String {
        HTMLRenderer().render(try RichTextParser.parse(markdown, options: options))
    }

    @Test func unterminatedStringBeforeTheClosingParenthesisIsAJSON5Error() throws {
        let error = try #require(throws: RichTextError.self) { try RichTextParser.parse("^[Tea](size: 'large)") }
        #expect(error.message.hasPrefix("invalid attributes: not valid JSON5"))
        #expect(error.line == 1)
        // The body starts at column 8 ("^[Tea](" is 7 scalars); the problem lies inside it.
        #expect((8...20).contains(error.column), "\(error)")
        #expect(try html("^[Tea](size: 'large)", .init(invalidAttributes: .keepLiteral)) == "^[Tea](size: 'large)")
    }

    @Test func aParenthesisInsideQuotesEndsTheBody() throws {
        let markdown = "^[Latte](note: 'oat) milk')"
        #expect(throws: RichTextError.self) { try RichTextParser.parse(markdown) }
        // As literal text nothing is lost: the failed opener and everything after it stay as written.
        #expect(try html(markdown, .init(invalidAttributes: .keepLiteral)) == "^[Latte](note: 'oat) milk')")
    }

    @Test func escapedParenthesesStayInsideTheBodyButJSON5RejectsTheEscape() throws {
        // `\)` skips the parenthesis (ASCII punctuation after a backslash), so the body is whole;
        // Foundation's JSON5 decoder does not accept `\)` as a string escape, though.
        #expect(throws: RichTextError.self) { try RichTextParser.parse(#"^[Latte](note: 'oat\) milk')"#) }
        // A parenthesis inside a value is written as a Unicode escape.
        #expect(try html(#"^[Latte](note: 'oat\u0029 milk')"#) == #"<span data-note="oat) milk">Latte</span>"#)
    }

    @Test func nestedParenthesesCountUpTo32() throws {
        let nested = String(repeating: "(", count: 32) + String(repeating: ")", count: 32)
        // 32 levels: the body is found (and is not JSON5).
        #expect(throws: RichTextError.self) { try RichTextParser.parse("^[a](k: \(nested))") }
        // 33 levels: swift-cmark gives up, so the brackets are literal text, not an error.
        let deeper = "(" + nested + ")"
        #expect(try html("^[a](k: \(deeper))") == "^[a](k: \(deeper))")
    }

    @Test func bodiesThatEndWellStillDecode() throws {
        #expect(try html("^[Tea](size: 'large') now") == #"<span data-size="large">Tea</span> now"#)
        #expect(try html(#"^[a](k: "x\"y")"#) == #"<span data-k="x&quot;y">a</span>"#)
    }
}

/// Issue 21, item 12: relative destinations are links in every mode; other schemes are a setting.
@Suite("Issue 21: link schemes")
struct LinkSchemeTests {
    func document(_ markdown: String) throws -> RichDocument {
        try RichTextParser.parse(markdown)
    }

    @Test func aRelativeDestinationWithAColonIsALinkInSafeMode() throws {
        // CommonMark example 24: the text before ':' is not a scheme, so this is a relative path.
        #expect(HTMLRenderer().render(try document(#"[link](foo\)\:)"#)) == #"<a href="foo):">link</a>"#)
        #expect(
            HTMLRenderer().render(try document("[a](./x:y) [b](#top:1)"))
                == ##"<a href="./x:y">a</a> <a href="#top:1">b</a>"##
        )
    }

    @Test(arguments: [
        (
            "<irc://foo.bar:2233/baz>", "irc://foo.bar:2233/baz",
            #"<a href="irc://foo.bar:2233/baz">irc://foo.bar:2233/baz</a>"#
        ),
        ("<a+b+c:d>", "a+b+c:d", #"<a href="a+b+c:d">a+b+c:d</a>"#),
        (
            "<made-up-scheme://foo,bar>", "made-up-scheme://foo,bar",
            #"<a href="made-up-scheme://foo,bar">made-up-scheme://foo,bar</a>"#
        ),
        ("<localhost:5001/foo>", "localhost:5001/foo", #"<a href="localhost:5001/foo">localhost:5001/foo</a>"#),
    ])
    func otherSchemesAreTextWhenSafeAndLinksInCommonMarkMode(markdown: String, safe: String, commonMark: String) throws
    {
        let parsed = try document(markdown)
        #expect(HTMLRenderer().render(parsed) == safe)
        #expect(HTMLRenderer(allowedSchemes: nil).render(parsed) == commonMark)
        #expect(
            HTMLRenderer(allowedSchemes: ["irc", "a+b+c", "made-up-scheme", "localhost"]).render(parsed) == commonMark
        )
    }

    @Test func controlsCannotHideAScheme() throws {
        // A tab inside or spaces before the scheme are ignored by browsers, so they count here too.
        let parsed = try document("[x](java&#9;script:alert(1)) [y](<  javascript:alert(2)>)")
        #expect(HTMLRenderer().render(parsed) == "x y")
    }
}

/// `caffe markdown --commonmark` passes every in-scope inline example of the spec, as the library does.
@Suite("Issue 21: caffe markdown --commonmark", .enabled(if: ExecutableRunner.locate("caffe") != nil))
struct MarkdownCommonMarkModeTests {
    func caffe(_ arguments: [String], input: String) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run(try #require(ExecutableRunner.locate("caffe")), ["markdown"] + arguments, input: input)
    }

    @Test func everyInScopeInlineExamplePassesThroughTheCommandLine() throws {
        let examples = SpecExample.inline
        #expect(examples.count == 245)
        let input =
            try examples.map { String(decoding: try JSONEncoder().encode($0.markdown), as: UTF8.self) }
            .joined(separator: "\n") + "\n"
        let result = try caffe(["--jsonl", "--format", "html", "--commonmark"], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == examples.count)
        for (example, line) in zip(examples, lines) {
            let html = try JSONDecoder().decode(String.self, from: Data(line.utf8))
            #expect(html == example.inlineHTML, "\(example.testDescription)")
        }
    }

    @Test func theDefaultStaysTheSafeAllowList() throws {
        let input = "<irc://foo.bar:2233/baz> [link](foo\\)\\:)\n"
        #expect(
            try caffe(["--format", "html"], input: input).standardOutput
                == "irc://foo.bar:2233/baz <a href=\"foo):\">link</a>\n"
        )
        #expect(
            try caffe(["--format", "html", "--link-schemes", "https,irc"], input: input).standardOutput
                == "<a href=\"irc://foo.bar:2233/baz\">irc://foo.bar:2233/baz</a> <a href=\"foo):\">link</a>\n"
        )
    }
}
