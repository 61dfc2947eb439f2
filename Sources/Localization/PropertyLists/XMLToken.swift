/// A start tag, such as `<dict>` or `<string/>`.
struct XMLStartTag {
    var name: String
    /// Whether the tag closes itself (`<string/>`).
    var isEmpty: Bool
    /// Where its `<` is.
    var offset: Int
}

/// Character data: a run of text or a CDATA section.
struct XMLText {
    /// Where the text is in the source.
    var range: Range<Int>
    /// The text with references decoded, or `nil` when it is the source bytes in ``range`` unchanged.
    var decoded: [UInt8]?
    /// Whether it is only XML white space.
    var isWhitespace: Bool
}

/// What ``XMLPropertyListParser`` reads next. Comments, processing instructions and declarations are
/// skipped by the tokenizer and never appear here.
enum XMLToken {
    case startTag(XMLStartTag)
    case endTag(name: String, offset: Int)
    case text(XMLText)
    case endOfFile(offset: Int)
}
