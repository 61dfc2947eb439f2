// Caffe — ZeroMQ binding tests.
import Glibc
import Synchronization
import Testing
import ZeroMQ
import ZeroMQTestKit

/// Failures found in review, each pinned by a test.
@Suite("Review regressions")
struct RegressionTests {
    @Test func failedContextAndMessageInitializersDoNotCrash() {
        #expect(throws: ZMQError.self) { try ZMQContext(ioThreads: -1) }
        let error = try? #require(throws: ZMQError.self) { try ZMQMessage(count: -1) }
        #expect(error?.code == EINVAL)
    }

    @Test func hugeTimeoutsClampInsteadOfTrapping() async throws {
        #expect(ZMQTimeout.seconds(3_000_000) == .milliseconds(Int32.max))
        #expect(ZMQTimeout(.seconds(Int64.max / 2)) == .milliseconds(Int32.max))
        let context = try ZMQContext()
        let waiting = Task {
            let socket = try context.socket(.pull)
            try socket.bind(ZMQTestEndpoints.inproc("huge-timeout"))
            return try await socket.receive(timeout: .seconds(Int64.max / 2))?.string
        }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func twoTasksOfOneActorCanAwaitTheSameSocket() async throws {
        let owner = try SocketOwner()
        async let first = owner.receiveWithin(.seconds(2))
        async let second = owner.receiveWithin(.milliseconds(200))
        // Neither waiter is lost: the short one times out, the long one gets the message.
        #expect(try await second == nil)
        try await owner.push("hello")
        #expect(try await first == "hello")
    }

    @Test func closingASocketWakesItsWaiters() async throws {
        let owner = try SocketOwner()
        async let waiting = owner.receiveOutcome()
        try await Task.sleep(for: .milliseconds(50))
        await owner.close()
        #expect(await waiting == "closed")
    }

    @Test func asyncSendToAFullRouterPeerWaitsAndCancels() async throws {
        let context = try ZMQContext()
        let router = try context.socket(.router)
        try router.set(.routerMandatory, to: true)
        try router.set(.sendHighWaterMark, to: 1)
        // inproc: each pipe holds SNDHWM + RCVHWM messages, with no kernel buffers behind it.
        let endpoint = try router.bind(ZMQTestEndpoints.inproc("full-peer"))
        var peers: [ZMQSocket] = []
        for name in ["A", "B"] {
            let dealer = try context.socket(.dealer)
            try dealer.set(.routingID, to: Array(name.utf8))
            try dealer.set(.receiveHighWaterMark, to: 1)
            try dealer.connect(endpoint)
            peers.append(dealer)
        }
        // Fill A's pipe; B still has room, so ZMQ_EVENTS keeps saying "writable".
        var sent = 0
        while try router.send(multipart: ["A", "x"], timeout: .milliseconds(100)) { sent += 1 }
        #expect(sent > 0)

        let clock = ContinuousClock()
        let started = clock.now
        #expect(try router.send(multipart: ["A", "y"], timeout: .milliseconds(200)) == false)
        #expect(clock.now - started >= .milliseconds(190))

        // The task becomes the router's only user until it ends.
        nonisolated(unsafe) let socket = router
        let blocked = Task { try await socket.send(multipart: ["A", "y"]) }
        try await Task.sleep(for: .milliseconds(300))
        blocked.cancel()
        await #expect(throws: CancellationError.self) { try await blocked.value }
    }

    @Test func proxyStatisticsNeverAnswerAnEarlierCall() throws {
        let context = try ZMQContext()
        let frontend = try context.socket(.pull)
        let inbound = try frontend.bind(ZMQTestEndpoints.inproc("stats-in"))
        let backend = try context.socket(.push)
        let outbound = try backend.bind(ZMQTestEndpoints.inproc("stats-out"))
        let proxy = try ZMQProxy(frontend: frontend, backend: backend)
        defer { proxy.terminate() }
        let source = try context.socket(.push)
        try source.connect(inbound)
        let sink = try context.socket(.pull)
        try sink.connect(outbound)

        _ = try? proxy.statistics(timeout: .zero)  // gives up before the reply comes
        try source.send("one")
        #expect(try sink.receive(timeout: .seconds(5))?.string == "one")
        #expect(try proxy.statistics().frontend.messagesIn == 1)
    }

    @Test func commandsToAStoppedProxyFailInsteadOfHanging() throws {
        let context = try ZMQContext()
        let frontend = try context.socket(.pull)
        try frontend.bind(ZMQTestEndpoints.inproc("dead-in"))
        let backend = try context.socket(.push)
        try backend.bind(ZMQTestEndpoints.inproc("dead-out"))
        frontend.close()  // the proxy thread fails at once on the closed socket
        let proxy = try ZMQProxy(frontend: frontend, backend: backend)
        var error: ZMQError?
        for _ in 0..<100 where error == nil {
            do {
                _ = try proxy.statistics(timeout: .milliseconds(50))
                usleep(10_000)
            } catch let failure {
                error = failure
            }
        }
        #expect(error != nil)
        #expect(proxy.terminate() != nil)
    }

    @Test func curveServersKeepTheirAuthenticatorAlive() throws {
        let context = try ZMQContext()
        let server = try context.socket(.router)
        let serverKeys = try ZMQCurveKeyPair.generate()
        do {
            let authenticator = try ZMQAuthenticator(context: context, allowedClientKeys: [])
            try server.makeCurveServer(keys: serverKeys, authenticator: authenticator)
        }
        // The authenticator variable is gone; the server still refuses unknown keys.
        let endpoint = try server.bind(ZMQTestEndpoints.ipc("kept"))
        let monitor = try ZMQSocketMonitor(server, events: [.handshakeSucceeded, .handshakeFailedAuth])
        let stranger = try context.socket(.dealer)
        try stranger.makeCurveClient(keys: ZMQCurveKeyPair.generate(), serverKey: serverKeys.publicKey)
        try stranger.connect(endpoint)
        _ = try stranger.send(multipart: ["", "hi"], timeout: .zero)
        #expect(try monitor.receive(timeout: .seconds(5))?.kind == .handshakeFailedAuth)
    }
}

/// An actor owning one PULL socket and the PUSH that feeds it.
actor SocketOwner {
    let context: ZMQContext
    let pull: ZMQSocket
    let push: ZMQSocket

    init() throws {
        context = try ZMQContext()
        pull = try context.socket(.pull)
        let endpoint = try pull.bind(ZMQTestEndpoints.inproc("owner"))
        push = try context.socket(.push)
        try push.connect(endpoint)
    }

    func receiveWithin(_ timeout: Duration) async throws -> String? {
        try await pull.receive(timeout: timeout)?.string
    }

    func receiveOutcome() async -> String {
        do {
            return try await pull.receive().string
        } catch let error as ZMQError where error.isSocketClosed {
            return "closed"
        } catch {
            return "\(error)"
        }
    }

    func push(_ text: String) async throws {
        try await push.send(text)
    }

    func close() {
        pull.close()
    }
}
