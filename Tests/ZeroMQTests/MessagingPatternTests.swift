import Glibc
// Caffe — ZeroMQ binding tests.
import Synchronization
import Testing
import ZeroMQ
import ZeroMQTestKit

@Suite("Messaging patterns over real sockets")
struct MessagingPatternTests {
    let context: ZMQContext

    init() throws {
        context = try ZMQContext()
    }

    @Test func pubSubDeliversOnlySubscribedTopics() throws {
        let publisher = try context.socket(.pub)
        let endpoint = try publisher.bind(ZMQTestEndpoints.inproc("pubsub"))
        let subscriber = try context.socket(.sub)
        try subscriber.subscribe("order.")
        try subscriber.connect(endpoint)
        try awaitSubscription(publisher: publisher, subscriber: subscriber, topic: "order.")

        for topic in ["receipt.sf-1", "order.sf-1", "orders-typo", "order.nyc-2", "confirmation.es-MX"] {
            try publisher.send(multipart: [topic, "body of \(topic)"])
        }
        var received: [[String]] = []
        while let frames = try subscriber.receiveMultipart(timeout: .milliseconds(200)) {
            received.append(frames.map(\.string))
        }
        #expect(received == [["order.sf-1", "body of order.sf-1"], ["order.nyc-2", "body of order.nyc-2"]])

        try subscriber.unsubscribe("order.")
        try subscriber.subscribe("receipt.")
        try awaitSubscription(publisher: publisher, subscriber: subscriber, topic: "receipt.")
        try publisher.send(multipart: ["order.sf-1", "ignored"])
        try publisher.send(multipart: ["receipt.sf-1", "kept"])
        let frames = try #require(try subscriber.receiveMultipart(timeout: .seconds(5)))
        #expect(frames.map(\.string) == ["receipt.sf-1", "kept"])
    }

    @Test func pushPullFansOutRoundRobinAndFansIn() throws {
        let ventilator = try context.socket(.push)
        let endpoint = try ventilator.bind(ZMQTestEndpoints.tcpLoopback)
        let monitor = try ZMQSocketMonitor(ventilator, events: .handshakeSucceeded)
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        #expect(!endpoint.hasSuffix(":*"))
        let sink = try context.socket(.pull)
        let sinkEndpoint = try sink.bind(ZMQTestEndpoints.ipc("sink"))
        var workers: [ZMQSocket] = []
        var results: [ZMQSocket] = []
        for _ in 0..<3 {
            let worker = try context.socket(.pull)
            try worker.connect(endpoint)
            workers.append(worker)
            let result = try context.socket(.push)
            try result.connect(sinkEndpoint)
            results.append(result)
        }
        // Wait until all three workers are connected, so round-robin covers them all.
        for _ in 0..<3 {
            #expect(try monitor.receive(timeout: .seconds(5))?.kind == .handshakeSucceeded)
        }

        for task in 0..<30 { try ventilator.send("task \(task)") }
        var perWorker: [Int] = []
        for (index, worker) in workers.enumerated() {
            var count = 0
            while let task = try worker.receive(timeout: .milliseconds(300)) {
                try results[index].send("\(index):\(task.string)")
                count += 1
            }
            perWorker.append(count)
        }
        #expect(perWorker == [10, 10, 10])

        var collected = Set<String>()
        while let result = try sink.receive(timeout: .milliseconds(300)) {
            collected.insert(String(result.string.split(separator: ":")[1]))
        }
        #expect(collected == Set((0..<30).map { "task \($0)" }))
    }

