// Caffe — CaffeProtocol tests.
import CaffeProtocol
import CaffeProtocolFixtures
import CaffeTransport
import SwiftProtobuf
import Testing
import ZeroMQ
import ZeroMQTestKit

@Suite("Caffe frames over real ZeroMQ sockets")
struct SocketRoundTripTests {
    let context: ZMQContext

    init() throws {
        context = try ZMQContext()
    }

    static let probeTopic = ZMQSubscriptionProbe.probeTopic(for: "order.")

    func awaitSubscription(publisher: ZMQSocket, subscriber: ZMQSocket) throws {
        let arrived = try ZMQSubscriptionProbe.awaitSubscription(
            publisher: publisher,
            subscriber: subscriber,
            topic: "order."
        )
        #expect(arrived, "the subscription never took effect")
    }

    /// The next message that is not a probe.
    func receiveSkippingProbes(_ subscriber: ZMQSocket) throws -> [ZMQMessage]? {
        while let frames = try subscriber.receiveMultipart(timeout: .seconds(5)) {
            if frames.first?.string != Self.probeTopic { return frames }
        }
        return nil
    }

    @Test func orderEventOverPubSubInproc() throws {
        let publisher = try context.socket(.pub)
        let endpoint = try publisher.bind(ZMQTestEndpoints.inproc("caffe-pubsub"))
        let subscriber = try context.socket(.sub)
        try subscriber.subscribe("order.")
        try subscriber.connect(endpoint)
        try awaitSubscription(publisher: publisher, subscriber: subscriber)

        let order = Fixtures.order()
        let sentAt = Google_Protobuf_Timestamp(seconds: 1_767_225_603, nanos: 0)
        // A receipt first: the subscriber filters it out, so the next message it sees is the order.
        try publisher.send(
            multipart: EventFrames.encode(
                topic: CaffeTopic.receipt(store: "sf-1"),
                header: Caffe_V1_EventHeader(),
                body: Fixtures.receipt()
            )
        )
        try publisher.send(
            multipart: EventFrames.encode(
                topic: CaffeTopic.order(store: order.storeID),
                header: EventFrames.header(for: order, sentAt: sentAt),
                body: order
            )
        )

        let frames = try #require(try receiveSkippingProbes(subscriber))
        #expect(frames.count == 3)
        let event = try EventFrames(parsing: frames)
        #expect(event.topic == "order.sf-1")
        #expect(event.header.bodyType == "caffe.v1.OrderEvent")
        #expect(event.header.sourceID == "pos-sf-1")
        #expect(event.header.sequence == 17)
        #expect(event.header.orderID == "ord-0001")
        #expect(event.header.sentAt == sentAt)
        let decoded = try event.decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(decoded == order)
        try decoded.validate()
    }

