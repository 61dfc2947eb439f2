// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import SwiftProtobuf
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeWorker

/// A worker given `input.shard` renders its own sources only and says what it dropped.
@Suite("Sharded worker", .serialized)
struct ShardedWorkerTests {
    @Test("input.shard reads i/N and names the key when it is not")
    func configuration() throws {
        let sharded = try WorkerConfigurationLoader.load(file: nil, environment: [:], overrides: ["input.shard=2/4"])
        #expect(sharded.input.shard == ShardAssignment(index: 2, count: 4))
        let fromEnvironment = try WorkerConfigurationLoader.load(file: nil, environment: ["CAFFE_INPUT_SHARD": "0/3"])
        #expect(fromEnvironment.input.shard?.description == "0/3")
        #expect(try WorkerConfigurationLoader.load(file: nil, environment: [:]).input.shard == nil)
        #expect(throws: WorkerConfigurationError.self) {
            try WorkerConfigurationLoader.load(file: nil, environment: [:], overrides: ["input.shard=4/4"])
        }
        do {
            _ = try WorkerConfigurationLoader.load(file: nil, environment: [:], overrides: ["input.shard=two"])
        } catch {
            #expect(
                error.description
                    == "input.shard (from --set): 'two' is not a shard: write i/N with 0 ≤ i < N ≤ 4096 (2/4 is the third of four)"
            )
        }
    }

    /// Ownership is decided while parsing, once: a foreign source's event — well-formed, invalid
    /// or oversized — makes no stream key and notes no restart; its owner refuses it if need be.
    @Test("parsing tells another shard's input apart before any books see it")
    func parsingDecidesOwnership() throws {
        let shard = try #require(ShardAssignment("1/2"))
        let mine = try #require((0..<20).map { "pos-\($0)" }.first { shard.owns($0) })
        let theirs = try #require((0..<20).map { "pos-\($0)" }.first { !shard.owns($0) })
        func frames(_ source: String, epoch: UInt64, bodyType: Bool = true) throws -> [ZMQMessage] {
            let order = TestOrders.order(1, source: source)
            var header = EventFrames.header(for: order)
            header.sourceEpoch = epoch
            if !bodyType { header.bodyType = "" }
            return [
                try ZMQMessage("order.\(order.storeID)"), try ZMQMessage(header.serializedBytes() as [UInt8]),
                try ZMQMessage(order.serializedBytes() as [UInt8]),
            ]
        }
        let limits = CaffeProtocolLimits()
        var keys = StreamKeys()
        for epoch: UInt64 in [5, 9] {
            guard
                case .notOwned(theirs) = ParsedInput(
                    try frames(theirs, epoch: epoch),
                    limits: limits,
                    keys: &keys,
                    shard: shard
                )
            else { Issue.record("\(theirs)'s event was not refused as another shard's"); return }
        }
        #expect(keys.takeRestart() == nil)
        guard
            case .event(let event) = ParsedInput(try frames(mine, epoch: 5), limits: limits, keys: &keys, shard: shard)
        else { Issue.record("\(mine)'s event was not parsed as an event"); return }
        #expect(event.streamKey == SourceStream.key(source: mine, epoch: 5))
        guard
            case .notOwned(theirs) = ParsedInput(
                try frames(theirs, epoch: 0, bodyType: false),
                limits: limits,
                keys: &keys,
                shard: shard
            )
        else { Issue.record("\(theirs)'s invalid event was not left to its owner"); return }
        guard
            case .invalid = ParsedInput(
                try frames(mine, epoch: 0, bodyType: false),
                limits: limits,
                keys: &keys,
                shard: shard
            )
        else { Issue.record("\(mine)'s invalid event was not refused as invalid"); return }
    }

    @Test("shard 1/2 renders the sources it owns, counts the others and drops them")
    func rendersOnlyItsOwnSources() throws {
        let folder = try TemporaryFolder("sharded")
        let context = try ZMQContext()
        defer { context.shutdown() }
        let collector = try WorkerRecoveryTests.Collector(context: context)
        let (worker, input) = try WorkerProcess.pullPush(
            folder: folder.url,
            collector: collector,
            settings: ["input.shard=1/2"]
        )
        let address = try worker.waitUntilServing()
        let push = try context.socket(.push)
        defer { push.close(linger: .zero) }
        _ = try push.bind(input)
        let sources = (0..<12).map { "pos-\($0)" }
        let owned = sources.filter { ShardAssignment.shard(of: $0, among: 2) == 1 }
        #expect(!owned.isEmpty && owned.count < sources.count)
        for source in sources { try push.send(multipart: try TestOrders.frames(1, source: source)) }
        // A confirmation and a receipt for each owned source's order, nothing for the others.
        let outputs = try collector.collect { $0.count >= 2 * owned.count }
        #expect(try collector.collect(quiet: .milliseconds(500)) { _ in false }.isEmpty)
        #expect(Set(outputs.map(\.header.sourceID)) == Set(owned))
        let metrics = try httpGet(address, "/metrics").body
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("caffe_worker_events_not_owned_total ") }
        #expect(line.map(String.init) == "caffe_worker_events_not_owned_total \(sources.count - owned.count)")
        #expect(outputs.count == 2 * owned.count)
        #expect(worker.terminate() == 0)
    }

    @Test("behind caffe proxy --kind partition, shard 1/2 is sent only its own sources")
    func behindThePartitioningProxy() throws {
        let folder = try TemporaryFolder("partitioned")
        let caffe = try #require(ExecutableRunner.locate("caffe"))
        let refused = try ExecutableRunner.run(
            caffe,
            ["proxy", "--kind", "partition", "--frontend", "@tcp://127.0.0.1:0", "--backend", "@tcp://127.0.0.1:0"]
        )
        #expect(refused.status == 64)
        #expect(
            refused.standardError.contains(
                "--kind partition needs --shards N: the count every worker's input.shard names"
            )
        )

        let proxy = try ProxyProcess([
            "--kind", "partition", "--shards", "2", "--frontend", "@ipc://\(folder.url.path)/front",
            "--backend", "@ipc://\(folder.url.path)/back",
        ])
        defer { proxy.stop() }
        #expect(
            proxy.said.hasPrefix(
                "caffe proxy (partition): @ipc://\(folder.url.path)/front -> @ipc://\(folder.url.path)/back among 2 shards"
            )
        )
        let proxyAddress = proxy.metricsAddress

        let context = try ZMQContext()
        defer { context.shutdown() }
        let collector = try WorkerRecoveryTests.Collector(context: context)
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: [
                "input.kind=sub", "input.endpoints=>ipc://\(folder.url.path)/back", "input.shard=1/2",
                "output.kind=push", "output.endpoints=>\(collector.endpoint)",
            ]
        )
        let address = try worker.waitUntilServing()
        // The publisher sees the worker's subscriptions arrive through the proxy, prefix taken off.
        let publisher = try context.socket(.xpub)
        defer { publisher.close(linger: .zero) }
        try publisher.connect("ipc://\(folder.url.path)/front")
        var upstream: Set<String> = []
        while !upstream.contains("order."), let frame = try publisher.receive(timeout: .seconds(10)) {
            upstream.insert(String(decoding: frame.bytes.dropFirst(), as: UTF8.self))
        }
        #expect(upstream.contains("order."))

        let sources = (0..<12).map { "pos-\($0)" }
        let owned = sources.filter { ShardAssignment.shard(of: $0, among: 2) == 1 }
        for source in sources { try publisher.send(multipart: try TestOrders.frames(1, source: source)) }
        let outputs = try collector.collect { $0.count >= 2 * owned.count }
        #expect(try collector.collect(quiet: .milliseconds(500)) { _ in false }.isEmpty)
        #expect(Set(outputs.map(\.header.sourceID)) == Set(owned))
        #expect(outputs.count == 2 * owned.count)
        let metrics = try httpGet(address, "/metrics").body
        #expect(metrics.split(separator: "\n").contains("caffe_worker_events_not_owned_total 0"))
        let routed = try httpGet(proxyAddress, "/metrics").body.split(separator: "\n")
        #expect(routed.contains("caffe_proxy_routed_total{shard=\"1\"} \(owned.count)"))
        #expect(routed.contains("caffe_proxy_routed_total{shard=\"0\"} \(sources.count - owned.count)"))
        // Nobody runs shard 0 here: what went to it is counted as sent without a subscriber.
        #expect(routed.contains("caffe_proxy_routed_unsubscribed_total{shard=\"0\"} \(sources.count - owned.count)"))
        #expect(routed.contains("caffe_proxy_routed_unsubscribed_total{shard=\"1\"} 0"))
        #expect(routed.contains("caffe_proxy_subscribed_topics{shard=\"1\"} 3"))
        #expect(worker.terminate() == 0)
    }
}
