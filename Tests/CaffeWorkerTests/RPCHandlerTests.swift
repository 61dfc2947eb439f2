import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import Logging
import SwiftProtobuf
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeWorker

/// Each RPC method's handler on its own, without a socket: requests made as a ROUTER receives
/// them, replies caught as the endpoint would send them.
@Suite("RPC handlers")
struct RPCHandlerTests {
    /// Replies caught instead of sent.
    final class Sent {
        var replies: [ResponseFrames] = []
        var accept = true
        var failure: ZMQError?
    }

    static let metrics = WorkerMetrics()

    static func replies(_ sent: Sent, methods: Set<String> = []) -> RPCReplies {
        RPCReplies(
            counts: ThreadCounts("rpc-test", in: metrics),
            methods: methods,
            logger: Logger(label: "test")
        ) { frames throws(ZMQError) in
            if let failure = sent.failure { throw failure }
            guard sent.accept else { return false }
            // What a DEALER receives: the routing id gone (a reply that does not parse fails the
            // test as a missing reply).
            if let reply = try? ResponseFrames(parsing: Array(frames.dropFirst())) { sent.replies.append(reply) }
            return true
        }
    }

    static func request(_ method: String, _ body: some SwiftProtobuf.Message, id: String = "r-1") throws
        -> RequestFrames
    {
        let frames = try RequestFrames.encode(method: method, requestID: id, body: body)
        return try RequestFrames(parsing: [try ZMQMessage(Array("client".utf8))] + frames)
    }

    static func serving(_ serving: Bool = true) -> WorkerStatus {
        let status = WorkerStatus()
        status.set(serving: serving)
        return status
    }

    @Test("the router: one handler per method, services as health checks name them")
    func router() {
        var router = RPCRouter()
        router.register(RenderOrderHandler())
        router.register(RenderComplicationHandler())
        router.register(StatsHandler(metrics: Self.metrics, status: Self.serving(), renderThreads: 1))
        #expect(router.methods == [CaffeMethod.renderOrder, CaffeMethod.renderComplication, CaffeMethod.stats])
        #expect(router.services == ["caffe.v1.Renderer", "caffe.v1.Admin"])
        #expect(router.handler(for: CaffeMethod.stats) is StatsHandler)
        #expect(router.handler(for: "caffe.v1.Admin/Nothing") == nil)
    }

    @Test("Health: SERVING or NOT_SERVING for the server and its services, NOT_FOUND for another")
    func health() throws {
        let sent = Sent()
        var replies = Self.replies(sent)
        func check(_ service: String, status: WorkerStatus) throws -> ResponseFrames {
            var body = Grpc_Health_V1_HealthCheckRequest()
            body.service = service
            let handler = HealthHandler(status: status, services: ["caffe.v1.Renderer"])
            #expect(handler.handle(try Self.request(CaffeMethod.healthCheck, body), replies: &replies) == .answered)
            return try #require(sent.replies.last)
        }
        for service in ["", "caffe.v1.Renderer", "grpc.health.v1.Health"] {
            let reply = try check(service, status: Self.serving())
            #expect(reply.status.code == .ok)
            #expect(try reply.decodeBody(as: Grpc_Health_V1_HealthCheckResponse.self).status == .serving)
            // The worker's release and the schema's version, readable over the wire.
            #expect(reply.header.metadata == ["caffe-version": CaffeVersion.current, "caffe-schema": "1.1"])
        }
        let draining = try check("", status: Self.serving(false))
        #expect(try draining.decodeBody(as: Grpc_Health_V1_HealthCheckResponse.self).status == .notServing)
        let unknown = try check("caffe.v1.Admin", status: Self.serving())
        #expect(unknown.status == RPCStatus(code: .notFound, message: "unknown service 'caffe.v1.Admin'"))
        #expect(unknown.header.requestID == "r-1")
    }

    @Test("Stats: kept until the counts are fresh, then answered; answered again from them within 10 ms")
    func stats() throws {
        let sent = Sent()
        var replies = Self.replies(sent)
        let handler = StatsHandler(metrics: Self.metrics, status: Self.serving(), renderThreads: 3)
        let request = try Self.request(CaffeMethod.stats, Caffe_V1_StatsRequest())
        #expect(handler.handle(request, replies: &replies) == .kept)
        #expect(handler.keptCount == 1 && handler.keptWake == .milliseconds(1) && sent.replies.isEmpty)
        // The counts are fresh (no other thread counts here) or the 50 ms wait ends: answered.
        let started = ContinuousClock.now
        while handler.keptCount > 0 {
            handler.answerKept(replies: &replies)
            try #require(ContinuousClock.now - started < .seconds(5))
        }
        let reply = try #require(sent.replies.last)
        #expect(reply.status.code == .ok)
        let stats = try reply.decodeBody(as: Caffe_V1_StatsResponse.self)
        #expect(stats.gauges["render_threads"] == 3 && stats.gauges["serving"] == 1)
        #expect(stats.counters["rpc_replies_dropped"] != nil)
        #expect(reply.header.metadata == ["caffe-version": CaffeVersion.current, "caffe-schema": "1.1"])
        #expect(handler.handle(request, replies: &replies) == .answered)
        #expect(sent.replies.count == 2)
        #expect(sent.replies.last?.header.metadata["caffe-schema"] == CaffeSchema.version)
    }

