/// Where each key and value of an XML property list lies, for editing the file in place.
///
/// ``PropertyListReader`` gives values; an import that must leave every other byte alone needs
/// their byte ranges too. This reads the same XML (through ``XMLPropertyListParser``'s tokenizer:
/// entities, CDATA and comments as the reader takes them) but strictly: a file with any syntax
/// error is not outlined, since editing a file we cannot read whole could lose what we skipped.
struct PropertyListOutline {
    /// The deepest nesting of dictionaries outlined (a `.stringsdict` needs three).
    static let maximumDepth = 64

    /// An element of the file.
    struct Node {
        enum Content {
            case dictionary([Entry])
            case string(String)
            /// Any other value (an array, a number…), kept but not looked into.
            case other
        }

        var content: Content
        /// From the element's `<` to the end of its end tag.
        var range: Range<Int>
        /// Where a dictionary's `</dict>` starts; `nil` for `<dict/>` and other elements.
        var endTag: Int?

        var entries: [Entry] {
            if case .dictionary(let entries) = content { entries } else { [] }
        }

        var isDictionary: Bool {
            if case .dictionary = content { true } else { false }
        }

        var string: String? {
            if case .string(let text) = content { text } else { nil }
        }

        /// The value of `key`; the last one when the key is repeated (the reader's rule).
        subscript(key: String) -> Node? {
            entries.last { $0.key == key }?.value
        }
    }

    /// A `<key>` and the value after it.
    struct Entry {
        var key: String
        /// Where the `<key>` element starts.
        var keyStart: Int
        var value: Node
    }

    let bytes: [UInt8]
    /// The value inside `<plist>`.
    let root: Node

    /// Outlines `bytes`; `file` names the file in errors.
    init(_ bytes: [UInt8], file: String) throws(LocalizationError) {
        if bytes.starts(with: Array("bplist".utf8)) {
            throw LocalizationError(.unreadableCatalog, "\(file) is a binary property list; only XML ones are edited")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw LocalizationError(.unreadableCatalog, "\(file) is not UTF-8; only UTF-8 property lists are edited")
        }
        self.bytes = bytes
        // A UTF-8 byte order mark is not content (the reader skips it too).
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var walker = Walker(
            parser: XMLPropertyListParser(
                utf8: bytes,
                start: start,
                collector: DiagnosticCollector(file: file, text: bytes)
            ),
            file: file
        )
        root = try walker.document()
    }

    /// The white space that starts the line `offset` is on, when only white space precedes it there.
    func indent(before offset: Int) -> [UInt8]? {
        var start = offset
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        guard start == 0 || bytes[start - 1] == 0x0A else { return nil }
        return Array(bytes[start..<offset])
    }

    /// The reading itself: tokens in, nodes out, the first problem thrown.
    private struct Walker {
        var parser: XMLPropertyListParser
        let file: String

        mutating func document() throws(LocalizationError) -> Node {
            var root: Node?
            loop: while true {
                switch parser.nextToken() {
                case .text(let text) where text.isWhitespace: continue
                case .startTag(let tag) where tag.name == "plist" && !tag.isEmpty && root == nil:
                    root = try plist()
                case .endOfFile: break loop
                default: throw failure("the file is not one <plist> element")
                }
            }
            try checkDiagnostics()
            guard let root else { throw failure("no <plist> element") }
            return root
        }

        private mutating func plist() throws(LocalizationError) -> Node {
            var value: Node?
            while true {
                switch parser.nextToken() {
                case .text(let text) where text.isWhitespace: continue
                case .startTag(let tag) where value == nil: value = try node(tag, depth: 0)
                case .endTag(name: "plist", _):
                    guard let value else { throw failure("the <plist> element is empty") }
                    return value
                default: throw failure("<plist> must hold one value")
                }
            }
        }

        private mutating func node(_ tag: XMLStartTag, depth: Int) throws(LocalizationError) -> Node {
            switch tag.name {
            case "dict":
                guard depth < PropertyListOutline.maximumDepth else {
                    throw failure("dictionaries nested more than \(PropertyListOutline.maximumDepth) deep")
                }
                guard !tag.isEmpty else {
                    return Node(content: .dictionary([]), range: tag.offset..<parser.position)
                }
                var entries: [Entry] = []
                while true {
                    switch parser.nextToken() {
                    case .text(let text) where text.isWhitespace: continue
                    case .startTag(let keyTag) where keyTag.name == "key":
                        let key = try text(keyTag)
                        let value = try nextValue(depth: depth + 1)
                        entries.append(Entry(key: key, keyStart: keyTag.offset, value: value))
                    case .endTag(name: "dict", let offset):
                        return Node(content: .dictionary(entries), range: tag.offset..<parser.position, endTag: offset)
                    default: throw failure("a <dict> holds <key> and value pairs only")
                    }
                }
            case "string":
                let text = try text(tag)
                return Node(content: .string(text), range: tag.offset..<parser.position)
            case "key", "plist":
                throw failure("<\(tag.name)> where a value belongs")
            default:
                try skip(tag)
                return Node(content: .other, range: tag.offset..<parser.position)
            }
        }

        private mutating func nextValue(depth: Int) throws(LocalizationError) -> Node {
            while true {
                switch parser.nextToken() {
                case .text(let text) where text.isWhitespace: continue
                case .startTag(let tag): return try node(tag, depth: depth)
                default: throw failure("a <key> without a value")
                }
            }
        }

        /// The text of `<key>` or `<string>`, references decoded.
        private mutating func text(_ tag: XMLStartTag) throws(LocalizationError) -> String {
            guard !tag.isEmpty else { return "" }
            var bytes: [UInt8] = []
            while true {
                switch parser.nextToken() {
                case .text(let text): bytes += text.decoded ?? Array(parser.utf8[text.range])
                case .endTag(let name, _) where name == tag.name: return String(decoding: bytes, as: UTF8.self)
                default: throw failure("<\(tag.name)> holds text only")
                }
            }
        }

        /// Skips a value this outline does not look into, counting nesting without recursion.
        private mutating func skip(_ tag: XMLStartTag) throws(LocalizationError) {
            guard !tag.isEmpty else { return }
            var open = [tag.name]
            while let innermost = open.last {
                switch parser.nextToken() {
                case .text: continue
                case .startTag(let child): if !child.isEmpty { open.append(child.name) }
                case .endTag(let name, _) where name == innermost: open.removeLast()
                default: throw failure("<\(tag.name)> is not closed")
                }
            }
        }

        private func checkDiagnostics() throws(LocalizationError) {
            if let error = parser.collector.diagnostics.first(where: { $0.severity == .error }) {
                throw LocalizationError(.unreadableCatalog, error.description)
            }
        }

        private func failure(_ message: String) -> LocalizationError {
            if let error = parser.collector.diagnostics.first(where: { $0.severity == .error }) {
                return LocalizationError(.unreadableCatalog, error.description)
            }
            var locator = SourceLocator(parser.utf8)
            return LocalizationError(
                .unreadableCatalog,
                "\(file):\(locator.location(at: min(parser.position, parser.utf8.count))): \(message)"
            )
        }
    }
}
