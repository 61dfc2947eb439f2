// Inline Markdown as `caffe markdown` and every catalog string take it: CommonMark inlines, `~~`,
// entities, autolinks and Apple's `^[text](json5)`, parsed in both modes for invalid bodies and
// rendered by every renderer.
//
// Checked beyond "no crash": the literal mode fails only for nesting; where the strict mode
// succeeds both modes agree; HTML is only the renderer's own elements with escaped text and
// safe links; ANSI output carries no escape sequence but the renderer's; JSON runs are JSON.
import FuzzSupport
import RichText

let strict = RichTextParser.Options()
let literal = RichTextParser.Options(invalidAttributes: .keepLiteral)
let paragraph = RichTextParser.Options(invalidAttributes: .keepLiteral, trimsLikeParagraph: true)

/// Renders `document` every way and checks each output.
func render(_ document: RichDocument) {
    if let problem = OutputChecks.htmlProblem(HTMLRenderer().render(document), safeLinks: true) {
        FuzzDriver.fail("HTML: \(problem)")
    }
    if let problem = OutputChecks.htmlProblem(HTMLRenderer(allowedSchemes: nil).render(document), safeLinks: false) {
        FuzzDriver.fail("HTML, every scheme: \(problem)")
    }
    if let problem = OutputChecks.ansiProblem(ANSIRenderer().render(document)) {
        FuzzDriver.fail("ANSI: \(problem)")
    }
    if let problem = JSONTextCheck.problem(JSONRunsRenderer().render(document)) {
        FuzzDriver.fail("JSON runs: \(problem)")
    }
    _ = PlainTextRenderer().render(document)
    _ = try? document.attributedString(keepingUnknownAttributes: true)
}

FuzzDriver.run { input in
    let text = input.text
    let kept: RichDocument
    do throws(RichTextError) {
        kept = try RichTextParser.parse(text, options: literal)
    } catch {
        guard error.message.contains("nests deeper") else {
            FuzzDriver.fail("the literal mode failed for something other than nesting: \(error)")
        }
        return
    }
    render(kept)
    if let parsed = try? RichTextParser.parse(text, options: strict), parsed != kept {
        FuzzDriver.fail("the strict and literal modes disagree on valid markup")
    }
    if let trimmed = try? RichTextParser.parse(text, options: paragraph) { render(trimmed) }
}
