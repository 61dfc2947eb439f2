import Foundation

/// The stable serialisation of a document (AttributedString is not Codable on Linux):
/// `[{"text": "…", "attributes": {"inlinePresentationIntent": ["stronglyEmphasized"], "link": "…", "imageURL": "…", "<key>": <json>}}]`.
public struct JSONRunsRenderer: Sendable {
    /// Which `^[…](…)` keys to include; `nil` includes all (the tooling mode).
    public var attributeKeys: Set<String>?

    public init(attributeKeys: Set<String>? = nil) {
        self.attributeKeys = attributeKeys
    }

    /// The runs as JSON values.
    public func runs(_ document: RichDocument) -> [JSONValue] {
        // Dropping keys can make neighbouring runs equal: merge them again.
        var kept: [RichRun] = []
        for var run in document.runs {
            if let attributeKeys { run.attributes = run.attributes.filter { attributeKeys.contains($0.key) } }
            if let last = kept.last, last.hasSameAttributes(as: run) {
                kept[kept.count - 1].text += run.text
            } else {
                kept.append(run)
            }
        }
        return kept.map { run in
            var attributes: [String: JSONValue] = [:]
            if !run.intents.isEmpty {
                attributes["inlinePresentationIntent"] = .array(run.intents.names.map(JSONValue.string))
            }
            if let link = run.link { attributes["link"] = .string(link) }
            if let imageURL = run.imageURL { attributes["imageURL"] = .string(imageURL) }
            for (key, value) in run.attributes { attributes[key] = value }
            return .object(["text": .string(run.text), "attributes": .object(attributes)])
        }
    }

    /// Compact JSON text with sorted keys.
    public func render(_ document: RichDocument) -> String {
        JSONValue.array(runs(document)).jsonText
    }
}

/// The text without markup; line breaks become newlines.
public struct PlainTextRenderer: Sendable {
    public init() {}

    public func render(_ document: RichDocument) -> String {
        document.plainText
    }
}

/// Terminal output with ANSI SGR escapes: bold, italic, strikethrough, code dimmed, links
/// underlined and clickable (OSC 8). Custom attributes are styled by the caller's closure.
public struct ANSIRenderer: Sendable {
    /// Wraps the text of a run that carries `^[…](…)` attributes; `nil` leaves it as is.
    public var styleAttributes: @Sendable (_ text: String, _ attributes: [String: JSONValue]) -> String?

    public init(styleAttributes: @escaping @Sendable (String, [String: JSONValue]) -> String? = { _, _ in nil }) {
        self.styleAttributes = styleAttributes
    }

    /// Removes C0 and C1 control characters (keeping newline and tab), so text from a catalog or
    /// an argument cannot inject terminal escape sequences.
    static func withoutControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var clean = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) { clean.append(scalar) }
        return String(clean)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
    }

    public func render(_ document: RichDocument) -> String {
        var output = ""
        for run in document.runs {
            var codes: [String] = []
            if run.intents.contains(.stronglyEmphasized) { codes.append("1") }
            if run.intents.contains(.emphasized) { codes.append("3") }
            if run.intents.contains(.strikethrough) { codes.append("9") }
            if run.intents.contains(.code) { codes.append("2") }
            if run.link != nil { codes.append("4") }
            var text = Self.withoutControls(run.text)
            if !run.attributes.isEmpty, let styled = styleAttributes(text, run.attributes) { text = styled }
            if !codes.isEmpty { text = "\u{1B}[" + codes.joined(separator: ";") + "m" + text + "\u{1B}[0m" }
            if let link = run.link {
                text = "\u{1B}]8;;" + Self.withoutControls(link) + "\u{1B}\\" + text + "\u{1B}]8;;\u{1B}\\"
            }
            output += text
        }
        return output
    }
}
