/// Small helpers the readers share for scanning UTF-8 bytes.
enum ByteScanning {
    /// Whether `byte` is XML white space: space, tab, line feed or carriage return.
    static func isXMLWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The offset of the first occurrence of the ASCII `pattern` at or after `start`, if any.
    static func find(_ pattern: StaticString, in bytes: [UInt8], from start: Int) -> Int? {
        let count = pattern.utf8CodeUnitCount
        guard count > 0 else { return start }
        return pattern.withUTF8Buffer { needle -> Int? in
            let first = needle[0]
            var index = start
            while index + count <= bytes.count {
                if bytes[index] == first {
                    var matches = true
                    for offset in 1..<count where bytes[index + offset] != needle[offset] {
                        matches = false
                        break
                    }
                    if matches { return index }
                }
                index += 1
            }
            return nil
        }
    }

    /// Whether the bytes at `offset` spell the ASCII `prefix`.
    static func hasPrefix(_ prefix: StaticString, in bytes: [UInt8], at offset: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { needle in
            for index in 0..<count where bytes[offset + index] != needle[index] {
                return false
            }
            return true
        }
    }

    /// The character at `offset`, quoted for a message: `'#'`, or `U+200F` for invisible ones.
    static func describeCharacter(in bytes: [UInt8], at offset: Int) -> String {
        guard offset < bytes.count else { return "end of file" }
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else {
            return "an undecodable byte"
        }
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true).paddedLeft(to: 4)
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse,
            .unassigned, .nonspacingMark, .enclosingMark:
            return code
        default:
            return scalar == "'" ? "\"'\"" : "'\(Character(scalar))'"
        }
    }

    /// Up to `limit` characters of the UTF-8 `bytes`, for quoting input in a message.
    static func excerpt(_ bytes: ArraySlice<UInt8>, limit: Int = 40) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}

extension String {
    fileprivate func paddedLeft(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
