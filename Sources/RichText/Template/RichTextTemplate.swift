/// Rich text parsed once and filled with new argument text many times, without re-parsing.
///
/// The caller says where the argument slots are (the format string's `%@`, `%1$lld`…, found with
/// Localization's `FormatStringSpecifiers`). Each slot is replaced by a private-use placeholder
/// before the Markdown is parsed, so specifiers can never break the markup and argument text can
/// never become markup — as with Apple's `AttributedString(localized:)`, where interpolated values
/// are not Markdown.
///
/// ```swift
/// let template = try RichTextTemplate("**%@** added %lld", slots: [(0..<2, 0), (15..<19, 1)])
/// let rendered = template.render { slot in slot.argument == 0 ? "Ana" : "3" }
/// rendered.document.plainText   // "Ana added 3"
/// ```
public struct RichTextTemplate: Sendable {
    /// One argument slot.
    public struct Slot: Hashable, Sendable {
        /// The slot's position among all slots, in text order.
        public let index: Int
        /// The 0-based argument the caller said it shows.
        public let argument: Int
    }

    /// A filled template: the document, and where each argument's text landed.
    public struct Rendered: Hashable, Sendable {
        public var document: RichDocument
        /// Each filled slot: the argument and its UTF-8 range in `document.plainText`, in text order.
        public var substitutions: [(argument: Int, utf8Range: Range<Int>)]

        public static func == (lhs: Rendered, rhs: Rendered) -> Bool {
            lhs.document == rhs.document && lhs.substitutions.map(\.argument) == rhs.substitutions.map(\.argument)
                && lhs.substitutions.map(\.utf8Range) == rhs.substitutions.map(\.utf8Range)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(document)
        }
    }

    /// A run of the parsed template: its pieces of literal text and slots, and its attributes.
    private struct TemplateRun: Sendable {
        enum Piece: Sendable {
            case literal(String)
            case slot(Int)
        }
        var pieces: [Piece]
        var run: RichRun
    }

    /// The parsed template, placeholders in its text.
    public let document: RichDocument
    public let slots: [Slot]
    private let runs: [TemplateRun]

    /// The first placeholder scalar (Supplementary Private Use Area-A).
    static let placeholderBase: UInt32 = 0xF0000
    static let maximumSlots = 0xFFFD

    /// Parses `markup` once, with `slots` (UTF-8 ranges and argument numbers, in text order) held
    /// out of the Markdown.
    ///
    /// - Throws: ``RichTextError`` for invalid markup (as ``RichTextParser/parse(_:options:)``).
    public init(
        _ markup: String,
        slots: [(utf8Range: Range<Int>, argument: Int)],
        options: RichTextParser.Options = RichTextParser.Options()
    ) throws(RichTextError) {
        let ordered = slots.sorted { $0.utf8Range.lowerBound < $1.utf8Range.lowerBound }
        var text = String.UnicodeScalarView()
        let bytes = Array(markup.utf8)
        var offset = 0
        var kept: [Slot] = []
        /// Markup text with any scalar from the placeholder range neutralised.
        func appendMarkup(_ range: Range<Int>) {
            for scalar in String(decoding: bytes[range], as: UTF8.self).unicodeScalars {
                text.append(Self.slotIndex(scalar) == nil ? scalar : "\u{FFFD}")
            }
        }
        for slot in ordered where kept.count < Self.maximumSlots {
            // Overlapping or out-of-range slots are skipped; placeholders are numbered by kept slots.
            guard slot.utf8Range.lowerBound >= offset, slot.utf8Range.upperBound <= bytes.count else { continue }
            appendMarkup(offset..<slot.utf8Range.lowerBound)
            text.append(Unicode.Scalar(Self.placeholderBase + UInt32(kept.count)) ?? "\u{FFFD}")
            kept.append(Slot(index: kept.count, argument: slot.argument))
            offset = slot.utf8Range.upperBound
        }
        appendMarkup(offset..<bytes.count)
        let parsed = try RichTextParser.parse(String(text), options: options)
        if let misplaced = Self.slotInAttributeBody(parsed.nodes) {
            throw RichTextParser.error(
                "a format specifier inside a ^[…](…) body is not supported (attribute '\(misplaced)')",
                at: 0,
                in: markup
            )
        }
        document = parsed
        self.slots = kept
        runs = document.runs.map { run in
            TemplateRun(pieces: Self.pieces(of: run.text, slotCount: kept.count), run: run)
        }
    }

