// Caffe — CaffeProtocol tests.
import CaffeProtocol
import CaffeProtocolFixtures
import SwiftProtobuf
import Testing

@Suite("Envelope errors: frame counts, delimiters, sizes, header checks")
struct FrameErrorTests {
    func orderFrames(topic: String = "order.sf-1") throws -> [ByteFrame] {
        let order = Fixtures.order()
        return try EventFrames.encode(topic: topic, header: EventFrames.header(for: order), body: order)
    }

    // MARK: Event frame counts

    @Test(arguments: [0, 1, 2, 4, 5])
    func eventWithWrongFrameCountIsRejected(count: Int) throws {
        let frames = try (0..<count).map { try frame("frame \($0)") }
        let error = try failure(try EventFrames(parsing: frames))
        #expect(error.code == .wrongFrameCount)
        #expect(error.message == "an event has 3 frames (topic, header, body), got \(count)")
        #expect(error.field == nil)
    }

    @Test func eventWithExtraTrailingFrameIsRejected() throws {
        let frames = try orderFrames() + [frame("extra")]
        #expect(throws: CaffeProtocolError(code: .wrongFrameCount, message: "")) { try EventFrames(parsing: frames) }
    }

    // MARK: Sizes

    @Test func topicLongerThanTheLimitIsRejected() throws {
        let limits = CaffeProtocolLimits(maxTopicBytes: 9)
        let frames = try orderFrames(topic: "order.sf-1")
        let error = try failure(try EventFrames(parsing: frames, limits: limits))
        #expect(error.code == .frameTooLarge)
        #expect(error.message == "topic frame of 10 bytes exceeds the limit of 9")
        #expect(error.field == nil)
    }

    @Test func topicExactlyAtTheLimitIsAccepted() throws {
        let event = try EventFrames(
            parsing: orderFrames(topic: "order.sf-1"),
            limits: CaffeProtocolLimits(maxTopicBytes: 10)
        )
        #expect(event.topic == "order.sf-1")
    }

    @Test func headerLongerThanTheLimitIsRejectedBeforeDecoding() throws {
        let frames = try orderFrames()
        let size = frames[1].count
        let error = try failure(try EventFrames(parsing: frames, limits: CaffeProtocolLimits(maxHeaderBytes: size - 1)))
        #expect(error.code == .frameTooLarge)
        #expect(error.message == "event header frame of \(size) bytes exceeds the limit of \(size - 1)")

        let event = try EventFrames(parsing: try orderFrames(), limits: CaffeProtocolLimits(maxHeaderBytes: size))
        #expect(event.header.orderID == "ord-0001")
    }

    @Test func oversizedHeaderOfGarbageIsReportedAsTooLargeNotMalformed() throws {
        let frames = [try frame("order.sf-1"), try frame([UInt8](repeating: 0xFF, count: 17)), try frame([])]
        let error = try failure(try EventFrames(parsing: frames, limits: CaffeProtocolLimits(maxHeaderBytes: 16)))
        #expect(error.code == .frameTooLarge)
    }

    @Test func bodyLongerThanTheLimitIsRejectedWhileParsing() throws {
        let frames = try orderFrames()
        let size = frames[2].count
        // The body is refused before anything is decoded, so it is never held for later.
        let error = try failure(try EventFrames(parsing: frames, limits: CaffeProtocolLimits(maxBodyBytes: size - 1)))
        #expect(error.code == .frameTooLarge)
        #expect(error.message == "event body frame of \(size) bytes exceeds the limit of \(size - 1)")

        let atLimit = try EventFrames(parsing: try orderFrames(), limits: CaffeProtocolLimits(maxBodyBytes: size))
        #expect(try atLimit.decodeBody(as: Caffe_V1_OrderEvent.self) == Fixtures.order())
    }

    @Test func requestHeaderAndBodyLimitsApply() throws {
        let frames =
            try [frame(Fixtures.routingA)]
            + RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order())
        let headerSize = frames[2].count
        let bodySize = frames[3].count

