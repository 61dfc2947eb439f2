/// Reads protobuf binary fields in place, for the views that let a renderer use an event's fields
/// straight from its frame (``OrderEventView``, ``ComplicationRequestView``).
///
/// Every read returns `nil` rather than guessing on input it does not expect (a truncated varint,
/// a length past the end, a wire type the field does not have); the views then give up and the
/// caller decodes with SwiftProtobuf, whose error says what is wrong.
public struct WireReader {
    /// A field's bytes inside the frame: where they start and how many.
    public struct Slice: Hashable, Sendable {
        public var offset: Int32
        public var count: Int32

        public static let empty = Slice(offset: 0, count: 0)

        public var isEmpty: Bool { count == 0 }

        /// The slice's bytes in the message starting at `base`.
        public func buffer(in base: UnsafeRawPointer) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: (base + Int(offset)).assumingMemoryBound(to: UInt8.self), count: Int(count))
        }
    }

    let base: UnsafePointer<UInt8>
    private(set) var position: Int
    let end: Int

    init(base: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        self.base = base
        position = start
        self.end = end
    }

    var isAtEnd: Bool { position >= end }

    @inline(__always)
    mutating func readVarint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < end, shift < 64 {
            let byte = base[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                // The tenth byte may only carry the top bit.
                if shift == 63, byte > 1 { return nil }
                return result
            }
            shift += 7
        }
        return nil
    }

    /// The next field's number and wire type.
    @inline(__always)
    mutating func readKey() -> (number: Int, wireType: UInt8)? {
        guard let key = readVarint(), key >> 3 > 0, key >> 3 <= 536_870_911 else { return nil }
        return (Int(key >> 3), UInt8(key & 7))
    }

    /// The next field of a message whose fields are numbered 1...`maximum`, each at most once but
    /// for `repeated` (0: none): `nil` for anything else, a field seen twice included (merging or
    /// replacing it is SwiftProtobuf's job).
    @inline(__always)
    mutating func nextField(maximum: Int, seen: inout UInt32, repeated: Int = 0) -> (number: Int, wireType: UInt8)? {
        guard let (number, wireType) = readKey(), number <= maximum else { return nil }
        if number != repeated {
            guard seen & (1 << number) == 0 else { return nil }
            seen |= 1 << number
        }
        return (number, wireType)
    }

    /// A length-delimited field's bytes.
    @inline(__always)
    mutating func readSlice() -> Slice? {
        guard let length = readVarint(), length <= UInt64(end - position) else { return nil }
        let slice = Slice(offset: Int32(position), count: Int32(length))
        position += Int(length)
        return slice
    }

    /// A `string` field: its bytes, which must be valid UTF-8 (SwiftProtobuf refuses others).
    @inline(__always)
    mutating func readString() -> Slice? {
        guard let slice = readSlice(), Self.isValidUTF8(base + Int(slice.offset), count: Int(slice.count)) else {
            return nil
        }
        return slice
    }

    /// A reader over a nested message's bytes.
    func nested(_ slice: Slice) -> WireReader {
        WireReader(base: base, from: Int(slice.offset), to: Int(slice.offset + slice.count))
    }

    /// Whether `count` bytes at `start` are well-formed UTF-8: no overlong forms, surrogates or
    /// scalars past U+10FFFF.
    public static func isValidUTF8(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        var index = 0
        while index < count {
            let lead = start[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var minimum: UInt32
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF:
                length = 2
                minimum = 0x80
                scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF:
                length = 3
                minimum = 0x800
                scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4:
                length = 4
                minimum = 0x10000
                scalar = UInt32(lead & 0x07)
            default: return false
            }
            guard index + length <= count else { return false }
            for offset in 1..<length {
                let byte = start[index + offset]
                guard byte & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
            index += length
        }
        return true
    }
}

/// A `google.protobuf.Timestamp` as its two fields.
public struct WireTimestamp: Hashable, Sendable {
    public var seconds: Int64
    public var nanos: Int32

    /// A timestamp of `seconds` since 1970 (UTC) and `nanos` more.
    public init(seconds: Int64, nanos: Int32) {
        self.seconds = seconds
        self.nanos = nanos
    }

    /// Reads a Timestamp message; `nil` for anything but its two varint fields, each at most once.
    static func read(_ reader: WireReader) -> WireTimestamp? {
        var reader = reader
        var timestamp = WireTimestamp(seconds: 0, nanos: 0)
        var seen: UInt32 = 0
        while !reader.isAtEnd {
            guard let (number, wireType) = reader.nextField(maximum: 2, seen: &seen), wireType == 0,
                let value = reader.readVarint()
            else { return nil }
            if number == 1 {
                timestamp.seconds = Int64(bitPattern: value)
            } else {
                timestamp.nanos = Int32(truncatingIfNeeded: value)
            }
        }
        return timestamp
    }
}
