// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import SwiftProtobuf
import Synchronization
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeBooks
@testable import CaffeWorker

/// Gaps, replays and restarts against a real `caffe worker` process.
@Suite("caffe worker: no order lost", .serialized)
struct WorkerRecoveryTests {
    /// A PULL collector bound on loopback.
    struct Collector {
        let socket: ZMQSocket
        let endpoint: String

        init(context: ZMQContext) throws {
            socket = try context.socket(.pull)
            endpoint = try socket.bind("tcp://127.0.0.1:*")
        }

        /// Events until `done` says so, or nothing came for `quiet`.
        func collect(quiet: ZMQTimeout = .seconds(15), until done: ([EventFrames]) -> Bool) throws -> [EventFrames] {
            var events: [EventFrames] = []
            while !done(events), let frames = try socket.receiveMultipart(timeout: quiet) {
                events.append(try EventFrames(parsing: frames))
            }
            return events
        }
    }

    @Test("a dropped range is replayed; a range the source no longer has is dead-lettered as unrecoverable")
    func gapRecovery() throws {
        let fixture = try WorkerFixture("worker-gap", settings: ["replay.backoff_ms=20", "replay.timeout_ms=500"])
        defer { withExtendedLifetime(fixture) {} }
        let (source, collector, worker) = (fixture.source, fixture.collector, fixture.worker)
        try worker.waitUntilServing()

        // 3 and 4 are lost on the way (as a PUB at its high-water mark drops them); 7 and 8 the
        // source has forgotten too.
        source.forget([7, 8])
        for sequence in UInt64(1)...10 {
            let order = TestOrders.order(sequence)
            if [3, 4, 7, 8].contains(sequence) { source.drop(order) } else { try source.send(order) }
        }
        let events = try collector.collect { events in
            events.filter { $0.topic.hasPrefix("confirmation.") }.count >= 8
                && events.filter { $0.topic.hasPrefix("receipt.") }.count >= 8
                && events.contains { $0.topic == CaffeTopic.deadLetter }
        }
        let confirmed = events.filter { $0.topic.hasPrefix("confirmation.") }.map(\.header.sequence).sorted()
        #expect(confirmed == [1, 2, 3, 4, 5, 6, 9, 10])
        #expect(events.filter { $0.topic.hasPrefix("receipt.") }.count == 8)
        let replayed = events.filter { $0.header.metadata["replayed"] == "true" && $0.topic.hasPrefix("confirmation.") }
        #expect(replayed.map(\.header.sequence).sorted() == [3, 4])
        let letters = try events.filter { $0.topic == CaffeTopic.deadLetter }.map {
            try $0.decodeBody(as: Caffe_V1_DeadLetter.self)
        }
        #expect(letters.count == 1)
        #expect(letters.first?.reason == .unrecoverableGap)
        #expect(letters.first.map { ($0.gapFrom, $0.gapTo, $0.ref.sourceID) } ?? (0, 0, "") == (7, 8, "src"))
        #expect(source.requests == [3...4, 7...8])

        // The replayed events render exactly as live ones.
        let session = try RenderingCore(configurationDirectory: ConfigurationDirectory.builtIn).makeSession()
        for event in replayed {
            let order = TestOrders.order(event.header.sequence)
            #expect(try event.decodeBody(as: Caffe_V1_Confirmation.self) == session.render(order).confirmation)
        }
        // A publisher retry under a new sequence: not rendered again, but its sequence is done.
        var retry = TestOrders.order(10)
        retry.sequence = 11
        try source.send(retry)
        #expect(try collector.collect(quiet: .milliseconds(500)) { _ in false }.isEmpty)
        #expect(worker.terminate() == 0)
        #expect(try Checkpoint.read(worker.checkpoint).sources == ["src": 11])
        let log = worker.stderr
        #expect(log.contains("sequence gap") && log.contains("unrecoverable gap"), "\(log)")
    }

