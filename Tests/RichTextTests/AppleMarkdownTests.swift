// Caffe — RichText tests.
import Foundation
import RichText
import Testing

/// The Caffé sample's own attribute, declared the way the app declares it.
enum RainbowAttribute: CodableAttributedStringKey, MarkdownDecodableAttributedStringKey {
    enum Value: String, Codable, Hashable, Sendable { case plain, fun, extreme }
    static let name = "rainbow"
}

extension AttributeScopes {
    struct CaffeAppAttributes: AttributeScope {
        let rainbow: RainbowAttribute
        let richText: RichTextAttributes
    }
}

extension AttributeDynamicLookup {
    subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.CaffeAppAttributes, T>) -> T {
        self[T.self]
    }
}

@Suite("Apple's documented Markdown and attribute examples")
struct AppleMarkdownTests {
    func runs(_ markdown: String, keys: Set<String>? = nil) throws -> String {
        JSONRunsRenderer(attributeKeys: keys).render(try RichTextParser.parse(markdown))
    }

    @Test func receiptThankYouNote() throws {
        let document = try RichTextParser.parse(
            "**¡Gracias!** _Visita nuestro [sitio web](https://caffe.example.com)._"
        )
        #expect(
            HTMLRenderer().render(document)
                == #"<strong>¡Gracias!</strong> <em>Visita nuestro <a href="https://caffe.example.com">sitio web</a>.</em>"#
        )
        #expect(document.plainText == "¡Gracias! Visita nuestro sitio web.")
        #expect(
            JSONRunsRenderer().render(document)
                == #"[{"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]},"text":"¡Gracias!"},"#
                + #"{"attributes":{},"text":" "},{"attributes":{"inlinePresentationIntent":["emphasized"]},"text":"Visita nuestro "},"#
                + #"{"attributes":{"inlinePresentationIntent":["emphasized"],"link":"https://caffe.example.com"},"text":"sitio web"},"#
                + #"{"attributes":{"inlinePresentationIntent":["emphasized"]},"text":"."}]"#
        )
    }

    @Test func rainbowSloganDecodesThroughTheAppScope() throws {
        let document = try RichTextParser.parse("^[Fast](rainbow: 'fun') & ^[Delicious](rainbow: 'extreme') Food")
        let text = try document.attributedString(including: AttributeScopes.CaffeAppAttributes.self)
        let runs = text.runs.map { (String(text[$0.range].characters), $0.rainbow) }
        #expect(runs.map(\.0) == ["Fast", " & ", "Delicious", " Food"])
        #expect(runs.map(\.1) == [.fun, nil, .extreme, nil])
        // The rich-text scope alone does not declare `rainbow`: it is dropped unless kept raw.
        let plain = try document.attributedString()
        #expect(plain.runs.count == 1)
        let tooling = try document.attributedString(keepingUnknownAttributes: true)
        #expect(
            tooling.runs.compactMap { $0[MarkdownAttributesAttribute.self] } == [
                ["rainbow": .string("fun")], ["rainbow": .string("extreme")],
            ]
        )
    }

    @Test func inflectionMarkupFromTheCafeSample() throws {
        let spanish = try RichTextParser.parse("Añadir ^[%1$lld %3$@ %2$@](inflect: true) a tu pedido")
        let text = try spanish.attributedString()
        let inflected = text.runs.first { $0.inflect != nil }
        #expect(inflected.map { String(text[$0.range].characters) } == "%1$lld %3$@ %2$@")
        #expect(inflected?.inflect == .automatic)

        let english = try RichTextParser.parse(
            #"Add ^[%lld %@ ^[%@](morphology: { partOfSpeech: "noun" })](inflect: true) to your order"#
        )
        let runs = try english.attributedString().runs.map { ($0.inflect, $0.morphology) }
        #expect(runs.count == 4)
        #expect(runs[1].0 == .automatic && runs[1].1 == nil)
        #expect(runs[2].0 == .automatic && runs[2].1 == Morphology(partOfSpeech: .noun))
    }

    @Test func agreementKeysDecodeToTypedValues() throws {
        let document = try RichTextParser.parse(
            "Tu ^[%2$@ %1$@](inflect: true) está ^[listo](agreeWithArgument: 2). "
                + "^[Bienvenido](inflect: true, inflectionAlternative: 'Te damos la bienvenida') "
                + "^[él](referentConcept: 1) ^[lo](agreeWithConcept: 1) "
                + "^[pizzas](inflect: { number: 'plural', grammaticalGender: 'feminine' })"
        )
        let text = try document.attributedString()
        let runs = text.runs.filter { !String(text[$0.range].characters).allSatisfy(\.isWhitespace) }
        #expect(runs.first { $0.agreeWithArgument == 2 }.map { String(text[$0.range].characters) } == "listo")
        #expect(runs.first { $0.inflectionAlternative != nil }?.inflectionAlternative == "Te damos la bienvenida")
        #expect(runs.first { $0.referentConcept == 1 }.map { String(text[$0.range].characters) } == "él")
        #expect(runs.first { $0.agreeWithConcept == 1 }.map { String(text[$0.range].characters) } == "lo")
        #expect(runs.contains { $0.inflect == .explicit(Morphology(grammaticalGender: .feminine, number: .plural)) })
    }

    @Test func explicitObjectBodyMeansTheSame() throws {
        #expect(try runs("^[x](rainbow: 'fun')") == runs("^[x]({rainbow: 'fun'})"))
        #expect(try runs(#"^[x]( "rainbow" : "fun" , )"#) == #"[{"attributes":{"rainbow":"fun"},"text":"x"}]"#)
    }

    /// Issue 31, item 8: `AttributedString(markdown:)` keeps an image's alt text, without `!`, and
    /// gives it Foundation's `imageURL` (`ImageURLAttribute`, key `NSImageURL`), not a link.
    @Test func anImageIsItsAltTextCarryingTheImageURL() throws {
        let document = try RichTextParser.parse(#"Try ![our *new* cup](cup.png "The cup") today!"#)
        #expect(document.plainText == "Try our new cup today!")
        #expect(
            JSONRunsRenderer().render(document)
                == #"[{"attributes":{},"text":"Try "},{"attributes":{"imageURL":"cup.png"},"text":"our "},"#
                + #"{"attributes":{"imageURL":"cup.png","inlinePresentationIntent":["emphasized"]},"text":"new"},"#
                + #"{"attributes":{"imageURL":"cup.png"},"text":" cup"},{"attributes":{},"text":" today!"}]"#
        )
        let text = try document.attributedString()
        let image = try #require(text.runs.first { $0.imageURL != nil })
        #expect(String(text[image.range].characters) == "our ")
        #expect(image.imageURL == URL(string: "cup.png"))
        #expect(text.runs.allSatisfy { $0.link == nil })
        #expect(
            HTMLRenderer().render(document)
                == #"Try <img src="cup.png" alt="our new cup" title="The cup" /> today!"#
        )
    }

    /// The edges Foundation is observed to have: an empty alt text leaves nothing, a linked image
    /// keeps only the outer link, and `!` not before `[`, or escaped, is text.
    @Test func imageEdges() throws {
        #expect(try runs("a![](x.png)b") == #"[{"attributes":{},"text":"ab"}]"#)
        #expect(try runs("[![moon](moon.jpg)](/uri)") == #"[{"attributes":{"link":"/uri"},"text":"moon"}]"#)
        #expect(
            try runs(#"Wow! \![no](x.png) ![no]"#)
                == #"[{"attributes":{},"text":"Wow! !"},{"attributes":{"link":"x.png"},"text":"no"},"#
                + #"{"attributes":{},"text":" ![no]"}]"#
        )
    }

    @Test func strikethroughAndCode() throws {
        #expect(
            HTMLRenderer().render(try RichTextParser.parse("~~Sold out~~ `pizza`"))
                == "<del>Sold out</del> <code>pizza</code>"
        )
        #expect(HTMLRenderer().render(try RichTextParser.parse("~one~ ~~~three~~~")) == "<del>one</del> ~~~three~~~")
    }
}

