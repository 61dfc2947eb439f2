/// A run of text with uniform attributes, as the JSON runs and `AttributedString` carry it.
public struct RichRun: Hashable, Sendable {
    public var text: String
    public var intents: InlinePresentationIntent
    /// The link destination, as written (not percent-encoded).
    public var link: String?
    /// The source of the image whose alt text this is (Foundation's `imageURL`), as written.
    public var imageURL: String?
    /// `^[…](…)` keys and their JSON values; inner spans override outer ones.
    public var attributes: [String: JSONValue]

    public init(
        text: String,
        intents: InlinePresentationIntent = [],
        link: String? = nil,
        imageURL: String? = nil,
        attributes: [String: JSONValue] = [:]
    ) {
        self.text = text
        self.intents = intents
        self.link = link
        self.imageURL = imageURL
        self.attributes = attributes
    }

    /// Whether two runs have the same attributes and may be merged.
    func hasSameAttributes(as other: RichRun) -> Bool {
        intents == other.intents && link == other.link && imageURL == other.imageURL && attributes == other.attributes
    }
}

/// Parsed inline Markdown: the node tree, and the same content as coalesced runs.
public struct RichDocument: Hashable, Sendable {
    /// The tree, which the HTML renderer follows.
    public let nodes: [RichNode]
    /// The content as runs of uniform attributes, adjacent equal runs merged.
    public let runs: [RichRun]

    public init(nodes: [RichNode]) {
        self.nodes = nodes
        var runs: [RichRun] = []
        Self.flatten(nodes, into: &runs, context: RichRun(text: ""))
        self.runs = runs
    }

    /// A document whose runs were derived already (by a template, from its own runs).
    init(nodes: [RichNode], runs: [RichRun]) {
        self.nodes = nodes
        self.runs = runs
    }

    /// The text without markup.
    public var plainText: String { runs.map(\.text).joined() }

    /// The keys used in `^[…](…)` bodies anywhere in the document.
    public var attributeKeys: Set<String> { Set(runs.flatMap(\.attributes.keys)) }

    private static func flatten(_ nodes: [RichNode], into runs: inout [RichRun], context: RichRun) {
        func emit(_ text: String, _ extra: InlinePresentationIntent = []) {
            var run = context
            run.text = text
            run.intents.formUnion(extra)
            if let last = runs.last, last.hasSameAttributes(as: run) {
                runs[runs.count - 1].text += text
            } else if !text.isEmpty {
                runs.append(run)
            }
        }
        for node in nodes {
            var inner = context
            switch node {
            case .text(let text): emit(text)
            case .softBreak: emit("\n", .softBreak)
            case .lineBreak: emit("\n", .lineBreak)
            case .code(let text): emit(text, .code)
            case .emphasis(let children):
                inner.intents.insert(.emphasized)
                flatten(children, into: &runs, context: inner)
            case .strong(let children):
                inner.intents.insert(.stronglyEmphasized)
                flatten(children, into: &runs, context: inner)
            case .strikethrough(let children):
                inner.intents.insert(.strikethrough)
                flatten(children, into: &runs, context: inner)
            case .link(let destination, _, let children):
                inner.link = destination
                // Foundation keeps only the outer link on a linked image's alt text.
                inner.imageURL = nil
                flatten(children, into: &runs, context: inner)
            case .image(let source, _, let children):
                if inner.link == nil { inner.imageURL = source }
                flatten(children, into: &runs, context: inner)
            case .attributes(let attributes, let children):
                inner.attributes.merge(attributes) { _, new in new }
                flatten(children, into: &runs, context: inner)
            }
        }
    }
}
