/// A Markdown text that could not be parsed, with the position of the problem.
public struct RichTextError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    /// 1-based line and column (in Unicode scalars) of the problem; 0 when only the run is known.
    public let line: Int
    public let column: Int
    /// The offending line, for the caret display.
    public let sourceLine: String

    public var description: String {
        guard line > 0 else { return "\(message) (in \"\(sourceLine)\")" }
        let caret = String(repeating: " ", count: max(0, column - 1)) + "^"
        return "\(line):\(column): \(message)\n\(sourceLine)\n\(caret)"
    }
}

/// Parses inline Markdown — CommonMark 0.31 inlines, GFM strikethrough and Apple's
/// `^[text](key: value)` attributes — into a ``RichDocument``.
///
/// ```swift
/// let document = try RichTextParser.parse("**¡Gracias!** _Visita nuestro [sitio web](https://caffe.example)._")
/// let text = try document.attributedString()
/// ```
public enum RichTextParser {
    /// Parsing choices.
    public struct Options: Hashable, Sendable {
        /// What to do with a `^[…](body)` whose body is not valid JSON5.
        public enum InvalidAttributes: Hashable, Sendable {
            /// Throw ``RichTextError`` with the body's position.
            case fail
            /// Keep the whole `^[…](…)` as literal text.
            case keepLiteral
        }

        public var invalidAttributes: InvalidAttributes
        /// Deepest nesting of emphasis, links and attributes before ``RichTextError``.
        public var maximumNesting: Int
        /// Strip the whitespace a CommonMark paragraph strips (leading spaces of the text, trailing
        /// whitespace at its end). Off by default: like Apple's `inlineOnlyPreservingWhitespace`.
        public var trimsLikeParagraph: Bool

        public init(
            invalidAttributes: InvalidAttributes = .fail,
            maximumNesting: Int = 64,
            trimsLikeParagraph: Bool = false
        ) {
            self.invalidAttributes = invalidAttributes
            self.maximumNesting = maximumNesting
            self.trimsLikeParagraph = trimsLikeParagraph
        }
    }

    /// Parses `markdown`.
    ///
    /// - Throws: ``RichTextError`` for an invalid attribute body (with `.fail`) or nesting beyond the limit.
    public static func parse(_ markdown: String, options: Options = Options()) throws(RichTextError) -> RichDocument {
        var text = markdown
        if options.trimsLikeParagraph {
            let scalars = text.unicodeScalars
            let start = scalars.firstIndex { $0 != " " && $0 != "\t" } ?? scalars.endIndex
            let end =
                scalars.lastIndex { !MarkdownCharacters.isWhitespace($0) }.map { scalars.index(after: $0) } ?? start
            text = start < end ? String(scalars[start..<end]) : ""
        }
        var parser = InlineParser(
            text,
            maximumNesting: options.maximumNesting,
            invalidAttributes: options.invalidAttributes == .fail ? .fail : .keepLiteral
        )
        do {
            return RichDocument(nodes: try parser.parse())
        } catch {
            throw Self.error(error.message, at: error.offset, in: text)
        }
    }

    /// Turns a scalar offset into line, column and the line's text.
    static func error(_ message: String, at offset: Int, in text: String) -> RichTextError {
        let scalars = Array(text.unicodeScalars)
        let clamped = min(max(offset, 0), scalars.count)
        var line = 1
        var lineStart = 0
        for index in 0..<clamped where scalars[index] == "\n" {
            line += 1
            lineStart = index + 1
        }
        let lineEnd = scalars[lineStart...].firstIndex(of: "\n") ?? scalars.count
        return RichTextError(
            message: message,
            line: line,
            column: clamped - lineStart + 1,
            sourceLine: String(String.UnicodeScalarView(scalars[lineStart..<lineEnd]))
        )
    }
}
