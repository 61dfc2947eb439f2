// Caffe — simulator tests.
import CaffeClient
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import Synchronization
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeSimulator

@Suite("Journals, the generator and replay plans")
struct JournalTests {
    static let menuURL = CatalogBenchmarkTests.configuration.appendingPathComponent("menu.json")
    static let fixedNow = Date(timeIntervalSince1970: 1_795_000_000)

    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).journal")
    }

    static func generate(_ configuration: JournalGenerator.Configuration, to url: URL) throws {
        try JournalGenerator(configuration: configuration).write(
            to: url,
            menu: try Menu(contentsOf: menuURL),
            menuURL: menuURL,
            catalogURL: CatalogBenchmarkTests.catalog,
            origin: "test",
            now: fixedNow
        )
    }

    @Test("the same seed writes the same bytes; another seed does not; locale weights are followed")
    func determinism() throws {
        let (first, second, third) = (Self.temporaryFile(), Self.temporaryFile(), Self.temporaryFile())
        defer { for url in [first, second, third] { try? FileManager.default.removeItem(at: url) } }
        let markets = try TestMarkets.mix("en-US:3, es-MX:1,ja-JP:0")
        try Self.generate(.init(seed: 42, orders: 2000, markets: markets), to: first)
        try Self.generate(.init(seed: 42, orders: 2000, markets: markets), to: second)
        try Self.generate(.init(seed: 43, orders: 2000, markets: markets), to: third)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        #expect(try Data(contentsOf: first) != Data(contentsOf: third))

        let contents = try Journal.read(first)
        #expect(contents.error == nil && contents.entries.count == 2000)
        let stats = JournalInspection.stats(contents)
        #expect(Set(stats.locales.keys) == ["en-US", "es-MX"])
        let share = Double(stats.locales["en-US"] ?? 0) / 2000
        #expect(share > 0.70 && share < 0.80, "en-US weighs 3 of 4: \(share)")
        #expect(stats.sources["sim-1"].map { ($0.first, $0.last, $0.missing) } ?? (0, 0, 1) == (1, 2000, 0))
        #expect(stats.menuFingerprint == Journal.fingerprint([Self.menuURL]))
        #expect(stats.createdAt == "2026-11-18T11:06:40.000Z")
        // Quantities include 0, tips appear, terms of address vary.
        let orders = try contents.entries.map { try Caffe_V1_OrderEvent(serializedBytes: $0.record.body) }
        #expect(orders.contains { $0.lines.contains { $0.quantity == 0 } })
        #expect(orders.contains { !$0.tip.isEmpty } && orders.contains { $0.tip.isEmpty })
        #expect(Set(orders.map(\.customer.termOfAddress)).count == 3)
        // Capture times rise at about the configured rate (100/s).
        #expect(stats.ordersPerSecond > 80 && stats.ordersPerSecond < 120, "\(stats.ordersPerSecond)")
        #expect(throws: MarketDirectory.Failure.self) { try TestMarkets.mix("xx-XX:3") }
        #expect(throws: MarketDirectory.Failure.self) { try TestMarkets.mix("en-US:lots") }
    }

    @Test("a truncated record, a wrong version and a foreign file are clear errors; good records are kept")
    func corruptJournals() throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.generate(.init(seed: 1, orders: 10, markets: TestMarkets.mix()), to: url)
        let bytes = try Data(contentsOf: url)
        let contents = try Journal.read(bytes)
        let lastOffset = try #require(contents.entries.last?.offset)

        let truncated = try Journal.read(bytes.prefix(bytes.count - 5))
        #expect(truncated.entries.count == 9)
        #expect(truncated.error?.code == .truncated)
        #expect(truncated.error?.offset == lastOffset && truncated.error?.recordsBefore == 9)
        #expect(
            truncated.error?.description.hasPrefix("truncated at byte \(lastOffset) (after 9 good records)") == true
        )

        // A record whose bytes are not a JournalRecord (a wire-type 7 tag).
        var damaged = bytes.prefix(lastOffset)
        damaged.append(contentsOf: [3, 0xFF, 0xFF, 0xFF])
        let malformed = try Journal.read(damaged)
        #expect(malformed.entries.count == 9 && malformed.error?.code == .malformed)

        var header = Caffe_V1_JournalHeader()
        header.formatVersion = 2
        let headerBytes: [UInt8] = try header.serializedBytes()
        let future = Data(Journal.magic + [UInt8(headerBytes.count)] + headerBytes)
        do {
            _ = try Journal.read(future)
            Issue.record("a version 2 journal was read")
        } catch {
            #expect(error.code == .unsupportedVersion)
            #expect(error.message == "format version 2; this caffe-sim reads version 1")
        }
        do {
            _ = try Journal.read(Data("{\"orders\": []}".utf8))
            Issue.record("a JSON file was read as a journal")
        } catch {
            #expect(error.code == .notAJournal)
        }
    }

    @Test("replay pacing: anchored offsets, speed, gap cap, filters, loops with new ids and sequences")
    func plans() throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.generate(.init(seed: 3, orders: 50, markets: TestMarkets.mix(), rate: 10), to: url)
        let entries = try Journal.read(url).entries
        let times = entries.map(\.record.capturedAt.date)
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }

        var options = ReplayPlan.Options()
        let realTime = ReplayPlan(entries: entries, options: options)
        #expect(realTime.steps.count == 50)
        let span = try #require(times.last).timeIntervalSince(try #require(times.first))
        #expect(abs(seconds(realTime.expectedDuration) - span) < 1e-3)
        for (step, time) in zip(realTime.steps, times) {
            #expect(abs(seconds(step.offset) - time.timeIntervalSince(times[0])) < 1e-3)
        }
        options.speed = try #require(ReplayPlan.Speed("10x"))
        #expect(abs(seconds(ReplayPlan(entries: entries, options: options).expectedDuration) - span / 10) < 1e-3)
        options.speed = .max
        #expect(ReplayPlan(entries: entries, options: options).expectedDuration == .zero)

        options.speed = .factor(1)
        options.maxGap = .milliseconds(10)
        let capped = ReplayPlan(entries: entries, options: options)
        #expect(seconds(capped.expectedDuration) <= 49 * 0.010 + 1e-9)

        options = ReplayPlan.Options()
        options.fromTime = times[10]
        options.toTime = times[20]
        #expect(ReplayPlan(entries: entries, options: options).steps.map(\.entry) == Array(10..<20))
        options = ReplayPlan.Options()
        options.fromOffset = entries[45].offset
        #expect(ReplayPlan(entries: entries, options: options).steps.map(\.entry) == Array(45..<50))

        options = ReplayPlan.Options()
        options.loops = 2
        options.speed = .max
        let looped = ReplayPlan(entries: entries, options: options)
        #expect(looped.steps.count == 100)
        let second = try #require(looped.steps.last)
        let (frames, order) = try looped.frames(for: second, in: entries, metadata: ["replay_endpoint": "tcp://x:1"])
        #expect(order?.orderID == "sim-1-50#2" && order?.sequence == 100)
        let header = try Caffe_V1_EventHeader(serializedBytes: frames[1])
        #expect(header.sequence == 100 && header.orderID == "sim-1-50#2")
        #expect(header.metadata["replay_endpoint"] == "tcp://x:1")
        #expect(ReplayPlan.Speed("0x") == nil && ReplayPlan.Speed("fast") == nil)
        // A selection that does not start at 1: the next pass follows straight on from it.
        options.fromOffset = entries[45].offset
        let tail = ReplayPlan(entries: entries, options: options)
        let next = try #require(tail.steps.first { $0.loop == 1 })
        #expect(try tail.frames(for: next, in: entries).order?.sequence == 51)
    }

    @Test("a player sends a journal and its replay server fills a gap from it")
    func playAndServe() throws {
        let entries = try Self.entries(seed: 5, orders: 20)
        let context = try ZMQContext()
        defer { context.shutdown() }
        let (receiver, sender) = try Self.loopback(context)
        let server = try ReplayServer(context: context, endpoint: "tcp://127.0.0.1:*")
        server.start()
        defer { server.stop() }
        var options = ReplayPlan.Options()
        options.speed = .factor(1000)
        var player = JournalPlayer(plan: ReplayPlan(entries: entries, options: options), entries: entries)
        player.metadata = ["replay_endpoint": server.endpoint]
        let report = try player.play(on: sender, server: server)
        #expect(report.sent == 20)
        var received: [Caffe_V1_EventHeader] = []
        while received.count < 20, let frames = try receiver.receiveMultipart(timeout: .seconds(5)) {
            received.append(try EventFrames(parsing: frames).header)
        }
        #expect(received.map(\.sequence) == Array(1...20))
        #expect(received.allSatisfy { $0.metadata["replay_endpoint"] == server.endpoint })

        let client = try context.socket(.dealer)
        try client.connect(server.endpoint)
        var request = Caffe_V1_ReplayRequest()
        request.sourceID = "sim-1"
        request.fromSequence = 19
        request.toSequence = 22
        try client.send(
            multipart: try RequestFrames.encode(method: CaffeMethod.replayFetch, requestID: "gap-1", body: request)
        )
        let reply = try ResponseFrames(parsing: try #require(try client.receiveMultipart(timeout: .seconds(5))))
        #expect(reply.header.requestID == "gap-1" && reply.status.code == .ok)
        let response = try reply.decodeBody(as: Caffe_V1_ReplayResponse.self)
        // The events come back as they were sent: their frames, the replay endpoint in the header.
        let headers = try response.frames.map { try Caffe_V1_EventHeader(serializedBytes: $0.header) }
        #expect(headers.map(\.sequence) == [19, 20] && response.unavailable == [21, 22])
        #expect(headers.allSatisfy { $0.metadata["replay_endpoint"] == server.endpoint })
        #expect(response.frames.first?.body == entries[18].record.body)
        client.close(linger: .zero)
    }
}

