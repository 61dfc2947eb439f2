import CaffeProtocol

/// A piece of an output text as the wire writer sees it: bytes that stay put (in a
/// ``ConstantArena``, the event's frame or the order's scratch) and the interned attribute set of
/// the run they belong to. Neighbouring spans with the same attributes become one run, as
/// flattening the joined document would make them.
///
/// A span with no bytes and a count of -1 is a hole: per-order text (an amount, a time, a name)
/// goes there, taking the hole's attributes.
struct TextSpan {
    var start: UnsafePointer<UInt8>?
    var count: Int32
    var attribute: AttributeTable.ID

    init(start: UnsafePointer<UInt8>?, count: Int, attribute: AttributeTable.ID) {
        self.start = start
        self.count = Int32(count)
        self.attribute = attribute
    }

    /// Where per-order text goes.
    static func hole(_ attribute: AttributeTable.ID) -> TextSpan {
        TextSpan(start: nil, count: -1, attribute: attribute)
    }

    var isHole: Bool { count < 0 }
}

/// Bytes kept for the life of a render session — the texts every order reuses — in chunks that
/// never move, so a ``TextSpan`` can point into them.
final class ConstantArena {
    private var chunks: [UnsafeMutablePointer<UInt8>] = []
    private var current: UnsafeMutablePointer<UInt8>?
    private var used = 0
    private let chunkSize = 64 * 1024
    /// Bytes taken from the system so far (caches that start over leave their old texts here, so
    /// the session starts a new arena past a limit).
    private(set) var bytesAllocated = 0

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }

    /// A stable copy of `bytes`.
    func store(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return nil }
        if current == nil || used + bytes.count > chunkSize {
            let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: max(chunkSize, bytes.count))
            bytesAllocated += max(chunkSize, bytes.count)
            chunks.append(chunk)
            current = chunk
            used = 0
        }
        guard let current else { return nil }
        let start = current + used
        UnsafeMutableRawPointer(start).copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
        // A chunk bigger than the standard size holds only this text.
        if bytes.count > chunkSize { used = chunkSize }
        return UnsafePointer(start)
    }

    func store(_ text: String) -> (start: UnsafePointer<UInt8>?, count: Int) {
        var text = text
        return text.withUTF8 { (store(UnsafeRawBufferPointer($0)), $0.count) }
    }

    /// A stable copy of `text` as a span.
    func span(_ text: String, _ attribute: AttributeTable.ID) -> TextSpan {
        let (start, count) = store(text)
        return TextSpan(start: start, count: count, attribute: attribute)
    }

    /// Stable bytes of `text`, as a buffer.
    func bytes(_ text: String) -> UnsafeRawBufferPointer {
        let (start, count) = store(text)
        return UnsafeRawBufferPointer(start: start, count: count)
    }
}

/// Per-order bytes — formatted amounts and dates, a customer's name — in one buffer sized before
/// the order is written, so spans into it stay valid until the next order.
final class ScratchBytes {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Empties the buffer and makes sure it holds `capacity` bytes; grows only between orders.
    func reset(capacity needed: Int) {
        used = 0
        guard needed > capacity else { return }
        base.deallocate()
        capacity = max(needed, capacity * 2)
        base = .allocate(capacity: capacity)
    }

    /// Writes through `body` (at most `maximum` bytes) and returns the span of what it wrote, or
    /// `nil` if the order's reserve is spent (the caller then renders the slow way).
    @inline(__always)
    func write(maximum: Int, attribute: AttributeTable.ID, _ body: (UnsafeMutablePointer<UInt8>) -> Int?) -> TextSpan? {
        guard used + maximum <= capacity, let written = body(base + used) else { return nil }
        let span = TextSpan(start: UnsafePointer(base + used), count: written, attribute: attribute)
        used += written
        return span
    }

    /// A copy of `bytes`.
    func copy(_ bytes: UnsafeRawBufferPointer, attribute: AttributeTable.ID) -> TextSpan? {
        write(maximum: bytes.count, attribute: attribute) { output in
            if let source = bytes.baseAddress, bytes.count > 0 {
                UnsafeMutableRawPointer(output).copyMemory(from: source, byteCount: bytes.count)
            }
            return bytes.count
        }
    }

    /// A copy of a string's UTF-8.
    func copy(_ text: String, attribute: AttributeTable.ID) -> TextSpan? {
        var text = text
        return text.withUTF8 { copy(UnsafeRawBufferPointer($0), attribute: attribute) }
    }
}

/// Attribute sets of runs (`["rainbow": "\"fun\""]`), each kept once with its protobuf encoding
/// (the map entries of `AttributedRun.attributes`, keys sorted as SwiftProtobuf writes them), so a
/// run's attributes are one small integer and one copy.
final class AttributeTable {
    typealias ID = UInt32

    /// The empty set.
    static let none: ID = 0

    private var ids: [[String: String]: ID] = [:]
    private var sets: [[String: String]] = []
    /// Per set: its encoded map entries.
    private(set) var encoded: [UnsafeRawBufferPointer] = []
    private let arena: ConstantArena

    init(arena: ConstantArena) {
        self.arena = arena
        _ = id([:])
    }

    /// The set's id, interning it when new.
    func id(_ attributes: [String: String]) -> ID {
        if let known = ids[attributes] { return known }
        let id = ID(truncatingIfNeeded: sets.count)
        var writer = ProtobufWriter(capacity: 64)
        writer.write(2, map: attributes)
        let bytes = writer.bytes
        encoded.append(bytes.withUnsafeBytes { UnsafeRawBufferPointer(start: arena.store($0), count: $0.count) })
        sets.append(attributes)
        ids[attributes] = id
        return id
    }

    /// The attributes of `id`.
    func attributes(_ id: ID) -> [String: String] { sets[Int(id)] }
}