    @Test func sequenceOfOrderEventsOverPushPullArrivesInOrder() throws {
        let push = try context.socket(.push)
        let endpoint = try push.bind(ZMQTestEndpoints.inproc("caffe-pushpull"))
        let pull = try context.socket(.pull)
        try pull.connect(endpoint)

        var sent: [Caffe_V1_OrderEvent] = []
        for sequence in UInt64(1)...5 {
            var order = Fixtures.order()
            order.sequence = sequence
            order.orderID = "ord-\(sequence)"
            sent.append(order)
            try push.send(
                multipart: EventFrames.encode(
                    topic: CaffeTopic.order(store: "sf-1"),
                    header: EventFrames.header(for: order),
                    body: order
                )
            )
        }

        var received: [Caffe_V1_OrderEvent] = []
        var sequences: [UInt64] = []
        for _ in 0..<5 {
            let event = try EventFrames(parsing: try #require(try pull.receiveMultipart(timeout: .seconds(5))))
            sequences.append(event.header.sequence)
            received.append(try event.decodeBody(as: Caffe_V1_OrderEvent.self))
        }
        #expect(sequences == [1, 2, 3, 4, 5])
        #expect(received == sent)
        #expect(received.map(\.orderID) == ["ord-1", "ord-2", "ord-3", "ord-4", "ord-5"])
    }

    @Test func healthCheckOverDealerRouterTCP() throws {
        let server = try context.socket(.router)
        let endpoint = try server.bind(ZMQTestEndpoints.tcpLoopback)
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        #expect(!endpoint.hasSuffix(":*"))
        let client = try context.socket(.dealer)
        try client.set(.routingID, to: Array("kiosk-7".utf8))
        try client.connect(endpoint)

        var header = Fixtures.requestHeader(method: CaffeMethod.healthCheck, requestID: "hc-1")
        header.deadline = Google_Protobuf_Timestamp(seconds: 4_102_444_800, nanos: 0)
        var check = Grpc_Health_V1_HealthCheckRequest()
        check.service = "caffe.v1.Renderer"
        try client.send(multipart: RequestFrames.encode(header: header, body: check))

        let incoming = try #require(try server.receiveMultipart(timeout: .seconds(5)))
        #expect(incoming.count == 4)
        let request = try RequestFrames(parsing: incoming)
        #expect(request.routing.map(\.string) == ["kiosk-7"])
        #expect(request.header.method == "grpc.health.v1.Health/Check")
        #expect(request.header.requestID == "hc-1")
        #expect(request.header.deadline == Google_Protobuf_Timestamp(seconds: 4_102_444_800, nanos: 0))
        #expect(!request.isExpired(at: Google_Protobuf_Timestamp(seconds: 1_767_225_600, nanos: 0)))
        #expect(try request.decodeBody(as: Grpc_Health_V1_HealthCheckRequest.self).service == "caffe.v1.Renderer")

        var health = Grpc_Health_V1_HealthCheckResponse()
        health.status = .serving
        try server.send(multipart: request.reply(status: .ok, body: health))

        let reply = try #require(try client.receiveMultipart(timeout: .seconds(5)))
        #expect(reply.count == 3)
        let response = try ResponseFrames(parsing: reply)
        #expect(response.header.requestID == "hc-1")
        #expect(response.header.status == .ok)
        #expect(response.status == .ok)
        #expect(try response.decodeBody(as: Grpc_Health_V1_HealthCheckResponse.self).status == .serving)
    }

    @Test func repliesAreMatchedByRequestIdNotOrder() throws {
        let server = try context.socket(.router)
        let endpoint = try server.bind(ZMQTestEndpoints.tcpLoopback)
        let client = try context.socket(.dealer)
        try client.connect(endpoint)

        try client.send(
            multipart: RequestFrames.encode(
                header: Fixtures.requestHeader(method: CaffeMethod.healthCheck, requestID: "a"),
                body: Grpc_Health_V1_HealthCheckRequest()
            )
        )
        try client.send(
            multipart: RequestFrames.encode(
                header: Fixtures.requestHeader(method: CaffeMethod.stats, requestID: "b"),
                body: Caffe_V1_StatsRequest()
            )
        )
        let first = try RequestFrames(parsing: try #require(try server.receiveMultipart(timeout: .seconds(5))))
        let second = try RequestFrames(parsing: try #require(try server.receiveMultipart(timeout: .seconds(5))))
        #expect([first.header.requestID, second.header.requestID] == ["a", "b"])
        // Auto-generated routing ids: five bytes starting with zero, the same peer for both.
        #expect(first.routing.count == 1)
        #expect(first.routing[0].count == 5)
        #expect(first.routing[0].bytes.first == 0)
        #expect(first.routing[0].bytes == second.routing[0].bytes)

        var stats = Caffe_V1_StatsResponse()
        stats.counters = ["orders": 9]
        try server.send(multipart: second.reply(status: .ok, body: stats))
        try server.send(multipart: first.reply(status: RPCStatus(code: .unavailable, message: "draining")))

        var byID: [String: ResponseFrames] = [:]
        for _ in 0..<2 {
            let response = try ResponseFrames(parsing: try #require(try client.receiveMultipart(timeout: .seconds(5))))
            byID[response.header.requestID] = response
        }
        #expect(byID.keys.sorted() == ["a", "b"])
        let a = try #require(byID["a"])
        #expect(a.status == RPCStatus(code: .unavailable, message: "draining"))
        #expect(a.bodyFrame.isEmpty)
        let b = try #require(byID["b"])
        #expect(b.status == .ok)
        #expect(try b.decodeBody(as: Caffe_V1_StatsResponse.self).counters == ["orders": 9])
    }

    @Test func requestThroughABrokerCarriesTwoRoutingIds() throws {
        // client DEALER → broker ROUTER | broker DEALER → server ROUTER
        let server = try context.socket(.router)
        let serverEndpoint = try server.bind(ZMQTestEndpoints.inproc("caffe-server"))
        let frontend = try context.socket(.router)
        let frontendEndpoint = try frontend.bind(ZMQTestEndpoints.inproc("caffe-frontend"))
        let backend = try context.socket(.dealer)
        try backend.set(.routingID, to: Array("broker-1".utf8))
        try backend.connect(serverEndpoint)
        let client = try context.socket(.dealer)
        try client.set(.routingID, to: Array("client-1".utf8))
        try client.connect(frontendEndpoint)

        let order = Fixtures.order()
        try client.send(
            multipart: RequestFrames.encode(header: Fixtures.requestHeader(requestID: "via-broker"), body: order)
        )
        try backend.send(multipart: try #require(try frontend.receiveMultipart(timeout: .seconds(5))))

        let request = try RequestFrames(parsing: try #require(try server.receiveMultipart(timeout: .seconds(5))))
        #expect(request.routing.map(\.string) == ["broker-1", "client-1"])
        #expect(request.header.requestID == "via-broker")
        #expect(try request.decodeBody(as: Caffe_V1_OrderEvent.self) == order)

        var rendered = Caffe_V1_RenderOrderResponse()
        rendered.receipt = Fixtures.receipt()
        try server.send(multipart: request.reply(status: .ok, body: rendered, metadata: ["worker": "w-2"]))

        let atBroker = try #require(try backend.receiveMultipart(timeout: .seconds(5)))
        #expect(atBroker.first?.string == "client-1")
        try frontend.send(multipart: atBroker)

        let response = try ResponseFrames(parsing: try #require(try client.receiveMultipart(timeout: .seconds(5))))
        #expect(response.header.requestID == "via-broker")
        #expect(response.header.metadata == ["worker": "w-2"])
        #expect(response.status == .ok)
        #expect(try response.decodeBody(as: Caffe_V1_RenderOrderResponse.self) == rendered)
    }
}
