// Caffe — CaffeProtocol tests.
import CaffeProtocol
import CaffeProtocolFixtures
import SwiftProtobuf
import Testing

@Suite("Request and response frames: [routing…][empty][header][body]")
struct RequestFramesTests {
    /// A request as a ROUTER sees it: the routing ids, then what the DEALER sent.
    func routerView(
        routing: [[UInt8]],
        header: Caffe_V1_RequestHeader = Fixtures.requestHeader(),
        body: some SwiftProtobuf.Message = Fixtures.order()
    ) throws -> [ByteFrame] {
        try routing.map { try frame($0) } + RequestFrames.encode(header: header, body: body)
    }

    @Test func dealerFramesAreDelimiterHeaderBody() throws {
        let header = Fixtures.requestHeader()
        let frames = try RequestFrames.encode(header: header, body: Fixtures.order())
        #expect(frames.count == 3)
        #expect(frames[0].isEmpty)
        #expect(frames[1].bytes == (try wire(header)))
        #expect(frames[2].bytes == (try wire(Fixtures.order())))
    }

    @Test("a call's frames: method, id, the relative timeout to the nanosecond, deadline and metadata")
    func callFrames() throws {
        let deadline = Google_Protobuf_Timestamp(seconds: 1_795_000_000, nanos: 7)
        let frames = try RequestFrames.encode(
            method: CaffeMethod.stats,
            requestID: "r-9",
            timeout: .milliseconds(1500),
            deadline: deadline,
            metadata: ["k": "v"],
            body: Caffe_V1_StatsRequest()
        )
        let request = try RequestFrames(parsing: [try frame(Fixtures.routingA)] + frames)
        #expect(request.header.method == "caffe.v1.Admin/Stats" && request.header.requestID == "r-9")
        #expect(request.header.timeout.seconds == 1 && request.header.timeout.nanos == 500_000_000)
        #expect(request.header.deadline == deadline && request.header.metadata == ["k": "v"])
        // No time given: neither field set (the worker applies its own limit).
        let bare = Caffe_V1_RequestHeader(method: CaffeMethod.stats, requestID: "r-10", timeout: .zero)
        #expect(!bare.hasTimeout && !bare.hasDeadline)
    }

    @Test func requestWithOneRoutingIdParsesAndDecodes() throws {
        var header = Fixtures.requestHeader(method: CaffeMethod.renderOrder, requestID: "req-7")
        header.metadata = ["locale-override": "es-419"]
        let request = try RequestFrames(parsing: routerView(routing: [Fixtures.routingA], header: header))
        #expect(request.routing.map(\.bytes) == [Fixtures.routingA])
        #expect(request.header.method == "caffe.v1.Renderer/RenderOrder")
        #expect(request.header.requestID == "req-7")
        #expect(request.header.metadata == ["locale-override": "es-419"])
        #expect(!request.header.hasDeadline)
        #expect(request.limits == .standard)
        #expect(try request.decodeBody(as: Caffe_V1_OrderEvent.self) == Fixtures.order())
    }

    @Test func replyPutsTheRoutingIdBackInFront() throws {
        let request = try RequestFrames(
            parsing: routerView(routing: [Fixtures.routingA], header: Fixtures.requestHeader(requestID: "req-7"))
        )
        var health = Grpc_Health_V1_HealthCheckResponse()
        health.status = .serving
        let reply = try request.reply(status: .ok, body: health, metadata: ["worker": "w-1"])
        #expect(reply.count == 4)
        #expect(reply[0].bytes == Fixtures.routingA)
        #expect(reply[1].isEmpty)
        let header = try Caffe_V1_ResponseHeader(serializedBytes: reply[2].bytes)
        #expect(header.requestID == "req-7")
        #expect(header.status == .ok)
        #expect(header.message == "")
        #expect(header.metadata == ["worker": "w-1"])
        #expect(reply[3].bytes == (try wire(health)))

        let response = try ResponseFrames(parsing: Array(reply.dropFirst(1)))
        #expect(response.header.requestID == "req-7")
        #expect(response.header.metadata == ["worker": "w-1"])
        #expect(response.status == RPCStatus(code: .ok, message: ""))
        #expect(response.status == .ok)
        #expect(try response.decodeBody(as: Grpc_Health_V1_HealthCheckResponse.self).status == .serving)
    }

