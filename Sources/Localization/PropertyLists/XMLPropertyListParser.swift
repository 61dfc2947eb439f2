/// A recovering parser for XML property lists that keeps dictionary order and key locations.
///
/// It reads the subset of XML property lists use: elements and attributes, comments, processing
/// instructions, a DOCTYPE (internal subset included), CDATA sections, the five predefined entities
/// and numeric character references. Text is kept exactly, white space included.
///
/// On an error it reports a `.syntaxError` and recovers locally: an entry with a broken value is left
/// out of its dictionary, an unknown element is skipped whole, a mismatched end tag closes the element
/// it names, and at the end of the file everything read so far is returned. Every step consumes input,
/// nesting is bounded by ``maximumDepth``, and skipping uses an explicit stack, so no input traps,
/// hangs or overflows the stack.
struct XMLPropertyListParser {
    /// The deepest nesting of `<dict>` and `<array>` elements that is parsed.
    static let maximumDepth = 512

    let utf8: [UInt8]
    var position: Int
    var collector: DiagnosticCollector
    /// A token read but not consumed, for the element that it closes.
    var pushedBack: XMLToken?
    /// The names of the elements being parsed, outermost first.
    var openElements: [String] = []
    /// Whether an "unexpected end of file" has been reported, so enclosing elements do not repeat it.
    var reportedEndOfFile = false

    init(utf8: [UInt8], start: Int = 0, collector: DiagnosticCollector) {
        self.utf8 = utf8
        self.position = start
        self.collector = collector
    }

    /// Parses the whole document and returns its root value, if one could be read.
    mutating func parseDocument() -> PropertyListValue? {
        var root: PropertyListValue?
        var sawRoot = false
        while true {
            switch nextToken() {
            case .text(let text):
                if !text.isWhitespace {
                    collector.syntaxError(
                        sawRoot
                            ? "unexpected text after the end of the property list"
                            : "unexpected text before the <plist> element",
                        at: text.range.lowerBound
                    )
                }
            case .startTag(let tag):
                if sawRoot {
                    collector.syntaxError("unexpected <\(tag.name)> after the end of the property list", at: tag.offset)
                    skipElement(tag)
                } else {
                    sawRoot = true
                    // A bare value as the root, without <plist>, is accepted as Core Foundation does.
                    root = tag.name == "plist" ? parsePlistElement(tag) : parseValue(tag)
                }
            case .endTag(let name, let offset):
                collector.syntaxError("unexpected </\(name)>", at: offset)
            case .endOfFile(let offset):
                if !sawRoot && !reportedEndOfFile {
                    collector.syntaxError("no <plist> element found", at: offset)
                }
                return root
            }
        }
    }

    // MARK: Elements

    private mutating func parsePlistElement(_ tag: XMLStartTag) -> PropertyListValue? {
        if tag.isEmpty {
            collector.syntaxError("the <plist> element is empty; expected a value inside it", at: tag.offset)
            return nil
        }
        openElements.append(tag.name)
        defer { openElements.removeLast() }
        var value: PropertyListValue?
        var sawValue = false
        while true {
            switch nextToken() {
            case .text(let text):
                if !text.isWhitespace {
                    collector.syntaxError("unexpected text in <plist>", at: text.range.lowerBound)
                }
            case .startTag(let child):
                if sawValue {
                    collector.syntaxError(
                        "<plist> holds one value, but a second one, <\(child.name)>, follows the first",
                        at: child.offset
                    )
                    skipElement(child)
                } else {
                    sawValue = true
                    value = parseValue(child)
                }
            case .endTag(let name, let offset):
                if name == tag.name {
                    if !sawValue {
                        collector.syntaxError("the <plist> element is empty; expected a value inside it", at: offset)
                    }
                    return value
                }
                if closesEnclosingElement(expected: tag.name, found: name, at: offset) {
                    return value
                }
            case .endOfFile(let offset):
                reportEndOfFile(expecting: tag.name, at: offset)
                return value
            }
        }
    }

