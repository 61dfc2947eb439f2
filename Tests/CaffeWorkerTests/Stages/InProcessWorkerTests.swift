// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import Logging
import ServiceLifecycle
import SwiftProtobuf
import Synchronization
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeBooks
@testable import CaffeWorker

/// The worker service in this process, over `inproc://` sockets of the test's own context: the
/// acknowledged output and what the checkpoint may cover.
@Suite("Worker in process", .serialized)
struct InProcessWorkerTests {
    /// A worker on inproc endpoints, run in a service group by the test.
    struct Harness: @unchecked Sendable {
        let folder: TemporaryFolder
        let context: ZMQContext
        let worker: Worker
        let source: ZMQSocket
        let consumer: ZMQSocket
        var checkpoint: URL { folder.url.appendingPathComponent("worker.checkpoint") }

        /// A worker in a new folder named `name`, or in `folder` (a restart: its checkpoint).
        init(_ name: String, settings: [String] = [], folder: TemporaryFolder? = nil) throws {
            self.folder = try folder ?? TemporaryFolder(name)
            context = try ZMQContext()
            let id = UUID().uuidString.prefix(8)
            let configuration = try WorkerConfigurationLoader.load(
                file: nil,
                environment: [:],
                overrides: [
                    "input.kind=pull", "input.endpoints=@inproc://in-\(id)", "output.kind=acked",
                    "output.endpoints=@inproc://out-\(id)", "rpc.endpoint=", "metrics.address=",
                    "checkpoint.path=\(self.folder.url.appendingPathComponent("worker.checkpoint").path)",
                    "checkpoint.interval_ms=10", "render.threads=2",
                    // Every locale the test orders use, so none waits for a helper to compile it.
                    "render.prepare_locales=en-US,es-MX,fr-FR,ja-JP",
                    "config_dir=\(ConfigurationDirectory.builtIn.path)",
                ] + settings
            )
            worker = try Worker(
                configuration: configuration,
                core: try WorkerSetup.core(for: configuration),
                logger: Logger(label: "test.worker"),
                context: context
            )
            source = try context.socket(.push)
            consumer = try context.socket(.dealer)
            try source.connect("inproc://in-\(id)")
            try consumer.connect("inproc://out-\(id)")
        }

        /// Announces the consumer with `window`, acknowledging `through` of `incarnation`.
        func feedback(window: UInt32, incarnation: UInt64 = 0, through: UInt64 = 0) throws {
            var feedback = Caffe_V1_ConsumerFeedback()
            feedback.window = window
            feedback.incarnation = incarnation
            feedback.acknowledgedThrough = through
            try consumer.send(try feedback.serializedBytes() as [UInt8])
        }

        /// Deliveries as (tag, topic, sequence), until `count` or a quiet `timeout`.
        func deliveries(_ count: Int, timeout: ZMQTimeout = .seconds(5)) throws -> [(
            tag: Caffe_V1_DeliveryTag, topic: String, sequence: UInt64
        )] {
            var received: [(Caffe_V1_DeliveryTag, String, UInt64)] = []
            while received.count < count, let frames = try consumer.receiveMultipart(timeout: timeout) {
                let tag = try Caffe_V1_DeliveryTag(serializedBytes: frames[0].bytes)
                let event = try EventFrames(parsing: Array(frames.dropFirst()))
                received.append((tag, event.topic, event.header.sequence))
            }
            return received
        }

        func send(_ sequence: UInt64) throws {
            let order = TestOrders.order(sequence)
            try source.send(
                multipart: try EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: EventFrames.header(for: order),
                    body: order
                )
            )
        }

