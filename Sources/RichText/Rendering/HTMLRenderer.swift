/// Renders a ``RichDocument`` as an escaped HTML fragment, as CommonMark's reference renderer
/// renders inlines: `<em>`, `<strong>`, `<code>`, `<a href title>`, `<br />`, plus `<del>` for
/// strikethrough and `<span data-key="value">` for `^[…](…)` attributes.
public struct HTMLRenderer: Sendable {
    /// Which `^[…](…)` keys become `data-` attributes; `nil` keeps them all.
    public var attributeKeys: Set<String>?
    /// URL schemes rendered as links; a destination with another scheme (`javascript:`, `data:`)
    /// renders its text only. Relative destinations are always links. `nil` allows every scheme,
    /// as CommonMark's reference renderer does outside its safe mode.
    public var allowedSchemes: Set<String>?

    /// Schemes fit for a receipt e-mail.
    public static let safeSchemes: Set<String> = ["http", "https", "mailto", "tel"]

    public init(attributeKeys: Set<String>? = nil, allowedSchemes: Set<String>? = HTMLRenderer.safeSchemes) {
        self.attributeKeys = attributeKeys
        self.allowedSchemes = allowedSchemes
    }

    /// Whether `destination` may become an `href`: a relative reference always, an absolute one
    /// when its scheme is allowed.
    func isAllowed(_ destination: String) -> Bool {
        guard let allowedSchemes else { return true }
        guard let scheme = Self.scheme(of: destination) else { return true }
        return allowedSchemes.contains(scheme)
    }

    /// The lowercased scheme of an absolute URL, or `nil` for a relative reference.
    ///
    /// A scheme is a letter followed by letters, digits, `+`, `-` or `.`, then `:` (RFC 3986 §3.1);
    /// text before the first `:` that is not shaped like that (`foo):` in `[link](foo\)\:)`) makes
    /// the destination a relative path. Read the way a browser reads it: leading controls and
    /// spaces are skipped and tabs and line breaks inside are ignored (WHATWG URL), so neither can
    /// hide a `javascript:` scheme.
    static func scheme(of destination: String) -> String? {
        var scheme = String.UnicodeScalarView()
        var started = false
        for scalar in destination.unicodeScalars {
            if scalar == "\t" || scalar == "\n" || scalar == "\r" { continue }
            if !started, scalar.value <= 0x20 { continue }
            started = true
            if scalar == ":" { break }
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            let isSchemeCharacter = isLetter || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar)
            guard scheme.isEmpty ? isLetter : isSchemeCharacter else { return nil }
            scheme.append(scalar)
        }
        guard !scheme.isEmpty, destination.unicodeScalars.contains(":") else { return nil }
        return String(scheme).lowercased()
    }

    public func render(_ document: RichDocument) -> String {
        var html = ""
        render(document.nodes, into: &html)
        return html
    }

    private func render(_ nodes: [RichNode], into html: inout String) {
        for node in nodes {
            switch node {
            case .text(let text): html += Self.escape(text)
            case .softBreak: html += "\n"
            case .lineBreak: html += "<br />\n"
            case .code(let text): html += "<code>" + Self.escape(text) + "</code>"
            case .emphasis(let children): wrap("em", children, into: &html)
            case .strong(let children): wrap("strong", children, into: &html)
            case .strikethrough(let children): wrap("del", children, into: &html)
            case .link(let destination, let title, let children):
                guard isAllowed(destination) else {
                    render(children, into: &html)
                    continue
                }
                html += "<a href=\"" + Self.escapeHref(destination) + "\""
                if let title { html += " title=\"" + Self.escape(title) + "\"" }
                html += ">"
                render(children, into: &html)
                html += "</a>"
            case .image(let source, let title, let children):
                // CommonMark's reference rendering; alt is the text without markup.
                guard isAllowed(source) else {
                    render(children, into: &html)
                    continue
                }
                html += "<img src=\"" + Self.escapeHref(source) + "\" alt=\""
                html += Self.escape(children.map(\.plainText).joined()) + "\""
                if let title { html += " title=\"" + Self.escape(title) + "\"" }
                html += " />"
            case .attributes(let attributes, let children):
                let shown = attributes.filter { attributeKeys?.contains($0.key) ?? true }.sorted { $0.key < $1.key }
                guard !shown.isEmpty else {
                    render(children, into: &html)
                    continue
                }
                html += "<span"
                for (key, value) in shown {
                    html += " data-" + Self.dataAttributeName(key) + "=\"" + Self.escape(value.description) + "\""
                }
                html += ">"
                render(children, into: &html)
                html += "</span>"
            }
        }
    }

    private func wrap(_ tag: String, _ children: [RichNode], into html: inout String) {
        html += "<\(tag)>"
        render(children, into: &html)
        html += "</\(tag)>"
    }

    /// Escapes `&`, `<`, `>` and `"` for text and attribute values.
    public static func escape(_ text: String) -> String {
        var text = text
        // Most text has nothing to escape and comes back as it is, without a copy.
        let escaped: String? = text.withUTF8 { bytes in
            guard bytes.contains(where: needsEscaping) else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 16)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "&"): result += "&amp;".utf8
                case UInt8(ascii: "<"): result += "&lt;".utf8
                case UInt8(ascii: ">"): result += "&gt;".utf8
                case UInt8(ascii: "\""): result += "&quot;".utf8
                default: result.append(byte)
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
        return escaped ?? text
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"")
    }

    /// Percent-encodes a link destination the way CommonMark's reference renderer does: bytes
    /// outside its safe set become `%XX`, existing `%` stays, `&` and `'` become entities.
    public static func escapeHref(_ destination: String) -> String {
        var result = ""
        for byte in destination.utf8 {
            switch byte {
            case UInt8(ascii: "&"): result += "&amp;"
            case UInt8(ascii: "'"): result += "&#x27;"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where "-_.+!*(),%#@?=;:/$~".utf8.contains(byte):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// `agreeWithArgument` → `agree-with-argument`, keeping only characters HTML allows in names.
    static func dataAttributeName(_ key: String) -> String {
        var name = ""
        for scalar in key.unicodeScalars {
            if ("A"..."Z").contains(scalar) {
                name += "-" + String(scalar).lowercased()
            } else if MarkdownCharacters.isASCIIAlphanumeric(scalar) || scalar == "-" || scalar == "_" || scalar == "."
            {
                name.unicodeScalars.append(scalar)
            } else {
                name += "_"
            }
        }
        return name
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
