// Caffe — RichText tests.
import Foundation
import RichText
import Testing

@Suite("Replacing text inside markup")
struct RichDocumentEditingTests {
    private func document(_ markup: String) throws -> RichDocument { try RichTextParser.parse(markup) }

    private func edit(_ document: RichDocument, _ text: String, _ replacement: String) throws -> RichTextEdit {
        let plain = document.plainText
        let range = try #require(plain.range(of: text))
        let lower = plain.utf8.distance(from: plain.startIndex, to: range.lowerBound)
        return RichTextEdit(utf8Range: lower..<(lower + text.utf8.count), replacement: replacement)
    }

    @Test func replacementsKeepTheirMarkup() throws {
        let original = try document("Add 2 **large** [_pizza_](https://x.example) now")
        let edited = original.replacingText([try edit(original, "pizza", "pizzas")])
        #expect(edited.plainText == "Add 2 large pizzas now")
        #expect(
            HTMLRenderer().render(edited)
                == "Add 2 <strong>large</strong> <a href=\"https://x.example\"><em>pizzas</em></a> now"
        )
        #expect(edited.runs.map(\.text) == ["Add 2 ", "large", " ", "pizzas", " now"])
    }

    @Test func anEditAcrossMarkupLandsWhereItStarts() throws {
        let original = try document("de *el* pan")
        let edited = original.replacingText([try edit(original, "de el", "del")])
        #expect(edited.plainText == "del pan")
        #expect(edited.runs.map(\.text) == ["del pan"])
        #expect(HTMLRenderer().render(edited) == "del pan")
    }

    @Test func severalEditsAndOverlaps() throws {
        let original = try document("a b c d")
        let edits = [
            RichTextEdit(utf8Range: 6..<7, replacement: "DD"),
            RichTextEdit(utf8Range: 0..<1, replacement: "AA"),
            RichTextEdit(utf8Range: 0..<3, replacement: "ignored"),
            RichTextEdit(utf8Range: 4..<5, replacement: ""),
        ]
        #expect(original.replacingText(edits).plainText == "AA b  DD")
    }

    @Test func noEditsIsTheSameDocument() throws {
        let original = try document("*x*")
        #expect(original.replacingText([]) == original)
    }
}
