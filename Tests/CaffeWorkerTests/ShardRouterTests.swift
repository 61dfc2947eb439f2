// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import Synchronization
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeWorker

/// `caffe proxy --kind partition`: each event reaches only the shard that owns its source.
@Suite("Shard router", .serialized)
struct ShardRouterTests {
    /// Publisher (XPUB, to see what subscriptions reach it) → router → one SUB per shard, plus a
    /// worker of another fleet size and a subscriber without a prefix.
    final class Rig {
        let context: ZMQContext
        let publisher: ZMQSocket
        let router: ShardRouter
        let shards: [ZMQSocket]
        let said = Said()

        /// The lines the router reported.
        final class Said: Sendable {
            let lines = Mutex<[String]>([])
            var all: [String] { lines.withLock { $0 } }
        }

        init(shards count: Int, folder: TemporaryFolder) throws {
            context = try ZMQContext()
            publisher = try context.socket(.xpub)
            _ = try publisher.bind("ipc://\(folder.url.path)/front")
            let frontend = try context.socket(.sub)
            try frontend.connect("ipc://\(folder.url.path)/front")
            let backend = try context.socket(.xpub)
            _ = try backend.bind("ipc://\(folder.url.path)/back")
            let said = said
            router = try ShardRouter(frontend: frontend, backend: backend, shards: count) { line in
                said.lines.withLock { $0.append(line) }
            }
            router.start()
            let context = context
            shards = try (0..<count).map { index in
                try Rig.subscriber(context, folder, ShardAssignment.topicPrefix(index: index, count: count))
            }
        }

        static func subscriber(
            _ context: ZMQContext,
            _ folder: TemporaryFolder,
            _ prefix: String,
            topics: [String] = ["order.", "heartbeat."]
        ) throws -> ZMQSocket {
            let socket = try context.socket(.sub)
            for topic in topics { try socket.subscribe(prefix + topic) }
            try socket.connect("ipc://\(folder.url.path)/back")
            return socket
        }

        /// The subscriptions that reached the publisher, until `expected` have.
        func upstreamSubscriptions(_ expected: Set<String>) throws -> Set<String> {
            var seen: Set<String> = []
            let deadline = ContinuousClock.now + .seconds(5)
            while !expected.isSubset(of: seen), ContinuousClock.now < deadline {
                if let frame = try publisher.receive(timeout: .milliseconds(50)), frame.count > 0 {
                    let bytes = frame.bytes
                    if bytes[0] == 1 { seen.insert(String(decoding: bytes.dropFirst(), as: UTF8.self)) }
                }
            }
            return seen
        }

        func close() {
            for socket in shards { socket.close(linger: .zero) }
            router.stop()
            publisher.close(linger: .zero)
            context.shutdown()
        }
    }

    /// What `socket` receives until it has been quiet for `quiet`.
    static func drain(_ socket: ZMQSocket, quiet: ZMQTimeout = .milliseconds(300)) throws -> [[ZMQMessage]] {
        var received: [[ZMQMessage]] = []
        while let frames = try socket.receiveMultipart(timeout: quiet) {
            received.append(frames)
        }
        return received
    }

