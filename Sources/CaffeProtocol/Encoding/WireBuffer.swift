/// A reusable byte buffer that protobuf messages are written into in one pass, the way
/// ``ProtobufWriter`` writes them, without an array per message: a render thread keeps one and
/// clears it per event, so once it has grown to the largest output nothing is allocated.
///
/// Nested messages reserve one length byte and are widened when they reach 128 bytes
/// (``beginMessage(_:)`` / ``endMessage(_:)``), so the bytes equal SwiftProtobuf's encoding.
///
/// Not thread-safe; owned by one thread.
public final class WireBuffer {
    /// The start of the bytes; valid until the buffer grows.
    // One thread owns a buffer, so the per-access exclusivity checks are not needed.
    @exclusivity(unchecked) public private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    @exclusivity(unchecked) public private(set) var count = 0
    /// Bytes the buffer holds before it must grow.
    @exclusivity(unchecked) public private(set) var capacity: Int

    /// A buffer with room for `capacity` bytes before it first grows.
    public init(capacity: Int = 16_384) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Forgets what was written, keeping the memory.
    @inline(__always)
    public func removeAll() { count = 0 }

    /// Makes room for `additional` more bytes.
    @inline(__always)
    public func reserve(_ additional: Int) {
        if count + additional > capacity { grow(to: count + additional) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = newCapacity
    }

    /// The bytes from `start` to the end, as a buffer (valid until the next write).
    public func bytes(from start: Int, to end: Int? = nil) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + start, count: (end ?? count) - start)
    }

    // MARK: Raw bytes

    /// Appends one byte.
    @inline(__always)
    public func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `length` bytes from `bytes`.
    @inline(__always)
    public func append(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        guard length > 0 else { return }
        reserve(length)
        (base + count).update(from: bytes, count: length)
        count += length
    }

    /// Appends the bytes of `bytes`.
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        append(start.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    /// Appends fixed text (markup a writer puts between values).
    @inline(__always)
    public func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends a string's UTF-8.
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Writes up to `maximum` bytes through `body`, which returns how many it wrote.
    @inline(__always)
    public func write(maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        count += body(base + count)
    }

    // MARK: Protobuf

    /// Appends `value` as a base-128 varint.
    @inline(__always)
    public func appendVarint(_ value: UInt64) {
        reserve(10)
        count += Self.writeVarint(value, to: base + count)
    }

    /// Writes `value` as a base-128 varint at `output`; its length.
    @inline(__always)
    static func writeVarint(_ value: UInt64, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var value = value
        var written = 0
        while value >= 0x80 {
            output[written] = UInt8(truncatingIfNeeded: value) | 0x80
            written += 1
            value >>= 7
        }
        output[written] = UInt8(value)
        return written + 1
    }

    /// The key of field `number` with wire type 0 (varint) or 2 (length-delimited).
    @inline(__always)
    public func appendKey(_ number: Int, wireType: UInt8) {
        appendVarint(UInt64(number) << 3 | UInt64(wireType))
    }

    /// A length-delimited field holding `bytes`, written even when empty.
    @inline(__always)
    public func appendField(_ number: Int, _ bytes: UnsafePointer<UInt8>, count length: Int) {
        appendKey(number, wireType: 2)
        appendVarint(UInt64(length))
        append(bytes, count: length)
    }

    /// A `string` field, omitted when empty (proto3).
    public func appendString(_ number: Int, _ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        appendField(number, start.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    /// A `string` field from a `String`, omitted when empty.
    public func appendString(_ number: Int, _ text: String) {
        var text = text
        text.withUTF8 { appendString(number, UnsafeRawBufferPointer($0)) }
    }

    /// A `uint64` field, omitted when zero.
    @inline(__always)
    public func appendUInt64(_ number: Int, _ value: UInt64) {
        guard value != 0 else { return }
        appendKey(number, wireType: 0)
        appendVarint(value)
    }

    /// Opens a nested message field: writes its key and reserves one length byte. Returns where the
    /// length goes, for ``endMessage(_:)``.
    @inline(__always)
    public func beginMessage(_ number: Int) -> Int {
        appendKey(number, wireType: 2)
        reserve(1)
        count += 1
        return count - 1
    }

    /// Closes the message opened at `lengthAt`, widening its length when it is 128 bytes or more.
    @inline(__always)
    public func endMessage(_ lengthAt: Int) {
        let length = count - lengthAt - 1
        if length < 0x80 {
            base[lengthAt] = UInt8(truncatingIfNeeded: length)
            return
        }
        widen(lengthAt, length: length)
    }

    private func widen(_ lengthAt: Int, length: Int) {
        let size = Self.varintSize(UInt64(length))
        reserve(size - 1)
        let body = base + lengthAt + 1
        // Overlapping regions: a memmove.
        UnsafeMutableRawPointer(body + size - 1).copyMemory(from: body, byteCount: length)
        _ = Self.writeVarint(UInt64(length), to: base + lengthAt)
        count += size - 1
    }

    /// The number of bytes `value` takes as a varint.
    @inline(__always)
    public static func varintSize(_ value: UInt64) -> Int {
        var size = 1
        var rest = value >> 7
        while rest > 0 {
            size += 1
            rest >>= 7
        }
        return size
    }
}