    /// The key of an attribute whose value holds a placeholder, if any.
    private static func slotInAttributeBody(_ nodes: [RichNode]) -> String? {
        func contains(_ value: JSONValue) -> Bool {
            switch value {
            case .string(let text): text.unicodeScalars.contains { slotIndex($0) != nil }
            case .array(let values): values.contains(where: contains)
            case .object(let members): members.values.contains(where: contains)
            default: false
            }
        }
        for node in nodes {
            switch node {
            case .attributes(let attributes, let children):
                if let key = attributes.first(where: { contains($0.value) })?.key { return key }
                if let key = slotInAttributeBody(children) { return key }
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .link(_, _, let children), .image(_, _, let children):
                if let key = slotInAttributeBody(children) { return key }
            default:
                continue
            }
        }
        return nil
    }

    /// Fills every slot with `text(slot)`; the Markdown is not parsed again.
    public func render(_ text: (Slot) throws -> String) rethrows -> Rendered {
        var filled: [String] = []
        filled.reserveCapacity(slots.count)
        for slot in slots { filled.append(try text(slot)) }
        var substitutions: [(argument: Int, utf8Range: Range<Int>)] = []
        var offset = 0
        var outputRuns: [RichRun] = []
        outputRuns.reserveCapacity(runs.count)
        for templateRun in runs {
            var run = templateRun.run
            var runText = ""
            for piece in templateRun.pieces {
                switch piece {
                case .literal(let literal):
                    runText += literal
                    offset += literal.utf8.count
                case .slot(let index):
                    let value = index < filled.count ? filled[index] : ""
                    runText += value
                    substitutions.append((slots[index].argument, offset..<(offset + value.utf8.count)))
                    offset += value.utf8.count
                }
            }
            run.text = runText
            if let link = run.link { run.link = Self.fill(link, with: filled) }
            if let imageURL = run.imageURL { run.imageURL = Self.fill(imageURL, with: filled) }
            outputRuns.append(run)
        }
        let nodes = document.nodes.map { Self.fill($0, with: filled) }
        return Rendered(document: RichDocument(nodes: nodes, runs: outputRuns), substitutions: substitutions)
    }

    /// Splits run text at placeholder scalars.
    private static func pieces(of text: String, slotCount: Int) -> [TemplateRun.Piece] {
        var pieces: [TemplateRun.Piece] = []
        var literal = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            // A placeholder-range scalar that is no slot (made by an entity) is shown as U+FFFD.
            if let index = slotIndex(scalar), index < slotCount {
                if !literal.isEmpty {
                    pieces.append(.literal(String(literal)))
                    literal = String.UnicodeScalarView()
                }
                pieces.append(.slot(index))
            } else {
                literal.append(slotIndex(scalar) == nil ? scalar : "\u{FFFD}")
            }
        }
        if !literal.isEmpty { pieces.append(.literal(String(literal))) }
        return pieces
    }

    private static func slotIndex(_ scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        guard value >= placeholderBase, value < placeholderBase + UInt32(maximumSlots) else { return nil }
        return Int(value - placeholderBase)
    }

    private static func fill(_ text: String, with filled: [String]) -> String {
        guard text.unicodeScalars.contains(where: { slotIndex($0) != nil }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if let index = slotIndex(scalar) {
                result += index < filled.count ? filled[index] : "\u{FFFD}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func fill(_ node: RichNode, with filled: [String]) -> RichNode {
        switch node {
        case .text(let text): .text(fill(text, with: filled))
        case .code(let text): .code(fill(text, with: filled))
        case .softBreak, .lineBreak: node
        case .emphasis(let children): .emphasis(children.map { fill($0, with: filled) })
        case .strong(let children): .strong(children.map { fill($0, with: filled) })
        case .strikethrough(let children): .strikethrough(children.map { fill($0, with: filled) })
        case .link(let destination, let title, let children):
            .link(
                destination: fill(destination, with: filled),
                title: title.map { fill($0, with: filled) },
                children.map { fill($0, with: filled) }
            )
        case .image(let source, let title, let children):
            .image(
                source: fill(source, with: filled),
                title: title.map { fill($0, with: filled) },
                children.map { fill($0, with: filled) }
            )
        case .attributes(let attributes, let children): .attributes(attributes, children.map { fill($0, with: filled) })
        }
    }
}
