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

/// What was done to the worker from outside, each against a real `caffe worker` process: hostile
/// events, oversized frames, floods of sources, idle and greedy clients, broken requests.
@Suite("caffe worker: attacks", .serialized)
struct WorkerAttackTests {
    /// Sends `order` over `socket` with its header changed by `edit`.
    static func send(
        _ order: Caffe_V1_OrderEvent,
        on socket: ZMQSocket,
        _ edit: (inout Caffe_V1_EventHeader) -> Void = { _ in }
    ) throws {
        var header = EventFrames.header(for: order)
        edit(&header)
        try socket.send(
            multipart: try EventFrames.encode(
                topic: CaffeTopic.order(store: order.storeID),
                header: header,
                body: order
            )
        )
    }

    /// The exposition once it contains `expected` (threads publish their counts when they next
    /// wait, so a scrape right after an output may be a moment behind), or the last one read.
    static func metrics(_ address: String, containing expected: [String]) throws -> String {
        var text = ""
        for _ in 0..<50 {
            text = try httpGet(address, "/metrics").body
            if expected.allSatisfy(text.contains) { return text }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return text
    }

    /// Every sample value of a Prometheus exposition.
    static func sampleValues(_ text: String) -> [(String, Double)] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                return nil
            }
            return (String(line[..<space]), value)
        }
    }

    @Test("a far-ahead sequence gives up the range between; late events in it are rendered; 2^62 is refused")
    func farAheadAndLate() throws {
        let folder = try TemporaryFolder("attack-far")
        let context = try ZMQContext()
        defer { context.shutdown() }
        let collector = try WorkerRecoveryTests.Collector(context: context)
        // A raw PUSH with no replay endpoint: gaps cannot be recovered.
        let push = try context.socket(.push)
        let endpoint = try push.bind("tcp://127.0.0.1:*")
        defer { push.close(linger: .milliseconds(0)) }
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: [
                "input.kind=pull", "input.endpoints=>\(endpoint)", "output.kind=push",
                "output.endpoints=>\(collector.endpoint)", "replay.backoff_ms=20",
            ]
        )
        let address = try worker.waitUntilServing()
        for sequence in [UInt64(1), 2, 3, 1000] { try Self.send(TestOrders.order(sequence, source: "far"), on: push) }
        var events = try collector.collect { events in
            events.contains { $0.topic == CaffeTopic.deadLetter } && events.count >= 9
        }
        let gap = try #require(events.first { $0.topic == CaffeTopic.deadLetter }).decodeBody(
            as: Caffe_V1_DeadLetter.self
        )
        #expect(gap.reason == .unrecoverableGap && gap.gapFrom == 4 && gap.gapTo == 999)
        // The source's real 4, 5, 6 arrive after all: rendered, not taken for duplicates.
        for sequence in UInt64(4)...6 { try Self.send(TestOrders.order(sequence, source: "far"), on: push) }
        // Two sources at 2^62: refused, the checkpoint does not jump, counters stay sane.
        try Self.send(TestOrders.order(1 << 62, source: "far"), on: push)
        try Self.send(TestOrders.order(1 << 62, source: "other"), on: push)
        events += try collector.collect(quiet: .seconds(3)) { more in
            more.filter { $0.topic.hasPrefix("confirmation.") }.count >= 3
                && more.filter { $0.topic == CaffeTopic.deadLetter }.count >= 2
        }
        let confirmed = events.filter { $0.topic.hasPrefix("confirmation.") }.map(\.header.sequence).sorted()
        #expect(confirmed == [1, 2, 3, 4, 5, 6, 1000])
        let refusals = try events.filter { $0.topic == CaffeTopic.deadLetter }.map {
            try $0.decodeBody(as: Caffe_V1_DeadLetter.self)
        }.filter { $0.reason == .invalid }
        #expect(refusals.count == 2 && refusals.allSatisfy { $0.detail.contains("4611686018427387904") })
        let text = try Self.metrics(address, containing: ["caffe_worker_late_events_total 3"])
        #expect(Self.sampleValues(text).allSatisfy { $0.1 >= 0 }, "\(text)")
        #expect(text.contains("caffe_worker_late_events_total 3"))
        #expect(worker.terminate() == 0)
        #expect(try Checkpoint.read(worker.checkpoint).sources["far"] == 1000)
        #expect(try Checkpoint.read(worker.checkpoint).sources["other"] == nil)
    }

    @Test("contradictory headers, missing fields and huge quantities are dead-lettered with their reference")
    func invalidEvents() throws {
        let fixture = try WorkerFixture("attack-invalid")
        defer { withExtendedLifetime(fixture) {} }
        try fixture.worker.waitUntilServing()
        let push = fixture.source.push
        for sequence in UInt64(1)...2 { try fixture.source.send(TestOrders.order(sequence)) }
        // Header sequence 3, body sequence 2.
        try Self.send(TestOrders.order(2), on: push) {
            $0.sequence = 3
            $0.orderID = "O-3"
        }
        var huge = TestOrders.order(4)
        huge.lines[0].quantity = 1 << 62
        try fixture.source.send(huge)
        try Self.send(TestOrders.order(5), on: push) { $0.sequence = 0 }
        try Self.send(TestOrders.order(5), on: push) { $0.sourceID = "" }
        try fixture.source.send(TestOrders.order(5))
        let events = try fixture.collector.collect { events in
            events.filter { $0.topic == CaffeTopic.deadLetter }.count >= 4
                && events.filter { $0.topic.hasPrefix("receipt.") }.count >= 3
        }
        let letters = try events.filter { $0.topic == CaffeTopic.deadLetter }.map {
            try $0.decodeBody(as: Caffe_V1_DeadLetter.self)
        }
        #expect(letters.map(\.reason) == [.invalid, .invalid, .invalid, .invalid])
        // Refused headers are dead-lettered at once, rendered ones after rendering: any order.
        func letter(_ text: String) -> Caffe_V1_DeadLetter? { letters.first { $0.detail.contains(text) } }
        #expect(letter("sequence 3 differs from the body's 2")?.ref.sequence == 3)
        #expect(letter("quantity")?.ref.sequence == 4)
        #expect(letter("no sequence") != nil && letter("no source_id") != nil)
        #expect(events.filter { $0.topic.hasPrefix("confirmation.") }.map(\.header.sequence) == [1, 2, 5])
        #expect(fixture.worker.terminate() == 0)
        // Sequence 3 and 4 were completed by their dead letters: no gap, checkpoint at 5.
        #expect(!fixture.worker.stderr.contains("sequence gap"))
        #expect(try Checkpoint.read(fixture.worker.checkpoint).sources == ["src": 5])
    }

    @Test("an oversized order is refused, counted and logged; the sender stays connected")
    func oversized() throws {
        let fixture = try WorkerFixture("attack-oversized")
        defer { withExtendedLifetime(fixture) {} }
        let address = try fixture.worker.waitUntilServing()
        try fixture.source.send(TestOrders.order(1))
        var big = TestOrders.order(2)
        big.customer.name = String(repeating: "x", count: 22 << 20)
        try fixture.source.send(big)
        let sent = ContinuousClock.now
        try fixture.source.send(TestOrders.order(3))
        let events = try fixture.collector.collect { events in
            events.filter { $0.topic.hasPrefix("receipt.") }.count >= 2
                && events.contains { $0.topic == CaffeTopic.deadLetter }
        }
        #expect(ContinuousClock.now - sent < .seconds(5))
        let letter = try #require(events.first { $0.topic == CaffeTopic.deadLetter }).decodeBody(
            as: Caffe_V1_DeadLetter.self
        )
        #expect(letter.reason == .oversized && letter.ref.sequence == 2 && letter.originalBody.isEmpty)
        // The body frame alone is over the limit, and the detail counts the body (WIRE.md, Dead letters).
        #expect(letter.detail.hasPrefix("the body has "))
        #expect(letter.detail.hasSuffix(" bytes; input.max_message_bytes accepts 1048576 (its bytes are not kept)"))
        #expect(events.filter { $0.topic.hasPrefix("confirmation.") }.map(\.header.sequence) == [1, 3])
        let text = try Self.metrics(address, containing: ["caffe_worker_oversized_messages_total 1"])
        #expect(text.contains("caffe_worker_oversized_messages_total 1"))
        #expect(text.contains("caffe_worker_input_disconnects_total 0"))
        #expect(try httpGet(address, "/healthz").status == 200)
        #expect(fixture.worker.stderr.contains("oversized message refused"))
        #expect(fixture.worker.terminate() == 0)
    }

    @Test("a heartbeat reveals the lost end of a stream, which is replayed")
    func heartbeat() throws {
        let fixture = try WorkerFixture("attack-heartbeat", settings: ["replay.backoff_ms=20"])
        defer { withExtendedLifetime(fixture) {} }
        try fixture.worker.waitUntilServing()
        for sequence in UInt64(1)...3 { try fixture.source.send(TestOrders.order(sequence)) }
        for sequence in UInt64(4)...5 { fixture.source.drop(TestOrders.order(sequence)) }
        var header = Caffe_V1_EventHeader()
        header.sourceID = "src"
        header.metadata["replay_endpoint"] = fixture.source.replayEndpoint
        var beat = Caffe_V1_Heartbeat()
        beat.lastSequence = 5
        try fixture.source.push.send(multipart: try EventFrames.encode(topic: "heartbeat", header: header, body: beat))
        let events = try fixture.collector.collect { $0.filter { $0.topic.hasPrefix("confirmation.") }.count >= 5 }
        #expect(
            events.filter { $0.topic.hasPrefix("confirmation.") }.map(\.header.sequence).sorted() == [1, 2, 3, 4, 5]
        )
        #expect(fixture.source.requests == [4...5])
        #expect(fixture.worker.terminate() == 0)
        #expect(try Checkpoint.read(fixture.worker.checkpoint).sources == ["src": 5])
    }

    @Test("a thousand sources naming their own replay endpoints hold a bounded number of sockets")
    func replayEndpointFlood() throws {
        let fixture = try WorkerFixture(
            "attack-endpoints",
            settings: [
                "replay.backoff_ms=10", "replay.timeout_ms=100", "replay.attempts=2", "replay.max_connections=16",
            ]
        )
        defer { withExtendedLifetime(fixture) {} }
        try fixture.worker.waitUntilServing()
        let pid = fixture.worker.processIdentifier
        func descriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
        }
        let before = descriptors()
        var most = before
        for index in 0..<1100 {
            // Each starts at 2: sequence 1 is a gap to ask its (unreachable) endpoint for.
            try Self.send(TestOrders.order(2, source: "flood-\(index)"), on: fixture.source.push) {
                $0.metadata["replay_endpoint"] = "tcp://127.0.0.1:\(1 + index % 900)"
            }
            if index % 100 == 0 { most = max(most, descriptors()) }
        }
        // A real source's gap is still recovered.
        try fixture.source.send(TestOrders.order(1, source: "src"))
        fixture.source.drop(TestOrders.order(2, source: "src"))
        try fixture.source.send(TestOrders.order(3, source: "src"))
        let events = try fixture.collector.collect(quiet: .seconds(30)) { events in
            Set(
                events.filter { $0.header.sourceID == "src" && $0.topic.hasPrefix("confirmation.") }.map(
                    \.header.sequence
                )
            )
            .count >= 3
        }
        for _ in 0..<20 {
            most = max(most, descriptors())
            Thread.sleep(forTimeInterval: 0.05)
        }
        let recovered = Set(
            events.filter { $0.header.sourceID == "src" && $0.topic.hasPrefix("confirmation.") }.map(\.header.sequence)
        )
        #expect(recovered == [1, 2, 3])
        #expect(most - before < 60, "file descriptors went from \(before) to \(most)")
        #expect(fixture.worker.terminate() == 0)
    }

    @Test("200 idle connections do not hold up /healthz (served together, not one after another)")
    func idleHTTPConnections() throws {
        let folder = try TemporaryFolder("attack-http")
        let worker = try WorkerProcess(folder: folder.url, settings: WorkerServiceTests.quietSettings(folder.url))
        let address = try #require(HostAndPort(try worker.waitUntilServing()))
        var idle: [Int32] = []
        defer { for descriptor in idle { close(descriptor) } }
        for _ in 0..<200 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var target = sockaddr_in()
            target.sin_family = sa_family_t(AF_INET)
            target.sin_port = address.port.bigEndian
            inet_pton(AF_INET, address.host, &target.sin_addr)
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            idle.append(descriptor)
        }
        var times: [Duration] = []
        for _ in 0..<9 {
            let start = ContinuousClock.now
            let answer = HTTPProbe.get(address, "/healthz")
            times.append(ContinuousClock.now - start)
            #expect(answer?.status == 200)
        }
        // Served one connection at a time, each idle one would hold a probe for its 2 s deadline.
        // (The latency itself is measured by caffe-sim chaos, not here.)
        #expect(times.allSatisfy { $0 < .seconds(1) }, "\(times)")
        #expect(worker.terminate() == 0)
    }

    @Test("a client that floods and never reads loses its replies; the others are all answered")
    func greedyClient() throws {
        let folder = try TemporaryFolder("attack-greedy")
        let worker = try WorkerProcess(folder: folder.url, settings: WorkerServiceTests.quietSettings(folder.url))
        let address = try worker.waitUntilServing()
        let context = try ZMQContext()
        defer { context.shutdown() }
        let polite = try RPCClient(context: context, endpoint: worker.rpcEndpoint)
        let greedy = try RPCClient(context: context, endpoint: worker.rpcEndpoint) {
            try $0.set(.receiveHighWaterMark, to: 1)
            try $0.set(.sendHighWaterMark, to: 100_000)
        }
        for index in 0..<20_000 {
            try greedy.send(CaffeMethod.stats, id: "g\(index)", body: Caffe_V1_StatsRequest())
        }
        // Every polite request is answered, while the flood is being served and after it.
        for index in 0..<200 {
            try polite.send(CaffeMethod.healthCheck, id: "p\(index)", body: Grpc_Health_V1_HealthCheckRequest())
            #expect(try polite.replies(1, timeout: .seconds(2)).count == 1, "request \(index)")
        }
        greedy.socket.close(linger: .milliseconds(0))
        let text = try Self.metrics(address, containing: ["caffe_worker_rpc_replies_dropped_total"])
        let dropped = Self.sampleValues(text).first { $0.0 == "caffe_worker_rpc_replies_dropped_total" }?.1 ?? 0
        #expect(dropped > 0)
        #expect(worker.terminate() == 0)
    }

    @Test("every request with a routing id gets a reply: INVALID_ARGUMENT, with its id when readable")
    func brokenRequests() throws {
        let folder = try TemporaryFolder("attack-requests")
        let worker = try WorkerProcess(folder: folder.url, settings: WorkerServiceTests.quietSettings(folder.url))
        try worker.waitUntilServing()
        let context = try ZMQContext()
        defer { context.shutdown() }
        let dealer = try context.socket(.dealer)
        try dealer.connect(worker.rpcEndpoint)
        var header = Caffe_V1_RequestHeader()
        header.method = CaffeMethod.healthCheck
        header.requestID = "readable"
        let good = try header.serializedBytes() as [UInt8]
        var noID = header
        noID.requestID = ""
        var badDeadline = header
        badDeadline.requestID = "bad-deadline"
        badDeadline.deadline = Google_Protobuf_Timestamp(seconds: 1, nanos: -5)
        let body = try Grpc_Health_V1_HealthCheckRequest().serializedBytes() as [UInt8]
        let cases: [(String, [[UInt8]], String)] = [
            ("undecodable header", [[], [0xff, 0xff, 0xff], body], ""),
            ("empty request id", [[], try noID.serializedBytes(), body], ""),
            ("missing body frame", [[], good], "readable"),
            ("missing delimiter", [good, body], "readable"),
            ("invalid header with an id", [[], try badDeadline.serializedBytes(), body], "bad-deadline"),
        ]
        for (name, frames, id) in cases {
            for (index, frame) in frames.enumerated() { try dealer.send(frame, more: index < frames.count - 1) }
            let reply = try #require(try dealer.receiveMultipart(timeout: .seconds(5)), "\(name): no reply")
            let response = try #require(try? ResponseFrames(parsing: reply), "\(name): \(reply)")
            #expect(response.header.status == .invalidArgument, "\(name)")
            #expect(response.header.requestID == id, "\(name)")
        }
        #expect(worker.terminate() == 0)
    }
}