    @Test("RenderOrder and RenderComplication: the session's rendering, or the failure's status")
    func render() throws {
        var renderer = EventRenderer(cores: CoreBox(EventRendererTests.core), limits: .standard)
        let session = renderer.session
        let order = TestOrders.order(3)
        let orders = RenderOrderHandler()
        var replies = Self.replies(Sent())
        let request = try Self.request(CaffeMethod.renderOrder, order)
        #expect(orders.handle(request, replies: &replies) == .render)
        let reply = orders.render(request, renderer: &renderer)
        #expect(reply.code == .ok)
        let rendered = try session.render(order)
        let body = try ResponseFrames(parsing: Array(try #require(reply.frames).dropFirst()))
            .decodeBody(as: Caffe_V1_RenderOrderResponse.self)
        #expect(body.confirmation == rendered.confirmation && body.receipt == rendered.receipt)

        var offMenu = order
        offMenu.lines[0].itemID = "caviar"
        #expect(
            orders.render(try Self.request(CaffeMethod.renderOrder, offMenu), renderer: &renderer).code == .notFound
        )
        #expect(
            orders.render(
                try Self.request(CaffeMethod.renderOrder, Grpc_Health_V1_HealthCheckRequest()),
                renderer: &renderer
            )
            .code == .invalidArgument
        )

        var complication = Caffe_V1_ComplicationRequest()
        complication.requestID = "c-1"
        complication.userID = "u-1"
        complication.families = [.circularSmall]
        complication.locale = "ja-JP"
        complication.timeZone = "Asia/Tokyo"
        complication.nextFreeCoffee = Google_Protobuf_Timestamp(seconds: 1_795_000_000)
        let faces = RenderComplicationHandler()
        let face = faces.render(try Self.request(CaffeMethod.renderComplication, complication), renderer: &renderer)
        #expect(face.code == .ok)
        let payload = try ResponseFrames(parsing: Array(try #require(face.frames).dropFirst()))
            .decodeBody(as: Caffe_V1_ComplicationPayload.self)
        #expect(payload == (try session.complication(complication)))
    }

    @Test("Redrive: rendered on the RPC thread, outside the books; refused draining, past the rate, full, or empty")
    func redrive() throws {
        let queue = try RedriveQueue(capacity: 1)
        let sent = Sent()
        var replies = Self.replies(sent)
        var renderer = EventRenderer(cores: CoreBox(EventRendererTests.core), limits: .standard)
        let frames = try TestOrders.frames(7, source: "src")
        var letter = Caffe_V1_DeadLetter()
        letter.topic = String(decoding: frames[0].bytes, as: UTF8.self)
        letter.originalHeader = Data(frames[1].bytes)
        letter.originalBody = Data(frames[2].bytes)
        // A clock that stands still: the first render (a locale compiled, lexicons read) may take
        // longer than a third of a second on a slow machine, which would refill the rate.
        let start = ContinuousClock.now
        let handler = RedriveHandler(
            redrives: queue,
            status: Self.serving(),
            limits: .standard,
            perSecond: 3,
            logger: Logger(label: "test"),
            now: { start }
        )
        /// The status of a redrive: answered at once (a refusal) or rendered here.
        func redrive(_ letter: Caffe_V1_DeadLetter, with handler: RedriveHandler) throws -> RPCStatus {
            let request = try Self.request(CaffeMethod.redrive, letter)
            switch handler.handle(request, replies: &replies) {
            case .render:
                let reply = handler.render(request, renderer: &renderer)
                return try ResponseFrames(parsing: Array(try #require(reply.frames).dropFirst())).status
            default:
                return try #require(sent.replies.last).status
            }
        }
        #expect(try redrive(letter, with: handler).code == .ok)
        let taken = queue.take()
        #expect(taken.count == 1 && taken.first?.ref == nil)
        let output = try #require(taken.first?.outputs.first)
        let header = try Caffe_V1_EventHeader(serializedBytes: output.header.bytes)
        #expect(header.sequence == 7 && header.metadata[redrivenMetadataKey] == "true")
        #expect(header.bodyType == Caffe_V1_Confirmation.protoMessageName)
        #expect(try redrive(letter, with: handler).code == .ok)
        #expect(
            try redrive(letter, with: handler)
                == RPCStatus(code: .resourceExhausted, message: "1 redrives already queued")
        )
        // Three a second: the fourth within the second is refused before anything is read.
        #expect(
            try redrive(letter, with: handler)
                == RPCStatus(
                    code: .resourceExhausted,
                    message: "more than 3 redrives a second (rpc.redrive_rate); try again later"
                )
        )
        let fresh = RedriveHandler(
            redrives: queue,
            status: Self.serving(),
            limits: .standard,
            logger: Logger(label: "t")
        )
        var empty = letter
        empty.originalBody = Data()
        #expect(try redrive(empty, with: fresh).code == .invalidArgument)
        let draining = RedriveHandler(
            redrives: queue,
            status: Self.serving(false),
            limits: .standard,
            logger: Logger(label: "test")
        )
        #expect(try redrive(letter, with: draining).code == .unavailable)
    }

    @Test("replies: counted by method (unregistered ones as other); a full or gone client's reply dropped and counted")
    func counting() throws {
        let sent = Sent()
        var replies = Self.replies(sent, methods: [CaffeMethod.stats])
        let request = try Self.request(CaffeMethod.stats, Caffe_V1_StatsRequest())
        let stranger = try Self.request("caffe.v1.Admin/Nothing", Caffe_V1_StatsRequest())
        replies.answer(request, .ok)
        replies.answer(stranger, RPCStatus(code: .unimplemented, message: "no"))
        sent.accept = false
        replies.answer(request, .ok)
        sent.failure = ZMQError(code: EHOSTUNREACH, operation: "zmq_msg_send")
        replies.answer(request, .ok)
        let counts = replies.counts.counts
        #expect(counts.rpc[LabelPair(CaffeMethod.stats, "OK")] == 3)
        #expect(counts.rpc[LabelPair("other", "UNIMPLEMENTED")] == 1)
        #expect(counts.rpcRepliesDropped == 2)
        #expect(sent.replies.count == 2)
    }
}
