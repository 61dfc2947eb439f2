/// CommonMark 0.31's inline algorithm (the delimiter stack and link brackets of the spec's
/// appendix "An algorithm for parsing nested emphasis and links"), extended with GFM `~~` and
/// Apple's `^[text](json5)`, which binds exactly where link brackets do. Images (`![alt](src)`)
/// close like links but, as the spec says, do not stop outer brackets from forming links.
///
/// Nodes live in an arena linked as a doubly linked list, so closing a bracket or an emphasis
/// pair moves a sublist under a new container without copying. Every construct is found with
/// bounded look-ahead or memoised searches, keeping the whole parse linear in practice.
struct InlineParser {
    struct Failure: Error {
        var message: String
        var offset: Int
    }

    /// How a `^[…](…)` body that is not valid JSON5 is treated.
    enum InvalidAttributes {
        case fail
        case keepLiteral
    }

    private enum Kind {
        case text(String)
        case softBreak
        case lineBreak
        case code(String)
        case emphasis, strong, strikethrough
        case link(destination: String, title: String?)
        case image(source: String, title: String?)
        case attributes([String: JSONValue])
    }

    private struct Node {
        var kind: Kind
        var previous: Int?
        var next: Int?
        var firstChild: Int?
        var lastChild: Int?
    }

    private struct Delimiter {
        var node: Int
        var character: Unicode.Scalar
        var count: Int
        let originalCount: Int
        let canOpen: Bool
        let canClose: Bool
        var previous: Int?
        var next: Int?
    }

    private struct Bracket {
        var node: Int
        var isAttribute: Bool
        /// `![`: closes into an image.
        var isImage = false
        var isActive: Bool
        /// The top of the delimiter stack when the bracket opened.
        var delimiterBottom: Int?
        /// Offset of the opening `[` (for error positions).
        var offset: Int
    }

    private let input: [Unicode.Scalar]
    private let maximumNesting: Int
    private let invalidAttributes: InvalidAttributes
    private var position = 0
    private var nodes: [Node] = []
    private var first: Int?
    private var last: Int?
    private var delimiters: [Delimiter] = []
    private var topDelimiter: Int?
    private var brackets: [Bracket] = []
    /// Indexes into `brackets` of the link openers still active, so forming a link deactivates
    /// them without walking past attribute openers (which would be quadratic).
    private var activeLinkOpeners: [Int] = []
    /// Backtick run lengths known to have no closer after some offset (keeps code spans linear).
    private var backtickRunsWithoutCloser: [Int: Int] = [:]

    /// The longest `^[…](body)` body, in Unicode scalars; longer ones stay literal text.
    static let maximumAttributeBody = 4096

    /// How deep parentheses may nest inside a `^[…](body)` body, as in swift-cmark.
    static let maximumAttributeParentheses = 32

