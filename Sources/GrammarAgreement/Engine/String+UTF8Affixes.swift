extension String {
    /// Whether the UTF-8 bytes end with `suffix`'s: a byte comparison, much cheaper than
    /// `hasSuffix`, which compares grapheme clusters. Words and lexicons are NFC, so bytes agree.
    @inline(__always)
    func endsWith(_ suffix: String) -> Bool {
        var text = self
        var tail = suffix
        return text.withUTF8 { bytes in
            tail.withUTF8 { ending in
                guard bytes.count >= ending.count else { return false }
                let offset = bytes.count - ending.count
                for index in 0..<ending.count where bytes[offset + index] != ending[index] { return false }
                return true
            }
        }
    }

    /// Whether the UTF-8 bytes start with `prefix`'s.
    @inline(__always)
    func startsWith(_ prefix: String) -> Bool {
        var text = self
        var head = prefix
        return text.withUTF8 { bytes in
            head.withUTF8 { beginning in
                guard bytes.count >= beginning.count else { return false }
                for index in 0..<beginning.count where bytes[index] != beginning[index] { return false }
                return true
            }
        }
    }

    /// Whether `infix`'s UTF-8 bytes occur in the string's: a byte search, without the generic
    /// Character matching behind `contains(_:)` for strings.
    func includes(_ infix: String) -> Bool {
        var text = self
        var part = infix
        return text.withUTF8 { bytes in
            part.withUTF8 { needle in
                guard let head = needle.first else { return true }
                guard bytes.count >= needle.count else { return false }
                search: for start in 0...(bytes.count - needle.count) where bytes[start] == head {
                    for offset in 1..<needle.count where bytes[start + offset] != needle[offset] { continue search }
                    return true
                }
                return false
            }
        }
    }

    /// The string without its last `count` bytes: for dropping ASCII endings just tested with
    /// ``endsWith(_:)``, without `dropLast`'s walk over characters.
    @inline(__always)
    func droppingLastBytes(_ count: Int) -> String {
        let bytes = utf8
        guard count > 0, count <= bytes.count else { return count > 0 ? "" : self }
        return String(Substring(bytes[..<bytes.index(bytes.endIndex, offsetBy: -count)]))
    }

    /// Whether every byte is ASCII.
    var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }

    /// Lowercased, without making a new string when the text is already lowercase: ASCII read from
    /// its bytes, other text from its scalars' properties (lexicon forms are mostly lowercase).
    var fastLowercased: String {
        if utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) { return self }
        let changes = unicodeScalars.contains { scalar in
            scalar.isASCII ? (0x41...0x5A).contains(scalar.value) : scalar.properties.changesWhenLowercased
        }
        return changes ? lowercased() : self
    }
}
