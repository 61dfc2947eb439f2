/// A hash table keyed by byte strings, looked up with bytes straight from an event's frame: no
/// `String` made, no allocation per lookup. Keys are copied in once, when inserted.
///
/// FNV-1a over the bytes and a tag (a small number that splits one table into several, such as a
/// term of address), open addressing with linear probing; it starts over when it reaches
/// `capacity` entries, as the core's other caches do.
final class ByteKeyedTable<Value> {
    private struct Slot {
        var hash: UInt64
        var keyStart: Int
        var keyCount: Int
        var tag: UInt8
        var value: Int
    }

    private var slots: [Slot?]
    private var keys: [UInt8] = []
    private var values: [Value] = []
    private let capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = capacity
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: nil, count: size)
        keys.reserveCapacity(capacity * 16)
        values.reserveCapacity(capacity)
    }

    var count: Int { values.count }

    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, tag: UInt8) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(tag)
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The value stored for `key` and `tag`.
    @inline(__always)
    func value(_ key: UnsafeRawBufferPointer, tag: UInt8 = 0) -> Value? {
        let hash = Self.hash(key, tag: tag)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while let slot = slots[index] {
            if slot.hash == hash, slot.tag == tag, slot.keyCount == key.count, matches(slot, key) {
                return values[slot.value]
            }
            index = (index + 1) & mask
        }
        return nil
    }

    private func matches(_ slot: Slot, _ key: UnsafeRawBufferPointer) -> Bool {
        keys.withUnsafeBufferPointer { stored in
            for offset in 0..<slot.keyCount where stored[slot.keyStart + offset] != key[offset] { return false }
            return true
        }
    }

    /// Stores `value` for `key` and `tag` (a key already present keeps its first value).
    func insert(_ value: Value, for key: UnsafeRawBufferPointer, tag: UInt8 = 0) {
        if self.value(key, tag: tag) != nil { return }
        if values.count >= capacity { removeAll() }
        let hash = Self.hash(key, tag: tag)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index] != nil { index = (index + 1) & mask }
        slots[index] = Slot(hash: hash, keyStart: keys.count, keyCount: key.count, tag: tag, value: values.count)
        keys.append(contentsOf: key)
        values.append(value)
    }

    /// Stores `value` for the UTF-8 of `key`.
    func insert(_ value: Value, for key: String, tag: UInt8 = 0) {
        var key = key
        key.withUTF8 { insert(value, for: UnsafeRawBufferPointer($0), tag: tag) }
    }

    func removeAll() {
        for index in slots.indices { slots[index] = nil }
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }
}
