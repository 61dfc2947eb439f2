// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import Logging
import SwiftProtobuf
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeBooks
@testable import CaffeWorker

/// Several pipelines in one worker (`input.pipelines`): the partition, the checkpoint they share,
/// and whole workers over real sockets.
@Suite("Several pipelines", .serialized)
struct PipelineGroupTests {
    @Test("a source's every epoch has one owner; a shard's sources still spread over the pipelines")
    func partition() {
        let three = PipelinePartition(count: 3)
        let ids = (0..<3000).map { "store-\($0)" }
        var load = [0, 0, 0]
        for id in ids { load[three.owner(of: id)] += 1 }
        #expect(load.allSatisfy { (900...1100).contains($0) }, "\(load)")
        for id in ids.prefix(50) {
            #expect(three.owner(ofKey: SourceStream.key(source: id, epoch: 7)) == three.owner(of: id))
        }
        // Shard 1 of 4 takes a quarter of the ids; two pipelines must still share them (jump hash
        // with two buckets would give every one of them to pipeline 1).
        let shard = ids.filter { ShardAssignment.shard(of: $0, among: 4) == 1 }
        let two = PipelinePartition(count: 2)
        let first = shard.filter { two.owner(of: $0) == 0 }.count
        #expect(Double(first) / Double(shard.count) > 0.4 && Double(first) / Double(shard.count) < 0.6)
        #expect(PipelinePartition(count: 1).owner(of: "anything") == 0)
    }

    @Test("a checkpoint split by owner: every entry in exactly one share, epochs with their source")
    func splitCheckpoint() {
        var checkpoint = Checkpoint(
            sources: ["a": 5, "b": 9, SourceStream.key(source: "a", epoch: 2): 3, "c": 1],
            givenUp: ["b": [4...6]],
            pins: ["c": IntakeTracker.Pin(endpoint: "tcp://10.0.0.1:7000", identity: "id-c")]
        )
        checkpoint.epochFloors = ["a": 2]
        checkpoint.generation = 41
        let partition = PipelinePartition(count: 3)
        let shares = partition.split(checkpoint)
        #expect(shares.count == 3)
        #expect(shares.allSatisfy { $0.generation == 41 })
        var joined = Checkpoint()
        for (index, share) in shares.enumerated() {
            for key in share.sources.keys { #expect(partition.owner(ofKey: key) == index) }
            joined.sources.merge(share.sources) { _, _ in
                Issue.record("a source in two shares"); return 0
            }
            joined.givenUp.merge(share.givenUp) { $1 }
            joined.endpoints.merge(share.endpoints) { $1 }
            joined.endpointIdentities.merge(share.endpointIdentities) { $1 }
            joined.epochFloors.merge(share.epochFloors) { $1 }
        }
        #expect(joined.sources == checkpoint.sources)
        #expect(joined.givenUp == checkpoint.givenUp)
        #expect(joined.pins == checkpoint.pins)
        #expect(joined.epochFloors == checkpoint.epochFloors)
        let owner = partition.owner(of: "a")
        #expect(shares[owner].sources[SourceStream.key(source: "a", epoch: 2)] == 3)
        #expect(shares[owner].epochFloors["a"] == 2)
    }

    @Test("refs cross between a pipeline and the hub as written; a cut frame yields what parsed before the cut")
    func relayedFrames() throws {
        let refs = [
            SequenceRef(source: "till-1", sequence: 7),
            SequenceRef(source: SourceStream.key(source: "café-ü", epoch: 3), sequences: 2...9),
            SequenceRef(source: "", sequence: .max),
        ]
        #expect(RelayedFrames.ref(in: RelayedFrames.frame(for: refs[1])) == refs[1])
        #expect(RelayedFrames.ref(in: RelayedFrames.frame(for: nil)) == nil)
        var read: [SequenceRef] = []
        RelayedFrames.forEachRef(inCompletions: RelayedFrames.completions(refs)) { read.append($0) }
        #expect(read == refs)
        let whole = RelayedFrames.completions(refs).bytes
        var partial: [SequenceRef] = []
        RelayedFrames.forEachRef(inCompletions: try ZMQMessage(Array(whole.dropLast(3)))) { partial.append($0) }
        #expect(partial == Array(refs.prefix(2)))
        var none: [SequenceRef] = []
        RelayedFrames.forEachRef(inCompletions: try ZMQMessage([UInt8(1), 2, 3])) { none.append($0) }
        #expect(none.isEmpty)
    }

    @Test("the last of three pipelines' final writes is the final one, and holds all three")
    func finalWriteWaitsForTheLastPipeline() throws {
        let folder = try TemporaryFolder("final-three")
        let url = folder.url.appendingPathComponent("w.checkpoint")
        let writer = CheckpointWriter(
            url: url,
            resumed: Checkpoint(),
            logger: Logger(label: "test"),
            shard: WorkerMetrics().makeShard("checkpoint"),
            pipelines: 3
        )
        #expect(writer.writeFinal(Checkpoint.Change(sources: ["a": 1])))
        #expect(writer.writeFinal(Checkpoint.Change(sources: ["b": 2])))
        // Nothing sealed yet: a pipeline still running may post.
        writer.post(Checkpoint.Change(sources: ["c": 3]))
        #expect(writer.writeFinal(Checkpoint.Change(sources: ["d": 4])))
        writer.post(Checkpoint.Change(sources: ["e": 5]))
        #expect(try Checkpoint.read(url).sources == ["a": 1, "b": 2, "c": 3, "d": 4])
    }

    @Test("cores follow the cgroup's CPU limit: cpu.max and the v1 quota, rounded up")
    func coresFromTheControlGroup() throws {
        #expect(ProcessorCores.cpuMax("max 100000\n") == nil)
        #expect(ProcessorCores.cpuMax("150000 100000\n") == 2)
        #expect(ProcessorCores.cpuMax("50000 100000") == 1)
        #expect(ProcessorCores.cpuMax("400000 100000") == 4)
        #expect(ProcessorCores.cpuMax("garbage") == nil)
        let v2 = ProcessorCores.limitFiles("0::/kubepods/pod1/c1\n").map(\.0)
        #expect(v2 == ["/sys/fs/cgroup/kubepods/pod1/c1/cpu.max", "/sys/fs/cgroup/cpu.max"])
        let v1 = ProcessorCores.limitFiles("4:memory:/x\n2:cpu,cpuacct:/docker/abc\n").map(\.0)
        #expect(
            v1 == [
                "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us",
                "/sys/fs/cgroup/cpu/docker/abc/cpu.cfs_quota_us",
            ]
        )
        let folder = try TemporaryFolder("cfs")
        try "200000\n".write(
            to: folder.url.appendingPathComponent("cpu.cfs_period_us"),
            atomically: true,
            encoding: .utf8
        )
        #expect(ProcessorCores.cfsQuota("300000\n", root: folder.url.path) == 2)
        #expect(ProcessorCores.cfsQuota("-1\n", root: folder.url.path) == nil)
        let reading = ProcessorCores.available
        #expect(reading.cores >= 1 && reading.cores <= ProcessInfo.processInfo.activeProcessorCount)
    }

