// Caffe — CaffeProtocol tests.
import CaffeProtocol
import CaffeProtocolFixtures
import FoundationEssentials
import SwiftProtobuf
import Testing

@Suite("Event frames: [topic][EventHeader][body] round trips")
struct EventFramesTests {
    @Test func orderEventRoundTripsWithItsIdentityInTheHeader() throws {
        let order = Fixtures.order()
        let sentAt = Google_Protobuf_Timestamp(seconds: 1_767_225_602, nanos: 7)
        let frames = try EventFrames.encode(
            topic: CaffeTopic.order(store: order.storeID),
            header: EventFrames.header(for: order, sentAt: sentAt),
            body: order
        )
        #expect(frames.count == 3)
        #expect(frames[0].text == "order.sf-1")
        #expect(frames[2].bytes == (try wire(order)))

        let event = try EventFrames(parsing: frames)
        #expect(event.topic == "order.sf-1")
        #expect(event.header.bodyType == "caffe.v1.OrderEvent")
        #expect(event.header.sourceID == "pos-sf-1")
        #expect(event.header.sequence == 17)
        #expect(event.header.orderID == "ord-0001")
        #expect(event.header.sentAt == sentAt)
        #expect(event.header.metadata.isEmpty)
        #expect(event.limits == .standard)
        #expect(event.headerFrame.bytes == (try wire(event.header)))

        let decoded = try event.decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(decoded == order)
        #expect(decoded.customer.name == "Ana Lucía")
        #expect(decoded.customer.termOfAddress == .feminine)
        #expect(decoded.lines.map(\.itemID) == ["pizza", "juice"])
        #expect(decoded.lines.map(\.quantity) == [2, 1])
        #expect(decoded.tip == "1.50")
        #expect(decoded.placedAt == Google_Protobuf_Timestamp(seconds: 1_767_225_600, nanos: 500_000_000))
        #expect(decoded.hasPickupAt)
        try decoded.validate()
    }

    @Test func headerForOrderCopiesIdentityAndLeavesSentAtAbsentByDefault() {
        let header = EventFrames.header(for: Fixtures.order())
        #expect(header.bodyType == "caffe.v1.OrderEvent")
        #expect(header.sourceID == "pos-sf-1")
        #expect(header.sequence == 17)
        #expect(header.orderID == "ord-0001")
        #expect(!header.hasSentAt)
    }

    @Test func encodeOverwritesBodyTypeWithTheBodysMessageName() throws {
        var header = Caffe_V1_EventHeader()
        header.bodyType = "bogus.Type"
        header.metadata = ["trace-id": "abc123", "hop": "2"]
        let frames = try EventFrames.encode(
            topic: CaffeTopic.complicationRequest(user: "user-3"),
            header: header,
            body: Fixtures.complication()
        )
        let event = try EventFrames(parsing: frames)
        #expect(event.topic == "complication-request.user-3")
        #expect(event.header.bodyType == "caffe.v1.ComplicationRequest")
        #expect(event.header.metadata == ["trace-id": "abc123", "hop": "2"])
        #expect(event.header.sourceID == "")
        #expect(event.header.sequence == 0)
    }

    @Test func complicationRequestRoundTrips() throws {
        let request = Fixtures.complication()
        let frames = try EventFrames.encode(
            topic: CaffeTopic.complicationRequest(user: request.userID),
            header: Caffe_V1_EventHeader(),
            body: request
        )
        let event = try EventFrames(parsing: frames)
        let decoded = try event.decodeBody(as: Caffe_V1_ComplicationRequest.self)
        #expect(decoded == request)
        #expect(decoded.families == [.modularSmall, .graphicRectangular, .circularSmall])
        #expect(decoded.hourCycle == "h12")
        #expect(decoded.nextFreeCoffee == Google_Protobuf_Timestamp(seconds: 1_767_300_000, nanos: 250))
        try decoded.validate()
    }

    @Test func deadLetterRoundTripsItsBytesFieldsExactly() throws {
        let letter = Fixtures.deadLetter()
        let frames = try EventFrames.encode(topic: CaffeTopic.deadLetter, header: Caffe_V1_EventHeader(), body: letter)
        let event = try EventFrames(parsing: frames)
        #expect(event.topic == "dead-letter")
        #expect(event.header.bodyType == "caffe.v1.DeadLetter")
        let decoded = try event.decodeBody(as: Caffe_V1_DeadLetter.self)
        #expect(decoded == letter)
        #expect(decoded.reason == .unrecoverableGap)
        #expect(Array(decoded.originalHeader) == [0x0A, 0x13] + Array("caffe.v1.OrderEvent".utf8))
        #expect(Array(decoded.originalBody) == [0x00, 0xFF, 0x80, 0x7F, 0xC3, 0x28, 0x00, 0x01])
        #expect(decoded.gapFrom == 19)
        #expect(decoded.gapTo == 23)
        #expect(decoded.ref.sequence == 18)
    }

