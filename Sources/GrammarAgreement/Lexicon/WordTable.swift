/// A read-mostly hash table keyed by words, hashing their UTF-8 bytes with FNV-1a and probing
/// linearly: lookups cost a few dozen nanoseconds, without `Hasher`'s seeding and Unicode
/// normalisation. Words are NFC, so equal words have equal bytes.
struct WordTable<Value: Sendable>: Sendable {
    private var keys: [String] = []
    /// Every key's UTF-8 bytes, one after another; key `i` is `keyBytes[keyStarts[i]..<keyStarts[i + 1]]`.
    /// Probes compare these bytes directly, which also serves keys given as a slice of a longer word.
    private var keyBytes: [UInt8] = []
    private var keyStarts: [Int] = [0]
    private var hashes: [UInt64] = []
    private var values: [Value] = []
    /// Indices into `keys`, or -1; the count is a power of two at least twice the keys.
    private var slots: [Int32] = Array(repeating: -1, count: 16)

    init() {}

    init(_ pairs: some Sequence<(String, Value)>) {
        for (key, value) in pairs { self[key] = value }
    }

    var count: Int { keys.count }

    /// All keys, in insertion order.
    var allKeys: [String] { keys }

    subscript(key: String) -> Value? {
        get {
            guard let index = Self.withBytes(of: key, { find($0).index }) else { return nil }
            return values[index]
        }
        set {
            let (found, slot) = Self.withBytes(of: key) { find($0) }
            if let found {
                if let newValue { values[found] = newValue }
                return  // removal is not needed by lexicons
            }
            guard let newValue else { return }
            keys.append(key)
            keyBytes.append(contentsOf: key.utf8)
            keyStarts.append(keyBytes.count)
            hashes.append(Self.withBytes(of: key) { Self.hash($0) })
            values.append(newValue)
            slots[slot] = Int32(keys.count - 1)
            if keys.count * 2 > slots.count { grow() }
        }
    }

    /// The value for a key given as UTF-8 bytes, such as the last part of a compound, found without
    /// making a `String` of it.
    subscript(utf8 key: UnsafeBufferPointer<UInt8>) -> Value? {
        find(key).index.map { values[$0] }
    }

    func contains(_ key: String) -> Bool { Self.withBytes(of: key) { find($0).index } != nil }

    /// The key's index, or the empty slot where it would go.
    private func find(_ key: UnsafeBufferPointer<UInt8>) -> (index: Int?, slot: Int) {
        let mask = slots.count - 1
        let hash = Self.hash(key)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return (nil, slot) }
            // Compare the stored hash first: most probes end there without touching the bytes.
            if hashes[index] == hash, hasKey(index, equalTo: key) { return (index, slot) }
            slot = (slot + 1) & mask
        }
    }

    private func hasKey(_ index: Int, equalTo key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = keyStarts[index]
        guard keyStarts[index + 1] - start == key.count else { return false }
        return keyBytes.withUnsafeBufferPointer { stored in
            for offset in 0..<key.count where stored[start + offset] != key[offset] { return false }
            return true
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    @inline(__always)
    private static func withBytes<Result>(of key: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var key = key
        return key.withUTF8(body)
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash ^ (hash >> 29)
    }
}

extension WordTable: ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }
}

/// A set of words with ``WordTable``'s lookups.
struct WordSet: Sendable, ExpressibleByArrayLiteral {
    private var table = WordTable<Bool>()

    init(_ words: some Sequence<String>) {
        for word in words { table[word] = true }
    }

    init(arrayLiteral elements: String...) {
        self.init(elements)
    }

    func contains(_ word: String) -> Bool { table.contains(word) }

    /// Whether the set has the word whose UTF-8 bytes are `word`.
    func contains(utf8 word: UnsafeBufferPointer<UInt8>) -> Bool { table[utf8: word] != nil }

    /// The words, in insertion order.
    var words: [String] { table.allKeys }
}
