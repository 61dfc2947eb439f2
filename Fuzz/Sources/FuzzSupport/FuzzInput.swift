import FoundationEssentials

/// One input from libFuzzer, read as a whole or piece by piece.
///
/// The piecewise readers never fail: past the end they return zero bytes, so every input means
/// something and mutations of a seed stay close to it. Multipart messages use a layout of their
/// own (``frames(limit:)``), which ``encode(options:frames:)`` writes for the seed corpora.
public struct FuzzInput {
    /// Every byte of the input.
    public let bytes: [UInt8]
    /// Where the piecewise readers are.
    public private(set) var offset = 0

    public init(_ buffer: UnsafeRawBufferPointer) {
        bytes = Array(buffer)
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The whole input as text (invalid UTF-8 becomes U+FFFD, as when a file is read).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The whole input as `Data`.
    public var data: Data { Data(bytes) }

    /// The bytes not read yet.
    public var rest: ArraySlice<UInt8> { bytes[offset...] }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next protobuf-style varint (7 bits a byte, low first, at most 10 bytes).
    public mutating func varint() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            let byte = byte()
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte < 0x80 { break }
        }
        return value
    }

    /// The rest of the input as frames: each a varint length, then that many bytes (fewer when
    /// the input ends first). At most `limit` frames; the last takes whatever is left.
    public mutating func frames(limit: Int = 32) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        while offset < bytes.count {
            if frames.count == limit - 1 {
                frames.append(Array(rest))
                offset = bytes.count
                break
            }
            let length = min(varint(), UInt64(bytes.count - offset))
            let end = offset + Int(length)
            frames.append(Array(bytes[offset..<end]))
            offset = end
        }
        return frames
    }

    /// An input in the layout the wire fuzzers read: one options byte, then ``frames(limit:)``.
    public static func encode(options: UInt8, frames: [[UInt8]]) -> [UInt8] {
        var bytes = [options]
        for frame in frames {
            var length = UInt64(frame.count)
            while length >= 0x80 {
                bytes.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes += frame
        }
        return bytes
    }
}