    init(_ text: String, maximumNesting: Int, invalidAttributes: InvalidAttributes) {
        // Line endings become "\n" (CRLF counts once) and NUL becomes U+FFFD, as the spec requires.
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.unicodeScalars.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            scalars.append(scalar == "\r" ? "\n" : scalar == "\0" ? "\u{FFFD}" : scalar)
        }
        input = scalars
        self.maximumNesting = maximumNesting
        self.invalidAttributes = invalidAttributes
    }

    /// Parses the whole input into a node tree.
    mutating func parse() throws(Failure) -> [RichNode] {
        while position < input.count {
            let scalar = input[position]
            switch scalar {
            case "\n", "\r": lineEnding()
            case "\\": backslash()
            case "`": codeSpan()
            case "*", "_", "~": delimiterRun()
            case "[":
                appendText("[")
                activeLinkOpeners.append(brackets.count)
                brackets.append(
                    Bracket(
                        node: last ?? 0,
                        isAttribute: false,
                        isActive: true,
                        delimiterBottom: topDelimiter,
                        offset: position
                    )
                )
                position += 1
            case "!" where position + 1 < input.count && input[position + 1] == "[":
                // An image opener is no link opener: forming a link does not deactivate it.
                appendText("![")
                brackets.append(
                    Bracket(
                        node: last ?? 0,
                        isAttribute: false,
                        isImage: true,
                        isActive: true,
                        delimiterBottom: topDelimiter,
                        offset: position
                    )
                )
                position += 2
            case "^" where position + 1 < input.count && input[position + 1] == "[":
                appendText("^[")
                brackets.append(
                    Bracket(
                        node: last ?? 0,
                        isAttribute: true,
                        isActive: true,
                        delimiterBottom: topDelimiter,
                        offset: position
                    )
                )
                position += 2
            case "]": try closeBracket()
            case "<": autolink()
            case "&": entity()
            default: textRun()
            }
        }
        processEmphasis(above: nil)
        return try tree(from: first, depth: 0)
    }

    // MARK: The node list

    @discardableResult
    private mutating func append(_ kind: Kind) -> Int {
        let index = nodes.count
        nodes.append(Node(kind: kind, previous: last, next: nil))
        if let last { nodes[last].next = index } else { first = index }
        last = index
        return index
    }

    private mutating func appendText(_ text: String) {
        append(.text(text))
    }

    /// Unlinks `node` from the top-level list.
    private mutating func unlink(_ node: Int) {
        let previous = nodes[node].previous
        let next = nodes[node].next
        if let previous { nodes[previous].next = next } else { first = next }
        if let next { nodes[next].previous = previous } else { last = previous }
        nodes[node].previous = nil
        nodes[node].next = nil
    }

    /// Moves the nodes strictly between `start` and `end` (top-level, `end` may be nil for "to the
    /// end") under a new container inserted after `start`; returns the container.
    @discardableResult
    private mutating func wrap(after start: Int, before end: Int?, in kind: Kind) -> Int {
        let container = nodes.count
        let firstInside = nodes[start].next
        let lastInside = end.map { nodes[$0].previous } ?? last
        nodes.append(Node(kind: kind, previous: start, next: end))
        if let firstInside, let lastInside, firstInside != end {
            nodes[container].firstChild = firstInside
            nodes[container].lastChild = lastInside
            nodes[firstInside].previous = nil
            nodes[lastInside].next = nil
        }
        nodes[start].next = container
        if let end { nodes[end].previous = container } else { last = container }
        return container
    }

    // MARK: Text, breaks, escapes

    private mutating func textRun() {
        let start = position
        position += 1
        while position < input.count, !Self.isSpecial(input[position]) { position += 1 }
        appendText(String(String.UnicodeScalarView(input[start..<position])))
    }

    private static func isSpecial(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\\", "`", "*", "_", "~", "[", "]", "^", "!", "<", "&": true
        default: false
        }
    }

    private mutating func lineEnding() {
        // Trailing spaces: two or more make a hard break; either way they are dropped.
        var spaces = 0
        if let last, case .text(let text) = nodes[last].kind {
            spaces = text.unicodeScalars.reversed().prefix { $0 == " " }.count
            if spaces > 0 {
                let kept = String(String.UnicodeScalarView(text.unicodeScalars.dropLast(spaces)))
                if kept.isEmpty { unlink(last) } else { nodes[last].kind = .text(kept) }
            }
        }
        if input[position] == "\r", position + 1 < input.count, input[position + 1] == "\n" { position += 1 }
        position += 1
        append(spaces >= 2 ? .lineBreak : .softBreak)
        skipLeadingSpaces()
    }

    private mutating func skipLeadingSpaces() {
        while position < input.count, input[position] == " " || input[position] == "\t" { position += 1 }
    }

    private mutating func backslash() {
        let next = position + 1
        if next < input.count, input[next] == "\n" || input[next] == "\r" {
            position = next
            if input[position] == "\r", position + 1 < input.count, input[position + 1] == "\n" { position += 1 }
            position += 1
            append(.lineBreak)
            skipLeadingSpaces()
        } else if next < input.count, MarkdownCharacters.isASCIIPunctuation(input[next]) {
            appendText(String(input[next]))
            position = next + 1
        } else {
            appendText("\\")
            position = next
        }
    }

    // MARK: Code spans

    private mutating func codeSpan() {
        let start = position
        while position < input.count, input[position] == "`" { position += 1 }
        let length = position - start
        if let searchedTo = backtickRunsWithoutCloser[length], searchedTo >= position {
            appendText(String(repeating: "`", count: length))
            return
        }
        var scan = position
        while scan < input.count {
            guard input[scan] == "`" else {
                scan += 1
                continue
            }
            let runStart = scan
            while scan < input.count, input[scan] == "`" { scan += 1 }
            if scan - runStart == length {
                var content = input[position..<runStart].map { $0 == "\n" || $0 == "\r" ? " " : $0 }
                if content.count >= 2, content.first == " ", content.last == " ", content.contains(where: { $0 != " " })
                {
                    content = Array(content.dropFirst().dropLast())
                }
                append(.code(String(String.UnicodeScalarView(content))))
                position = scan
                return
            }
        }
        backtickRunsWithoutCloser[length] = input.count
        appendText(String(repeating: "`", count: length))
    }

    // MARK: Emphasis delimiters

    private mutating func delimiterRun() {
        let character = input[position]
        let start = position
        while position < input.count, input[position] == character { position += 1 }
        let count = position - start
        let before: Unicode.Scalar = start > 0 ? input[start - 1] : "\n"
        let after: Unicode.Scalar = position < input.count ? input[position] : "\n"
        let beforeIsSpace = MarkdownCharacters.isWhitespace(before)
        let afterIsSpace = MarkdownCharacters.isWhitespace(after)
        let beforeIsPunctuation = MarkdownCharacters.isPunctuation(before)
        let afterIsPunctuation = MarkdownCharacters.isPunctuation(after)
        let leftFlanking = !afterIsSpace && (!afterIsPunctuation || beforeIsSpace || beforeIsPunctuation)
        let rightFlanking = !beforeIsSpace && (!beforeIsPunctuation || afterIsSpace || afterIsPunctuation)
        var canOpen = leftFlanking
        var canClose = rightFlanking
        if character == "_" {
            canOpen = leftFlanking && (!rightFlanking || beforeIsPunctuation)
            canClose = rightFlanking && (!leftFlanking || afterIsPunctuation)
        }
        if character == "~" && count > 2 {
            canOpen = false
            canClose = false
        }
        let node = append(.text(String(repeating: String(character), count: count)))
        guard canOpen || canClose else { return }
        let index = delimiters.count
        delimiters.append(
            Delimiter(
                node: node,
                character: character,
                count: count,
                originalCount: count,
                canOpen: canOpen,
                canClose: canClose,
                previous: topDelimiter,
                next: nil
            )
        )
        if let topDelimiter { delimiters[topDelimiter].next = index }
        topDelimiter = index
    }

    private mutating func removeDelimiter(_ index: Int) {
        let previous = delimiters[index].previous
        let next = delimiters[index].next
        if let previous { delimiters[previous].next = next }
        if let next { delimiters[next].previous = previous } else { topDelimiter = previous }
        delimiters[index].previous = nil
        delimiters[index].next = nil
    }

    /// The spec's `process emphasis` for the delimiters above `bottom`.
    private mutating func processEmphasis(above bottom: Int?) {
        // openers_bottom, per delimiter character, closer length mod 3 and whether the closer can open.
        var openersBottom: [String: Int?] = [:]
        func bottomKey(_ delimiter: Delimiter) -> String {
            "\(delimiter.character)\(delimiter.originalCount % 3)\(delimiter.canOpen)"
        }
        var current = bottom.map { delimiters[$0].next } ?? firstDelimiter(above: nil)
        while let closerIndex = current {
            let closer = delimiters[closerIndex]
            guard closer.canClose else {
                current = closer.next
                continue
            }
            let key = bottomKey(closer)
            let limit = openersBottom[key] ?? bottom
            var candidate = closer.previous
            var opener: Int?
            while let index = candidate, index != limit, index != bottom {
                let delimiter = delimiters[index]
                if delimiter.character == closer.character, delimiter.canOpen {
                    let oddMatch =
                        (delimiter.canClose || closer.canOpen)
                        && (delimiter.originalCount + closer.originalCount) % 3 == 0
                        && !(delimiter.originalCount % 3 == 0 && closer.originalCount % 3 == 0)
                    let tildeMismatch = closer.character == "~" && delimiter.count != closer.count
                    if !(closer.character != "~" && oddMatch) && !tildeMismatch {
                        opener = index
                        break
                    }
                }
                candidate = delimiter.previous
            }
            guard let openerIndex = opener else {
                openersBottom[key] = closer.previous
                let next = closer.next
                if !closer.canOpen { removeDelimiter(closerIndex) }
                current = next
                continue
            }
            let kind: Kind
            let used: Int
            if closer.character == "~" {
                kind = .strikethrough
                used = closer.count
            } else if delimiters[openerIndex].count >= 2 && closer.count >= 2 {
                kind = .strong
                used = 2
            } else {
                kind = .emphasis
                used = 1
            }
            // Remove the delimiters between opener and closer.
            var between = delimiters[openerIndex].next
            while let index = between, index != closerIndex {
                between = delimiters[index].next
                removeDelimiter(index)
            }
            delimiters[openerIndex].count -= used
            delimiters[closerIndex].count -= used
            shrink(delimiters[openerIndex].node, by: used)
            shrink(delimiters[closerIndex].node, by: used)
            wrap(after: delimiters[openerIndex].node, before: delimiters[closerIndex].node, in: kind)
            if delimiters[openerIndex].count == 0 {
                unlink(delimiters[openerIndex].node)
                removeDelimiter(openerIndex)
            }
            if delimiters[closerIndex].count == 0 {
                unlink(delimiters[closerIndex].node)
                let next = delimiters[closerIndex].next
                removeDelimiter(closerIndex)
                current = next
            }
        }
        // Remove every delimiter above the bottom.
        while let top = topDelimiter, top != bottom {
            removeDelimiter(top)
        }
    }

    private func firstDelimiter(above bottom: Int?) -> Int? {
        var index = topDelimiter
        var result: Int?
        while let current = index, current != bottom {
            result = current
            index = delimiters[current].previous
        }
        return result
    }

    /// Drops `count` delimiter characters from a delimiter's text node.
    private mutating func shrink(_ node: Int, by count: Int) {
        guard case .text(let text) = nodes[node].kind else { return }
        nodes[node].kind = .text(String(text.dropLast(count)))
    }

    // MARK: Brackets: links and attributes

    private mutating func closeBracket() throws(Failure) {
        guard let opener = brackets.last else {
            appendText("]")
            position += 1
            return
        }
        guard opener.isActive else {
            popBracket()
            appendText("]")
            position += 1
            return
        }
        let afterBracket = position + 1
        if opener.isAttribute {
            guard let (body, end) = attributeBody(at: afterBracket) else {
                popBracket()
                appendText("]")
                position += 1
                return
            }
            let attributes: [String: JSONValue]
            do {
                attributes = try AttributeBodyParser.parse(body)
            } catch {
                switch invalidAttributes {
                case .fail:
                    throw Failure(
                        message: "invalid attributes: \(error.message)",
                        offset: afterBracket + 1 + error.offset
                    )
                case .keepLiteral:
                    popBracket()
                    appendText("]")
                    position += 1
                    return
                }
            }
            closeContainer(opener: opener, kind: .attributes(attributes))
            position = end
            return
        }
        guard let (destination, title, end) = inlineLink(at: afterBracket) else {
            popBracket()
            appendText("]")
            position += 1
            return
        }
        if opener.isImage {
            closeContainer(opener: opener, kind: .image(source: destination, title: title))
            position = end
            return
        }
        closeContainer(opener: opener, kind: .link(destination: destination, title: title))
        position = end
        // Links may not contain links: earlier link openers can no longer form one.
        for index in activeLinkOpeners where index < brackets.count { brackets[index].isActive = false }
        activeLinkOpeners.removeAll()
    }

    /// Pops the top bracket, forgetting it as an active link opener.
    private mutating func popBracket() {
        brackets.removeLast()
        if activeLinkOpeners.last == brackets.count { activeLinkOpeners.removeLast() }
    }

    /// Wraps everything after the opener's text node in a container and removes the opener text.
    private mutating func closeContainer(opener: Bracket, kind: Kind) {
        processEmphasis(above: opener.delimiterBottom)
        wrap(after: opener.node, before: nil, in: kind)
        unlink(opener.node)
        popBracket()
    }

    /// `(…)` right after `]`: the body up to the first `)` outside nested parentheses, and the index
    /// after that `)`; `nil` when no such `)` comes (the `]` is then literal text).
    ///
    /// This is swift-cmark's rule (`manual_scan_attribute_attributes` in `src/inlines.c`), which
    /// Apple's parser uses: a backslash before ASCII punctuation skips that character, parentheses
    /// nest up to 32 deep, and quotes mean nothing, so `(note: 'oat) milk')` ends after `'oat`. The
    /// body is handed to the JSON5 decoder as written.
    private func attributeBody(at start: Int) -> (String, Int)? {
        guard start < input.count, input[start] == "(" else { return nil }
        var depth = 0
        var index = start + 1
        // Bodies are short; a cap keeps unclosed ones from making each `]` scan to the end.
        let limit = min(input.count, start + 1 + Self.maximumAttributeBody)
        while index < limit {
            let scalar = input[index]
            if scalar == "\\", index + 1 < input.count, MarkdownCharacters.isASCIIPunctuation(input[index + 1]) {
                index += 2
                continue
            }
            if scalar == "(" {
                depth += 1
                guard depth <= Self.maximumAttributeParentheses else { return nil }
            } else if scalar == ")" {
                if depth == 0 {
                    return (String(String.UnicodeScalarView(input[(start + 1)..<index])), index + 1)
                }
                depth -= 1
            }
            index += 1
        }
        return nil
    }

    /// An inline link's `(destination "title")` right after `]`.
    private func inlineLink(at start: Int) -> (String, String?, Int)? {
        guard start < input.count, input[start] == "(" else { return nil }
        var index = skipLinkWhitespace(start + 1)
        guard index < input.count else { return nil }
        var destination = ""
        if input[index] == "<" {
            var scan = index + 1
            var raw: [Unicode.Scalar] = []
            while scan < input.count {
                let scalar = input[scan]
                if scalar == ">" { break }
                if scalar == "<" || scalar == "\n" || scalar == "\r" { return nil }
                if copyEscape(at: &scan, into: &raw) { continue }
                raw.append(scalar)
                scan += 1
            }
            guard scan < input.count else { return nil }
            destination = Self.unescape(raw)
            index = scan + 1
        } else if input[index] != ")" {
            var depth = 0
            var scan = index
            var raw: [Unicode.Scalar] = []
            while scan < input.count {
                let scalar = input[scan]
                if copyEscape(at: &scan, into: &raw) { continue }
                if scalar.value <= 0x20 || scalar.value == 0x7F { break }
                if scalar == "(" {
                    depth += 1
                    guard depth <= 32 else { return nil }
                } else if scalar == ")" {
                    if depth == 0 { break }
                    depth -= 1
                }
                raw.append(scalar)
                scan += 1
            }
            guard depth == 0, !raw.isEmpty else { return nil }
            destination = Self.unescape(raw)
            index = scan
        }
        let afterDestination = index
        index = skipLinkWhitespace(index)
        var title: String?
        // A title must be separated from the destination by whitespace.
        if index > afterDestination, index < input.count, let (parsed, end) = linkTitle(at: index) {
            title = parsed
            index = skipLinkWhitespace(end)
        }
        guard index < input.count, input[index] == ")" else { return nil }
        return (destination, title, index + 1)
    }

    /// Spaces, tabs and at most one line ending.
    private func skipLinkWhitespace(_ start: Int) -> Int {
        var index = start
        var lineEndings = 0
        while index < input.count {
            switch input[index] {
            case " ", "\t": index += 1
            case "\n", "\r":
                lineEndings += 1
                if lineEndings > 1 { return index }
                index += 1
            default: return index
            }
        }
        return index
    }

    /// Copies a backslash escape (`\\` + ASCII punctuation) at `scan` into `raw`, still escaped
    /// for ``unescape(_:)``, and steps past it; `false` if there is none.
    private func copyEscape(at scan: inout Int, into raw: inout [Unicode.Scalar]) -> Bool {
        guard input[scan] == "\\", scan + 1 < input.count, MarkdownCharacters.isASCIIPunctuation(input[scan + 1]) else {
            return false
        }
        raw.append(input[scan])
        raw.append(input[scan + 1])
        scan += 2
        return true
    }

    private func linkTitle(at start: Int) -> (String, Int)? {
        let open = input[start]
        let close: Unicode.Scalar
        switch open {
        case "\"": close = "\""
        case "'": close = "'"
        case "(": close = ")"
        default: return nil
        }
        var scan = start + 1
        var raw: [Unicode.Scalar] = []
        while scan < input.count {
            let scalar = input[scan]
            if copyEscape(at: &scan, into: &raw) { continue }
            if scalar == close { return (Self.unescape(raw), scan + 1) }
            if open == "(" && scalar == "(" { return nil }
            raw.append(scalar)
            scan += 1
        }
        return nil
    }

    /// Resolves backslash escapes and entity references in a link destination or title.
    static func unescape(_ raw: [Unicode.Scalar]) -> String {
        var result = String.UnicodeScalarView()
        var index = 0
        while index < raw.count {
            let scalar = raw[index]
            if scalar == "\\", index + 1 < raw.count, MarkdownCharacters.isASCIIPunctuation(raw[index + 1]) {
                result.append(raw[index + 1])
                index += 2
            } else if scalar == "&", let (text, end) = EntityReference.resolve(raw, at: index) {
                result.append(contentsOf: text.unicodeScalars)
                index = end
            } else {
                result.append(scalar)
                index += 1
            }
        }
        return String(result)
    }

    // MARK: Autolinks and entities

    private mutating func autolink() {
        if let (destination, text, end) = Autolink.match(input, at: position) {
            let link = append(.link(destination: destination, title: nil))
            let child = nodes.count
            nodes.append(Node(kind: .text(text), previous: nil, next: nil))
            nodes[link].firstChild = child
            nodes[link].lastChild = child
            position = end
        } else {
            appendText("<")
            position += 1
        }
    }

    private mutating func entity() {
        if let (text, end) = EntityReference.resolve(input, at: position) {
            appendText(text)
            position = end
        } else {
            appendText("&")
            position += 1
        }
    }

    // MARK: Building the tree

    private func tree(from start: Int?, depth: Int) throws(Failure) -> [RichNode] {
        guard depth <= maximumNesting else {
            throw Failure(message: "markup nests deeper than \(maximumNesting) levels", offset: 0)
        }
        var result: [RichNode] = []
        var index = start
        var pendingText = ""
        func flush() {
            if !pendingText.isEmpty {
                result.append(.text(pendingText))
                pendingText = ""
            }
        }
        while let current = index {
            let node = nodes[current]
            switch node.kind {
            case .text(let text):
                pendingText += text
            case .softBreak:
                flush()
                result.append(.softBreak)
            case .lineBreak:
                flush()
                result.append(.lineBreak)
            case .code(let text):
                flush()
                result.append(.code(text))
            case .emphasis:
                flush()
                result.append(.emphasis(try tree(from: node.firstChild, depth: depth + 1)))
            case .strong:
                flush()
                result.append(.strong(try tree(from: node.firstChild, depth: depth + 1)))
            case .strikethrough:
                flush()
                result.append(.strikethrough(try tree(from: node.firstChild, depth: depth + 1)))
            case .link(let destination, let title):
                flush()
                result.append(
                    .link(destination: destination, title: title, try tree(from: node.firstChild, depth: depth + 1))
                )
            case .image(let source, let title):
                flush()
                result.append(
                    .image(source: source, title: title, try tree(from: node.firstChild, depth: depth + 1))
                )
            case .attributes(let attributes):
                flush()
                result.append(.attributes(attributes, try tree(from: node.firstChild, depth: depth + 1)))
            }
            index = node.next
        }
        flush()
        return result
    }
}
