/// A small JSON reader for command-line input that keeps numbers as written (`1.0` stays `1.0`,
/// which English plural rules tell apart from `1`); `JSONSerialization` would lose the digits.
enum JSONLine {
    enum Value: Equatable {
        case null
        case bool(Bool)
        /// The number's text, as written.
        case number(String)
        case string(String)
        case array([Value])
        case object([String: Value])
    }

    struct SyntaxError: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "invalid JSON at byte \(offset)" }
    }

    static func parse(_ text: String) throws(SyntaxError) -> Value {
        var reader = Reader(bytes: Array(text.utf8))
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw SyntaxError(offset: reader.index) }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws(SyntaxError) -> Value {
            skipSpace()
            guard index < bytes.count, depth < 64 else { throw SyntaxError(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        private mutating func literal(_ word: String, _ value: Value) throws(SyntaxError) -> Value {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected
            else { throw SyntaxError(offset: index) }
            index += expected.count
            return value
        }

        private mutating func number() throws(SyntaxError) -> Value {
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard !text.isEmpty, Double(text) != nil else { throw SyntaxError(offset: start) }
            return .number(text)
        }

        private mutating func string() throws(SyntaxError) -> String {
            index += 1  // the opening quote
            // Bytes, decoded once at the end: appending scalar by scalar to a String is quadratic.
            var text: [UInt8] = []
            var pendingHigh: UInt32?
            func append(_ scalar: Unicode.Scalar) {
                if let encoded = UTF8.encode(scalar) { text.append(contentsOf: encoded) }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: text, as: UTF8.self)
                }
                guard byte == UInt8(ascii: "\\") else {
                    text.append(byte)
                    index += 1
                    continue
                }
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
                    else { throw SyntaxError(offset: index) }
                    index += 4
                    if (0xD800...0xDBFF).contains(code) {
                        pendingHigh = code
                        continue
                    }
                    if let high = pendingHigh, (0xDC00...0xDFFF).contains(code) {
                        append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) ?? "\u{FFFD}")
                    } else {
                        append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    }
                    pendingHigh = nil
                default: text.append(escape)
                }
            }
            throw SyntaxError(offset: index)
        }

        private mutating func array() throws(SyntaxError) -> Value {
            index += 1
            depth += 1
            defer { depth -= 1 }
            var values: [Value] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            }
            while true {
                values.append(try value())
                skipSpace()
                guard index < bytes.count else { throw SyntaxError(offset: index) }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(values)
                }
                guard bytes[index] == UInt8(ascii: ",") else { throw SyntaxError(offset: index) }
                index += 1
            }
        }

        private mutating func object() throws(SyntaxError) -> Value {
            index += 1
            depth += 1
            defer { depth -= 1 }
            var members: [String: Value] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw SyntaxError(offset: index) }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw SyntaxError(offset: index) }
                index += 1
                members[key] = try value()
                skipSpace()
                guard index < bytes.count else { throw SyntaxError(offset: index) }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                guard bytes[index] == UInt8(ascii: ",") else { throw SyntaxError(offset: index) }
                index += 1
            }
        }
    }
}