extension JournalTests {
    /// The records of a generated journal.
    static func entries(seed: UInt64, orders: Int) throws -> [Journal.Entry] {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try generate(.init(seed: seed, orders: orders, markets: TestMarkets.mix()), to: url)
        return try Journal.read(url).entries
    }

    /// A PULL bound on loopback and a PUSH connected to it.
    static func loopback(_ context: ZMQContext) throws -> (receiver: ZMQSocket, sender: ZMQSocket) {
        let receiver = try context.socket(.pull)
        let sender = try context.socket(.push)
        try sender.connect(try receiver.bind("tcp://127.0.0.1:*"))
        return (receiver, sender)
    }
}

@Suite("Journal player heartbeats")
struct JournalPlayerHeartbeatTests {
    /// What a player set up by `configure` sends for a journal of `orders` orders: each event's
    /// topic, header and, for heartbeats, last sequence.
    func played(
        orders: Int,
        _ configure: (inout JournalPlayer) -> Void
    ) throws -> [(topic: String, header: Caffe_V1_EventHeader, last: UInt64?)] {
        let entries = try JournalTests.entries(seed: 5, orders: orders)
        let context = try ZMQContext()
        defer { context.shutdown() }
        let (receiver, sender) = try JournalTests.loopback(context)
        var player = JournalPlayer(plan: ReplayPlan(entries: entries, options: ReplayPlan.Options()), entries: entries)
        configure(&player)
        #expect(try player.play(on: sender, server: nil).sent == orders)
        var events: [(topic: String, header: Caffe_V1_EventHeader, last: UInt64?)] = []
        while let frames = try receiver.receiveMultipart(timeout: .milliseconds(200)) {
            let event = try EventFrames(parsing: frames)
            events.append((event.topic, event.header, try? event.decodeBody(as: Caffe_V1_Heartbeat.self).lastSequence))
        }
        return events
    }

