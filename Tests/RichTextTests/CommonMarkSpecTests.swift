// Caffe — RichText tests.
import Foundation
import RichText
import Testing

/// One example of the CommonMark 0.31.2 specification (see Fixtures/README.md).
struct SpecExample: Decodable, Sendable, CustomTestStringConvertible {
    let example: Int
    let section: String
    let markdown: String
    let html: String
    let inlineHTML: String

    enum CodingKeys: String, CodingKey {
        case example, section, markdown, html
        case inlineHTML = "inline_html"
    }

    var testDescription: String { "example \(example) (\(section))" }

    static let inline: [SpecExample] = {
        guard let url = Bundle.module.url(forResource: "commonmark-inline", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let examples = try? JSONDecoder().decode([SpecExample].self, from: data)
        else { return [] }
        return examples
    }()
}

@Suite("CommonMark 0.31.2 inline examples through the HTML renderer")
struct CommonMarkSpecTests {
    @Test func fixtureIsThere() {
        #expect(SpecExample.inline.count == 245)
    }

    /// Every kept example, images (517 `[![moon](moon.jpg)](/uri)`, 520) included.
    @Test(arguments: SpecExample.inline)
    func example(_ example: SpecExample) throws {
        let document = try RichTextParser.parse(example.markdown, options: .init(trimsLikeParagraph: true))
        // The reference renderer links every scheme; the safe default is tested separately.
        #expect(HTMLRenderer(allowedSchemes: nil).render(document) == example.inlineHTML)
    }
}
