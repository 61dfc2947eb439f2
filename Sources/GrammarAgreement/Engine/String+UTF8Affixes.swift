extension String {
    /// Whether the UTF-8 bytes end with `suffix`'s: byte comparison, much cheaper than
    /// `hasSuffix`, which compares grapheme clusters. Words and lexicons are NFC, so the bytes agree.
    @inline(__always)
    func endsWith(_ suffix: String) -> Bool {
        let bytes = utf8
        let tail = suffix.utf8
        guard bytes.count >= tail.count else { return false }
        return bytes[bytes.index(bytes.endIndex, offsetBy: -tail.count)...].elementsEqual(tail)
    }

    /// Whether the UTF-8 bytes start with `prefix`'s.
    @inline(__always)
    func startsWith(_ prefix: String) -> Bool {
        let bytes = utf8
        let head = prefix.utf8
        guard bytes.count >= head.count else { return false }
        return bytes.prefix(head.count).elementsEqual(head)
    }

    /// The string without its last `count` bytes (ASCII endings only).
    @inline(__always)
    func droppingLastBytes(_ count: Int) -> String {
        let bytes = utf8
        return String(Substring(bytes[..<bytes.index(bytes.endIndex, offsetBy: -count)]))
    }

    /// Whether every byte is ASCII.
    var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }

    /// Lowercased, without the Unicode machinery when the text is already lowercase ASCII.
    var fastLowercased: String {
        if utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) { return self }
        return lowercased()
    }
}
