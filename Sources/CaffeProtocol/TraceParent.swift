/// A W3C Trace Context `traceparent` (Trace Context Level 1, W3C Recommendation of 23 November
/// 2021, §3.2): the trace an event belongs to, the span that sent it, and the trace flags.
///
/// Sources put it in the event header's metadata under ``metadataKey``; the worker copies it into
/// every output and dead letter, and, when it exports spans, replaces the parent id with its own
/// span's (§3.5, "update parent-id"), so a consumer's span hangs under the worker's.
///
/// ```swift
/// let parent = TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
/// parent?.isSampled                       // true
/// parent?.child(spanID: 0x1122).description // "00-4bf92f…4736-0000000000001122-01"
/// ```
public struct TraceParent: Hashable, Sendable, CustomStringConvertible {
    /// The metadata key (and HTTP header name) the value travels under.
    public static let metadataKey = "traceparent"

    /// The trace id's high and low 64 bits; never both zero.
    public let traceIDHigh: UInt64
    public let traceIDLow: UInt64
    /// The id of the span that sent the event; never zero.
    public let parentID: UInt64
    /// The trace flags; bit 0 is *sampled*.
    public let flags: UInt8

    /// A trace context from its parts; `nil` when the trace id or the parent id is all zeros.
    public init?(traceIDHigh: UInt64, traceIDLow: UInt64, parentID: UInt64, flags: UInt8) {
        guard traceIDHigh | traceIDLow != 0, parentID != 0 else { return nil }
        self.init(checked: (traceIDHigh, traceIDLow), parentID: parentID, flags: flags)
    }

    private init(checked traceID: (high: UInt64, low: UInt64), parentID: UInt64, flags: UInt8) {
        traceIDHigh = traceID.high
        traceIDLow = traceID.low
        self.parentID = parentID
        self.flags = flags
    }

    /// Reads a `traceparent` value; `nil` for anything §3.2 makes invalid: a version other than
    /// two lowercase hex digits or `ff`, a version-00 value that is not exactly 55 characters, a
    /// later version whose 56th character is not `-`, fields that are not lowercase hex of their
    /// length, an all-zero trace id or parent id.
    public init?(_ text: String?) {
        guard var value = text else { return nil }
        let parsed = value.withUTF8 { bytes -> TraceParent? in
            guard bytes.count >= 55, let version = Self.hex(bytes, 0, 2), version != 0xff,
                bytes[2] == 0x2d, bytes[35] == 0x2d, bytes[52] == 0x2d
            else { return nil }
            // Version 00 is exactly 55 characters; a later version may append fields after a dash.
            if version == 0 ? bytes.count != 55 : bytes.count > 55 && bytes[55] != 0x2d { return nil }
            guard let high = Self.hex(bytes, 3, 16), let low = Self.hex(bytes, 19, 16),
                let parent = Self.hex(bytes, 36, 16), let flags = Self.hex(bytes, 53, 2)
            else { return nil }
            return TraceParent(traceIDHigh: high, traceIDLow: low, parentID: parent, flags: UInt8(flags))
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Whether the sender recorded its span and asks the receiver to record too (flag bit 0).
    public var isSampled: Bool { flags & 1 == 1 }

    /// The trace id as 32 lowercase hex digits.
    public var traceID: String { Self.hexString(traceIDHigh) + Self.hexString(traceIDLow) }

    /// The parent id as 16 lowercase hex digits.
    public var parentIDString: String { Self.hexString(parentID) }

    /// The same trace with `spanID` as the parent: what a span of this process sends on. The
    /// version written is always 00, and of the flags only *sampled* is kept: version 00 defines no
    /// other, and §3.2.2.5 has vendors set the others to zero.
    public func child(spanID: UInt64) -> TraceParent {
        TraceParent(checked: (traceIDHigh, traceIDLow), parentID: spanID == 0 ? 1 : spanID, flags: flags & 1)
    }

    /// `00-<trace id>-<parent id>-<flags>`.
    public var description: String {
        String(unsafeUninitializedCapacity: 55) { buffer in
            func put(_ value: UInt64, digits: Int, at offset: Int) {
                for index in 0..<digits {
                    buffer[offset + index] = Self.hexDigits[Int((value >> UInt64(4 * (digits - 1 - index))) & 15)]
                }
            }
            buffer[0] = 0x30
            buffer[1] = 0x30
            buffer[2] = 0x2d
            put(traceIDHigh, digits: 16, at: 3)
            put(traceIDLow, digits: 16, at: 19)
            buffer[35] = 0x2d
            put(parentID, digits: 16, at: 36)
            buffer[52] = 0x2d
            put(UInt64(flags), digits: 2, at: 53)
            return 55
        }
    }

    /// The value of `count` lowercase hex digits at `offset`; `nil` if any is not one.
    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> UInt64? {
        var value: UInt64 = 0
        var invalid: UInt8 = 0
        for index in offset..<(offset + count) {
            let digit = digitValues[Int(bytes[index])]
            invalid |= digit
            value = value << 4 | UInt64(digit & 15)
        }
        return invalid & 0x80 == 0 ? value : nil
    }

    /// Each byte's value as a lowercase hex digit, or 0x80 for anything else.
    private static let digitValues: [UInt8] = (0...255).map { byte in
        switch byte {
        case 0x30...0x39: UInt8(byte - 0x30)
        case 0x61...0x66: UInt8(byte - 0x61 + 10)
        default: 0x80
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `value` as `digits` lowercase hex digits, zero-padded (a span id: 16).
    public static func hexString(_ value: UInt64, digits: Int = 16) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