    @Test("a quiet stretch and the end of the stream send the source's last sequence")
    func heartbeats() throws {
        let events = try played(orders: 3) { player in
            player.metadata = ["replay_endpoint": "tcp://127.0.0.1:1"]
            player.heartbeatInterval = .milliseconds(20)
            player.linger = .fixed(.milliseconds(70))
        }
        let orders = events.filter { $0.header.bodyType == Caffe_V1_OrderEvent.protoMessageName }
        let beats = events.filter { $0.header.bodyType == Caffe_V1_Heartbeat.protoMessageName }
        #expect(orders.map(\.header.sequence) == [1, 2, 3])
        // At least the one after the last record and those of the linger; each names the last
        // sequence sent before it, carries no sequence of its own and travels on "order.".
        #expect(beats.count >= 3)
        #expect(beats.last?.last == 3)
        #expect(beats.allSatisfy { $0.topic == "order." && $0.header.sequence == 0 && $0.header.sourceID == "sim-1" })
        #expect(beats.allSatisfy { $0.header.metadata["replay_endpoint"] == "tcp://127.0.0.1:1" })
        var seen: UInt64 = 0
        for event in events {
            if let last = event.last { #expect(last == seen) } else { seen = event.header.sequence }
        }
    }

    @Test("no heartbeat unless asked")
    func off() throws {
        let events = try played(orders: 2) { _ in }
        #expect(
            events.map(\.header.bodyType) == [
                Caffe_V1_OrderEvent.protoMessageName, Caffe_V1_OrderEvent.protoMessageName,
            ]
        )
    }
}

