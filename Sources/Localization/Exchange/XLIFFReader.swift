import Foundation

/// An XLIFF 1.2 document as translators send it back: files, and in each the units' ids, sources,
/// targets and states.
public struct XLIFFDocument: Hashable, Sendable {
    public struct Unit: Hashable, Sendable {
        public var id: String
        public var source: String
        /// `nil` when the unit has no `<target>`.
        public var target: String?
        public var state: String?
    }

    public struct File: Hashable, Sendable {
        public var original: String
        public var sourceLanguage: String
        public var targetLanguage: String
        public var units: [Unit]
    }

    public var files: [File]
}

/// Reads XLIFF 1.2 with a reader of its own (FoundationXML would bring libxml2 into the release):
/// the XML Xcode and translation tools write — declarations, comments, CDATA, character and the
/// five predefined entity references — and the elements `file`, `trans-unit`, `source`, `target`.
/// Anything it cannot read faithfully is an error naming the line, never a guess: inline markup
/// inside a source or target (`<g>`, `<x/>`…), a unit without an id, an unknown entity, a tag
/// left open.
public enum XLIFFReader {
    public static func read(_ bytes: [UInt8]) throws(LocalizationError) -> XLIFFDocument {
        try checkEncoding(bytes)
        var scanner = Scanner(bytes: bytes)
        var files: [XLIFFDocument.File] = []
        var file: XLIFFDocument.File?
        var unit: XLIFFDocument.Unit?
        /// The element whose text is being collected (`source` or `target`), and its text.
        var collecting: String?
        var text = ""
        var stack: [String] = []
        while let token = try scanner.next() {
            switch token {
            case .text(let content):
                if collecting != nil { text += content }
            case .start(let name, let attributes, let empty):
                if let collecting {
                    throw scanner.error("inline markup <\(name)> inside <\(collecting)> is not supported")
                }
                switch name {
                case "file":
                    file = XLIFFDocument.File(
                        original: attributes["original"] ?? "",
                        sourceLanguage: attributes["source-language"] ?? "",
                        targetLanguage: attributes["target-language"] ?? "",
                        units: []
                    )
                case "trans-unit":
                    guard let id = attributes["id"] else { throw scanner.error("a <trans-unit> without an id") }
                    guard file != nil else { throw scanner.error("a <trans-unit> outside any <file>") }
                    unit = XLIFFDocument.Unit(id: id, source: "", target: nil, state: nil)
                case "source", "target":
                    guard unit != nil, stack.last == "trans-unit" else { break }
                    if name == "target" { unit?.state = attributes["state"] }
                    if empty {
                        if name == "target" { unit?.target = "" }
                    } else {
                        collecting = name
                        text = ""
                    }
                default:
                    break
                }
                if !empty { stack.append(name) }
            case .end(let name):
                guard stack.last == name else {
                    throw scanner.error("</\(name)> closes <\(stack.last ?? "nothing")>")
                }
                stack.removeLast()
                switch name {
                case "source", "target":
                    guard collecting == name else { break }
                    if name == "source" { unit?.source = text } else { unit?.target = text }
                    collecting = nil
                case "trans-unit":
                    if let finished = unit { file?.units.append(finished) }
                    unit = nil
                case "file":
                    if let finished = file { files.append(finished) }
                    file = nil
                default:
                    break
                }
            }
        }
        if let open = stack.last { throw scanner.error("<\(open)> is never closed") }
        return XLIFFDocument(files: files)
    }

