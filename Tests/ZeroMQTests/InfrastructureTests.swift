// Caffe — ZeroMQ binding tests.
import Testing
import ZeroMQ
import ZeroMQTestKit

@Suite("Monitor, poller and proxy")
struct InfrastructureTests {
    let context: ZMQContext

    init() throws {
        context = try ZMQContext()
    }

    @Test func monitorReportsConnectionLifecycle() throws {
        let server = try context.socket(.pull)
        let serverMonitor = try ZMQSocketMonitor(server)
        let endpoint = try server.bind(ZMQTestEndpoints.tcpLoopback)
        let listening = try #require(try serverMonitor.receive(timeout: .seconds(5)))
        #expect(listening.kind == .listening)
        #expect(listening.endpoint == endpoint)

        let client = try context.socket(.push)
        let clientMonitor = try ZMQSocketMonitor(client)
        try client.connect(endpoint)
        #expect(try clientMonitor.wait(for: .connected, timeout: .seconds(5))?.endpoint == endpoint)
        #expect(try clientMonitor.wait(for: .handshakeSucceeded, timeout: .seconds(5))?.endpoint == endpoint)
        #expect(try serverMonitor.wait(for: .accepted, timeout: .seconds(5)) != nil)

        client.close()
        #expect(try serverMonitor.wait(for: .disconnected, timeout: .seconds(5))?.kind == .disconnected)
    }

    @Test func pollerReportsWhichSocketIsReady() throws {
        let first = try context.socket(.pull)
        let firstEndpoint = try first.bind(ZMQTestEndpoints.inproc("poll-a"))
        let second = try context.socket(.pull)
        let secondEndpoint = try second.bind(ZMQTestEndpoints.inproc("poll-b"))
        let pushA = try context.socket(.push)
        try pushA.connect(firstEndpoint)
        let pushB = try context.socket(.push)
        try pushB.connect(secondEndpoint)

        var poller = ZMQPoller()
        let a = poller.register(first, for: .readable)
        let b = poller.register(second, for: .readable)
        #expect(try poller.poll(timeout: .milliseconds(20)) == 0)

        try pushB.send("to b")
        #expect(try poller.poll(timeout: .seconds(5)) == 1)
        #expect(!poller.isReadable(a))
        #expect(poller.isReadable(b))
        #expect(try second.receive().string == "to b")

        try pushA.send("to a")
        try pushB.send("to b again")
        #expect(try poller.poll(timeout: .seconds(5)) == 2)
        #expect(poller.isReadable(a) && poller.isReadable(b))

        poller.update(b, for: [])
        _ = try first.receive()
        #expect(try poller.poll(timeout: .milliseconds(20)) == 0)
        first.close()
        #expect(throws: ZMQError.self) { try poller.poll(timeout: .zero) }
    }

    @Test func forwarderProxyCarriesPublicationsAndCountsThem() throws {
        let frontend = try context.socket(.xsub)
        let inbound = try frontend.bind(ZMQTestEndpoints.inproc("fwd-in"))
        let backend = try context.socket(.xpub)
        let outbound = try backend.bind(ZMQTestEndpoints.inproc("fwd-out"))
        let capture = try context.socket(.push)
        let captureEndpoint = try capture.bind(ZMQTestEndpoints.inproc("fwd-capture"))
        let captured = try context.socket(.pull)
        try captured.connect(captureEndpoint)
        let proxy = try ZMQProxy(frontend: frontend, backend: backend, capture: capture)

        let publisher = try context.socket(.pub)
        try publisher.connect(inbound)
        let subscriber = try context.socket(.sub)
        try subscriber.subscribe("order.")
        try subscriber.connect(outbound)
        try awaitSubscription(publisher: publisher, subscriber: subscriber, topic: "order.")
        while try captured.tryReceive() != nil {}
        let before = try proxy.statistics()

        for number in 1...5 { try publisher.send(multipart: ["order.sf-1", "event \(number)"]) }
        for number in 1...5 {
            #expect(
                try subscriber.receiveMultipart(timeout: .seconds(5))?.map(\.string) == [
                    "order.sf-1", "event \(number)",
                ]
            )
        }
        let after = try proxy.statistics()
        #expect(after.frontend.messagesIn - before.frontend.messagesIn == 5)
        #expect(after.backend.messagesOut - before.backend.messagesOut == 5)
        #expect(
            after.frontend.bytesIn - before.frontend.bytesIn == 5
                * UInt64("order.sf-1".utf8.count + "event 1".utf8.count)
        )
        // The capture socket saw the same traffic.
        var copies = 0
        while try captured.receive(timeout: .milliseconds(200)) != nil { copies += 1 }
        #expect(copies >= 10)

        #expect(proxy.terminate() == nil)
        #expect(throws: ZMQError.self) { try proxy.pause() }
    }

    @Test func queueProxyPausesAndResumes() throws {
        let frontend = try context.socket(.router)
        let clients = try frontend.bind(ZMQTestEndpoints.inproc("queue-front"))
        let backend = try context.socket(.dealer)
        let workers = try backend.bind(ZMQTestEndpoints.inproc("queue-back"))
        let proxy = try ZMQProxy(frontend: frontend, backend: backend)
        defer { proxy.terminate() }

        let worker = try context.socket(.rep)
        try worker.connect(workers)
        let client = try context.socket(.req)
        try client.connect(clients)

        try client.send("first")
        #expect(try worker.receive(timeout: .seconds(5))?.string == "first")
        try worker.send("first done")
        #expect(try client.receive(timeout: .seconds(5))?.string == "first done")

        try proxy.pause()
        _ = try proxy.statistics()  // a round trip on the control socket: the pause has been applied
        try client.send("second")
        #expect(try worker.receive(timeout: .milliseconds(200)) == nil)
        try proxy.resume()
        #expect(try worker.receive(timeout: .seconds(5))?.string == "second")
        let stats = try proxy.statistics()
        #expect(stats.frontend.messagesIn == 2)
        #expect(stats.backend.messagesOut == 2)
        #expect(stats.backend.messagesIn == 1)
    }
}