    @Test("kill -9 mid-stream, restart: every order rendered, exactly once after de-duplication by order id")
    func killAndRestart() throws {
        let fixture = try WorkerFixture(
            "worker-kill",
            settings: ["replay.backoff_ms=20", "input.high_water_mark=50", "render.queue=50"]
        )
        defer { withExtendedLifetime(fixture) {} }
        let (source, collector, worker) = (fixture.source, fixture.collector, fixture.worker)
        try worker.waitUntilServing()
        let total: UInt64 = 600
        var events: [EventFrames] = []
        for sequence in UInt64(1)...300 { try source.send(TestOrders.order(sequence)) }
        // Some output arrived: the worker is mid-stream. Kill it without warning.
        events += try collector.collect { $0.count >= 100 }
        worker.kill()
        // What the dead worker had taken in but not checkpointed is gone from the pipe; the
        // restarted one resumes from the checkpoint and asks the source for the rest.
        try worker.launch()
        try worker.waitUntilServing(starts: 2)
        for sequence in UInt64(301)...total { try source.send(TestOrders.order(sequence)) }
        func orders(_ events: [EventFrames], _ prefix: String) -> Int {
            Set(events.filter { $0.topic.hasPrefix(prefix) }.map(\.header.orderID)).count
        }
        let before = events
        events += try collector.collect(quiet: .seconds(5)) { more in
            orders(before + more, "confirmation.") >= Int(total) && orders(before + more, "receipt.") >= Int(total)
        }
        let confirmations = events.filter { $0.topic.hasPrefix("confirmation.") }
        let receipts = events.filter { $0.topic.hasPrefix("receipt.") }
        let expected = Set((1...total).map { "O-\($0)" })
        #expect(Set(confirmations.map(\.header.orderID)) == expected)
        #expect(Set(receipts.map(\.header.orderID)) == expected)
        #expect(!events.contains { $0.topic == CaffeTopic.deadLetter })
        // At-least-once delivery: what the killed worker rendered but had not checkpointed comes
        // again; by order id, each order is there once.
        let redelivered = confirmations.count - expected.count
        #expect(redelivered >= 0)
        #expect(worker.terminate() == 0)
        #expect(try Checkpoint.read(worker.checkpoint).sources == ["src": total])
        let replays = worker.stderr.components(separatedBy: "replay requested").count - 1
        print(
            "kill -9: \(confirmations.count) confirmations for \(total) orders, \(redelivered) redelivered, \(replays) replay requests"
        )
    }

    @Test("a drain that cannot finish times out: exit 1, the unsent order stays out of the checkpoint")
    func drainTimeout() throws {
        let folder = try TemporaryFolder("worker-drain")
        let context = try ZMQContext()
        defer { context.shutdown() }
        let source = try OrderSource(context: context, folder: folder.url)
        defer { source.stop() }
        // The output connects to an endpoint where nobody listens: PUSH blocks with no peer.
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: [
                "input.kind=pull", "input.endpoints=>\(source.pushEndpoint)", "output.kind=push",
                "output.endpoints=>ipc://\(folder.url.path)/nobody", "shutdown.drain_timeout_ms=300",
            ]
        )
        try worker.waitUntilServing()
        try source.send(TestOrders.order(1))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(worker.terminate() == 1)
        #expect(worker.stderr.contains("drain timed out"))
        #expect(!FileManager.default.fileExists(atPath: worker.checkpoint.path))
    }

    @Test("PUB/SUB with high-water marks of 1: what the publisher drops is replayed; all orders arrive")
    func highWaterMarkDrops() throws {
        let folder = try TemporaryFolder("worker-hwm")
        let context = try ZMQContext()
        defer { context.shutdown() }
        let source = try OrderSource(context: context, folder: folder.url)
        defer { source.stop() }
        let publisher = try context.socket(.xpub)
        try publisher.set(.sendHighWaterMark, to: 1)
        let endpoint = try publisher.bind("tcp://127.0.0.1:*")
        let collector = try Collector(context: context)
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: [
                "input.kind=sub", "input.endpoints=>\(endpoint)", "input.high_water_mark=1", "render.queue=1",
                "output.kind=push", "output.endpoints=>\(collector.endpoint)", "replay.backoff_ms=20",
            ]
        )
        try worker.waitUntilServing()
        var subscribed = 0
        while subscribed < 3, let frame = try publisher.receive(timeout: .seconds(10)), frame.bytes.first == 1 {
            subscribed += 1
        }
        #expect(subscribed == 3, "the worker subscribes to order., complication-request. and heartbeat.")
        let total: UInt64 = 2000
        func publish(_ sequence: UInt64) throws {
            let order = TestOrders.order(sequence)
            source.drop(order)  // kept for replay; sent over PUB, which drops when full
            var header = EventFrames.header(for: order)
            header.metadata["replay_endpoint"] = source.replayEndpoint
            try publisher.send(
                multipart: try EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: header,
                    body: order
                )
            )
        }
        for sequence in UInt64(1)...total { try publish(sequence) }
        // A dropped tail shows as a gap only once something later arrives, so the last order is
        // sent again until everything is in (the worker takes repeats as duplicates).
        var events: [EventFrames] = []
        var confirmed: Set<String> = []
        for _ in 0..<30 where confirmed.count < Int(total) {
            events += try collector.collect(quiet: .seconds(1)) { more in
                if let last = more.last, last.topic.hasPrefix("confirmation.") { confirmed.insert(last.header.orderID) }
                return confirmed.count >= Int(total)
            }
            if confirmed.count < Int(total) { try publish(total) }
        }
        #expect(confirmed == Set((1...total).map { "O-\($0)" }))
        #expect(!events.contains { $0.topic == CaffeTopic.deadLetter })
        let replayed = events.filter { $0.header.metadata["replayed"] == "true" && $0.topic.hasPrefix("confirmation.") }
        print(
            "high-water mark 1: \(replayed.count) of \(total) orders arrived by replay, \(source.requests.count) requests"
        )
        #expect(worker.terminate() == 0)
    }
}
