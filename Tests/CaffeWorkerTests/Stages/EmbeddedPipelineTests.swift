// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import Logging
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeBooks
@testable import CaffeWorker

/// The whole pipeline — intake, rendering, output, recovery, the books, the checkpoint — driven
/// in the test's thread without sockets, its clock moved by the test (``EmbeddedPipeline``).
@Suite("Embedded pipeline")
struct EmbeddedPipelineTests {
    static func configuration(_ settings: [String] = [], folder: URL? = nil) throws -> WorkerConfiguration {
        try WorkerConfigurationLoader.load(
            file: nil,
            environment: [:],
            overrides: [
                "config_dir=\(ConfigurationDirectory.builtIn.path)", "render.warm_up=false",
                "checkpoint.path=\(folder?.appendingPathComponent("worker.checkpoint").path ?? "")",
            ] + settings
        )
    }

    static func pipeline(
        _ settings: [String] = [],
        folder: URL? = nil,
        resumed: Checkpoint = Checkpoint()
    ) throws -> EmbeddedPipeline {
        let configuration = try configuration(settings, folder: folder)
        return try EmbeddedPipeline(
            configuration: configuration,
            core: try WorkerSetup.core(for: configuration),
            resumed: resumed
        )
    }

    /// (topic, sequence) of each output.
    static func summary(_ outputs: [OutputMessage]) throws -> [String] {
        try outputs.map { output in
            let event = try EventFrames(parsing: output.frames)
            return "\(event.topic) #\(event.header.sequence)"
        }
    }

