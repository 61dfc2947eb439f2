/// A `caffe.v1.ComplicationRequest` read in place, like ``OrderEventView``: the plain shape only
/// (each field once, no unknown fields, valid UTF-8), else `nil` and SwiftProtobuf decodes it.
public struct ComplicationRequestView: Sendable {
    public typealias Slice = WireReader.Slice

    public var requestID = Slice.empty
    public var userID = Slice.empty
    public var locale = Slice.empty
    public var timeZone = Slice.empty
    public var hourCycle = Slice.empty
    public var nextFreeCoffee: WireTimestamp?

    /// Reads `body`, appending the requested families' wire numbers to `families` (cleared first;
    /// packed or not, as protobuf allows).
    public static func read(_ body: UnsafeRawBufferPointer, families: inout [Int32]) -> ComplicationRequestView? {
        families.removeAll(keepingCapacity: true)
        guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return body.isEmpty ? ComplicationRequestView() : nil
        }
        var reader = WireReader(base: base, from: 0, to: body.count)
        var request = ComplicationRequestView()
        var seen: UInt32 = 0
        while !reader.isAtEnd {
            guard let (number, wireType) = reader.nextField(maximum: 7, seen: &seen, repeated: 7) else { return nil }
            switch (number, wireType) {
            case (1...5, 2):
                guard let text = reader.readString() else { return nil }
                switch number {
                case 1: request.requestID = text
                case 2: request.userID = text
                case 3: request.locale = text
                case 4: request.timeZone = text
                default: request.hourCycle = text
                }
            case (6, 2):
                guard let slice = reader.readSlice(), let time = WireTimestamp.read(reader.nested(slice)) else {
                    return nil
                }
                request.nextFreeCoffee = time
            case (7, 0):
                guard let value = reader.readVarint() else { return nil }
                families.append(Int32(truncatingIfNeeded: value))
            case (7, 2):
                guard let slice = reader.readSlice() else { return nil }
                var packed = reader.nested(slice)
                while !packed.isAtEnd {
                    guard let value = packed.readVarint() else { return nil }
                    families.append(Int32(truncatingIfNeeded: value))
                }
            default: return nil
            }
        }
        return request
    }
}
