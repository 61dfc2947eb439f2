// Caffe — RichText tests.
import CaffeTestKit
import Foundation
import Testing

@Suite("caffe markdown as a process", .enabled(if: ExecutableRunner.locate("caffe") != nil))
struct MarkdownCommandTests {
    func caffe(_ arguments: [String], input: String) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run(try #require(ExecutableRunner.locate("caffe")), ["markdown"] + arguments, input: input)
    }

    @Test func formatsOneDocumentFromStandardInput() throws {
        let note = "**Thank you!** _Visit our [website](https://caffe.example.com)._\n"
        #expect(try caffe(["--format", "plain"], input: note).standardOutput == "Thank you! Visit our website.\n")
        #expect(
            try caffe(["--format", "html"], input: note).standardOutput
                == "<strong>Thank you!</strong> <em>Visit our <a href=\"https://caffe.example.com\">website</a>.</em>\n"
        )
        let slogan = "^[Fast](rainbow: 'fun') food\n"
        #expect(
            try caffe(["--format", "json"], input: slogan).standardOutput == #"[{"attributes":{},"text":"Fast food"}]"#
                + "\n"
        )
        #expect(
            try caffe(["--format", "json", "--keep-unknown-attributes"], input: slogan).standardOutput
                == #"[{"attributes":{"rainbow":"fun"},"text":"Fast"},{"attributes":{},"text":" food"}]"# + "\n"
        )
    }

    /// Issue 31, item 8, from the command line: the alt text with `imageURL`, no `!`, no link; HTML
    /// output is CommonMark's `<img>`, and an image whose scheme HTML does not allow is its alt text.
    @Test func anImageIsItsAltText() throws {
        let input = "Our ![new cup](https://caffe.example.com/cup.png) is here\n"
        #expect(try caffe(["--format", "plain"], input: input).standardOutput == "Our new cup is here\n")
        #expect(
            try caffe(["--format", "json"], input: input).standardOutput
                == #"[{"attributes":{},"text":"Our "},{"attributes":{"imageURL":"https://caffe.example.com/cup.png"},"#
                + #""text":"new cup"},{"attributes":{},"text":" is here"}]"# + "\n"
        )
        #expect(
            try caffe(["--format", "html"], input: input).standardOutput
                == #"Our <img src="https://caffe.example.com/cup.png" alt="new cup" /> is here"# + "\n"
        )
        #expect(
            try caffe(["--format", "html"], input: "![cup](javascript:alert(1))\n").standardOutput == "cup\n"
        )
    }

    @Test func invalidAttributesExitOneWithThePosition() throws {
        let result = try caffe([], input: "^[x](inflect: nope)\n")
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("caffe markdown: 1:"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func jsonlAnswersLineByLine() throws {
        let input = [#""**a**""#, #""^[b](c: )""#, #""~~d~~ `e`""#, "not json"].joined(separator: "\n") + "\n"
        let lines = try caffe(["--jsonl", "--format", "html"], input: input).standardOutput.split(separator: "\n").map(
            String.init
        )
        #expect(lines.count == 4)
        #expect(lines[0] == #""<strong>a</strong>""#)
        #expect(lines[1].hasPrefix(#"{"error":"1:6: invalid attributes"#))
        #expect(lines[2] == #""<del>d</del> <code>e</code>""#)
        #expect(lines[3] == #"{"error":"the line is not a JSON string"}"#)
        let runs = try caffe(["--jsonl", "--format", "json"], input: #""*x*""# + "\n").standardOutput
        #expect(runs == #"[{"attributes":{"inlinePresentationIntent":["emphasized"]},"text":"x"}]"# + "\n")
    }
}
