import FoundationEssentials

/// Writes protobuf binary encoding in a single pass.
///
/// SwiftProtobuf sizes every nested message before writing it, and sizes it again inside each
/// enclosing message's size, so a run inside a line inside a receipt is measured four times. This
/// writer instead reserves one byte for a nested message's length, writes the message, and widens
/// the prefix afterwards in the rare case the message reached 128 bytes.
///
/// Fields follow proto3 presence rules, as SwiftProtobuf's own encoder does: scalars equal to their
/// default are omitted, singular message fields are written when set, map entries always carry key
/// and value, and map keys are written in sorted order (SwiftProtobuf's deterministic ordering),
/// so equal messages encode to equal bytes.
public struct ProtobufWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// A writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends `value` as a base-128 varint.
    public mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Appends the key of field `number` with its wire type (0: varint, 2: length-delimited).
    public mutating func writeKey(_ number: Int, wireType: UInt8) {
        writeVarint(UInt64(number) << 3 | UInt64(wireType))
    }

    /// Writes a `string` field, omitted when empty.
    public mutating func write(_ number: Int, string value: String) {
        guard !value.isEmpty else { return }
        writeString(number, value)
    }

    /// Writes a `string` field even when empty, as map entries need.
    public mutating func writeString(_ number: Int, _ value: String) {
        writeKey(number, wireType: 2)
        let utf8 = value.utf8
        writeVarint(UInt64(utf8.count))
        if utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: utf8)
        }
    }

    /// Writes a `uint64` field, omitted when zero.
    public mutating func write(_ number: Int, uint64 value: UInt64) {
        guard value != 0 else { return }
        writeKey(number, wireType: 0)
        writeVarint(value)
    }

    /// Writes an `int64` field, omitted when zero; negative values take ten bytes, as on the wire.
    public mutating func write(_ number: Int, int64 value: Int64) {
        write(number, uint64: UInt64(bitPattern: value))
    }

    /// Writes an `int32` or enum field, omitted when zero; negative values are sign-extended.
    public mutating func write(_ number: Int, int32 value: Int32) {
        write(number, uint64: UInt64(bitPattern: Int64(value)))
    }

    /// Writes a `map<string, string>` field, one entry per key in sorted order.
    public mutating func write(_ number: Int, map: [String: String]) {
        if map.count <= 1 {
            for (key, value) in map { writeMapEntry(number, key: key, value: value) }
        } else {
            for (key, value) in map.sorted(by: { $0.key < $1.key }) {
                writeMapEntry(number, key: key, value: value)
            }
        }
    }

    private mutating func writeMapEntry(_ number: Int, key: String, value: String) {
        writeMessage(number) { entry in
            entry.writeString(1, key)
            entry.writeString(2, value)
        }
    }

    /// Writes a length-delimited nested message whose fields `body` writes.
    public mutating func writeMessage(_ number: Int, _ body: (inout ProtobufWriter) -> Void) {
        writeKey(number, wireType: 2)
        let lengthAt = bytes.count
        bytes.append(0)
        body(&self)
        closeMessage(lengthAt: lengthAt)
    }

    /// Writes a nested message.
    public mutating func write(_ number: Int, message: some SinglePassEncodable) {
        writeMessage(number) { message.encode(to: &$0) }
    }

    /// Writes a singular message field when it is set.
    public mutating func write(_ number: Int, message: some SinglePassEncodable, if isSet: Bool) {
        guard isSet else { return }
        write(number, message: message)
    }

    /// Writes each element of a repeated message field.
    public mutating func write(_ number: Int, messages: [some SinglePassEncodable]) {
        for message in messages { write(number, message: message) }
    }

    /// Appends already-encoded fields (a message's unknown fields) as they are.
    public mutating func writeRaw(_ data: Data) {
        guard !data.isEmpty else { return }
        bytes.append(contentsOf: data)
    }

    /// Fills in the length byte reserved at `lengthAt`, widening it when the message is 128 bytes
    /// or longer.
    mutating func closeMessage(lengthAt: Int) {
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
            return
        }
        // Write the varint after the body, then move it over the reserved byte.
        let end = bytes.count
        writeVarint(UInt64(length))
        let prefix = Array(bytes[end...])  // a copy, so the buffer stays uniquely held
        bytes.removeSubrange(end...)
        bytes.replaceSubrange(lengthAt..<(lengthAt + 1), with: prefix)
    }
}

/// A message CaffeProtocol encodes with ``ProtobufWriter``: the worker's outputs and everything
/// they contain. The bytes decode with SwiftProtobuf to an equal message.
public protocol SinglePassEncodable {
    /// Writes the message's fields (not its own key or length).
    func encode(to writer: inout ProtobufWriter)
}

extension SinglePassEncodable {
    /// The message's binary encoding.
    public func singlePassBytes(capacity: Int = 256) -> [UInt8] {
        var writer = ProtobufWriter(capacity: capacity)
        encode(to: &writer)
        return writer.bytes
    }
}
