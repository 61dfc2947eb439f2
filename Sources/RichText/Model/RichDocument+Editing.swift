/// A replacement of part of a document's plain text, by UTF-8 offsets into ``RichDocument/plainText``.
public struct RichTextEdit: Hashable, Sendable {
    /// The bytes replaced, in the original plain text.
    public var utf8Range: Range<Int>
    /// The new text.
    public var replacement: String

    public init(utf8Range: Range<Int>, replacement: String) {
        self.utf8Range = utf8Range
        self.replacement = replacement
    }
}

extension RichTextEdit {
    /// `edits` in order of position, each one that overlaps an earlier one left out: the edits
    /// ``RichDocument/replacingText(_:)`` applies.
    public static func nonOverlapping(_ edits: [RichTextEdit]) -> [RichTextEdit] {
        var result: [RichTextEdit] = []
        result.reserveCapacity(edits.count)
        var end = 0
        for edit in edits.sorted(by: { $0.utf8Range.lowerBound < $1.utf8Range.lowerBound })
        where edit.utf8Range.lowerBound >= end {
            result.append(edit)
            end = edit.utf8Range.upperBound
        }
        return result
    }
}

extension RichDocument {
    /// The document with parts of its text replaced, its markup kept: what grammar agreement uses
    /// to turn *pizza* into *pizzas* inside whatever emphasis, link or attribute span holds it.
    ///
    /// Edits are applied in order of position; one overlapping an earlier edit is ignored. An edit
    /// crossing a markup boundary puts its replacement where it starts. Line breaks are kept.
    public func replacingText(_ edits: [RichTextEdit]) -> RichDocument {
        let ordered = RichTextEdit.nonOverlapping(edits)
        guard !ordered.isEmpty else { return self }
        var offset = 0
        var cursor = 0
        var newRuns: [RichRun] = []
        newRuns.reserveCapacity(runs.count)
        for run in runs {
            var edited = run
            edited.text = Self.splice(run.text, at: &offset, edits: ordered, cursor: &cursor)
            guard !edited.text.isEmpty else { continue }
            if let last = newRuns.last, last.hasSameAttributes(as: edited) {
                newRuns[newRuns.count - 1].text += edited.text
            } else {
                newRuns.append(edited)
            }
        }
        offset = 0
        cursor = 0
        let newNodes = Self.pruned(Self.splice(nodes, at: &offset, edits: ordered, cursor: &cursor))
        return RichDocument(nodes: newNodes, runs: newRuns)
    }

    /// The nodes without empty text and without markup left with nothing inside.
    private static func pruned(_ nodes: [RichNode]) -> [RichNode] {
        nodes.compactMap { node in
            switch node {
            case .text(let text): return text.isEmpty ? nil : node
            case .code, .softBreak, .lineBreak: return node
            case .emphasis(let children):
                let kept = pruned(children)
                return kept.isEmpty ? nil : .emphasis(kept)
            case .strong(let children):
                let kept = pruned(children)
                return kept.isEmpty ? nil : .strong(kept)
            case .strikethrough(let children):
                let kept = pruned(children)
                return kept.isEmpty ? nil : .strikethrough(kept)
            case .link(let destination, let title, let children):
                let kept = pruned(children)
                return kept.isEmpty ? nil : .link(destination: destination, title: title, kept)
            case .image(let source, let title, let children):
                let kept = pruned(children)
                return kept.isEmpty ? nil : .image(source: source, title: title, kept)
            case .attributes(let attributes, let children):
                let kept = pruned(children)
                return kept.isEmpty ? nil : .attributes(attributes, kept)
            }
        }
    }

    private static func splice(
        _ nodes: [RichNode],
        at offset: inout Int,
        edits: [RichTextEdit],
        cursor: inout Int
    ) -> [RichNode] {
        nodes.map { node in
            switch node {
            case .text(let text): .text(splice(text, at: &offset, edits: edits, cursor: &cursor))
            case .code(let text): .code(splice(text, at: &offset, edits: edits, cursor: &cursor))
            case .softBreak, .lineBreak:
                {
                    offset += 1
                    return node
                }()
            case .emphasis(let children): .emphasis(splice(children, at: &offset, edits: edits, cursor: &cursor))
            case .strong(let children): .strong(splice(children, at: &offset, edits: edits, cursor: &cursor))
            case .strikethrough(let children):
                .strikethrough(splice(children, at: &offset, edits: edits, cursor: &cursor))
            case .link(let destination, let title, let children):
                .link(
                    destination: destination,
                    title: title,
                    splice(children, at: &offset, edits: edits, cursor: &cursor)
                )
            case .image(let source, let title, let children):
                .image(source: source, title: title, splice(children, at: &offset, edits: edits, cursor: &cursor))
            case .attributes(let attributes, let children):
                .attributes(attributes, splice(children, at: &offset, edits: edits, cursor: &cursor))
            }
        }
    }

    /// Applies the edits touching `text`, which starts at `offset` in the plain text; advances both.
    private static func splice(_ text: String, at offset: inout Int, edits: [RichTextEdit], cursor: inout Int)
        -> String
    {
        let start = offset
        let utf8 = text.utf8
        let end = start + utf8.count
        offset = end
        // Skip edits that ended before this piece.
        while cursor < edits.count, edits[cursor].utf8Range.upperBound <= start,
            !(edits[cursor].utf8Range.isEmpty && edits[cursor].utf8Range.lowerBound == start)
        {
            cursor += 1
        }
        guard cursor < edits.count, edits[cursor].utf8Range.lowerBound <= end else { return text }
        var result = ""
        var position = start
        var index = cursor
        while index < edits.count, edits[index].utf8Range.lowerBound <= end {
            let edit = edits[index]
            // A replacement starting where this piece ends belongs to the next piece.
            if edit.utf8Range.lowerBound == end, !edit.utf8Range.isEmpty { break }
            let keepUpTo = max(position, edit.utf8Range.lowerBound)
            result += substring(utf8, from: position - start, to: keepUpTo - start)
            if edit.utf8Range.lowerBound >= start {
                // The edit starts in this piece: its replacement goes here.
                result += edit.replacement
            }
            position = min(end, max(keepUpTo, edit.utf8Range.upperBound))
            if edit.utf8Range.upperBound > end { break }
            index += 1
        }
        result += substring(utf8, from: position - start, to: end - start)
        cursor = index
        return result
    }

    private static func substring(_ utf8: String.UTF8View, from lower: Int, to upper: Int) -> Substring {
        guard lower < upper else { return "" }
        let from = utf8.index(utf8.startIndex, offsetBy: lower)
        let to = utf8.index(from, offsetBy: upper - lower)
        return Substring(utf8[from..<to])
    }
}