    /// Parses the element `tag` starts as a value; `nil` (after a diagnostic) when it is not one.
    mutating func parseValue(_ tag: XMLStartTag) -> PropertyListValue? {
        switch tag.name {
        case "dict", "array":
            guard openElements.count < Self.maximumDepth else {
                collector.syntaxError(
                    "arrays and dictionaries are nested more than \(Self.maximumDepth) deep",
                    at: tag.offset
                )
                skipElement(tag)
                return nil
            }
            return tag.name == "dict" ? parseDictionary(tag) : parseArray(tag)
        case "string":
            return parseText(tag).map { .string(String(decoding: $0.bytes, as: UTF8.self)) }
        case "integer":
            return parseText(tag).flatMap { integerValue(of: $0) }
        case "real":
            return parseText(tag).flatMap { realValue(of: $0) }
        case "date":
            return parseText(tag).flatMap { dateValue(of: $0) }
        case "data":
            return parseText(tag).flatMap { dataValue(of: $0) }
        case "true", "false":
            guard let text = parseText(tag) else { return nil }
            if !text.bytes.allSatisfy(ByteScanning.isXMLWhitespace) {
                collector.syntaxError("<\(tag.name)> must be empty", at: text.offset)
            }
            return .boolean(tag.name == "true")
        case "key":
            collector.syntaxError("<key> is only allowed directly inside <dict>", at: tag.offset)
            skipElement(tag)
            return nil
        case "plist":
            collector.syntaxError("<plist> cannot be nested inside another element", at: tag.offset)
            skipElement(tag)
            return nil
        default:
            collector.syntaxError("unknown element <\(tag.name)>", at: tag.offset)
            skipElement(tag)
            return nil
        }
    }

    private enum PendingKey {
        case none
        case key(String, SourceLocation)
        /// The `<key>` element was broken; its value is skipped without another diagnostic.
        case broken
    }

    private mutating func parseDictionary(_ tag: XMLStartTag) -> PropertyListValue {
        guard !tag.isEmpty else { return .dictionary(PropertyListDictionary()) }
        openElements.append(tag.name)
        defer { openElements.removeLast() }
        var entries: [PropertyListDictionary.Entry] = []
        var firstLocations: [String: SourceLocation] = [:]
        var pending = PendingKey.none
        while true {
            switch nextToken() {
            case .text(let text):
                if !text.isWhitespace {
                    collector.syntaxError("unexpected text in <dict>; expected <key>", at: text.range.lowerBound)
                }
            case .startTag(let child) where child.name == "key":
                if case .key(let key, _) = pending {
                    collector.syntaxError("missing value for key '\(key)': found <key>", at: child.offset, key: key)
                }
                let location = collector.location(at: child.offset)
                if let text = parseText(child) {
                    pending = .key(String(decoding: text.bytes, as: UTF8.self), location)
                } else {
                    pending = .broken
                }
            case .startTag(let child):
                switch pending {
                case .none:
                    collector.syntaxError("expected <key> but found <\(child.name)>", at: child.offset)
                    skipElement(child)
                case .broken:
                    pending = .none
                    skipElement(child)
                case .key(let key, let location):
                    pending = .none
                    guard let value = parseValue(child) else { break }
                    entries.append(PropertyListDictionary.Entry(key: key, value: value, location: location))
                    if let first = firstLocations[key] {
                        collector.report(
                            .warning,
                            .duplicateKey,
                            location: location,
                            key: key,
                            message: "the key is already defined at \(first) in this dictionary; the last value wins"
                        )
                    } else {
                        firstLocations[key] = location
                    }
                }
            case .endTag(let name, let offset):
                if name == tag.name {
                    if case .key(let key, _) = pending {
                        collector.syntaxError("missing value for key '\(key)': found </dict>", at: offset, key: key)
                    }
                    return .dictionary(PropertyListDictionary(entries))
                }
                if closesEnclosingElement(expected: tag.name, found: name, at: offset) {
                    return .dictionary(PropertyListDictionary(entries))
                }
            case .endOfFile(let offset):
                reportEndOfFile(expecting: tag.name, at: offset)
                return .dictionary(PropertyListDictionary(entries))
            }
        }
    }

    private mutating func parseArray(_ tag: XMLStartTag) -> PropertyListValue {
        guard !tag.isEmpty else { return .array([]) }
        openElements.append(tag.name)
        defer { openElements.removeLast() }
        var elements: [PropertyListValue] = []
        while true {
            switch nextToken() {
            case .text(let text):
                if !text.isWhitespace {
                    collector.syntaxError("unexpected text in <array>", at: text.range.lowerBound)
                }
            case .startTag(let child):
                if let value = parseValue(child) {
                    elements.append(value)
                }
            case .endTag(let name, let offset):
                if name == tag.name {
                    return .array(elements)
                }
                if closesEnclosingElement(expected: tag.name, found: name, at: offset) {
                    return .array(elements)
                }
            case .endOfFile(let offset):
                reportEndOfFile(expecting: tag.name, at: offset)
                return .array(elements)
            }
        }
    }