    /// `(source, sequence)` of each delivery on the acknowledged output, acknowledging as it goes.
    static func deliveries(
        _ harness: InProcessWorkerTests.Harness,
        _ count: Int,
        timeout: ZMQTimeout = .seconds(10)
    ) throws -> [(source: String, sequence: UInt64, topic: String)] {
        var received: [(String, UInt64, String)] = []
        while received.count < count, let frames = try harness.consumer.receiveMultipart(timeout: timeout) {
            let tag = try Caffe_V1_DeliveryTag(serializedBytes: frames[0].bytes)
            let event = try EventFrames(parsing: Array(frames.dropFirst()))
            received.append((event.header.sourceID, event.header.sequence, event.topic))
            try harness.feedback(window: 1000, incarnation: tag.incarnation, through: tag.tag)
        }
        return received
    }

    @Test("three pipelines: every source's outputs in order, one checkpoint; one pipeline resumes from it")
    func threePipelinesThenOne() async throws {
        // Two sources for each of the three pipelines.
        let candidates = (0..<60).map { "till-\($0)" }
        let sources = (0..<3).flatMap { owner in
            candidates.filter { PipelinePartition(count: 3).owner(of: $0) == owner }.prefix(2)
        }
        let orders: UInt64 = 30
        let first = try InProcessWorkerTests.Harness("pipelines-three", settings: ["input.pipelines=3"])
        defer { first.context.shutdown() }
        #expect(sources.count == 6)
        try await InProcessWorkerTests.running(first) { harness in
            try harness.feedback(window: 1000)
            for sequence in UInt64(1)...orders {
                for source in sources {
                    try harness.source.send(multipart: try TestOrders.frames(sequence, source: source))
                }
            }
            let received = try Self.deliveries(harness, sources.count * Int(orders) * 2)
            #expect(received.count == sources.count * Int(orders) * 2)
            for source in sources {
                let confirmations = received.filter { $0.source == source && $0.topic.hasPrefix("confirmation.") }
                #expect(confirmations.map(\.sequence) == Array(1...orders), "\(source)")
            }
        }
        #expect(first.worker.isDrained)
        let marks = try Checkpoint.read(first.checkpoint).sources
        #expect(marks == Dictionary(uniqueKeysWithValues: sources.map { ($0, orders) }))
        // Each pipeline took its own sources' events, and only those.
        let metrics = first.worker.metrics
        let partition = PipelinePartition(count: 3)
        for index in 0..<3 {
            let name = index == 0 ? "pipeline" : "pipeline-\(index)"
            let owned = sources.filter { partition.owner(of: $0) == index }.count
            #expect(metrics.counts(ofShard: name)?.received == UInt64(owned) * orders, "\(name)")
        }
        #expect(metrics.counts.received == UInt64(sources.count) * orders)

        // One pipeline, the same checkpoint: everything again is a duplicate; the next order is new.
        let second = try InProcessWorkerTests.Harness(
            "pipelines-one",
            settings: ["input.pipelines=1"],
            folder: first.folder
        )
        defer { second.context.shutdown() }
        try await InProcessWorkerTests.running(second) { harness in
            try harness.feedback(window: 1000)
            for source in sources {
                for sequence in UInt64(1)...orders {
                    try harness.source.send(multipart: try TestOrders.frames(sequence, source: source))
                }
                try harness.source.send(multipart: try TestOrders.frames(orders + 1, source: source))
            }
            let received = try Self.deliveries(harness, sources.count * 2)
            #expect(Set(received.map(\.sequence)) == [orders + 1])
            #expect(try Self.deliveries(harness, 1, timeout: .milliseconds(300)).isEmpty)
        }
        #expect(second.worker.metrics.counts.duplicates == UInt64(sources.count) * orders)
        #expect(
            try Checkpoint.read(second.checkpoint).sources
                == Dictionary(uniqueKeysWithValues: sources.map { ($0, orders + 1) })
        )
    }

    @Test("three pipelines in a worker process: every source's gaps replayed; kill -9 and a restart lose no order")
    func gapsAndKillWithThreePipelines() throws {
        let fixture = try WorkerFixture(
            "pipelines-kill",
            settings: ["input.pipelines=3", "replay.backoff_ms=20", "input.high_water_mark=50", "render.queue=50"]
        )
        defer { withExtendedLifetime(fixture) {} }
        let (source, collector, worker) = (fixture.source, fixture.collector, fixture.worker)
        try worker.waitUntilServing()
        let sources = (0..<5).map { "kiosk-\($0)" }
        let total: UInt64 = 80
        // Sequences 5, 22, 39, 56 and 73 of every source are lost on the way.
        func send(_ range: ClosedRange<UInt64>) throws {
            for sequence in range {
                for id in sources {
                    let order = TestOrders.order(sequence, source: id)
                    if sequence % 17 == 5 { source.drop(order) } else { try source.send(order) }
                }
            }
        }
        try send(1...40)
        var events = try collector.collect { $0.count >= 60 }
        worker.kill()
        try worker.launch()
        try worker.waitUntilServing(starts: 2)
        try send(41...total)
        let expected = Set(sources.flatMap { id in (1...total).map { "O-\(id)-\($0)" } })
        func orders(_ events: [EventFrames], _ prefix: String) -> Set<String> {
            Set(events.filter { $0.topic.hasPrefix(prefix) }.map(\.header.orderID))
        }
        let before = events
        events += try collector.collect(quiet: .seconds(5)) { more in
            orders(before + more, "confirmation.").count >= expected.count
                && orders(before + more, "receipt.").count >= expected.count
        }
        #expect(orders(events, "confirmation.") == expected)
        #expect(orders(events, "receipt.") == expected)
        #expect(!events.contains { $0.topic == CaffeTopic.deadLetter })
        #expect(worker.terminate() == 0)
        #expect(
            try Checkpoint.read(worker.checkpoint).sources
                == Dictionary(uniqueKeysWithValues: sources.map { ($0, total) })
        )
        #expect(
            worker.stderr.contains("\"pipelines\":\"3\"") || worker.stderr.contains("pipelines=3"),
            "\(worker.stderr.prefix(2000))"
        )
    }
}
