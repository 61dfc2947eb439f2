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

@testable import CaffeBooks
@testable import CaffeWorker

/// Issue 45, round 4 of the hostile neighbours, each against a real `caffe worker` process or
/// the real `caffe` tools: a source id forging another source's stream, the checkpoint tools fed
/// a missing file or hostile bytes, and the descriptor limit.
@Suite("caffe worker: hostile neighbours, round 4", .serialized)
struct RoundFourTests {
    /// An order's frames, its header under `epoch`.
    static func frames(_ order: Caffe_V1_OrderEvent, epoch: UInt64) throws -> [ZMQMessage] {
        var header = EventFrames.header(for: order)
        header.sourceEpoch = epoch
        // Encoded by hand: the encoder refuses a header the worker must refuse.
        return [
            try ZMQMessage(Array(CaffeTopic.order(store: order.storeID).utf8)),
            try ZMQMessage(try header.serializedBytes() as [UInt8]),
            try ZMQMessage(try order.serializedBytes() as [UInt8]),
        ]
    }

    @Test("a source id spelling another source's stream key is dead-lettered INVALID; that source loses nothing")
    func forgedStreamKey() throws {
        let fixture = try WorkerFixture("round4-forged")
        defer { withExtendedLifetime(fixture) {} }
        try fixture.worker.waitUntilServing()
        let epoch: UInt64 = 1_795_000_000_000_000
        try fixture.source.push.send(multipart: Self.frames(TestOrders.order(1, source: "pos-9"), epoch: epoch))
        // pos-9's key for that run, sent as a source id without an epoch.
        let forged = TestOrders.order(2, source: SourceStream.key(source: "pos-9", epoch: epoch))
        try fixture.source.push.send(multipart: Self.frames(forged, epoch: 0))
        for sequence: UInt64 in 2...4 {
            try fixture.source.push.send(
                multipart: Self.frames(TestOrders.order(sequence, source: "pos-9"), epoch: epoch)
            )
        }
        let events = try fixture.collector.collect { $0.count >= 9 }
        let letters = events.filter { $0.header.bodyType == Caffe_V1_DeadLetter.protoMessageName }
        #expect(letters.count == 1)
        let letter = try #require(letters.first).decodeBody(as: Caffe_V1_DeadLetter.self)
        #expect(letter.reason == .invalid)
        #expect(letter.detail == "invalidField: EventHeader.source_id holds the control character U+001F")
        let confirmed = events.filter { $0.header.bodyType == Caffe_V1_Confirmation.protoMessageName }
        #expect(confirmed.map(\.header.sequence).sorted() == [1, 2, 3, 4])
        #expect(Set(confirmed.map(\.header.sourceID)) == ["pos-9"])
        #expect(fixture.worker.terminate() == 0)
        let checkpoint = try Checkpoint.read(fixture.folder.url.appendingPathComponent("worker.checkpoint"))
        #expect(checkpoint.sources == [SourceStream.key(source: "pos-9", epoch: epoch): 4])
    }

    @Test("the worker raises its descriptor soft limit to the hard one and says so")
    func descriptorLimit() throws {
        let fixture = try WorkerFixture("round4-descriptors")
        defer { withExtendedLifetime(fixture) {} }
        try fixture.worker.waitUntilServing()
        let limits = try String(contentsOfFile: "/proc/\(fixture.worker.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1], "\(line)")
        #expect(fixture.worker.terminate() == 0)
        #expect(fixture.worker.stderr.contains("file descriptor limit"))
        #expect(DescriptorLimit.operationsConnections(limit: 1024) == 128)
        #expect(DescriptorLimit.operationsConnections(limit: 1_048_576) == 256)
        #expect(DescriptorLimit.operationsConnections(limit: 64) == 16)
    }

    @Test("caffe checkpoint: a missing input exits 1 and reshard writes nothing; ids are shown, never obeyed")
    func checkpointTools() throws {
        let folder = try TemporaryFolder("round4-checkpoint")
        let real = folder.url.appendingPathComponent("shard-0.checkpoint")
        try Checkpoint(sources: ["esc\u{1B}[31m-red": 1, "pos-1": 4_000_000]).write(to: real)
        let shown = try HostileNeighbourTests.caffe(["checkpoint", "show", real.path])
        #expect(shown.status == 0)
        #expect(shown.standardOutput == "esc\\u{1B}[31m-red  mark 1\npos-1  mark 4000000\n")
        let missing = folder.url.appendingPathComponent("shard-l.checkpoint").path
        let show = try HostileNeighbourTests.caffe(["checkpoint", "show", missing])
        #expect(show.status == 1)
        #expect(show.standardError.contains("no such checkpoint (neither the file nor \(missing).journal exists)"))
        let output = folder.url.appendingPathComponent("resharded")
        let reshard = try HostileNeighbourTests.caffe(
            ["checkpoint", "reshard", "--to", "2", "--output", output.path, real.path, missing]
        )
        #expect(reshard.status == 1 && !FileManager.default.fileExists(atPath: output.path))
    }
}