    /// The text content of a `<key>`, `<string>` or scalar element.
    struct TextContent {
        var bytes: [UInt8]
        /// Where the content starts in the source.
        var offset: Int
        /// Whether `bytes[i]` is at source offset `offset + i` (no references, comments or CDATA).
        var isVerbatim: Bool

        /// The source offset of `bytes[index]`, or of the content's start when that is not known.
        func sourceOffset(of index: Int) -> Int {
            isVerbatim ? offset + index : offset
        }
    }

    /// Reads an element's text up to its end tag; `nil` (after a diagnostic) when the element is broken.
    ///
    /// A property-list element inside the text (`<string>abc<key>`) is taken to mean the end tag is
    /// missing: it is left for the enclosing element, so the entries after it survive.
    private mutating func parseText(_ tag: XMLStartTag) -> TextContent? {
        guard !tag.isEmpty else {
            return TextContent(bytes: [], offset: position, isVerbatim: true)
        }
        openElements.append(tag.name)
        defer { openElements.removeLast() }
        var bytes: [UInt8] = []
        var start: Int?
        var pieces = 0
        var isVerbatim = true
        var isBroken = false
        while true {
            switch nextToken() {
            case .text(let text):
                if start == nil { start = text.range.lowerBound }
                pieces += 1
                if let decoded = text.decoded {
                    isVerbatim = false
                    bytes.append(contentsOf: decoded)
                } else {
                    bytes.append(contentsOf: utf8[text.range])
                }
            case .startTag(let child):
                if Self.propertyListElementNames.contains(child.name) {
                    collector.syntaxError("expected </\(tag.name)> but found <\(child.name)>", at: child.offset)
                    pushedBack = .startTag(child)
                    return nil
                }
                collector.syntaxError("unexpected element <\(child.name)> inside <\(tag.name)>", at: child.offset)
                skipElement(child)
                isBroken = true
            case .endTag(let name, let offset):
                if name == tag.name {
                    guard !isBroken else { return nil }
                    return TextContent(bytes: bytes, offset: start ?? offset, isVerbatim: isVerbatim && pieces <= 1)
                }
                collector.syntaxError("expected </\(tag.name)> but found </\(name)>", at: offset)
                if isEnclosing(name) {
                    pushedBack = .endTag(name: name, offset: offset)
                }
                return nil
            case .endOfFile(let offset):
                reportEndOfFile(expecting: tag.name, at: offset)
                return nil
            }
        }
    }

    private static let propertyListElementNames: Set<String> = [
        "plist", "dict", "array", "key", "string", "integer", "real", "true", "false", "date", "data",
    ]

    /// Skips the element `tag` starts, nested elements included, without reporting what is inside.
    ///
    /// An end tag of an element that encloses the skipped one stops the skip and is left for it.
    mutating func skipElement(_ tag: XMLStartTag) {
        guard !tag.isEmpty else { return }
        var stack = [tag.name]
        while true {
            switch nextToken() {
            case .text:
                continue
            case .startTag(let child):
                if !child.isEmpty {
                    stack.append(child.name)
                }
            case .endTag(let name, let offset):
                // Look only near the top, so adversarial nesting cannot make skipping quadratic.
                if let index = stack.indices.suffix(64).last(where: { stack[$0] == name }) {
                    stack.removeSubrange(index...)
                    if stack.isEmpty { return }
                } else if openElements.contains(name) {
                    pushedBack = .endTag(name: name, offset: offset)
                    return
                }
            case .endOfFile(let offset):
                reportEndOfFile(expecting: stack.last ?? tag.name, at: offset)
                return
            }
        }
    }

    // MARK: Recovery

    /// Whether `name` is an element enclosing the innermost open one.
    private func isEnclosing(_ name: String) -> Bool {
        openElements.dropLast().contains(name)
    }

    /// Reports an end tag that does not match the container `expected`.
    ///
    /// - Returns: `true` when it closes an enclosing element, which then ends `expected` too (the token
    ///   is pushed back for it); `false` when it matches nothing open and was dropped.
    private mutating func closesEnclosingElement(expected: String, found name: String, at offset: Int) -> Bool {
        collector.syntaxError("expected </\(expected)> but found </\(name)>", at: offset)
        guard isEnclosing(name) else { return false }
        pushedBack = .endTag(name: name, offset: offset)
        return true
    }

    mutating func reportEndOfFile(expecting name: String, at offset: Int) {
        guard !reportedEndOfFile else { return }
        reportedEndOfFile = true
        collector.syntaxError("unexpected end of file; expected </\(name)>", at: offset)
    }
}
