/// A `caffe.v1.OrderEvent` read in place: each field as a slice of the frame it came in, no
/// message or string made. For the renderer's hot path.
///
/// Only the plain shape of an order is read — every field at most once, no unknown fields, valid
/// UTF-8 — and anything else gives `nil`, so the caller decodes with SwiftProtobuf and gets its
/// exact answer (its error for a malformed body; merging and unknown fields for an odd one).
///
/// ```swift
/// var lines: [OrderEventView.Line] = []
/// lines.reserveCapacity(16)
/// let order = frame.withUnsafeBytes { OrderEventView.read($0, lines: &lines) }
/// ```
public struct OrderEventView: Sendable {
    public typealias Slice = WireReader.Slice

    /// One order line.
    public struct Line: Sendable {
        public var itemID: Slice
        public var size: Slice
        public var quantity: UInt64
    }

    public var orderID = Slice.empty
    public var sourceID = Slice.empty
    public var sequence: UInt64 = 0
    public var placedAt: WireTimestamp?
    public var storeID = Slice.empty
    public var hasCustomer = false
    public var customerID = Slice.empty
    public var name = Slice.empty
    public var locale = Slice.empty
    public var timeZone = Slice.empty
    /// The term of address as its wire number (0 unspecified … 3 neutral; others unrecognized).
    public var termOfAddress: Int32 = 0
    public var currencyCode = Slice.empty
    public var tip = Slice.empty
    public var pickupAt: WireTimestamp?

    /// Reads `body`, appending its lines to `lines` (cleared first; reserve capacity once and no
    /// line allocates). `nil` when the body is not of the plain shape (see the type's discussion).
    public static func read(_ body: UnsafeRawBufferPointer, lines: inout [Line]) -> OrderEventView? {
        lines.removeAll(keepingCapacity: true)
        guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return body.isEmpty ? OrderEventView() : nil
        }
        var reader = WireReader(base: base, from: 0, to: body.count)
        var order = OrderEventView()
        var seen: UInt32 = 0
        while !reader.isAtEnd {
            guard let (number, wireType) = reader.nextField(maximum: 10, seen: &seen, repeated: 8) else { return nil }
            switch (number, wireType) {
            case (3, 0):
                guard let value = reader.readVarint() else { return nil }
                order.sequence = value
            case (1, 2), (2, 2), (5, 2), (7, 2), (9, 2):
                guard let text = reader.readString() else { return nil }
                switch number {
                case 1: order.orderID = text
                case 2: order.sourceID = text
                case 5: order.storeID = text
                case 7: order.currencyCode = text
                default: order.tip = text
                }
            case (_, 2):
                switch number {
                case 4, 10:
                    guard let slice = reader.readSlice(), let time = WireTimestamp.read(reader.nested(slice)) else {
                        return nil
                    }
                    if number == 4 { order.placedAt = time } else { order.pickupAt = time }
                case 6:
                    guard let slice = reader.readSlice(), order.readCustomer(reader.nested(slice)) else { return nil }
                case 8:
                    guard let slice = reader.readSlice(), let line = Self.readLine(reader.nested(slice)) else {
                        return nil
                    }
                    lines.append(line)
                default: return nil
                }
            default: return nil
            }
        }
        return order
    }

    private mutating func readCustomer(_ reader: WireReader) -> Bool {
        var reader = reader
        hasCustomer = true
        var seen: UInt32 = 0
        while !reader.isAtEnd {
            guard let (number, wireType) = reader.nextField(maximum: 5, seen: &seen) else { return false }
            if number == 5 {
                guard wireType == 0, let value = reader.readVarint() else { return false }
                termOfAddress = Int32(truncatingIfNeeded: value)
                continue
            }
            guard wireType == 2, let text = reader.readString() else { return false }
            switch number {
            case 1: customerID = text
            case 2: name = text
            case 3: locale = text
            default: timeZone = text
            }
        }
        return true
    }

    private static func readLine(_ reader: WireReader) -> Line? {
        var reader = reader
        var line = Line(itemID: .empty, size: .empty, quantity: 0)
        var seen: UInt32 = 0
        while !reader.isAtEnd {
            guard let (number, wireType) = reader.nextField(maximum: 3, seen: &seen) else { return nil }
            if number == 3 {
                guard wireType == 0, let value = reader.readVarint() else { return nil }
                line.quantity = value
                continue
            }
            guard wireType == 2, let text = reader.readString() else { return nil }
            if number == 1 { line.itemID = text } else { line.size = text }
        }
        return line
    }
}