    @Test("every event reaches only its owner, under its prefix, frames otherwise as sent")
    func routesEachSourceToItsOwner() throws {
        let folder = try TemporaryFolder("router")
        let rig = try Rig(shards: 3, folder: folder)
        defer { rig.close() }
        // The shards' subscriptions reach the publisher without their prefix, once per topic.
        #expect(try rig.upstreamSubscriptions(["order.", "heartbeat."]) == ["order.", "heartbeat."])

        let sources = (0..<24).map { "pos-\($0)" }
        var sent: [String: [UInt8]] = [:]
        for source in sources {
            let frames = try TestOrders.frames(1, source: source)
            sent[source] = frames[2].bytes
            try rig.publisher.send(multipart: frames)
        }
        for (index, shard) in rig.shards.enumerated() {
            let received = try Self.drain(shard)
            let owned = sources.filter { ShardAssignment.shard(of: $0, among: 3) == index }
            #expect(!owned.isEmpty)
            let sourcesSeen = try received.map { frames in
                try EventFrames(parsing: Array(frames)).header.sourceID
            }
            #expect(sourcesSeen.sorted() == owned.sorted(), "shard \(index)")
            for frames in received {
                let event = try EventFrames(parsing: frames)
                let order = TestOrders.order(1, source: event.header.sourceID)
                #expect(frames[0].string == "shard/\(index)-of-3/order.\(order.storeID)")
                #expect(frames[2].bytes == sent[event.header.sourceID])
            }
        }
        let counts = try #require(rig.router.counts())
        #expect(counts.received == 24)
        #expect(counts.routed.reduce(0, +) == 24)
        #expect(
            counts.routed
                == (0..<3).map { index in
                    UInt64(sources.filter { ShardAssignment.shard(of: $0, among: 3) == index }.count)
                }
        )
        #expect(counts.unroutable == 0)
        #expect(counts.unsubscribed == [0, 0, 0])
        #expect(counts.subscribedTopics == [2, 2, 2])
    }

    @Test("an unreadable header goes to shard 0 alone; foreign and unprefixed subscriptions are counted and said")
    func unroutableAndMisconfigured() throws {
        let folder = try TemporaryFolder("router-bad")
        let rig = try Rig(shards: 2, folder: folder)
        defer { rig.close() }
        let foreign = try Rig.subscriber(rig.context, folder, "shard/1-of-3/")
        defer { foreign.close(linger: .zero) }
        // A worker without input.shard: "order." is also a shard's topic (a shard worker's plain
        // subscription looks the same), "complication-request." is no shard's.
        let plain = try Rig.subscriber(rig.context, folder, "", topics: ["order.", "complication-request."])
        defer { plain.close(linger: .zero) }
        _ = try rig.upstreamSubscriptions(["order.", "heartbeat."])
        // Wait until the router has seen every subscriber's topics.
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let counts = try #require(rig.router.counts())
            if counts.foreignSubscriptions == 2, counts.unprefixedTopics == 1, counts.subscribedTopics == [2, 2] {
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }

        try rig.publisher.send(
            multipart: [try ZMQMessage("order.sf-1"), try ZMQMessage([0xff, 0xff, 0xff]), try ZMQMessage("body")]
        )
        let first = try Self.drain(rig.shards[0])
        #expect(
            first.map { $0.map(\.bytes) } == [
                [Array("shard/0-of-2/order.sf-1".utf8), [0xff, 0xff, 0xff], Array("body".utf8)]
            ]
        )
        #expect(try Self.drain(rig.shards[1], quiet: .milliseconds(100)).isEmpty)
        #expect(try Self.drain(foreign, quiet: .milliseconds(100)).isEmpty)
        #expect(try Self.drain(plain, quiet: .milliseconds(100)).isEmpty)

        let counts = try #require(rig.router.counts())
        #expect(counts.unroutable == 1)
        #expect(counts.foreignSubscriptions == 2)
        #expect(counts.unprefixedTopics == 1)
        let reports = rig.said.all
        #expect(reports.contains("caffe proxy: shard 0/2 subscribed"))
        #expect(
            reports.contains(
                "caffe proxy: a worker subscribes as shard 1/3 but this proxy routes among 2 shards; give the proxy and every worker the same count"
            )
        )
        #expect(
            reports.contains(
                "caffe proxy: a subscription without a shard prefix ('complication-request.') receives nothing here"
            )
        )
        #expect(!reports.contains { $0.contains("('order.')") })
    }

    @Test("a stranger's subscriptions past the caps are refused, counted and said in a few lines; routing goes on")
    func subscriptionFlood() throws {
        let folder = try TemporaryFolder("router-flood")
        let rig = try Rig(shards: 2, folder: folder)
        defer { rig.close() }
        _ = try rig.upstreamSubscriptions(["order.", "heartbeat."])
        // 600 stray topics without a prefix and 300 more under shard 1's prefix.
        let stranger = try Rig.subscriber(
            rig.context,
            folder,
            "",
            topics: (0..<600).map { "stray-\($0)" } + (0..<300).map { "shard/1-of-2/x-\($0)" }
        )
        defer { stranger.close(linger: .zero) }
        let deadline = ContinuousClock.now + .seconds(10)
        var counts = try #require(rig.router.counts())
        while ContinuousClock.now < deadline {
            counts = try #require(rig.router.counts())
            if counts.subscriptionMessages >= 904 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(counts.unprefixedTopics == ShardRouter.maxUnprefixedTopics)
        #expect(counts.subscribedTopics == [2, ShardRouter.maxTopicsPerShard])
        // 600 - 256 strays and 302 - 256 of shard 1's.
        #expect(counts.refusedSubscriptions == 344 + 46)
        #expect(counts.isShedding)
        #expect(rig.said.all.filter { $0.contains("refused") }.count <= 10)
        let health = ProxyOperations.health(ProxyOperations.Report(statistics: counts.proxyStatistics, routing: counts))
        #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self).hasPrefix("DEGRADED"))
        // Routing goes on for the shards.
        let order = TestOrders.order(1, source: "pos-1")
        try rig.publisher.send(
            multipart: try EventFrames.encode(topic: "order.sf-1", header: EventFrames.header(for: order), body: order)
        )
        let owner = ShardAssignment.shard(of: "pos-1", among: 2)
        #expect(try Self.drain(rig.shards[owner]).count == 1)
    }

    /// An empty subscription (or any prefix of `shard/`) matches every shard's topics: its worker
    /// sees every event, so the router says so rather than "nothing".
    @Test("a subscription to everything receives every shard's events, and the router says so")
    func subscriptionToEverything() throws {
        let folder = try TemporaryFolder("router-all")
        let rig = try Rig(shards: 2, folder: folder)
        defer { rig.close() }
        let everything = try Rig.subscriber(rig.context, folder, "", topics: [""])
        defer { everything.close(linger: .zero) }
        _ = try rig.upstreamSubscriptions(["order."])
        let deadline = ContinuousClock.now + .seconds(5)
        while try #require(rig.router.counts()).unprefixedTopics != 1, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let sources = (0..<8).map { "pos-\($0)" }
        for source in sources { try rig.publisher.send(multipart: try TestOrders.frames(1, source: source)) }
        #expect(try Self.drain(everything).count == sources.count)
        #expect(
            rig.said.all.contains(
                "caffe proxy: a subscription without a shard prefix ('') receives every shard's events; its worker drops what it does not own"
            )
        )
    }

    /// Shard 1 takes orders only while shard 0 takes requests too: a request of shard 1's source
    /// reaches the router (shard 0's subscription asked the publishers for requests) and is
    /// dropped by the XPUB, counted as sent without a subscriber.
    @Test("events of a topic their owner does not subscribe to are counted as unsubscribed")
    func topicTheOwnerDoesNotTake() throws {
        let folder = try TemporaryFolder("router-topic")
        let rig = try Rig(shards: 2, folder: folder)
        defer { rig.close() }
        let requests = try Rig.subscriber(rig.context, folder, "shard/0-of-2/", topics: ["complication-request."])
        defer { requests.close(linger: .zero) }
        _ = try rig.upstreamSubscriptions(["order.", "complication-request."])
        let deadline = ContinuousClock.now + .seconds(5)
        while try #require(rig.router.counts()).subscribedTopics != [3, 2], ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let source = try #require((0..<50).map { "pos-\($0)" }.first { ShardAssignment.shard(of: $0, among: 2) == 1 })
        let order = try TestOrders.frames(1, source: source)
        var request = try TestOrders.frames(2, source: source)
        request[0] = try ZMQMessage("complication-request.u-1")
        try rig.publisher.send(multipart: order)
        try rig.publisher.send(multipart: request)
        #expect(try Self.drain(rig.shards[1]).count == 1)
        let counts = try #require(rig.router.counts())
        #expect(counts.routed == [0, 2])
        #expect(counts.unsubscribed == [0, 1])
    }

    @Test("a shard that leaves is said, and what is routed to it meanwhile is counted")
    func shardWithoutSubscriber() throws {
        let folder = try TemporaryFolder("router-gone")
        let rig = try Rig(shards: 2, folder: folder)
        defer { rig.close() }
        _ = try rig.upstreamSubscriptions(["order."])
        let source = try #require((0..<50).map { "pos-\($0)" }.first { ShardAssignment.shard(of: $0, among: 2) == 1 })
        // Shard 1's subscriptions known first: upstream hears only the first of two shards' same topic,
        // so without this the router could still be learning of shard 1 when it leaves.
        let known = ContinuousClock.now + .seconds(5)
        while try #require(rig.router.counts()).subscribedTopics[1] == 0, ContinuousClock.now < known {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(try #require(rig.router.counts()).subscribedTopics[1] > 0)
        rig.shards[1].close(linger: .zero)
        let deadline = ContinuousClock.now + .seconds(5)
        while try #require(rig.router.counts()).subscribedTopics[1] != 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let before = try #require(rig.router.counts())
        for sequence in 1...3 {
            try rig.publisher.send(multipart: try TestOrders.frames(UInt64(sequence), source: source))
        }
        let routedDeadline = ContinuousClock.now + .seconds(5)
        while try #require(rig.router.counts()).routed[1] < before.routed[1] + 3, ContinuousClock.now < routedDeadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let after = try #require(rig.router.counts())
        #expect(after.unsubscribed[1] - before.unsubscribed[1] == 3)
        #expect(
            rig.said.all.contains(
                "caffe proxy: shard 1/2 has no subscriber; its events are dropped until one comes back"
            )
        )
    }
}
