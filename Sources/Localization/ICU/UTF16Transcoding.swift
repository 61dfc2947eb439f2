extension ICUText {
    /// ICU's UTF-16 output as a `String`, transcoded in one pass straight into the string's UTF-8
    /// storage (the standard library's generic `String(decoding:as: UTF16.self)` goes scalar by
    /// scalar and costs several times more on the short texts formatters return). An unpaired
    /// surrogate becomes U+FFFD, as it does there.
    static func string(_ units: UnsafeBufferPointer<UInt16>) -> String {
        guard !units.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: units.count * 3) { utf8 in
            var written = 0
            var index = 0
            func put(_ byte: UInt32) {
                utf8[written] = UInt8(truncatingIfNeeded: byte)
                written += 1
            }
            while index < units.count {
                let unit = UInt32(units[index])
                index += 1
                if unit < 0x80 {
                    put(unit)
                } else if unit < 0x800 {
                    put(0xC0 | unit >> 6)
                    put(0x80 | unit & 0x3F)
                } else if unit & 0xF800 != 0xD800 {
                    put(0xE0 | unit >> 12)
                    put(0x80 | unit >> 6 & 0x3F)
                    put(0x80 | unit & 0x3F)
                } else if unit < 0xDC00, index < units.count, units[index] & 0xFC00 == 0xDC00 {
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (UInt32(units[index]) - 0xDC00)
                    index += 1
                    put(0xF0 | scalar >> 18)
                    put(0x80 | scalar >> 12 & 0x3F)
                    put(0x80 | scalar >> 6 & 0x3F)
                    put(0x80 | scalar & 0x3F)
                } else {
                    put(0xEF)
                    put(0xBF)
                    put(0xBD)
                }
            }
            return written
        }
    }

    /// ``string(_:)`` for a slice of an array of code units.
    static func string(_ units: ArraySlice<UInt16>) -> String {
        units.withUnsafeBufferPointer { string($0) }
    }

    /// Writes `text` as UTF-16 at `buffer`, which must have room for `text.utf8.count` units (UTF-16
    /// never takes more units than UTF-8 takes bytes); returns the units written. A Swift string is
    /// valid UTF-8, so this is a plain decode.
    static func writeUTF16(_ text: String, to buffer: UnsafeMutablePointer<UInt16>) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var written = 0
            var index = 0
            let count = bytes.count
            while index < count {
                let lead = UInt32(bytes[index])
                var scalar: UInt32
                if lead < 0x80 {
                    scalar = lead
                    index += 1
                } else if lead < 0xE0 {
                    scalar = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                    index += 2
                } else if lead < 0xF0 {
                    scalar =
                        (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                    index += 3
                } else {
                    scalar =
                        (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F)
                        << 6
                        | UInt32(bytes[index + 3] & 0x3F)
                    index += 4
                }
                if scalar < 0x10000 {
                    buffer[written] = UInt16(truncatingIfNeeded: scalar)
                    written += 1
                } else {
                    scalar -= 0x10000
                    buffer[written] = UInt16(truncatingIfNeeded: 0xD800 + (scalar >> 10))
                    buffer[written + 1] = UInt16(truncatingIfNeeded: 0xDC00 + (scalar & 0x3FF))
                    written += 2
                }
            }
            return written
        }
    }
}
