// Caffe — CaffeWorker tests.
import CaffeClient
import CaffeProtocol
import CaffeTransport
import Foundation
import Logging
import ServiceLifecycle
import Testing
import WorkerTestKit
import ZeroMQ

/// The replay server the tests' order sources and the simulator share (WorkerTestKit), as a
/// service group runs it.
@Suite("Replay server", .timeLimit(.minutes(1)))
struct ReplayServerTests {
    @Test(
        "runs as a Service: answers a Fetch from what it holds, the forgotten as unavailable, and ends on graceful shutdown"
    )
    func runsAsService() async throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let server = try ReplayServer(context: context, endpoint: "tcp://127.0.0.1:*")
        for sequence: UInt64 in 1...3 { server.remember(TestOrders.order(sequence)) }
        server.forget(source: TestOrders.defaultSource, sequences: [2])
        let group = ServiceGroup(services: [server], logger: Logger(label: "replay-server-test"))
        async let running: Void = group.run()

        let client = try context.socket(.dealer)
        defer { client.close(linger: .zero) }
        try client.connect(server.endpoint)
        let reply = try #require(try await Self.fetch(1...4, on: client, timeout: .seconds(30)), "no reply in 30 s")
        #expect(reply.header.requestID == "r-1" && reply.status.code == .ok)
        let response = try reply.decodeBody(as: Caffe_V1_ReplayResponse.self)
        #expect(response.events.map(\.orderID) == ["O-1", "O-3"])
        #expect(response.unavailable == [2, 4])
        #expect(server.requestedRanges == [1...4] && server.requestsServed == 1 && server.eventsServed == 2)

        await group.triggerGracefulShutdown()
        try await running
        // Ended: nothing answers any more (the socket's closing is what stopBeforeStart checks).
        #expect(try await Self.fetch(1...4, on: client, timeout: .milliseconds(300)) == nil)
    }

    /// Sends a Fetch of `range` (request id `r-1`) and waits for the reply without blocking a
    /// thread of the pool the service group runs on.
    private static func fetch(
        _ range: ClosedRange<UInt64>,
        on client: ZMQSocket,
        timeout: Duration
    ) async throws -> ResponseFrames? {
        var request = Caffe_V1_ReplayRequest()
        request.sourceID = TestOrders.defaultSource
        request.fromSequence = range.lowerBound
        request.toSequence = range.upperBound
        try await client.send(
            multipart: try RequestFrames.encode(method: CaffeMethod.replayFetch, requestID: "r-1", body: request)
        )
        return try await client.receiveMultipart(timeout: timeout).map { try ResponseFrames(parsing: $0) }
    }

    @Test("stop() before start() closes the socket; start() after stop() does nothing")
    func stopBeforeStart() throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let server = try ReplayServer(context: context, endpoint: "tcp://127.0.0.1:*")
        server.stop()
        server.start()
        server.stop()
        // The port comes free (libzmq unbinds on its I/O thread): the router was closed, not left
        // open to the context's end.
        let again = try context.socket(.router)
        defer { again.close(linger: .zero) }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while true {
            do {
                _ = try again.bind(server.endpoint)
                break
            } catch {
                if clock.now > deadline { throw error }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }
}
