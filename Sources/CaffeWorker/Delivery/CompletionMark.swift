import ZeroMQ

/// The first frame of every message to the publisher: which input sequences are done once the
/// frames after it are sent. One sequence for a rendered event, a range for a gap given up on,
/// nothing for an input that had no readable sequence. Internal to the worker's pipes:
/// 8 bytes lower bound, 8 bytes upper bound (little-endian), then the source id in UTF-8.
struct CompletionMark: Hashable, Sendable {
    var source: String
    var range: ClosedRange<UInt64>

    /// The frame for this mark.
    var frame: ZMQMessage {
        let utf8 = Array(source.utf8)
        guard let message = try? ZMQMessage(count: 16 + utf8.count) else { return ZMQMessage() }
        message.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: range.lowerBound.littleEndian, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: range.upperBound.littleEndian, toByteOffset: 8, as: UInt64.self)
            for (offset, byte) in utf8.enumerated() { bytes[16 + offset] = byte }
        }
        return message
    }

    /// The mark in `frame`; `nil` for the empty frame (nothing to mark) or a frame this type did not write.
    init?(frame: ZMQMessage) {
        guard frame.count >= 16 else { return nil }
        let parts = frame.withUnsafeBytes { bytes in
            (
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                String(decoding: bytes[16...], as: UTF8.self)
            )
        }
        guard parts.0 > 0, parts.0 <= parts.1 else { return nil }
        source = parts.2
        range = parts.0...parts.1
    }

    init(source: String, range: ClosedRange<UInt64>) {
        self.source = source
        self.range = range
    }
}
