/// One node of parsed inline Markdown, as a tree: what the HTML renderer walks and what
/// ``RichDocument/runs`` flattens.
public indirect enum RichNode: Hashable, Sendable {
    /// Literal text (escapes and entities already resolved).
    case text(String)
    /// A line ending inside a paragraph.
    case softBreak
    /// A hard line break (two spaces or a backslash before the line ending).
    case lineBreak
    /// A code span's content.
    case code(String)
    /// `*text*` or `_text_`.
    case emphasis([RichNode])
    /// `**text**` or `__text__`.
    case strong([RichNode])
    /// `~~text~~` (GitHub Flavored Markdown).
    case strikethrough([RichNode])
    /// `[text](destination "title")` or `<scheme:…>` / `<user@host>`.
    case link(destination: String, title: String?, [RichNode])
    /// `![alt](source "title")`: the alt text, which carries the image's URL as Foundation's
    /// `imageURL` attribute (no `!`, no link), as `AttributedString(markdown:)` gives it.
    case image(source: String, title: String?, [RichNode])
    /// Apple's `^[text](key: value, …)`: the body's keys and JSON values, sorted by key.
    case attributes([String: JSONValue], [RichNode])

    /// The node's text without markup.
    public var plainText: String {
        switch self {
        case .text(let text), .code(let text): text
        case .softBreak, .lineBreak: "\n"
        case .emphasis(let children), .strong(let children), .strikethrough(let children),
            .link(_, _, let children), .image(_, _, let children), .attributes(_, let children):
            children.map(\.plainText).joined()
        }
    }
}
