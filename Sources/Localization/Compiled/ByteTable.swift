/// Immutable bytes a compiled format copies from: every literal, affix, digit and name it writes,
/// end to end in one allocation, each known by its ``Piece``. Copying a piece is a `memcpy`.
///
/// Made once by ``Builder`` and never changed, so it is safe to share across threads.
public final class ByteTable: @unchecked Sendable {
    /// Where one text sits in the table.
    public struct Piece: Hashable, Sendable {
        public let offset: Int32
        public let count: Int32

        /// The empty piece.
        public static let empty = Piece(offset: 0, count: 0)
    }

    /// Collects texts, each once, and makes the table.
    public struct Builder {
        private var bytes: [UInt8] = []
        private var known: [[UInt8]: Piece] = [:]

        /// An empty builder.
        public init() {}

        /// The piece holding `text`, added unless an equal text is already there.
        public mutating func add(_ text: [UInt8]) -> Piece {
            if text.isEmpty { return .empty }
            if let piece = known[text] { return piece }
            let piece = Piece(offset: Int32(bytes.count), count: Int32(text.count))
            bytes += text
            known[text] = piece
            return piece
        }

        /// The piece holding `text`'s UTF-8.
        public mutating func add(_ text: String) -> Piece { add(Array(text.utf8)) }

        /// The table of everything added.
        public func build() -> ByteTable { ByteTable(bytes) }
    }

    /// The bytes.
    public let base: UnsafeMutablePointer<UInt8>
    public let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        base = .allocate(capacity: max(bytes.count, 1))
        base.initialize(repeating: 0, count: max(bytes.count, 1))
        bytes.withUnsafeBufferPointer { source in
            if let from = source.baseAddress { base.update(from: from, count: source.count) }
        }
    }

    deinit { base.deallocate() }

    /// Copies `piece` to `output`; returns its length.
    @inline(__always)
    public func copy(_ piece: Piece, to output: UnsafeMutablePointer<UInt8>) -> Int {
        let count = Int(piece.count)
        output.update(from: base + Int(piece.offset), count: count)
        return count
    }

    /// The piece's bytes as a buffer (valid while the table lives).
    public func bytes(_ piece: Piece) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + Int(piece.offset), count: Int(piece.count))
    }

    /// The piece as text.
    public func string(_ piece: Piece) -> String {
        String(decoding: bytes(piece), as: UTF8.self)
    }
}