        let headerError = try failure(
            try RequestFrames(parsing: frames, limits: CaffeProtocolLimits(maxHeaderBytes: headerSize - 1))
        )
        #expect(headerError.code == .frameTooLarge)
        #expect(
            headerError.message == "request header frame of \(headerSize) bytes exceeds the limit of \(headerSize - 1)"
        )

        let bodyError = try failure(
            try RequestFrames(parsing: frames, limits: CaffeProtocolLimits(maxBodyBytes: bodySize - 1))
        )
        #expect(bodyError.code == .frameTooLarge)
        #expect(bodyError.message == "request body frame of \(bodySize) bytes exceeds the limit of \(bodySize - 1)")
    }

    @Test func responseHeaderAndBodyLimitsApply() throws {
        let request = try RequestFrames(
            parsing: RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order())
        )
        let reply = try request.reply(status: .ok, body: Fixtures.receipt())
        let headerSize = reply[1].count
        let bodySize = reply[2].count

        let headerError = try failure(
            try ResponseFrames(parsing: reply, limits: CaffeProtocolLimits(maxHeaderBytes: headerSize - 1))
        )
        #expect(headerError.code == .frameTooLarge)
        #expect(
            headerError.message == "response header frame of \(headerSize) bytes exceeds the limit of \(headerSize - 1)"
        )

        let bodyError = try failure(
            try ResponseFrames(parsing: reply, limits: CaffeProtocolLimits(maxBodyBytes: bodySize - 1))
        )
        #expect(bodyError.code == .frameTooLarge)
        #expect(bodyError.message == "response body frame of \(bodySize) bytes exceeds the limit of \(bodySize - 1)")
    }

    @Test func standardLimitsAreTheDocumentedDefaults() {
        let limits = CaffeProtocolLimits.standard
        #expect(limits.maxTopicBytes == 256)
        #expect(limits.maxHeaderBytes == 16_384)
        #expect(limits.maxBodyBytes == 1_048_576)
        #expect(limits.maxRoutingFrames == 8)
        #expect(limits.messageDepthLimit == 32)
        #expect(limits == CaffeProtocolLimits())
    }

    // MARK: Headers

    @Test func bodyTypeMismatchIsRejectedWithTheFieldName() throws {
        let event = try EventFrames(parsing: orderFrames())
        let error = try failure(try event.decodeBody(as: Caffe_V1_ComplicationRequest.self))
        #expect(error.code == .unexpectedBodyType)
        #expect(error.field == "body_type")
        #expect(error.message == "expected a caffe.v1.ComplicationRequest body, the header says 'caffe.v1.OrderEvent'")
    }

    @Test func bodyTypeIsComparedExactly() throws {
        var header = Caffe_V1_EventHeader()
        header.bodyType = "caffe.v1.orderevent"
        let frames = [try frame("order.sf-1"), try frame(wire(header)), try frame(wire(Fixtures.order()))]
        let event = try EventFrames(parsing: frames)
        let error = try failure(try event.decodeBody(as: Caffe_V1_OrderEvent.self))
        #expect(error.code == .unexpectedBodyType)
        #expect(error.field == "body_type")
    }

    @Test func emptyEventHeaderLacksBodyType() throws {
        let frames = [try frame("order.sf-1"), ByteFrame(), try frame(wire(Fixtures.order()))]
        let error = try failure(try EventFrames(parsing: frames))
        #expect(error.code == .missingField)
        #expect(error.field == "body_type")
        #expect(error.message == "EventHeader is missing required field 'body_type'")
    }

    @Test func eventHeaderWithIdentityButNoBodyTypeIsRejected() throws {
        var header = EventFrames.header(for: Fixtures.order())
        header.bodyType = ""
        let frames = [try frame("order.sf-1"), try frame(wire(header)), try frame(wire(Fixtures.order()))]
        let error = try failure(try EventFrames(parsing: frames))
        #expect(error.code == .missingField)
        #expect(error.field == "body_type")
    }

    @Test func malformedEventHeaderIsReported() throws {
        let frames = [try frame("order.sf-1"), try frame([0x0A, 0x05, 0x61]), try frame([])]
        let error = try failure(try EventFrames(parsing: frames))
        #expect(error.code == .malformed)
        #expect(error.message.hasPrefix("event header is not a valid caffe.v1.EventHeader: "))
        #expect(error.field == nil)
    }

    @Test func requestHeaderWithoutMethodIsRejected() throws {
        var header = Caffe_V1_RequestHeader()
        header.requestID = "req-1"
        let frames = try [frame(Fixtures.routingA)] + RequestFrames.encode(header: header, body: Fixtures.order())
        let error = try failure(try RequestFrames(parsing: frames))
        #expect(error.code == .missingField)
        #expect(error.field == "method")
        #expect(error.message == "RequestHeader is missing required field 'method'")
    }

    @Test func requestHeaderWithoutRequestIdIsRejected() throws {
        var header = Caffe_V1_RequestHeader()
        header.method = CaffeMethod.healthCheck
        let frames =
            try [frame(Fixtures.routingA)]
            + RequestFrames.encode(header: header, body: Grpc_Health_V1_HealthCheckRequest())
        let error = try failure(try RequestFrames(parsing: frames))
        #expect(error.code == .missingField)
        #expect(error.field == "request_id")
        #expect(error.message == "RequestHeader is missing required field 'request_id'")
    }

    @Test func emptyRequestHeaderReportsMethodFirst() throws {
        let frames = [try frame(Fixtures.routingA), ByteFrame(), ByteFrame(), try frame(wire(Fixtures.order()))]
        let error = try failure(try RequestFrames(parsing: frames))
        #expect(error.code == .missingField)
        #expect(error.field == "method")
    }

    @Test func malformedRequestAndResponseHeadersAreReported() throws {
        let garbage: [UInt8] = [0x12, 0x7F, 0x00]
        let request = [try frame(Fixtures.routingA), ByteFrame(), try frame(garbage), try frame([])]
        let requestError = try failure(try RequestFrames(parsing: request))
        #expect(requestError.code == .malformed)
        #expect(requestError.message.hasPrefix("request header is not a valid caffe.v1.RequestHeader: "))

        let response = [ByteFrame(), try frame(garbage), try frame([])]
        let responseError = try failure(try ResponseFrames(parsing: response))
        #expect(responseError.code == .malformed)
        #expect(responseError.message.hasPrefix("response header is not a valid caffe.v1.ResponseHeader: "))
    }

    // MARK: Request envelopes

    @Test func requestWithoutDelimiterIsRejected() throws {
        let frames = [
            try frame(Fixtures.routingA), try frame(wire(Fixtures.requestHeader())), try frame(wire(Fixtures.order())),
        ]
        let error = try failure(try RequestFrames(parsing: frames))
        #expect(error.code == .missingDelimiter)
        #expect(
            error.message
                == "a request is [routing id…][empty][header][body], but frame 0 of 3 is not the empty delimiter"
        )
    }

    @Test func noFramesAtAllAreTooFew() throws {
        let requestError = try failure(try RequestFrames(parsing: []))
        #expect(requestError.code == .wrongFrameCount)
        #expect(requestError.message == "a request is [routing id…][empty][header][body], got 0 frames")
        let responseError = try failure(try ResponseFrames(parsing: []))
        #expect(responseError.code == .wrongFrameCount)
        #expect(responseError.message == "a reply is [empty][header][body], got 0 frames")
    }

    @Test func requestWithoutBodyFrameIsRejected() throws {
        // The delimiter sits third from the end, so a missing body shows as a misplaced delimiter.
        let frames = [try frame(Fixtures.routingA), ByteFrame(), try frame(wire(Fixtures.requestHeader()))]
        let error = try failure(try RequestFrames(parsing: frames))
        #expect(error.code == .missingDelimiter)
        #expect(
            error.message
                == "a request is [routing id…][empty][header][body], but frame 0 of 3 is not the empty delimiter"
        )
    }

    @Test func emptyBodyIsNotMistakenForTheDelimiter() throws {
        // [routing id][header][empty body]: the first empty frame is the body, not a delimiter.
        let frames = [try frame(Fixtures.routingA), try frame(wire(Fixtures.requestHeader())), ByteFrame()]
        let error = try failure(try RequestFrames(parsing: frames))
        #expect(error.code == .missingDelimiter)
        let valid = [
            try frame(Fixtures.routingA), ByteFrame(), try frame(wire(Fixtures.requestHeader())), ByteFrame(),
        ]
        #expect(try RequestFrames(parsing: valid).bodyFrame.isEmpty)
    }

    @Test func requestWithExtraFrameAfterBodyIsRejected() throws {
        let frames =
            try [frame(Fixtures.routingA)]
            + RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order()) + [frame("extra")]
        let error = try failure(try RequestFrames(parsing: frames))
        #expect(error.code == .missingDelimiter)
        #expect(
            error.message
                == "a request is [routing id…][empty][header][body], but frame 2 of 5 is not the empty delimiter"
        )
    }

    @Test func tooManyRoutingFramesAreRejected() throws {
        let limits = CaffeProtocolLimits(maxRoutingFrames: 1)
        let twoHops =
            try [frame(Fixtures.routingA), frame(Fixtures.routingB)]
            + RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order())
        let error = try failure(try RequestFrames(parsing: twoHops, limits: limits))
        #expect(error.code == .wrongFrameCount)
        #expect(error.message == "2 routing frames exceed the limit of 1")

        let oneHop =
            try [frame(Fixtures.routingA)]
            + RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order())
        #expect(try RequestFrames(parsing: oneHop, limits: limits).routing.count == 1)
    }

    @Test func nineHopsExceedTheStandardLimitOfEight() throws {
        let body = try RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order())
        let eight = try (0..<8).map { try frame([0x00, 0, 0, 0, UInt8($0 + 1)]) }
        #expect(try RequestFrames(parsing: eight + body).routing.count == 8)

        let nine = try (0..<9).map { try frame([0x00, 0, 0, 0, UInt8($0 + 1)]) }
        let error = try failure(try RequestFrames(parsing: nine + body))
        #expect(error.code == .wrongFrameCount)
        #expect(error.message == "9 routing frames exceed the limit of 8")
    }

    @Test func zeroRoutingFramesAllowedWhenLimitIsZero() throws {
        let limits = CaffeProtocolLimits(maxRoutingFrames: 0)
        let direct = try RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order())
        #expect(try RequestFrames(parsing: direct, limits: limits).routing.isEmpty)
        let routed =
            try [frame(Fixtures.routingA)]
            + RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order())
        let routedError = try failure(try RequestFrames(parsing: routed, limits: limits))
        #expect(routedError.code == .wrongFrameCount)
    }

    // MARK: Response envelopes

    @Test func responseStillCarryingRoutingIdsIsRejected() throws {
        let request = try RequestFrames(
            parsing: try [frame(Fixtures.routingA)]
                + RequestFrames.encode(header: Fixtures.requestHeader(), body: Fixtures.order())
        )
        let reply = try request.reply(status: .ok)
        let error = try failure(try ResponseFrames(parsing: reply))
        #expect(error.code == .wrongFrameCount)
        #expect(error.message == "a reply is [empty][header][body], got 4 frames")
    }

    @Test func responseWithoutDelimiterIsRejected() throws {
        var header = Caffe_V1_ResponseHeader()
        header.requestID = "req-1"
        let frames = [try frame(wire(header)), try frame("body"), try frame("more")]
        let error = try failure(try ResponseFrames(parsing: frames))
        #expect(error.code == .missingDelimiter)
        #expect(error.message == "a reply is [empty][header][body], but frame 0 of 3 is not the empty delimiter")
    }

    @Test func responseWithoutBodyFrameIsRejected() throws {
        var header = Caffe_V1_ResponseHeader()
        header.requestID = "req-1"
        let frames = [ByteFrame(), try frame(wire(header))]
        let error = try failure(try ResponseFrames(parsing: frames))
        #expect(error.code == .wrongFrameCount)
        #expect(error.message == "a reply is [empty][header][body], got 2 frames")
    }

    // MARK: The error type

    @Test func errorsCompareByCodeOnly() {
        let a = CaffeProtocolError(code: .missingField, message: "one", field: "order_id")
        let b = CaffeProtocolError(code: .missingField, message: "two", field: "lines")
        let c = CaffeProtocolError(code: .invalidField, message: "one", field: "order_id")
        #expect(a == b)
        #expect(a != c)
        #expect(Set([a, b, c]).count == 2)
        #expect(a.description == "missingField: one")
    }

    @Test func codeDescriptionsAreTheirNames() {
        let codes: [CaffeProtocolError.Code] = [
            .wrongFrameCount, .missingDelimiter, .frameTooLarge, .malformed, .unexpectedBodyType, .missingField,
            .invalidField,
        ]
        #expect(
            codes.map(\.description) == [
                "wrongFrameCount", "missingDelimiter", "frameTooLarge", "malformed", "unexpectedBodyType",
                "missingField",
                "invalidField",
            ]
        )
        #expect(Set(codes).count == 7)
    }
}
