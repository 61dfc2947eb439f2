// Caffe — CaffeProtocol tests.
import CaffeProtocol
import CaffeProtocolFixtures
import FoundationEssentials
import SwiftProtobuf
import Testing

/// SwiftProtobuf's own encoding with sorted map keys: what ``ProtobufWriter`` must reproduce.
private func reference(_ message: some SwiftProtobuf.Message) throws -> [UInt8] {
    var options = BinaryEncodingOptions()
    options.useDeterministicOrdering = true
    return try message.serializedBytes(options: options)
}

@Suite("ProtobufWriter: single-pass encoding, byte for byte SwiftProtobuf's")
struct ProtobufWriterTests {
    @Test func receiptWithRunsAndSeveralAttributesMatchesSwiftProtobuf() throws {
        let receipt = Fixtures.receipt()
        let bytes = receipt.singlePassBytes()
        #expect(bytes == (try reference(receipt)))
        #expect(try Caffe_V1_Receipt(serializedBytes: bytes) == receipt)
    }

    @Test func varintsAndLengthPrefixesAtTheirBoundaries() throws {
        // 127 bytes fits the reserved length byte; 128 and 16 384 widen it to two and three.
        for count in [0, 1, 127, 128, 129, 16_383, 16_384, 70_000] {
            var text = Caffe_V1_StyledText()
            text.plain = String(repeating: "a", count: count)
            text.runs = [
                Fixtures.styled("x", runs: [(String(repeating: "b", count: count), ["k": ""])], html: "").runs[0]
            ]
            var receipt = Caffe_V1_Receipt()
            receipt.text = text
            let bytes = receipt.singlePassBytes(capacity: 1)
            #expect(bytes == (try reference(receipt)), "plain of \(count) bytes")
            #expect(try Caffe_V1_Receipt(serializedBytes: bytes) == receipt)
        }
        var header = Caffe_V1_EventHeader()
        for sequence: UInt64 in [1, 127, 128, 300, 1 << 35, .max] {
            header.sequence = sequence
            #expect(header.singlePassBytes() == (try reference(header)), "sequence \(sequence)")
        }
    }

    @Test func negativeTimestampFieldsTakeTenBytesAsOnTheWire() throws {
        var header = Caffe_V1_EventHeader()
        header.sentAt = Google_Protobuf_Timestamp(seconds: -62_135_596_800, nanos: -1)
        let bytes = header.singlePassBytes()
        #expect(bytes == (try reference(header)))
        #expect(
            bytes == [0x2A, 0x16, 0x08] + [0x80, 0x92, 0xB8, 0xC3, 0x98, 0xFE, 0xFF, 0xFF, 0xFF, 0x01]
                + [0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        )
    }

    @Test func presenceFollowsProto3() throws {
        // Defaults are left out; a set but empty message is written as an empty field.
        var confirmation = Caffe_V1_Confirmation()
        #expect(confirmation.singlePassBytes().isEmpty)
        confirmation.pickup = Caffe_V1_StyledText()
        #expect(confirmation.singlePassBytes() == [0x32, 0x00])
        var entry = Caffe_V1_ComplicationEntry()
        entry.family = .graphicCorner
        entry.text = Fixtures.styled("Fri", runs: [("Fri", ["foregroundColor": "orange"])], html: "")
        var payload = Caffe_V1_ComplicationPayload()
        payload.requestID = "r-1"
        payload.userID = "u-ñ"
        payload.locale = "ar-EG"
        payload.entries = [entry, Caffe_V1_ComplicationEntry()]
        var note = Caffe_V1_RenderNote()
        note.code = "time-zone-defaulted"
        note.detail = "«Mars/Olympus» is not a time zone; used the store's"
        payload.notes = [note]
        #expect(payload.singlePassBytes() == (try reference(payload)))
        #expect(try Caffe_V1_ComplicationPayload(serializedBytes: payload.singlePassBytes()) == payload)
    }

    @Test func mapEntriesKeepEmptyKeysAndValuesInSortedOrder() throws {
        var header = Caffe_V1_EventHeader()
        header.bodyType = Caffe_V1_Receipt.protoMessageName
        header.metadata = ["z": "", "": "empty key", "ä": "ü", "a": "1"]
        let bytes = header.singlePassBytes()
        #expect(bytes == (try reference(header)))
        #expect(try Caffe_V1_EventHeader(serializedBytes: bytes) == header)
    }

    @Test func unknownFieldsArePassedOnAndUnrecognizedEnumsKeepTheirNumber() throws {
        // Field 99 of the receipt, a varint 5, as a newer sender would add it.
        let withUnknown = try Caffe_V1_Receipt(serializedBytes: [0x98, 0x06, 0x05, 0x12, 0x02, 0x65, 0x6E])
        #expect(withUnknown.locale == "en")
        let bytes = withUnknown.singlePassBytes()
        #expect(bytes == [0x12, 0x02, 0x65, 0x6E, 0x98, 0x06, 0x05])
        #expect(try Caffe_V1_Receipt(serializedBytes: bytes) == withUnknown)

        var entry = Caffe_V1_ComplicationEntry()
        entry.family = .UNRECOGNIZED(42)
        #expect(entry.singlePassBytes() == [0x08, 42])
    }

    @Test func outputEventsUseTheSinglePassEncoding() throws {
        let receipt = Fixtures.receipt()
        var header = EventFrames.header(for: Fixtures.order())
        header.metadata = ["trace": "t-1", "attempt": "2"]
        let frames = try EventFrames.encode(topic: CaffeTopic.receipt(store: "sf-1"), header: header, body: receipt)
        #expect(
            frames.map(\.bytes) == [
                Array("receipt.sf-1".utf8),
                try reference(
                    {
                        var header = header; header.bodyType = "caffe.v1.Receipt"; return header
                    }()
                ),
                try reference(receipt),
            ]
        )
        let event = try EventFrames(parsing: frames)
        #expect(event.header.metadata == ["trace": "t-1", "attempt": "2"])
        #expect(try event.decodeBody(as: Caffe_V1_Receipt.self) == receipt)
    }
}