    @Test func twoHopRequestKeepsBothRoutingIdsOutermostFirst() throws {
        let request = try RequestFrames(
            parsing: routerView(
                routing: [Fixtures.routingA, Fixtures.routingB],
                header: Fixtures.requestHeader(method: CaffeMethod.renderComplication, requestID: "req-2hop"),
                body: Fixtures.complication()
            )
        )
        #expect(request.routing.map(\.bytes) == [Fixtures.routingA, Fixtures.routingB])
        #expect(request.header.method == "caffe.v1.Renderer/RenderComplication")
        #expect(try request.decodeBody(as: Caffe_V1_ComplicationRequest.self) == Fixtures.complication())

        var payload = Caffe_V1_ComplicationPayload()
        payload.requestID = "cx-9"
        payload.userID = "user-3"
        payload.locale = "ar-EG"
        var entry = Caffe_V1_ComplicationEntry()
        entry.family = .modularSmall
        entry.text = Fixtures.styled("٣ أيام", runs: [("٣ أيام", [:])], html: "")
        payload.entries = [entry]

        let status = RPCStatus(code: .ok, message: "rendered")
        let reply = try request.reply(status: status, body: payload)
        #expect(reply.count == 5)
        #expect(reply[0].bytes == Fixtures.routingA)
        #expect(reply[1].bytes == Fixtures.routingB)
        #expect(reply[2].isEmpty)
        let header = try Caffe_V1_ResponseHeader(serializedBytes: reply[3].bytes)
        #expect(header.requestID == "req-2hop")
        #expect(header.status == .ok)
        #expect(header.message == "rendered")
        #expect(header.metadata.isEmpty)

        let response = try ResponseFrames(parsing: Array(reply.dropFirst(2)))
        #expect(response.header.requestID == "req-2hop")
        #expect(response.status == RPCStatus(code: .ok, message: "rendered"))
        #expect(try response.decodeBody(as: Caffe_V1_ComplicationPayload.self) == payload)
    }

    @Test func replyCopiesRoutingIdsSoTheRequestCanBeAnsweredTwice() throws {
        let request = try RequestFrames(parsing: routerView(routing: [Fixtures.routingA]))
        let first = try request.reply(status: .ok)
        let second = try request.reply(status: RPCStatus(code: .aborted, message: "again"))
        #expect(first[0].bytes == Fixtures.routingA)
        #expect(second[0].bytes == Fixtures.routingA)
        #expect(request.routing[0].bytes == Fixtures.routingA)
    }

    @Test func replyWithoutBodyHasAnEmptyBodyFrame() throws {
        let request = try RequestFrames(
            parsing: routerView(routing: [Fixtures.routingA], header: Fixtures.requestHeader(requestID: "req-late"))
        )
        let reply = try request.reply(
            status: RPCStatus(code: .deadlineExceeded, message: "deadline passed before rendering")
        )
        #expect(reply.count == 4)
        #expect(reply[0].bytes == Fixtures.routingA)
        #expect(reply[1].isEmpty)
        #expect(reply[3].isEmpty)

        let response = try ResponseFrames(parsing: Array(reply.dropFirst()))
        #expect(response.header.requestID == "req-late")
        #expect(response.header.status == .deadlineExceeded)
        #expect(response.header.message == "deadline passed before rendering")
        #expect(response.status.description == "DEADLINE_EXCEEDED: deadline passed before rendering")
        #expect(response.bodyFrame.isEmpty)
        #expect(try response.decodeBody(as: Caffe_V1_RenderOrderResponse.self) == Caffe_V1_RenderOrderResponse())
    }