@Suite("Journal player lingering", .serialized)
struct JournalPlayerLingerTests {
    /// Plays 5 orders with heartbeats every 50 ms and lingering until caught up (quiet 200 ms,
    /// limit 1 s); `fetching` keeps asking the replay server for the last order every 50 ms.
    func play(fetching: Bool) throws -> JournalPlayer.Report {
        let entries = try JournalTests.entries(seed: 6, orders: 5)
        let context = try ZMQContext()
        defer { context.shutdown() }
        let (receiver, sender) = try JournalTests.loopback(context)
        defer { receiver.close(linger: .zero) }
        let server = try ReplayServer(context: context, endpoint: "tcp://127.0.0.1:*")
        server.start()
        defer { server.stop() }
        var options = ReplayPlan.Options()
        options.speed = .max
        var player = JournalPlayer(plan: ReplayPlan(entries: entries, options: options), entries: entries)
        player.heartbeatInterval = .milliseconds(50)
        player.linger = .untilCaughtUp(quiet: .milliseconds(200), limit: .seconds(1))
        let done = Atomic<Bool>(false)
        let client = try context.socket(.dealer)
        try client.connect(server.endpoint)
        let box = SocketBox(client)
        let fetcher = Thread {
            // After the player has handed its events to the server.
            Thread.sleep(forTimeInterval: 0.1)
            var request = Caffe_V1_ReplayRequest()
            request.sourceID = "sim-1"
            request.fromSequence = 5
            request.toSequence = 5
            while fetching, !done.load(ordering: .relaxed) {
                _ = try? box.socket.send(
                    multipart: try RequestFrames.encode(
                        method: CaffeMethod.replayFetch,
                        requestID: "tail",
                        body: request
                    )
                )
                _ = try? box.socket.receiveMultipart(timeout: .milliseconds(50))
            }
            box.socket.close(linger: .zero)
        }
        fetcher.start()
        defer { done.store(true, ordering: .relaxed) }
        let report = try player.play(on: sender, server: server)
        done.store(true, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.1)
        return report
    }

    @Test("stays until the replay endpoint goes quiet, then reports it caught up")
    func caughtUp() throws {
        let report = try play(fetching: false)
        #expect(report.sent == 5 && report.caughtUp == true && report.replayRequests == 0)
        #expect(report.lingerSeconds >= 0.2 && report.lingerSeconds < 0.9)
        #expect(report.subscriptions == nil)
    }

    @Test("a worker still fetching at the limit is reported as not caught up")
    func stillFetching() throws {
        let report = try play(fetching: true)
        #expect(report.caughtUp == false && report.lingerSeconds >= 1)
        #expect(report.replayRequests > 5 && report.replayedEvents == report.replayRequests)
    }
}
