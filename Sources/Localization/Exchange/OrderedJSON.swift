/// JSON read and written with its members in file order, printed as Xcode prints a String Catalog
/// (`"key" : value`, two-space indents), so a catalog read and written back unchanged is the same
/// bytes and an import changes only the lines of the values it changes.
indirect enum OrderedJSON: Equatable, Sendable {
    struct Member: Equatable, Sendable {
        var key: String
        var value: OrderedJSON
    }

    case object([Member])
    case array([OrderedJSON])
    case string(String)
    /// A number as written.
    case number(String)
    case bool(Bool)
    case null

    /// The member `key` of an object.
    subscript(key: String) -> OrderedJSON? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
        set {
            guard case .object(var members) = self else { return }
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                // Xcode keeps members sorted; a new one goes where it sorts.
                let index = members.firstIndex { $0.key > key } ?? members.count
                members.insert(Member(key: key, value: newValue), at: index)
            }
            self = .object(members)
        }
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    // MARK: Reading

    static func parse(_ bytes: [UInt8]) throws(LocalizationError) -> OrderedJSON {
        var parser = Parser(bytes: bytes)
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("text after the document") }
        return value
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0
        /// Objects and arrays open now; a damaged file cannot nest past ``maximumDepth``.
        var depth = 0
        static let maximumDepth = 64

        func error(_ message: String) -> LocalizationError {
            let line = bytes[..<min(index, bytes.count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            return LocalizationError(.unreadableCatalog, "JSON line \(line): \(message)")
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws(LocalizationError) -> OrderedJSON {
            skipSpace()
            guard index < bytes.count else { throw error("a value is missing") }
            let nests = bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[")
            if nests {
                guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth)") }
                depth += 1
            }
            defer { if nests { depth -= 1 } }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [Member] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("':' expected") }
                    index += 1
                    members.append(Member(key: key, value: try value()))
                    skipSpace()
                    guard index < bytes.count else { throw error("an object is never closed") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "}") else { throw error("',' or '}' expected") }
                    index += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [OrderedJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                while true {
                    items.append(try value())
                    skipSpace()
                    guard index < bytes.count else { throw error("an array is never closed") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw error("',' or ']' expected") }
                    index += 1
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t") where bytes[index...].starts(with: Array("true".utf8)):
                index += 4
                return .bool(true)
            case UInt8(ascii: "f") where bytes[index...].starts(with: Array("false".utf8)):
                index += 5
                return .bool(false)
            case UInt8(ascii: "n") where bytes[index...].starts(with: Array("null".utf8)):
                index += 4
                return .null
            default:
                let start = index
                while index < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[index]) { index += 1 }
                guard index > start else { throw error("a value is expected") }
                return .number(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }

        mutating func string() throws(LocalizationError) -> String {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("a string is expected") }
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw error("an escape is cut off") }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        var unit = try hex4()
                        if (0xD800..<0xDC00).contains(unit), bytes[index...].starts(with: Array("\\u".utf8)) {
                            index += 2
                            let low = try hex4()
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(unit) else { throw error("a lone surrogate") }
                        out += Array(String(Character(scalar)).utf8)
                    default: out.append(escaped)
                    }
                default:
                    out.append(byte)
                }
            }
            throw error("a string is never closed")
        }

        private mutating func hex4() throws(LocalizationError) -> UInt32 {
            guard index + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
            else { throw error("a broken \\u escape") }
            index += 4
            return value
        }
    }

    // MARK: Writing

    /// The document as Xcode writes a String Catalog: two-space indents, `"key" : value`, and no
    /// newline after the last brace (Xcode writes none; a file that had one keeps it).
    func xcodeText(endingWithNewline: Bool = false) -> String {
        var out = ""
        write(to: &out, indent: 0)
        return endingWithNewline ? out + "\n" : out
    }

    private func write(to out: inout String, indent: Int) {
        let inner = String(repeating: " ", count: indent + 2)
        switch self {
        case .object(let members):
            if members.isEmpty {
                out += "{\n\n" + String(repeating: " ", count: indent) + "}"
                return
            }
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += inner + Self.quoted(member.key) + " : "
                member.value.write(to: &out, indent: indent + 2)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        case .array(let items):
            if items.isEmpty {
                out += "[\n\n" + String(repeating: " ", count: indent) + "]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                item.write(to: &out, indent: indent + 2)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .string(let text): out += Self.quoted(text)
        case .number(let text): out += text
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        }
    }

    /// A JSON string as Xcode escapes one: quotes, backslashes and control characters only.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