        var checkpointMark: UInt64 { (try? Checkpoint.read(checkpoint).sources["src"]) ?? 0 }
    }

    /// Runs `harness.worker` until `body` returns, then shuts it down gracefully. `body` blocks on
    /// sockets, so it runs on a thread of its own, never on the (two-thread) cooperative pool the
    /// worker's services need.
    static func running(_ harness: Harness, _ body: @escaping @Sendable (Harness) throws -> Void) async throws {
        let group = ServiceGroup(services: [harness.worker], logger: Logger(label: "test.group"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await harness.worker.waitUntilServing()
            let outcome: Result<Void, any Error> = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: Result { try body(harness) }) }.start()
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            try outcome.get()
        }
    }

    @Test("the checkpoint covers only what the consumer acknowledged; the window bounds what it holds")
    func checkpointFollowsAcknowledgements() async throws {
        let harness = try Harness("inproc-acked")
        defer { harness.context.shutdown() }
        try await Self.running(harness) { harness in
            try harness.feedback(window: 3)
            for sequence in UInt64(1)...4 { try harness.send(sequence) }
            let first = try harness.deliveries(3)
            #expect(first.map(\.tag.tag) == [1, 2, 3])
            #expect(first.map { $0.topic.hasPrefix("confirmation.") } == [true, false, true])
            // Nothing more while the window is full, and nothing checkpointed without acknowledgements.
            #expect(try harness.deliveries(1, timeout: .milliseconds(300)).isEmpty)
            #expect(harness.checkpointMark == 0)
            // Acknowledging 1 and 2 completes order 1 (both its outputs).
            let incarnation = try #require(first.first).tag.incarnation
            try harness.feedback(window: 3, incarnation: incarnation, through: 2)
            var rest = try harness.deliveries(2)
            Thread.sleep(forTimeInterval: 0.2)
            #expect(harness.checkpointMark == 1)
            try harness.feedback(window: 100, incarnation: incarnation, through: 5)
            rest += try harness.deliveries(3)
            #expect((first + rest).map(\.tag.tag) == [1, 2, 3, 4, 5, 6, 7, 8])
            #expect((first + rest).map(\.sequence) == [1, 1, 2, 2, 3, 3, 4, 4])
            try harness.feedback(window: 100, incarnation: incarnation, through: 8)
        }
        #expect(harness.worker.isDrained)
        #expect(harness.checkpointMark == 4)
    }

    @Test("a drain that cannot get acknowledgements is abandoned: unacknowledged inputs stay out of the checkpoint")
    func drainAbandonsUnacknowledged() async throws {
        let harness = try Harness("inproc-abandon", settings: ["shutdown.drain_timeout_ms=300"])
        defer { harness.context.shutdown() }
        try await Self.running(harness) { harness in
            try harness.feedback(window: 10)
            for sequence in UInt64(1)...3 { try harness.send(sequence) }
            let received = try harness.deliveries(6)
            #expect(received.count == 6)
            // Only order 1 is acknowledged.
            try harness.feedback(window: 10, incarnation: try #require(received.first).tag.incarnation, through: 2)
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(!harness.worker.isDrained)
        #expect(harness.checkpointMark == 1)
    }

    @Test("a consumer that goes silent loses its deliveries to another consumer")
    func silentConsumer() async throws {
        let harness = try Harness("inproc-silent", settings: ["output.ack_timeout_ms=300"])
        defer { harness.context.shutdown() }
        try await Self.running(harness) { harness in
            try harness.feedback(window: 10)
            try harness.send(1)
            let held = try harness.deliveries(2)
            #expect(held.count == 2)
            // A second consumer appears; the first never acknowledges and is dropped.
            let other = try harness.context.socket(.dealer)
            defer { other.close(linger: .zero) }
            try other.connect(harness.worker.boundEndpoints("output")[0])
            var hello = Caffe_V1_ConsumerFeedback()
            hello.window = 10
            let announce = try hello.serializedBytes() as [UInt8]
            try other.send(announce)
            var redelivered: [UInt64] = []
            let deadline = ContinuousClock.now + .seconds(5)
            while redelivered.count < 2, ContinuousClock.now < deadline {
                if let frames = try other.receiveMultipart(timeout: .milliseconds(100)) {
                    redelivered.append(try EventFrames(parsing: Array(frames.dropFirst())).header.sequence)
                    var ack = Caffe_V1_ConsumerFeedback()
                    let tag = try Caffe_V1_DeliveryTag(serializedBytes: frames[0].bytes)
                    ack.window = 10
                    ack.incarnation = tag.incarnation
                    ack.acknowledgedThrough = tag.tag
                    try other.send(try ack.serializedBytes() as [UInt8])
                } else {
                    try other.send(announce)
                }
            }
            #expect(redelivered == [1, 1])
        }
        #expect(harness.worker.isDrained)
        #expect(harness.checkpointMark == 1)
        #expect(harness.worker.metrics.counts.redelivered == 2)
    }
}
