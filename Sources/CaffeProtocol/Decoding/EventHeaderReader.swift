import SwiftProtobuf

/// Reads a `caffe.v1.EventHeader` straight from its bytes, for the one thread every event passes
/// through: the plain shape only (each field once, map entries key then value, no unknown
/// fields, valid UTF-8), else `nil` and SwiftProtobuf decodes it — so the result is always the
/// message SwiftProtobuf would give, only sooner.
@usableFromInline
enum EventHeaderReader {
    @usableFromInline
    static func read(_ bytes: UnsafeRawBufferPointer) -> Caffe_V1_EventHeader? {
        var header = Caffe_V1_EventHeader()
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return bytes.isEmpty ? header : nil
        }
        var reader = WireReader(base: base, from: 0, to: bytes.count)
        var seen: UInt32 = 0
        while !reader.isAtEnd {
            guard let (number, wireType) = reader.nextField(maximum: 7, seen: &seen, repeated: 6) else { return nil }
            switch (number, wireType) {
            case (1, 2), (2, 2), (4, 2):
                guard let slice = reader.readString() else { return nil }
                let text = string(base, slice)
                switch number {
                case 1: header.bodyType = text
                case 2: header.sourceID = text
                default: header.orderID = text
                }
            case (3, 0), (7, 0):
                guard let value = reader.readVarint() else { return nil }
                if number == 3 { header.sequence = value } else { header.sourceEpoch = value }
            case (5, 2):
                guard let slice = reader.readSlice(), let time = WireTimestamp.read(reader.nested(slice)) else {
                    return nil
                }
                header.sentAt.seconds = time.seconds
                header.sentAt.nanos = time.nanos
            case (6, 2):
                guard let slice = reader.readSlice() else { return nil }
                var entry = reader.nested(slice)
                var key = "", value = ""
                var entrySeen: UInt32 = 0
                while !entry.isAtEnd {
                    guard let (field, type) = entry.nextField(maximum: 2, seen: &entrySeen), type == 2,
                        let text = entry.readString()
                    else { return nil }
                    if field == 1 { key = string(base, text) } else { value = string(base, text) }
                }
                // A later entry with the same key replaces an earlier one, as in SwiftProtobuf.
                header.metadata[key] = value
            default:
                return nil
            }
        }
        return header
    }

    private static func string(_ base: UnsafePointer<UInt8>, _ slice: WireReader.Slice) -> String {
        String(decoding: UnsafeBufferPointer(start: base + Int(slice.offset), count: Int(slice.count)), as: UTF8.self)
    }
}