    @Test func routerRoutesRepliesByRoutingID() throws {
        let router = try context.socket(.router)
        let endpoint = try router.bind(ZMQTestEndpoints.tcpLoopback)
        let alice = try context.socket(.dealer)
        try alice.set(.routingID, to: Array("alice".utf8))
        try alice.connect(endpoint)
        let bob = try context.socket(.dealer)
        try bob.set(.routingID, to: Array("bob".utf8))
        try bob.connect(endpoint)

        try alice.send(multipart: ["", "from alice"])
        try bob.send(multipart: ["", "from bob"])
        var requests: [[String]] = []
        for _ in 0..<2 {
            requests.append(try #require(try router.receiveMultipart(timeout: .seconds(5))).map(\.string))
        }
        #expect(Set(requests) == [["alice", "", "from alice"], ["bob", "", "from bob"]])

        try router.send(multipart: ["bob", "", "for bob"])
        try router.send(multipart: ["alice", "", "for alice"])
        #expect(try alice.receiveMultipart(timeout: .seconds(5))?.map(\.string) == ["", "for alice"])
        #expect(try bob.receiveMultipart(timeout: .seconds(5))?.map(\.string) == ["", "for bob"])
        #expect(try alice.receive(timeout: .milliseconds(50)) == nil)
    }

    @Test func requestReplyLockstep() throws {
        let server = try context.socket(.rep)
        let endpoint = try server.bind(ZMQTestEndpoints.ipc("rep"))
        let client = try context.socket(.req)
        try client.connect(endpoint)

        for number in 1...3 {
            try client.send("ping \(number)")
            #expect(try server.receive().string == "ping \(number)")
            try server.send("pong \(number)")
            #expect(try client.receive().string == "pong \(number)")
        }
        // REQ enforces send/receive alternation: a second send before the reply is refused.
        try client.send("one")
        let error = try #require(throws: ZMQError.self) { try client.send("two") }
        #expect(error.isWrongState)
        #expect(error.operation == "zmq_send(REQ)")
    }

    @Test func multipartMessagesArriveWholeAndInOrder() throws {
        let pull = try context.socket(.pull)
        let endpoint = try pull.bind(ZMQTestEndpoints.inproc("multipart"))
        let push = try context.socket(.push)
        try push.connect(endpoint)

        let large = [UInt8]((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let frames: [any ZMQFrameRepresentable] = ["header", [UInt8](), large, "trailer", [0x00, 0xFF] as [UInt8]]
        for _ in 0..<50 { try push.send(multipart: frames) }
        for _ in 0..<50 {
            let received = try #require(try pull.receiveMultipart(timeout: .seconds(5)))
            #expect(received.count == 5)
            #expect(received[0].string == "header")
            #expect(received[1].isEmpty)
            #expect(received[2].bytes == large)
            #expect(received[3].string == "trailer")
            #expect(received[4].bytes == [0x00, 0xFF])
            #expect(received.map(\.hasMore) == [true, true, true, true, false])
        }
    }

    @Test func zeroCopyMessagesAreSentAndReleased() throws {
        let pull = try context.socket(.pull)
        let endpoint = try pull.bind(ZMQTestEndpoints.inproc("nocopy"))
        let push = try context.socket(.push)
        try push.connect(endpoint)

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        for index in 0..<4096 { buffer[index] = UInt8(index % 251) }
        let released = ReleaseFlag()
        let message = try ZMQMessage(bytesNoCopy: UnsafeRawBufferPointer(buffer)) { bytes in
            released.set()
            bytes.deallocate()
        }
        try push.send(message)
        #expect(message.isEmpty)
        let received = try pull.receive()
        #expect(received.count == 4096)
        #expect(received.bytes == (0..<4096).map { UInt8($0 % 251) })
        // inproc hands the same buffer over; it is freed once the received frame goes away.
        _ = consume received
        #expect(released.isSet)
    }
}

/// Waits until `subscriber`'s subscription to `topic` reaches `publisher`.
func awaitSubscription(publisher: ZMQSocket, subscriber: ZMQSocket, topic: String) throws {
    let arrived = try ZMQSubscriptionProbe.awaitSubscription(publisher: publisher, subscriber: subscriber, topic: topic)
    #expect(arrived, "subscription to \(topic) never arrived")
}

/// A flag a libzmq deallocator callback sets.
final class ReleaseFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .releasing) }
    var isSet: Bool { flag.load(ordering: .acquiring) }
}
