import CaffeProtocol
import CaffeTestKit
import Foundation
import SwiftProtobuf
import Testing

/// The in-place views read exactly what SwiftProtobuf decodes, and give up (for SwiftProtobuf to
/// answer) on everything outside the plain shape; the reusable buffer writes ProtobufWriter's bytes.
@Suite("Wire views and buffer")
struct WireViewTests {
    static func order() -> Caffe_V1_OrderEvent {
        var order = Caffe_V1_OrderEvent()
        order.orderID = "A-1"
        order.sourceID = "pos-ñ"
        order.sequence = 300
        order.placedAt = Google_Protobuf_Timestamp(seconds: -5, nanos: 7)
        order.pickupAt = Google_Protobuf_Timestamp(seconds: 1_795_000_000, nanos: 0)
        order.storeID = "s"
        order.customer.customerID = "c"
        order.customer.name = "مريم"
        order.customer.locale = "ar-EG"
        order.customer.timeZone = "Africa/Cairo"
        order.customer.termOfAddress = .neutral
        order.currencyCode = "EGP"
        order.tip = "1.50"
        for quantity in [0, 1, 129] {
            var line = Caffe_V1_OrderLine()
            line.itemID = "item-\(quantity)"
            line.size = "large"
            line.quantity = UInt64(quantity)
            order.lines.append(line)
        }
        return order
    }

    @Test func orderFieldsAreTheDecodedOnes() throws {
        let order = Self.order()
        let body = try order.serializedBytes() as [UInt8]
        var lines: [OrderEventView.Line] = []
        let view = try #require(body.withUnsafeBytes { OrderEventView.read($0, lines: &lines) })
        func text(_ slice: WireReader.Slice) -> String {
            String(decoding: body[Int(slice.offset)..<Int(slice.offset + slice.count)], as: UTF8.self)
        }
        #expect(text(view.orderID) == order.orderID && text(view.sourceID) == order.sourceID)
        #expect(view.sequence == 300 && view.placedAt == WireTimestamp(seconds: -5, nanos: 7))
        #expect(view.pickupAt == WireTimestamp(seconds: 1_795_000_000, nanos: 0))
        #expect(text(view.name) == "مريم" && text(view.locale) == "ar-EG" && text(view.timeZone) == "Africa/Cairo")
        #expect(view.termOfAddress == 3 && text(view.currencyCode) == "EGP" && text(view.tip) == "1.50")
        #expect(lines.map { text($0.itemID) } == order.lines.map(\.itemID))
        #expect(lines.map(\.quantity) == [0, 1, 129])
    }

    @Test func anythingUnusualIsLeftToSwiftProtobuf() throws {
        var lines: [OrderEventView.Line] = []
        // Field 99, varint 1, after a valid order.
        let unknown = try Self.order().serializedBytes() + [0x98, 0x06, 0x01] as [UInt8]
        let cases: [(String, [UInt8])] = [
            ("unknown field", unknown),
            ("invalid UTF-8", [0x0A, 0x02, 0xC3, 0x28]),
            ("a field twice", [0x0A, 0x01, 0x61, 0x0A, 0x01, 0x62]),
            ("a length past the end", [0x0A, 0x05, 0x61]),
            ("a group", [0x0B]),
        ]
        for (name, body) in cases {
            #expect(body.withUnsafeBytes { OrderEventView.read($0, lines: &lines) } == nil, "\(name)")
        }
        // Every truncation of a valid order either reads as what SwiftProtobuf decodes or not at all.
        let body = try Self.order().serializedBytes() as [UInt8]
        for end in 0..<body.count {
            let prefix = Array(body[..<end])
            guard let view = prefix.withUnsafeBytes({ OrderEventView.read($0, lines: &lines) }) else { continue }
            let decoded = try Caffe_V1_OrderEvent(serializedBytes: prefix)
            #expect(view.sequence == decoded.sequence && lines.count == decoded.lines.count, "\(end)")
        }
    }

    @Test func complicationFamiliesPackedOrNot() throws {
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "r"
        request.families = [.circularSmall, .graphicCorner, .UNRECOGNIZED(99)]
        let packed = try request.serializedBytes() as [UInt8]
        var families: [Int32] = []
        #expect(packed.withUnsafeBytes { ComplicationRequestView.read($0, families: &families) } != nil)
        #expect(families == [5, 6, 99])
        // The same families one varint field each, as older writers send them.
        let unpacked: [UInt8] = [0x0A, 0x01, 0x72, 0x38, 0x05, 0x38, 0x06]
        #expect(unpacked.withUnsafeBytes { ComplicationRequestView.read($0, families: &families) } != nil)
        #expect(families == [5, 6])
        #expect(
            try Caffe_V1_ComplicationRequest(serializedBytes: unpacked).families == [.circularSmall, .graphicCorner]
        )
    }

    @Test func bufferWritesWhatProtobufWriterWrites() {
        for size in [0, 1, 126, 127, 128, 129, 16_383, 16_384, 16_385, 70_000] {
            let buffer = WireBuffer(capacity: 64)
            var writer = ProtobufWriter()
            let body = [UInt8](repeating: 0x61, count: size)
            let message = buffer.beginMessage(5)
            buffer.appendString(1, body.withUnsafeBytes { $0 })
            buffer.appendUInt64(2, UInt64(size))
            buffer.endMessage(message)
            writer.writeMessage(5) { nested in
                nested.write(1, string: String(decoding: body, as: UTF8.self))
                nested.write(2, uint64: UInt64(size))
            }
            #expect(Array(buffer.bytes(from: 0)) == writer.bytes, "\(size)")
        }
    }
}