    @Test func decodedBytesFieldsOutliveTheFrameTheyWereReadFrom() throws {
        // decode(frame:) reads the frame in place; the decoded message must own copies.
        var decoded: Caffe_V1_DeadLetter?
        do {
            let event = try EventFrames(
                parsing: try EventFrames.encode(
                    topic: "dead-letter",
                    header: Caffe_V1_EventHeader(),
                    body: Fixtures.deadLetter()
                )
            )
            decoded = try event.decodeBody(as: Caffe_V1_DeadLetter.self)
        }
        // Overwrite freshly freed memory with other frames before reading the decoded bytes.
        let scribble = try (0..<16).map { _ in try frame([UInt8](repeating: 0xEE, count: 64)) }
        let letter = try #require(decoded)
        withExtendedLifetime(scribble) {
            #expect(Array(letter.originalBody) == [0x00, 0xFF, 0x80, 0x7F, 0xC3, 0x28, 0x00, 0x01])
            #expect(letter == Fixtures.deadLetter())
        }
    }

    @Test func receiptWithStyledTextRunsAndAttributeMapsRoundTrips() throws {
        let receipt = Fixtures.receipt()
        let frames = try EventFrames.encode(
            topic: CaffeTopic.receipt(store: "sf-1"),
            header: Caffe_V1_EventHeader(),
            body: receipt
        )
        let event = try EventFrames(parsing: frames)
        #expect(event.topic == "receipt.sf-1")
        #expect(event.header.bodyType == "caffe.v1.Receipt")
        let decoded = try event.decodeBody(as: Caffe_V1_Receipt.self)
        #expect(decoded == receipt)
        #expect(decoded.text.runs.count == 2)
        #expect(decoded.text.runs[0].text == "Thanks, Ana!")
        #expect(
            decoded.text.runs[0].attributes
                == ["link": "\"https://example.com\"", "inlinePresentationIntent": "[\"emphasized\"]"]
        )
        #expect(decoded.text.runs[1].attributes.isEmpty)
        #expect(
            decoded.lines[0].description_p.runs[0].attributes == [
                "inlinePresentationIntent": "[\"stronglyEmphasized\"]"
            ]
        )
        #expect(decoded.lines[0].formattedPrice.runs[0].attributes == ["rainbow": "\"fun\""])
        #expect(decoded.text.html == "<em><a href=\"https://example.com\">Thanks, Ana!</a></em> Total: $28.66")
        #expect(decoded.taxRate == "0.08625")
        #expect(decoded.total == "28.66")
    }

    @Test func emptyBodyFrameDecodesAsTheDefaultMessage() throws {
        let frames = try EventFrames.encode(
            topic: "order.empty",
            header: Caffe_V1_EventHeader(),
            body: Caffe_V1_OrderEvent()
        )
        #expect(frames[2].isEmpty)
        let event = try EventFrames(parsing: frames)
        #expect(try event.decodeBody(as: Caffe_V1_OrderEvent.self) == Caffe_V1_OrderEvent())
    }

    @Test func topicsAndMethodsHaveTheDocumentedNames() {
        #expect(CaffeTopic.order(store: "sf-1") == "order.sf-1")
        #expect(CaffeTopic.confirmation(locale: "es-MX") == "confirmation.es-MX")
        #expect(CaffeTopic.receipt(store: "nyc-2") == "receipt.nyc-2")
        #expect(CaffeTopic.complicationRequest(user: "u1") == "complication-request.u1")
        #expect(CaffeTopic.complication(user: "u1") == "complication.u1")
        #expect(CaffeTopic.deadLetter == "dead-letter")
        #expect(CaffeMethod.renderOrder == "caffe.v1.Renderer/RenderOrder")
        #expect(CaffeMethod.renderComplication == "caffe.v1.Renderer/RenderComplication")
        #expect(CaffeMethod.healthCheck == "grpc.health.v1.Health/Check")
        #expect(CaffeMethod.stats == "caffe.v1.Admin/Stats")
        #expect(CaffeMethod.replayFetch == "caffe.v1.Replay/Fetch")
    }
}
