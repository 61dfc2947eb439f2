// Caffe — CaffeProtocol tests.
import CaffeTestKit
import SwiftProtobuf
import Testing

@testable import CaffeProtocol

/// The header fast path reads exactly the message SwiftProtobuf decodes, or leaves it to SwiftProtobuf.
@Suite("Event header reader")
struct EventHeaderReaderTests {
    static func header() -> Caffe_V1_EventHeader {
        var header = Caffe_V1_EventHeader()
        header.bodyType = "caffe.v1.OrderEvent"
        header.sourceID = "pos-ñ-a-source-id-longer-than-fifteen-bytes"
        header.sequence = 1 << 40 + 3
        header.orderID = "A-1"
        header.sentAt = Google_Protobuf_Timestamp(seconds: -5, nanos: 7)
        header.metadata = ["replay_endpoint": "tcp://10.0.0.1:7300", "replayed": "true"]
        return header
    }

    func read(_ bytes: [UInt8]) -> Caffe_V1_EventHeader? {
        bytes.withUnsafeBytes { EventHeaderReader.read($0) }
    }

    @Test func aFullHeaderReadsAsSwiftProtobufDecodesIt() throws {
        let bytes = try Self.header().serializedBytes() as [UInt8]
        #expect(read(bytes) == Self.header())
        #expect(read([]) == Caffe_V1_EventHeader())
        // An empty timestamp is still present.
        let empty: [UInt8] = [0x2A, 0x00]
        #expect(read(empty) == (try Caffe_V1_EventHeader(serializedBytes: empty)))
        #expect(read(empty)?.hasSentAt == true)
        // A repeated map key: the later entry wins, as in SwiftProtobuf.
        let twice: [UInt8] = [
            0x32, 0x06, 0x0A, 0x01, 0x6B, 0x12, 0x01, 0x61, 0x32, 0x06, 0x0A, 0x01, 0x6B, 0x12, 0x01, 0x62,
        ]
        #expect(read(twice) == (try Caffe_V1_EventHeader(serializedBytes: twice)))
        #expect(read(twice)?.metadata == ["k": "b"])
    }

    @Test func anythingUnusualIsLeftToSwiftProtobuf() throws {
        let valid = try Self.header().serializedBytes() as [UInt8]
        let cases: [(String, [UInt8])] = [
            ("unknown field", valid + [0x98, 0x06, 0x01]),
            ("invalid UTF-8", [0x0A, 0x02, 0xC3, 0x28]),
            ("a field twice", [0x0A, 0x01, 0x61, 0x0A, 0x01, 0x62]),
            ("a length past the end", [0x0A, 0x05, 0x61]),
            ("a wrong wire type", [0x18, 0x01, 0x1A, 0x00]),
            ("a map entry with a third field", [0x32, 0x03, 0x18, 0x01, 0x00]),
            ("a group", [0x0B]),
        ]
        for (name, bytes) in cases { #expect(read(bytes) == nil, "\(name)") }
    }

    @Test func truncatedAndMutatedHeadersReadAsSwiftProtobufOrNotAtAll() throws {
        let valid = try Self.header().serializedBytes() as [UInt8]
        var candidates = (0..<valid.count).map { Array(valid[..<$0]) }
        var generator = SplitMix64(seed: 29)
        for _ in 0..<20_000 {
            var bytes = valid
            for _ in 0...generator.next(below: 3) {
                bytes[generator.next(below: bytes.count)] = UInt8(truncatingIfNeeded: generator.next())
            }
            candidates.append(bytes)
        }
        var fast = 0
        for bytes in candidates {
            guard let header = read(bytes) else { continue }
            fast += 1
            #expect(header == (try? Caffe_V1_EventHeader(serializedBytes: bytes)), "\(bytes)")
        }
        // The plain shape is the common one even among damaged headers.
        #expect(fast > candidates.count / 10)
    }
}