    /// UTF-8 only, as Xcode writes XLIFF: a UTF-16 file, another declared encoding or bytes
    /// that are not UTF-8 are refused by name rather than read into replacement characters.
    private static func checkEncoding(_ bytes: [UInt8]) throws(LocalizationError) {
        func refuse(_ message: String) -> LocalizationError {
            LocalizationError(.unreadableCatalog, "XLIFF: \(message); only UTF-8 is read (save it as UTF-8)")
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.prefix(4).contains(0) {
            throw refuse("the file is UTF-16")
        }
        let head = String(decoding: bytes.prefix(200), as: UTF8.self)
        if head.hasPrefix("<?xml"), let declaration = head.split(separator: ">").first,
            let range = declaration.range(of: "encoding=")
        {
            let value = declaration[range.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
            guard value.lowercased() == "utf-8" || value.lowercased() == "utf8" else {
                throw refuse("the file declares encoding \(value)")
            }
        }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw refuse("the file is not valid UTF-8") }
    }

    enum Token {
        case start(String, [String: String], empty: Bool)
        case end(String)
        case text(String)
    }

    /// XML tokens over UTF-8 bytes, with the line for errors.
    struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var line = 1

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A byte order mark is not content.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        func error(_ message: String) -> LocalizationError {
            LocalizationError(.unreadableCatalog, "XLIFF line \(line): \(message)")
        }

        /// The next token; comments, processing instructions and declarations are skipped (in a
        /// loop: a file of nothing but comments must not grow the stack).
        mutating func next() throws(LocalizationError) -> Token? {
            while index < bytes.count {
                if let token = try token() { return token }
            }
            return nil
        }

        /// The token at `index`, or `nil` after skipping one that is not content.
        private mutating func token() throws(LocalizationError) -> Token? {
            guard bytes[index] == UInt8(ascii: "<") else { return .text(try characterData(until: UInt8(ascii: "<"))) }
            if starts(with: "<?") {
                try skip(past: "?>")
                return nil
            }
            if starts(with: "<!--") {
                try skip(past: "-->")
                return nil
            }
            if starts(with: "<![CDATA[") {
                index += 9
                let start = index
                try skip(past: "]]>")
                return .text(String(decoding: Self.normalizingLineEnds(bytes[start..<(index - 3)]), as: UTF8.self))
            }
            if starts(with: "<!") {
                try skip(past: ">")
                return nil
            }
            if starts(with: "</") {
                index += 2
                let name = self.name()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                    throw error("a broken end tag </\(name)")
                }
                index += 1
                return .end(name)
            }
            index += 1
            let name = self.name()
            guard !name.isEmpty else { throw error("a '<' that starts no tag") }
            var attributes: [String: String] = [:]
            while true {
                skipSpace()
                guard index < bytes.count else { throw error("<\(name) is never finished") }
                if bytes[index] == UInt8(ascii: ">") {
                    index += 1
                    return .start(name, attributes, empty: false)
                }
                if starts(with: "/>") {
                    index += 2
                    return .start(name, attributes, empty: true)
                }
                let attribute = self.name()
                skipSpace()
                guard !attribute.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                    throw error("a broken attribute in <\(name)")
                }
                index += 1
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
                else {
                    throw error("attribute \(attribute) of <\(name)> is not quoted")
                }
                let quote = bytes[index]
                index += 1
                attributes[attribute] = try characterData(until: quote)
                index += 1
            }
        }

        private func starts(with text: StaticString) -> Bool {
            text.withUTF8Buffer { prefix in
                index + prefix.count <= bytes.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
            }
        }

        private mutating func skip(past end: StaticString) throws(LocalizationError) {
            while index < bytes.count {
                if starts(with: end) {
                    index += end.utf8CodeUnitCount
                    return
                }
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
            throw error("'\(end)' never comes")
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
        }

        private mutating func name() -> String {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                let isNameByte =
                    (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
                    || byte == UInt8(ascii: ".") || byte >= 0x80
                guard isNameByte else { break }
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// Text up to (not including) `end`, references resolved; fails at the end of input for
        /// an attribute (whose quote must come).
        private mutating func characterData(until end: UInt8) throws(LocalizationError) -> String {
            var out: [UInt8] = []
            while index < bytes.count, bytes[index] != end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<"), end != UInt8(ascii: "<") { throw error("'<' inside an attribute value") }
                if byte == UInt8(ascii: "&") {
                    out += try reference()
                    continue
                }
                if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                    throw error("control character \(byte) is not allowed in XML")
                }
                if byte == 0x0A { line += 1 }
                // XML reads CR LF and a lone CR as LF (XML 1.0 §2.11).
                if byte == 0x0D {
                    if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                        index += 1
                        continue
                    }
                    out.append(0x0A)
                    index += 1
                    continue
                }
                out.append(byte)
                index += 1
            }
            if index >= bytes.count, end != UInt8(ascii: "<") { throw error("an attribute value is never closed") }
            return String(decoding: out, as: UTF8.self)
        }

        /// CR LF and a lone CR as LF (XML 1.0 §2.11).
        static func normalizingLineEnds(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == 0x0A, previous == 0x0D {
                    previous = byte
                    continue
                }
                out.append(byte == 0x0D ? 0x0A : byte)
                previous = byte
            }
            return out
        }

        /// Whether XML 1.0 allows the character (§2.2: tab, LF, CR, and from U+0020 on, less the
        /// surrogates, U+FFFE and U+FFFF).
        static func isXMLCharacter(_ value: UInt32) -> Bool {
            value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
        }

        /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#10;`, `&#x1F600;` as UTF-8.
        private mutating func reference() throws(LocalizationError) -> [UInt8] {
            guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw error("an '&' that starts no reference")
            }
            let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            index = semicolon + 1
            switch name {
            case "amp": return Array("&".utf8)
            case "lt": return Array("<".utf8)
            case "gt": return Array(">".utf8)
            case "quot": return Array("\"".utf8)
            case "apos": return Array("'".utf8)
            default:
                let value: UInt32? =
                    name.hasPrefix("#x")
                    ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                guard let value, let scalar = Unicode.Scalar(value) else { throw error("unknown reference &\(name);") }
                guard Self.isXMLCharacter(value) else { throw error("&\(name); is not a character XML allows") }
                return Array(String(Character(scalar)).utf8)
            }
        }
    }
}