    @Test("orders in, outputs out in order, each input completed once its outputs are taken")
    func intakeToPublished() throws {
        let pipeline = try Self.pipeline()
        for sequence in UInt64(1)...4 { pipeline.send(try TestOrders.frames(sequence, source: "src")) }
        try pipeline.run()
        let published = try Self.summary(pipeline.takePublished())
        #expect(
            published == [
                "confirmation.es-MX #1", "receipt.store-mx-cdmx #1", "confirmation.fr-FR #2", "receipt.store-fr-par #2",
                "confirmation.ja-JP #3", "receipt.store-jp-tyo #3", "confirmation.en-US #4", "receipt.store-us-sfo #4",
            ]
        )
        #expect(pipeline.counts.received == 4)
        #expect(pipeline.counts.rendered == 4)
        #expect(pipeline.counts.published == 8)
        #expect(pipeline.queued == 0)
        #expect(pipeline.books.lag(limit: 10).total == 0)
    }

    @Test("a duplicate is dropped, a refused input is dead-lettered and still completes its sequence")
    func duplicatesAndRefusals() throws {
        let pipeline = try Self.pipeline()
        pipeline.send(try TestOrders.frames(1, source: "src"))
        pipeline.send(try TestOrders.frames(1, source: "src"))
        pipeline.send([ZMQMessage.copying(Array("order.x".utf8)), ZMQMessage.copying([0xFF, 0x01])])
        try pipeline.run()
        let published = pipeline.takePublished()
        let summary = try Self.summary(published)
        // The dead letter is decided at intake; the order waits to be rendered behind it.
        #expect(summary == ["dead-letter #0", "confirmation.es-MX #1", "receipt.store-mx-cdmx #1"])
        let letter = try EventFrames(parsing: try #require(published.first).frames)
            .decodeBody(as: Caffe_V1_DeadLetter.self)
        #expect(letter.reason == .malformed)
        #expect(pipeline.counts.duplicates == 1)
        #expect(pipeline.counts.deadLetters == ["malformed": 1])
    }

    @Test("a gap waits for its replay by the clock, then is given up: the dead letter completes the range")
    func gapGivenUpByTheClock() throws {
        // An endpoint nobody answers: every request times out.
        let pipeline = try Self.pipeline([
            "replay.endpoints=src=tcp://127.0.0.1:9", "replay.timeout_ms=100", "replay.attempts=2",
            "replay.backoff_ms=50",
        ])
        pipeline.send(try TestOrders.frames(1, source: "src"))
        pipeline.send(try TestOrders.frames(4, source: "src"))
        try pipeline.run()
        #expect(try Self.summary(pipeline.takePublished()).count == 4)
        #expect(pipeline.counts.gaps == 1)
        #expect(pipeline.books.pendingGaps == 1)
        // Nothing is given up while the attempts last, however often the pipeline turns.
        try pipeline.advance(by: .milliseconds(100))
        try pipeline.run()
        #expect(pipeline.takePublished().isEmpty)
        var letters: [Caffe_V1_DeadLetter] = []
        for _ in 0..<20 where letters.isEmpty {
            try pipeline.advance(by: .milliseconds(50))
            letters = try pipeline.takePublished().map {
                try EventFrames(parsing: $0.frames).decodeBody(as: Caffe_V1_DeadLetter.self)
            }
        }
        #expect(letters.map(\.reason) == [.unrecoverableGap])
        #expect(letters.map { $0.gapFrom...$0.gapTo } == [2...3])
        #expect(pipeline.counts.replayRequests == 2)
        #expect(pipeline.books.pendingGaps == 0)
        #expect(pipeline.books.lag(limit: 10).total == 0)
    }

    @Test("a full output stops intake at render.queue; nothing is lost when it takes again")
    func backpressure() throws {
        let pipeline = try Self.pipeline(["render.queue=4"])
        pipeline.outputAccepts = false
        for sequence in UInt64(1)...10 { pipeline.send(try TestOrders.frames(sequence, source: "src")) }
        try pipeline.run()
        #expect(pipeline.queued == 4)
        #expect(pipeline.unread == 6)
        #expect(pipeline.takePublished().isEmpty)
        pipeline.outputAccepts = true
        try pipeline.run()
        #expect(pipeline.unread == 0)
        #expect(try Self.summary(pipeline.takePublished()).filter { $0.hasPrefix("confirmation.") }.count == 10)
    }

    @Test("orders the catalog cannot render are parked, rendered after a reload, and the drain checkpoints all")
    func parkingAndDrain() throws {
        let folder = try TemporaryFolder("embedded-park")
        let copy = try HostileNeighbourTests.configurationCopy(in: folder.url)
        try HostileNeighbourTests.setGreeting("Welcome, %lld!", in: copy)
        let settings = ["config_dir=\(copy.path)", "catalog_check=warn"]
        let pipeline = try Self.pipeline(settings, folder: folder.url)
        // Sequences 4 and 8 are en-US (the broken greeting); the others render.
        for sequence in UInt64(1)...8 { pipeline.send(try TestOrders.frames(sequence, source: "src")) }
        try pipeline.run()
        let first = try Self.summary(pipeline.takePublished()).filter { $0.hasPrefix("confirmation.") }
        #expect(
            first == [
                "confirmation.es-MX #1", "confirmation.fr-FR #2", "confirmation.ja-JP #3", "confirmation.es-MX #5",
                "confirmation.fr-FR #6", "confirmation.ja-JP #7",
            ]
        )
        #expect(pipeline.parked == 2)
        #expect(pipeline.counts.parked == 2)
        try HostileNeighbourTests.setGreeting("Welcome, %@!", in: copy)
        pipeline.reload(try WorkerSetup.core(for: try Self.configuration(settings, folder: folder.url)))
        try pipeline.run()
        let second = try Self.summary(pipeline.takePublished()).filter { $0.hasPrefix("confirmation.") }
        #expect(second == ["confirmation.en-US #4", "confirmation.en-US #8"])
        #expect(pipeline.parked == 0)
        guard case .drained = try pipeline.drain() else {
            Issue.record("the drain did not end drained")
            return
        }
        #expect(try Checkpoint.read(folder.url.appendingPathComponent("worker.checkpoint")).sources == ["src": 8])
    }

    @Test("a drain with the output refusing ends abandoned, and the checkpoint keeps out what was not taken")
    func abandonedDrain() throws {
        let folder = try TemporaryFolder("embedded-abandon")
        let pipeline = try Self.pipeline(folder: folder.url)
        pipeline.send(try TestOrders.frames(1, source: "src"))
        try pipeline.run()
        pipeline.outputAccepts = false
        pipeline.send(try TestOrders.frames(2, source: "src"))
        try pipeline.run()
        guard case .abandoned = try pipeline.drain() else {
            Issue.record("the drain did not end abandoned")
            return
        }
        _ = pipeline.takePublished()
        #expect(try Checkpoint.read(folder.url.appendingPathComponent("worker.checkpoint")).sources == ["src": 1])
    }

    @Test("a source that restarts with every message: each replaced run retires once done, by the clock")
    func restartFlood() throws {
        let pipeline = try Self.pipeline()
        for epoch in UInt64(1)...500 {
            var order = TestOrders.order(1, source: "restarter")
            order.orderID = "restart-\(epoch)"
            var header = EventFrames.header(for: order)
            header.sourceEpoch = epoch
            pipeline.send(try EventFrames.encode(topic: CaffeTopic.order(store: order.storeID), header: header, body: order))
            if epoch % 50 == 0 { try pipeline.run() }
        }
        try pipeline.run()
        #expect(pipeline.counts.sourceRestarts == 499)
        #expect(pipeline.counts.rendered == 500)
        // Within their grace (1 s) the replaced runs keep their books.
        #expect(pipeline.books.intake.tracker.counts.active == 500)
        try pipeline.advance(by: .seconds(2))
        try pipeline.advance(by: .milliseconds(200))
        #expect(pipeline.counts.sourcesRetired == 499)
        #expect(pipeline.books.intake.tracker.counts.active == 1)
    }
}