    @Test func requestFromADealerWithoutRoutingIdsHasNoRoutingInItsReply() throws {
        let request = try RequestFrames(
            parsing: RequestFrames.encode(
                header: Fixtures.requestHeader(requestID: "direct"),
                body: Caffe_V1_StatsRequest()
            )
        )
        #expect(request.routing.isEmpty)
        #expect(request.bodyFrame.isEmpty)
        #expect(try request.decodeBody(as: Caffe_V1_StatsRequest.self) == Caffe_V1_StatsRequest())

        var stats = Caffe_V1_StatsResponse()
        stats.counters = ["orders": 120, "dead_letters": 3]
        stats.gauges = ["queue_depth": 0.5]
        let reply = try request.reply(status: .ok, body: stats)
        #expect(reply.count == 3)
        #expect(reply[0].isEmpty)
        let response = try ResponseFrames(parsing: reply)
        #expect(response.header.requestID == "direct")
        #expect(try response.decodeBody(as: Caffe_V1_StatsResponse.self) == stats)
    }

    @Test func unrecognizedStatusCodesSurviveTheWire() throws {
        let request = try RequestFrames(parsing: routerView(routing: [Fixtures.routingA]))
        let reply = try request.reply(status: RPCStatus(code: .UNRECOGNIZED(42), message: "from the future"))
        let response = try ResponseFrames(parsing: Array(reply.dropFirst()))
        #expect(response.header.status == .UNRECOGNIZED(42))
        #expect(response.status.description == "UNRECOGNIZED(42): from the future")
    }

    // MARK: Deadlines

    func request(deadline: Google_Protobuf_Timestamp?) throws -> RequestFrames {
        var header = Fixtures.requestHeader()
        if let deadline { header.deadline = deadline }
        return try RequestFrames(parsing: routerView(routing: [Fixtures.routingA], header: header))
    }

    @Test func requestWithPastDeadlineIsExpired() throws {
        let request = try request(deadline: Google_Protobuf_Timestamp(seconds: 1_000, nanos: 999_999_999))
        #expect(request.header.hasDeadline)
        #expect(request.isExpired(at: Google_Protobuf_Timestamp(seconds: 1_001, nanos: 0)))
        #expect(request.isExpired(at: Google_Protobuf_Timestamp(seconds: 2_000_000_000, nanos: 0)))
    }

    @Test func requestWithFutureDeadlineIsNotExpired() throws {
        let request = try request(deadline: Google_Protobuf_Timestamp(seconds: 1_000, nanos: 5))
        #expect(!request.isExpired(at: Google_Protobuf_Timestamp(seconds: 1_000, nanos: 4)))
        #expect(!request.isExpired(at: Google_Protobuf_Timestamp(seconds: 999, nanos: 999_999_999)))
        #expect(!request.isExpired(at: Google_Protobuf_Timestamp(seconds: 0, nanos: 0)))
    }

    @Test func requestIsExpiredExactlyAtItsDeadline() throws {
        let request = try request(deadline: Google_Protobuf_Timestamp(seconds: 1_000, nanos: 5))
        #expect(request.isExpired(at: Google_Protobuf_Timestamp(seconds: 1_000, nanos: 5)))
    }

    @Test func requestWithoutDeadlineNeverExpires() throws {
        let request = try request(deadline: nil)
        #expect(!request.header.hasDeadline)
        #expect(!request.isExpired(at: Google_Protobuf_Timestamp(seconds: 0, nanos: 0)))
        #expect(!request.isExpired(at: Google_Protobuf_Timestamp(seconds: Int64.max, nanos: 999_999_999)))
    }

    @Test func zeroDeadlineIsPresentAndAlreadyExpired() throws {
        // A deadline message that is present but all-zero is the epoch, not "no deadline".
        let request = try request(deadline: Google_Protobuf_Timestamp(seconds: 0, nanos: 0))
        #expect(request.header.hasDeadline)
        #expect(request.isExpired(at: Google_Protobuf_Timestamp(seconds: 1, nanos: 0)))
    }
}
