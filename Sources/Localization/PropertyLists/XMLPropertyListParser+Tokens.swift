extension XMLPropertyListParser {
    /// Reads the next tag or run of text, skipping comments, processing instructions and declarations.
    mutating func nextToken() -> XMLToken {
        if let token = pushedBack {
            pushedBack = nil
            return token
        }
        while position < utf8.count {
            guard utf8[position] == UInt8(ascii: "<") else {
                return .text(scanText())
            }
            if ByteScanning.hasPrefix("<!--", in: utf8, at: position) {
                skipMarkup(until: "-->", from: position + 4, what: "comment")
            } else if ByteScanning.hasPrefix("<![CDATA[", in: utf8, at: position) {
                return .text(scanCDATA())
            } else if ByteScanning.hasPrefix("<?", in: utf8, at: position) {
                skipMarkup(until: "?>", from: position + 2, what: "processing instruction")
            } else if ByteScanning.hasPrefix("<!", in: utf8, at: position) {
                skipDeclaration()
            } else if ByteScanning.hasPrefix("</", in: utf8, at: position) {
                if let token = scanEndTag() { return token }
            } else if position + 1 < utf8.count && Self.isNameStart(utf8[position + 1]) {
                if let token = scanStartTag() { return token }
            } else {
                collector.syntaxError(
                    "'<' is not followed by an element name; write &lt; for a literal '<'",
                    at: position
                )
                position += 1
                return .text(XMLText(range: (position - 1)..<position, decoded: nil, isWhitespace: false))
            }
        }
        return .endOfFile(offset: utf8.count)
    }

    // MARK: Text

    private mutating func scanText() -> XMLText {
        let start = position
        var buffer: [UInt8] = []
        var hasReferences = false
        var runStart = position
        var isWhitespace = true
        while position < utf8.count {
            let byte = utf8[position]
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "&") {
                hasReferences = true
                buffer.append(contentsOf: utf8[runStart..<position])
                decodeReference(into: &buffer)
                runStart = position
                isWhitespace = false
                continue
            }
            if isWhitespace && !ByteScanning.isXMLWhitespace(byte) {
                isWhitespace = false
            }
            position += 1
        }
        if hasReferences {
            buffer.append(contentsOf: utf8[runStart..<position])
        }
        return XMLText(range: start..<position, decoded: hasReferences ? buffer : nil, isWhitespace: isWhitespace)
    }

    /// Decodes the entity or character reference at `position` (an `&`) and moves past it.
    ///
    /// A reference that is not valid is reported and kept as it was written.
    private mutating func decodeReference(into buffer: inout [UInt8]) {
        let start = position
        var end = start + 1
        while end < utf8.count && end - start <= 12
            && (Self.isASCIIAlphanumeric(utf8[end]) || utf8[end] == UInt8(ascii: "#"))
        {
            end += 1
        }
        if end < utf8.count && utf8[end] == UInt8(ascii: ";") && end > start + 1 {
            let name = utf8[(start + 1)..<end]
            if let scalar = Self.resolveReference(name) {
                buffer.append(contentsOf: scalar.utf8)
                position = end + 1
                return
            }
            let written = "&" + String(decoding: name, as: UTF8.self) + ";"
            if name.first == UInt8(ascii: "#") {
                collector.syntaxError("invalid character reference '\(written)'", at: start)
            } else {
                collector.syntaxError(
                    "unknown entity '\(written)'; property lists know only &lt; &gt; &amp; &quot; &apos;"
                        + " and character references",
                    at: start
                )
            }
        } else {
            collector.syntaxError("'&' does not start an entity; write &amp; for a literal '&'", at: start)
        }
        buffer.append(UInt8(ascii: "&"))
        position = start + 1
    }

    /// The character a reference's name (between `&` and `;`) stands for.
    private static func resolveReference(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard name.first == UInt8(ascii: "#") else { return nil }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty && digits.count <= 8 else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            guard let digitValue = hexadecimalValue(digit), digitValue < radix else { return nil }
            value = value * radix + digitValue
        }
        guard value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    private mutating func scanCDATA() -> XMLText {
        let start = position
        let contentStart = position + 9
        let contentEnd: Int
        if let end = ByteScanning.find("]]>", in: utf8, from: contentStart) {
            contentEnd = end
            position = end + 3
        } else {
            collector.syntaxError("unterminated CDATA section", at: start)
            reportedEndOfFile = true
            contentEnd = utf8.count
            position = utf8.count
        }
        let isWhitespace = utf8[contentStart..<contentEnd].allSatisfy(ByteScanning.isXMLWhitespace)
        return XMLText(range: contentStart..<contentEnd, decoded: nil, isWhitespace: isWhitespace)
    }

    // MARK: Markup

    /// Skips a comment or processing instruction ending with `terminator`.
    private mutating func skipMarkup(until terminator: StaticString, from contentStart: Int, what: String) {
        if let end = ByteScanning.find(terminator, in: utf8, from: contentStart) {
            position = end + terminator.utf8CodeUnitCount
        } else {
            collector.syntaxError("unterminated \(what)", at: position)
            reportedEndOfFile = true
            position = utf8.count
        }
    }

    /// Skips `<!DOCTYPE …>` (with an internal subset in brackets) or another `<!…>` declaration.
    private mutating func skipDeclaration() {
        let start = position
        if !openElements.isEmpty {
            collector.syntaxError("unexpected declaration inside an element", at: start)
        }
        var index = position + 2
        var quote: UInt8?
        var depth = 0
        while index < utf8.count {
            let byte = utf8[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "<") && ByteScanning.hasPrefix("<!--", in: utf8, at: index) {
                // A comment in the internal subset may hold brackets and quotes.
                guard let end = ByteScanning.find("-->", in: utf8, from: index + 4) else { break }
                index = end + 3
                continue
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ">") && depth == 0 {
                position = index + 1
                return
            }
            index += 1
        }
        collector.syntaxError("unterminated declaration", at: start)
        reportedEndOfFile = true
        position = utf8.count
    }

    /// Reads a start tag at `position`; `nil` when the file ends inside it (already reported).
    private mutating func scanStartTag() -> XMLToken? {
        let start = position
        position += 1
        let name = scanName()
        while true {
            skipWhitespace()
            guard position < utf8.count else {
                return reportTruncatedTag("<\(name)", at: start)
            }
            let byte = utf8[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                return .startTag(XMLStartTag(name: name, isEmpty: false, offset: start))
            }
            if byte == UInt8(ascii: "/") && position + 1 < utf8.count && utf8[position + 1] == UInt8(ascii: ">") {
                position += 2
                return .startTag(XMLStartTag(name: name, isEmpty: true, offset: start))
            }
            var problem: String?
            if Self.isNameStart(byte) {
                // An attribute; property lists carry only `version`, which is not checked.
                let attribute = scanName()
                skipWhitespace()
                problem = "attribute '\(attribute)' has no value"
                if position < utf8.count && utf8[position] == UInt8(ascii: "=") {
                    problem = nil
                    position += 1
                    skipWhitespace()
                    if position < utf8.count
                        && (utf8[position] == UInt8(ascii: "\"") || utf8[position] == UInt8(ascii: "'"))
                    {
                        let quote = utf8[position]
                        var index = position + 1
                        while index < utf8.count && utf8[index] != quote { index += 1 }
                        guard index < utf8.count else {
                            collector.syntaxError("unterminated attribute value", at: position)
                            reportedEndOfFile = true
                            position = utf8.count
                            return nil
                        }
                        position = index + 1
                        continue
                    }
                }
            }
            guard position < utf8.count else {
                return reportTruncatedTag("<\(name)", at: start)
            }
            collector.syntaxError(
                "malformed tag <\(name)>: "
                    + (problem ?? "unexpected \(ByteScanning.describeCharacter(in: utf8, at: position))"),
                at: position
            )
            guard let end = ByteScanning.find(">", in: utf8, from: position) else {
                reportedEndOfFile = true
                position = utf8.count
                return nil
            }
            position = end + 1
            let isEmpty = utf8[end - 1] == UInt8(ascii: "/")
            return .startTag(XMLStartTag(name: name, isEmpty: isEmpty, offset: start))
        }
    }

    /// Reads an end tag at `position`; `nil` when it has no name or the file ends inside it.
    private mutating func scanEndTag() -> XMLToken? {
        let start = position
        position += 2
        guard position < utf8.count, Self.isNameStart(utf8[position]) else {
            collector.syntaxError("malformed end tag: expected an element name after '</'", at: start)
            skipPastGreaterThan()
            return nil
        }
        let name = scanName()
        skipWhitespace()
        guard position < utf8.count else {
            return reportTruncatedTag("</\(name)", at: start)
        }
        if utf8[position] == UInt8(ascii: ">") {
            position += 1
        } else {
            collector.syntaxError(
                "malformed end tag </\(name)>: unexpected \(ByteScanning.describeCharacter(in: utf8, at: position))",
                at: position
            )
            skipPastGreaterThan()
        }
        return .endTag(name: name, offset: start)
    }

    private mutating func reportTruncatedTag(_ written: String, at start: Int) -> XMLToken? {
        if !reportedEndOfFile {
            reportedEndOfFile = true
            collector.syntaxError("unexpected end of file inside the tag \(written)", at: start)
        }
        position = utf8.count
        return nil
    }

    private mutating func skipPastGreaterThan() {
        if let end = ByteScanning.find(">", in: utf8, from: position) {
            position = end + 1
        } else {
            position = utf8.count
        }
    }

    private mutating func scanName() -> String {
        let start = position
        while position < utf8.count && Self.isNameCharacter(utf8[position]) {
            position += 1
        }
        return String(decoding: utf8[start..<position], as: UTF8.self)
    }

    private mutating func skipWhitespace() {
        while position < utf8.count && ByteScanning.isXMLWhitespace(utf8[position]) {
            position += 1
        }
    }

    // MARK: Character classes

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    static func hexadecimalValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
