// Caffe — RichText tests.
import RichText
import Testing

@Suite("Templates compiled once")
struct RichTextTemplateTests {
    /// The UTF-8 ranges of `pieces` in `text`, in order, each with the argument it stands for.
    func slots(_ text: String, _ pieces: [(String, Int)]) -> [(utf8Range: Range<Int>, argument: Int)] {
        let bytes = Array(text.utf8)
        var from = 0
        return pieces.compactMap { piece, argument in
            let needle = Array(piece.utf8)
            guard
                let start = (from...(bytes.count - needle.count)).first(where: {
                    Array(bytes[$0..<($0 + needle.count)]) == needle
                })
            else { return nil }
            from = start + needle.count
            return (start..<(start + needle.count), argument)
        }
    }

    @Test func argumentsFillSlotsAndAreNeverMarkdown() throws {
        let markup = "**%@** added ^[%lld %@](inflect: true) to _%@_"
        let template = try RichTextTemplate(
            markup,
            slots: slots(markup, [("%@", 0), ("%lld", 1), ("%@", 2), ("%@", 3)])
        )
        let rendered = template.render { slot in ["*Ana*", "2", "pizzas", "your_order"][slot.argument] }
        #expect(rendered.document.plainText == "*Ana* added 2 pizzas to your_order")
        #expect(
            HTMLRenderer().render(rendered.document)
                == #"<strong>*Ana*</strong> added <span data-inflect="true">2 pizzas</span> to <em>your_order</em>"#
        )
        #expect(rendered.substitutions.map(\.argument) == [0, 1, 2, 3])
        let plain = Array(rendered.document.plainText.utf8)
        #expect(
            rendered.substitutions.map { String(decoding: plain[$0.utf8Range], as: UTF8.self) } == [
                "*Ana*", "2", "pizzas", "your_order",
            ]
        )
    }

    @Test func oneTemplateManyRenders() throws {
        let markup = "Add ^[%lld %@](inflect: true) to your order"
        let template = try RichTextTemplate(markup, slots: slots(markup, [("%lld", 0), ("%@", 1)]))
        for (count, item) in [("1", "pizza"), ("2", "pizzas"), ("10", "salads")] {
            let rendered = template.render { $0.argument == 0 ? count : item }
            #expect(
                JSONRunsRenderer().render(rendered.document) == #"[{"attributes":{},"text":"Add "},"#
                    + #"{"attributes":{"inflect":true},"text":"\#(count) \#(item)"},"#
                    + #"{"attributes":{},"text":" to your order"}]"#
            )
        }
        #expect(template.slots.map(\.argument) == [0, 1])
    }

    @Test func slotsInsideCodeAndLinksAreFilled() throws {
        let markup = "`%@` [%@](https://caffe.example.com/%@)"
        let template = try RichTextTemplate(markup, slots: slots(markup, [("%@", 0), ("%@", 1), ("%@", 2)]))
        let rendered = template.render { ["code", "link", "path"][$0.argument] }
        #expect(
            HTMLRenderer().render(rendered.document)
                == #"<code>code</code> <a href="https://caffe.example.com/path">link</a>"#
        )
    }
}
