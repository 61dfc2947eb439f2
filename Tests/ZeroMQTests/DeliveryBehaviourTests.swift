// Caffe — ZeroMQ binding tests.
import Glibc
import Testing
import ZeroMQ
import ZeroMQTestKit

@Suite("Timeouts, would-block, high-water marks and errors")
struct DeliveryBehaviourTests {
    let context: ZMQContext

    init() throws {
        context = try ZMQContext()
    }

    @Test func receiveTimeoutsAndNonBlockingReturnNothing() throws {
        let pull = try context.socket(.pull)
        try pull.bind(ZMQTestEndpoints.inproc("timeouts"))

        #expect(try pull.tryReceive() == nil)
        #expect(try pull.tryReceiveMultipart() == nil)
        let start = ContinuousClock.now
        #expect(try pull.receive(timeout: .milliseconds(100)) == nil)
        #expect(ContinuousClock.now - start >= .milliseconds(95))
        #expect(try pull.receive(into: ZMQMessage(), timeout: .milliseconds(10)) == false)

        // A socket-level receive timeout makes the blocking call throw EAGAIN.
        try pull.set(.receiveTimeout, to: .milliseconds(50))
        let error = try #require(throws: ZMQError.self) { try pull.receive() }
        #expect(error.isWouldBlock)
        #expect(error.operation == "zmq_msg_recv(PULL)")
    }

    @Test func pushWithoutPeersWouldBlock() throws {
        let push = try context.socket(.push)
        try push.bind(ZMQTestEndpoints.inproc("lonely"))
        #expect(try push.trySend("nobody listens") == false)
        #expect(try push.send("nobody listens", timeout: .milliseconds(20)) == false)
        #expect(try push.send(multipart: ["a", "b"], timeout: .zero) == false)
        let message = try ZMQMessage("kept")
        #expect(try push.send(message, timeout: .zero) == false)
        #expect(message.string == "kept")
    }

    @Test func publisherDropsBeyondItsHighWaterMark() throws {
        let publisher = try context.socket(.pub)
        try publisher.set(.sendHighWaterMark, to: 10)
        let endpoint = try publisher.bind(ZMQTestEndpoints.inproc("hwm"))
        let subscriber = try context.socket(.sub)
        try subscriber.set(.receiveHighWaterMark, to: 10)
        try subscriber.subscribe("")
        try subscriber.connect(endpoint)
        try awaitSubscription(publisher: publisher, subscriber: subscriber, topic: "")

        // PUB never blocks: all 1000 sends succeed at once, the excess is dropped.
        for number in 0..<1000 {
            #expect(try publisher.trySend("event \(number)"))
        }
        var received: [String] = []
        while let message = try subscriber.receive(timeout: .milliseconds(100)) {
            received.append(message.string)
        }
        // inproc shares one pipe of about SNDHWM + RCVHWM messages (libzmq counts the limit
        // loosely); the first ones arrive in order, the rest were dropped without blocking.
        #expect((10...20).contains(received.count))
        #expect(received == (0..<received.count).map { "event \($0)" })
    }

    @Test func routerMandatoryReportsUnroutableMessages() throws {
        let router = try context.socket(.router)
        try router.bind(ZMQTestEndpoints.inproc("mandatory"))
        // Without the option, a message to an unknown peer is dropped silently.
        try router.send(multipart: ["nobody", "", "dropped"])

        try router.set(.routerMandatory, to: true)
        let error = try #require(throws: ZMQError.self) { try router.send(multipart: ["nobody", "", "lost?"]) }
        #expect(error.isHostUnreachable)
        #expect(error.description.contains("zmq_send(ROUTER)"))
    }

    @Test(arguments: [
        ("tcp://127.0.0.1:notaport", "zmq_bind(tcp://127.0.0.1:notaport)"),
        ("nonsense://here", "zmq_bind(nonsense://here)"),
        ("tcp://", "zmq_bind(tcp://)"),
    ])
    func badEndpointsFailWithTheCall(endpoint: String, operation: String) throws {
        let socket = try context.socket(.pull)
        let error = try #require(throws: ZMQError.self) { try socket.bind(endpoint) }
        #expect(error.operation == operation)
        #expect(error.code != 0)
        #expect(!error.message.isEmpty)
    }

    @Test func bindingTheSameAddressTwiceFails() throws {
        let first = try context.socket(.pull)
        let endpoint = try first.bind(ZMQTestEndpoints.tcpLoopback)
        let second = try context.socket(.pull)
        let error = try #require(throws: ZMQError.self) { try second.bind(endpoint) }
        #expect(error.code == EADDRINUSE)
        try first.unbind(endpoint)
        // libzmq closes the listener on its I/O thread, so the port frees up shortly after.
        var rebound: String?
        for _ in 0..<200 where rebound == nil {
            rebound = try? second.bind(endpoint)
            if rebound == nil { usleep(5000) }
        }
        #expect(rebound == endpoint)
    }

    @Test func closedSocketsReportClosedNotCrash() throws {
        let socket = try context.socket(.push)
        socket.close(linger: .zero)
        #expect(socket.isClosed)
        let error = try #require(throws: ZMQError.self) { try socket.send("late") }
        #expect(error.isSocketClosed)
        #expect(throws: ZMQError.self) { try socket.get(.linger) }
        socket.close()
    }

    @Test func contextShutdownReleasesBlockedReceivers() throws {
        let context = try ZMQContext()
        let socket = try context.socket(.pull)
        try socket.bind(ZMQTestEndpoints.inproc("shutdown"))
        context.shutdown()
        let error = try #require(throws: ZMQError.self) { try socket.receive() }
        #expect(error.isContextTerminated)
        socket.close()
    }

    @Test func releasingSocketsWithQueuedMessagesDoesNotHang() throws {
        // A PUSH with queued messages to a peer that never reads: termination must not wait on it.
        var context: ZMQContext? = try ZMQContext()
        var push: ZMQSocket? = try context?.socket(.push)
        try push?.connect("tcp://127.0.0.1:9")
        for _ in 0..<10 { _ = try push?.trySend("undeliverable") }
        push = nil
        context = nil
        #expect(context == nil)
    }
}
