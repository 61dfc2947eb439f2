/// A table keyed by source id, in as little memory as a million sources allow: the ids' bytes one
/// after another in one array, a record per source in another, and an open-addressing index of
/// `UInt32` slots. Sources are not removed one by one (an idle one becomes dormant in place), so
/// a record's index is stable and can stand for its source in queues until the owner compacts the
/// table (``compacted(removing:)``) and renumbers its queues.
///
/// A `[String: Record]` dictionary of a million sources took ~150 MB (its buckets half empty at
/// that size, each a 16-byte key and the record); this takes about 70 bytes per source.
package struct SourceTable<Value: Sendable>: Sendable {
    private var keyBytes: [UInt8] = []
    /// Where each key ends in `keyBytes` (it starts where the previous one ended).
    private var keyEnds: [UInt32] = []
    private var hashes: [UInt32] = []
    private var values: [Value] = []
    /// Record index + 1 (0: empty); a power of two at least twice the records.
    private var slots = [UInt32](repeating: 0, count: 16)

    package init() {}

    /// Makes room for `count` sources at once.
    package init(minimumCapacity count: Int) {
        var size = 16
        while size < count * 2 { size *= 2 }
        slots = [UInt32](repeating: 0, count: size)
        values.reserveCapacity(count)
        keyEnds.reserveCapacity(count)
        hashes.reserveCapacity(count)
    }

    package var count: Int { values.count }

    /// The index of `key`'s record.
    package func index(of key: String) -> Int? {
        var key = key
        return key.withUTF8 { find($0).index }
    }

    /// Adds `key` (absent) with `value`; returns its index.
    @discardableResult
    package mutating func append(_ key: String, _ value: Value) -> Int {
        var key = key
        return key.withUTF8 { bytes in
            let (_, slot) = find(bytes)
            keyBytes.append(contentsOf: bytes)
            keyEnds.append(UInt32(keyBytes.count))
            hashes.append(Self.hash(bytes))
            values.append(value)
            slots[slot] = UInt32(values.count)
            if values.count * 2 > slots.count { grow() }
            return values.count - 1
        }
    }

    /// The key of the record at `index`.
    package func key(at index: Int) -> String {
        let start = index == 0 ? 0 : Int(keyEnds[index - 1])
        return String(decoding: keyBytes[start..<Int(keyEnds[index])], as: UTF8.self)
    }

    package subscript(index: Int) -> Value {
        get { values[index] }
        _modify { yield &values[index] }
    }

    /// Every index, in the order the sources were added.
    package var indices: Range<Int> { values.indices }

    /// The table without the records `isRemoved` picks, in the same order, and each kept record's
    /// new index by its old one: how sources leave (a retired run of a source), in one pass
    /// rather than one at a time.
    package func compacted(removing isRemoved: (Int) -> Bool) -> (table: SourceTable, newIndex: [Int?]) {
        var table = SourceTable(minimumCapacity: count)
        var newIndex = [Int?](repeating: nil, count: count)
        for index in indices where !isRemoved(index) {
            newIndex[index] = table.append(key(at: index), values[index])
        }
        return (table, newIndex)
    }

    private func find(_ key: UnsafeBufferPointer<UInt8>) -> (index: Int?, slot: Int) {
        let mask = slots.count - 1
        let hash = Self.hash(key)
        var slot = Int(hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return (nil, slot) }
            let index = Int(entry - 1)
            if hashes[index] == hash, matches(index, key) { return (index, slot) }
            slot = (slot + 1) & mask
        }
    }

    private func matches(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = index == 0 ? 0 : Int(keyEnds[index - 1])
        let end = Int(keyEnds[index])
        guard end - start == key.count else { return false }
        return keyBytes.withUnsafeBufferPointer { stored in
            for offset in 0..<key.count where stored[start + offset] != key[offset] { return false }
            return true
        }
    }

    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(index + 1)
        }
    }

    /// Swift's `Hasher` (SipHash, seeded at random per process): source ids are chosen by whoever
    /// sends, and a hash they could predict would let them pile ids into one probe chain.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }
}
