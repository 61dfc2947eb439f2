/// Decodes the bytes of a text catalog file to UTF-8, finding the encoding the way Apple's readers do.
///
/// A UTF-16 byte-order mark (`FF FE` or `FE FF`) selects UTF-16 and is removed; a UTF-8 one (`EF BB BF`)
/// is removed. Without a mark, text whose NUL bytes sit on the odd (or even) positions is taken to be
/// UTF-16LE (or BE), since Latin letters and the syntax characters have a zero high byte; anything else
/// is UTF-8. Only one mark is removed: a second one stays in the text as U+FEFF.
///
/// Undecodable input never stops decoding: each bad sequence becomes U+FFFD and the offset of the
/// first one is kept, so the caller can report it and still parse the rest.
enum TextDecoder {
    struct Result {
        /// The decoded text, as UTF-8 without the byte-order mark.
        var utf8: [UInt8]
        /// Where in ``utf8`` the first replacement character for undecodable input was put.
        var firstErrorOffset: Int?
        /// What was wrong, for a diagnostic.
        var errorDescription: String?
    }

    static func decode(_ bytes: [UInt8]) -> Result {
        if bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE {
            return decodeUTF16(bytes, from: 2, bigEndian: false)
        }
        if bytes.count >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF {
            return decodeUTF16(bytes, from: 2, bigEndian: true)
        }
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            return decodeUTF8(bytes, from: 3)
        }
        switch guessUTF16ByteOrder(bytes) {
        case .some(true):
            return decodeUTF16(bytes, from: 0, bigEndian: true)
        case .some(false):
            return decodeUTF16(bytes, from: 0, bigEndian: false)
        case .none:
            return decodeUTF8(bytes, from: 0)
        }
    }

    /// `true` for big-endian, `false` for little-endian, `nil` when the bytes do not look like UTF-16.
    ///
    /// Looks at the first 4 KiB: UTF-16 text has NUL bytes, almost all on one parity. UTF-8 text has
    /// none, and random bytes have them on both parities.
    private static func guessUTF16ByteOrder(_ bytes: [UInt8]) -> Bool? {
        let sampleEnd = min(bytes.count, 4096) & ~1
        var evenZeros = 0
        var oddZeros = 0
        var index = 0
        while index < sampleEnd {
            if bytes[index] == 0 { evenZeros += 1 }
            if bytes[index + 1] == 0 { oddZeros += 1 }
            index += 2
        }
        let pairs = sampleEnd / 2
        if oddZeros * 8 >= pairs && evenZeros * 8 <= oddZeros && oddZeros > 0 {
            return false
        }
        if evenZeros * 8 >= pairs && oddZeros * 8 <= evenZeros && evenZeros > 0 {
            return true
        }
        return nil
    }

    private static func decodeUTF8(_ bytes: [UInt8], from start: Int) -> Result {
        // Fast path: valid UTF-8 is returned as it is.
        var iterator = bytes[start...].makeIterator()
        var decoder = UTF8()
        var valid = true
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break loop
            case .error:
                valid = false
                break loop
            }
        }
        if valid {
            return Result(utf8: Array(bytes[start...]))
        }

        var output: [UInt8] = []
        output.reserveCapacity(bytes.count - start + 16)
        var firstError: Int?
        iterator = bytes[start...].makeIterator()
        decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                output.append(contentsOf: scalar.utf8)
            case .emptyInput:
                break loop
            case .error:
                if firstError == nil { firstError = output.count }
                output.append(contentsOf: replacementCharacter)
            }
        }
        return Result(
            utf8: output,
            firstErrorOffset: firstError,
            errorDescription: "the file is not valid UTF-8; undecodable bytes were replaced with U+FFFD"
        )
    }

    private static func decodeUTF16(_ bytes: [UInt8], from start: Int, bigEndian: Bool) -> Result {
        let unitCount = (bytes.count - start) / 2
        var units: [UInt16] = []
        units.reserveCapacity(unitCount)
        var index = start
        for _ in 0..<unitCount {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }

        var output: [UInt8] = []
        output.reserveCapacity(units.count * 2)
        var firstError: Int?
        var description: String?
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                output.append(contentsOf: scalar.utf8)
            case .emptyInput:
                break loop
            case .error:
                if firstError == nil {
                    firstError = output.count
                    description = "the file is not valid UTF-16 (an unpaired surrogate); it was replaced with U+FFFD"
                }
                output.append(contentsOf: replacementCharacter)
            }
        }
        if (bytes.count - start) % 2 == 1 {
            if firstError == nil {
                firstError = output.count
                description =
                    "the file is UTF-16 but has an odd number of bytes; the last byte was replaced with U+FFFD"
            }
            output.append(contentsOf: replacementCharacter)
        }
        return Result(utf8: output, firstErrorOffset: firstError, errorDescription: description)
    }

    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]
}