@Suite("^[…] edge cases")
struct AttributeSyntaxTests {
    func html(_ markdown: String, _ options: RichTextParser.Options = .init()) throws -> String {
        HTMLRenderer().render(try RichTextParser.parse(markdown, options: options))
    }

    @Test(arguments: [
        ("^[x]", "^[x]"),
        ("^[x](", "^[x]("),
        ("^[x] (a: 1)", "^[x] (a: 1)"),
        ("^x", "^x"),
        ("\\^[x](a: 1)", "^[x](a: 1)"),
        ("^[a ^[b](k: 2) c](k: 1)", #"<span data-k="1">a <span data-k="2">b</span> c</span>"#),
        ("^[*em*](k: 'v')", #"<span data-k="v"><em>em</em></span>"#),
        ("*^[a*](k: 1)", #"*<span data-k="1">a*</span>"#),
        ("^[[link](/u)](k: 1)", #"<span data-k="1"><a href="/u">link</a></span>"#),
        ("[^[a](k: 1)](/u)", #"<a href="/u"><span data-k="1">a</span></a>"#),
        (#"^[a](k: '\u0029\u0028')"#, #"<span data-k=")(">a</span>"#),
        (#"^[a](k: "x\"y")"#, #"<span data-k="x&quot;y">a</span>"#),
        ("^[a](outer: (1))", "^[a](outer: (1))"),
    ])
    func caretCases(markdown: String, expected: String) throws {
        if markdown == "^[a](outer: (1))" {
            // Balanced parentheses delimit the body, which is then not valid JSON5.
            #expect(throws: RichTextError.self) { try html(markdown) }
            #expect(try html(markdown, .init(invalidAttributes: .keepLiteral)) == expected)
        } else {
            #expect(try html(markdown) == expected)
        }
    }

    @Test func invalidJSON5ReportsItsPosition() throws {
        let error = try #require(throws: RichTextError.self) {
            try RichTextParser.parse("Hi\nthere ^[x](rainbow: fun)")
        }
        #expect(error.line == 2)
        #expect(error.column >= 12)
        #expect(error.sourceLine == "there ^[x](rainbow: fun)")
        #expect(error.description.hasPrefix("2:"))
        #expect(
            try html("there ^[x](rainbow: fun)", .init(invalidAttributes: .keepLiteral)) == "there ^[x](rainbow: fun)"
        )
        // The body ends at the first `)` (swift-cmark's rule), so an unclosed quote is a JSON5 error.
        #expect(throws: RichTextError.self) { try html("^[x](rainbow: 'fun)") }
    }

    @Test func wrongValueForADeclaredKeyIsAnError() throws {
        let document = try RichTextParser.parse("^[x](inflect: 3)")
        #expect(throws: RichTextError.self) { try document.attributedString() }
        #expect(try JSONRunsRenderer().render(document) == #"[{"attributes":{"inflect":3},"text":"x"}]"#)
    }
}

@Suite("Hostile input")
struct HostileMarkdownTests {
    @Test(arguments: ["*", "_", "~", "[", "]", "^[", "`", "<", "&", "**_", "[a](", "^[a](k:"])
    func longRunsOfOneConstructTerminate(piece: String) throws {
        // Long enough to expose quadratic behaviour in a debug build, short enough for CI.
        let markdown = String(repeating: piece, count: 5_000)
        let document = try RichTextParser.parse(markdown, options: .init(invalidAttributes: .keepLiteral))
        #expect(!document.plainText.isEmpty)
        #expect(document.plainText.unicodeScalars.count <= markdown.unicodeScalars.count)
        if !["*", "_", "~", "**_"].contains(piece) { #expect(document.plainText == markdown) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let nested = String(repeating: "^[", count: 500) + "x" + String(repeating: "](k: 1)", count: 500)
        let error = #expect(throws: RichTextError.self) { try RichTextParser.parse(nested) }
        #expect(error?.message.contains("nest") == true)
        let emphasis = String(repeating: "*a ", count: 300) + String(repeating: " b*", count: 300)
        #expect(throws: RichTextError.self) { try RichTextParser.parse(emphasis) }
    }

    @Test func withinTheLimitDeepNestingParses() throws {
        let nested = String(repeating: "^[", count: 30) + "x" + String(repeating: "](k: 1)", count: 30)
        #expect(try RichTextParser.parse(nested).plainText == "x")
    }

    @Test func seededRandomMarkdownNeverTraps() throws {
        var state: UInt64 = 0x5EED
        let alphabet = Array("ab *_~`[]()^<>&;#:!\\\n'\"{}x1 ".unicodeScalars)
        for _ in 0..<3000 {
            var text = String.UnicodeScalarView()
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let length = Int(state >> 58)
            for _ in 0..<length {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                text.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            _ = try? RichTextParser.parse(String(text))
            _ = try? RichTextParser.parse(String(text), options: .init(invalidAttributes: .keepLiteral))
        }
    }
}
