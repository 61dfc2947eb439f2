extension RichDocument {
    /// A document of one unstyled text.
    public init(text: String) {
        self.init(nodes: text.isEmpty ? [] : [.text(text)])
    }

    /// The documents one after another, `separator` (unstyled) between them.
    public static func joined(_ documents: [RichDocument], separator: String = "") -> RichDocument {
        var nodes: [RichNode] = []
        for (index, document) in documents.enumerated() {
            if index > 0, !separator.isEmpty { nodes.append(.text(separator)) }
            nodes += document.nodes
        }
        return RichDocument(nodes: nodes)
    }

    /// Replaces each occurrence of `placeholder` in the text, in order, by the next of `documents`,
    /// which takes on the styling around the placeholder and keeps its own (as interpolating an
    /// `AttributedString` into a localized one does). Occurrences beyond `documents` stay as they are.
    public func substituting(_ placeholder: Unicode.Scalar, with documents: [RichDocument]) -> RichDocument {
        guard !documents.isEmpty else { return self }
        var next = 0
        func splice(_ nodes: [RichNode]) -> [RichNode] {
            var result: [RichNode] = []
            result.reserveCapacity(nodes.count)
            for node in nodes {
                switch node {
                case .text(let text) where next < documents.count && text.unicodeScalars.contains(placeholder):
                    var pending = String.UnicodeScalarView()
                    for scalar in text.unicodeScalars {
                        guard scalar == placeholder, next < documents.count else {
                            pending.append(scalar)
                            continue
                        }
                        if !pending.isEmpty { result.append(.text(String(pending))) }
                        pending = String.UnicodeScalarView()
                        result += documents[next].nodes
                        next += 1
                    }
                    if !pending.isEmpty { result.append(.text(String(pending))) }
                case .emphasis(let children): result.append(.emphasis(splice(children)))
                case .strong(let children): result.append(.strong(splice(children)))
                case .strikethrough(let children): result.append(.strikethrough(splice(children)))
                case .link(let destination, let title, let children):
                    result.append(.link(destination: destination, title: title, splice(children)))
                case .image(let source, let title, let children):
                    result.append(.image(source: source, title: title, splice(children)))
                case .attributes(let attributes, let children): result.append(.attributes(attributes, splice(children)))
                case .text, .code, .softBreak, .lineBreak: result.append(node)
                }
            }
            return result
        }
        return RichDocument(nodes: splice(nodes))
    }
}
