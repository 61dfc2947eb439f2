import CaffeProtocol
// Caffe — CaffeWorker tests.
import Foundation
import Logging
import Testing
import ZeroMQ

@testable import CaffeBooks
@testable import CaffeWorker

@Suite("Delivery bookkeeping")
struct DeliveryTests {
    @Test("the contiguous mark moves when holes fill, in any order")
    func contiguous() {
        var seen = ContiguousSequence()
        let fresh = [seen.insert(1), seen.insert(4), seen.insert(6)]
        #expect(fresh == [true, true, true])
        #expect(seen.contiguous == 1 && seen.missing == [2...3, 5...5])
        let again = seen.insert(4)
        #expect(!again)
        seen.insert(3)
        seen.insert(2)
        #expect(seen.contiguous == 4 && seen.missing == [5...5])
        seen.insert(5...5)
        #expect(seen.contiguous == 6 && seen.ahead.isEmpty && seen.missing.isEmpty)
        var resumed = ContiguousSequence(contiguous: 100)
        let inserted = [resumed.insert(100), resumed.insert(101)]
        #expect(inserted == [false, true] && resumed.contiguous == 101)
    }

    @Test("intake: gaps reported once, duplicates by sequence and by order id")
    func intake() {
        var tracker = IntakeTracker()
        #expect(tracker.observe(source: "s", sequence: 1, orderID: "o1") == .init(.new))
        #expect(tracker.observe(source: "s", sequence: 4, orderID: "o4") == .init(.new, missing: [2...3]))
        #expect(tracker.observe(source: "s", sequence: 6, orderID: "o6") == .init(.new, missing: [5...5]))
        // A replayed 2 fills part of the gap; nothing new is missing.
        #expect(tracker.observe(source: "s", sequence: 2, orderID: "o2") == .init(.new))
        #expect(tracker.observe(source: "s", sequence: 4, orderID: "o4") == .init(.duplicate))
        // A publisher retry under a new sequence: same order id.
        #expect(tracker.observe(source: "s", sequence: 7, orderID: "o6") == .init(.retry))
        #expect(tracker.missing == ["s": [3...3, 5...5]])
        tracker.abandon(source: "s", 3...3)
        #expect(tracker.missing == ["s": [5...5]])
        // Sources are independent.
        #expect(tracker.observe(source: "t", sequence: 1, orderID: "x1") == .init(.new))
    }

    @Test("intake resumes from a checkpoint: what was done is a duplicate, what was missed is a gap")
    func resume() {
        var tracker = IntakeTracker(resumingFrom: ["s": 10])
        #expect(tracker.observe(source: "s", sequence: 9, orderID: "o9") == .init(.duplicate))
        #expect(tracker.observe(source: "s", sequence: 13, orderID: "o13") == .init(.new, missing: [11...12]))
    }

    @Test("remembered order ids are bounded")
    func recentSet() {
        var recent = RecentSet<String>(capacity: 2)
        recent.insert("a")
        recent.insert("b")
        recent.insert("c")
        #expect(!recent.contains("a") && recent.contains("b") && recent.contains("c"))
    }

    @Test("checkpoints round-trip, replace atomically and refuse other versions")
    func checkpoint() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("worker.checkpoint")
        #expect(try Checkpoint.read(url) == Checkpoint())
        try Checkpoint(sources: ["pos-1": 42, "sim-1": 7]).write(to: url)
        try Checkpoint(sources: ["pos-1": 43, "sim-1": 7]).write(to: url)
        #expect(try Checkpoint.read(url).sources == ["pos-1": 43, "sim-1": 7])
        #expect(
            try String(contentsOf: url, encoding: .utf8)
                == #"{"version":3,"generation":0,"sources":{"pos-1":43,"sim-1":7},"given_up":{},"endpoints":{},"endpoint_identities":{}}"#
                + "\n"
        )
        // Version 1 files (no given-up ranges) are still read.
        try #"{"sources":{"a":3},"version":1}"#.write(to: url, atomically: true, encoding: .utf8)
        #expect(try Checkpoint.read(url).sources == ["a": 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["worker.checkpoint"])
        try #"{"sources":{},"version":9}"#.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: Checkpoint.Problem.self) { try Checkpoint.read(url) }
        try "{".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: Checkpoint.Problem.self) { try Checkpoint.read(url) }
    }

    @Test("values no worker writes are damage: a sequence above 2^62, a backwards range, a foreign endpoint")
    func checkpointDamage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("worker.checkpoint")
        for (text, expected) in [
            (
                #"{"sources":{"pos-1":18446744073709551615},"version":2}"#,
                "source 'pos-1' has sequence 18446744073709551615, beyond the highest a worker accepts (4611686018427387904)"
            ),
            (#"{"sources":{},"given_up":{"a":[[9,3]]},"version":2}"#, "given-up range [9, 3]"),
            (#"{"sources":{},"endpoints":{"a":"inproc://x"},"version":3}"#, "replay endpoint 'inproc://x'"),
        ] {
            try text.write(to: url, atomically: true, encoding: .utf8)
            let problem = #expect(throws: Checkpoint.Problem.self) { try Checkpoint.read(url) }
            #expect(problem?.message.contains(expected) == true, "\(problem?.message ?? "")")
        }
    }

    @Test("the journal: changes appended, a torn last line ignored, lines a snapshot covers skipped, damage refused")
    func checkpointJournal() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("worker.checkpoint")
        var base = Checkpoint(sources: ["a": 5])
        base.generation = 2
        try base.write(to: url)
        var old = Checkpoint.Change(sources: ["a": 4])
        old.generation = 2
        var next = Checkpoint.Change(sources: ["a": 9, "b": 1], givenUp: ["b": [3...4]])
        next.generation = 3
        try Checkpoint.append(old, toJournalOf: url)
        try Checkpoint.append(next, toJournalOf: url)
        let journal = Checkpoint.journalURL(for: url)
        let handle = try FileHandle(forWritingTo: journal)
        handle.seekToEndOfFile()
        handle.write(Data(#"{"g":4,"s":{"a":1"#.utf8))
        try handle.close()
        let read = try Checkpoint.read(url)
        #expect(read.sources == ["a": 9, "b": 1] && read.givenUpRanges == ["b": [3...4]] && read.generation == 3)
        // A damaged line that is not the last is refused, naming it.
        try Data(#"{"g":5,"s":{"a":1}}"#.utf8 + [10] + "garbage\n".utf8 + #"{"g":6}"#.utf8 + [10]).write(to: journal)
        let problem = #expect(throws: Checkpoint.Problem.self) { try Checkpoint.read(url) }
        #expect(problem?.message.hasPrefix("line 2 is unreadable") == true)
    }

    @Test(
        "a torn last journal line is skipped and said; an empty line, or a torn line alone without a snapshot, refused"
    )
    func checkpointJournalDamageIsSaid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("w.checkpoint")
        let journal = Checkpoint.journalURL(for: url)
        // Neither file: a first start, and nothing existed.
        let first = try Checkpoint.reading(url)
        #expect(!first.existed && first.tornLine == nil && first.checkpoint.sources.isEmpty)
        try Data((#"{"g":1,"s":{"a":4}}"# + "\n" + #"{"g":2,"s":{"a":"#).utf8).write(to: journal)
        let torn = try Checkpoint.reading(url)
        #expect(torn.checkpoint.sources == ["a": 4] && torn.existed)
        #expect(torn.tornLine == Checkpoint.TornLine(path: journal.path, line: 2, bytes: 16))
        #expect(
            torn.tornLine?.description
                == "\(journal.path): line 2 ends without a newline (16 bytes, a write cut short); skipped"
        )
        // Cut off, the next change is a line of its own and the journal reads whole.
        try Checkpoint.dropTornLine(try #require(torn.tornLine))
        var next = Checkpoint.Change(sources: ["a": 6])
        next.generation = 3
        try Checkpoint.append(next, toJournalOf: url)
        let mended = try Checkpoint.reading(url)
        #expect(mended.tornLine == nil && mended.checkpoint.sources == ["a": 6])
        // Only a torn line and no snapshot: nothing to resume from, refused.
        try Data(#"{"g":1,"s":{"a":"#.utf8).write(to: journal)
        let alone = #expect(throws: Checkpoint.Problem.self) { try Checkpoint.read(url) }
        #expect(alone?.message.hasPrefix("holds nothing readable") == true)
        // An emptied middle line lost a change: refused, naming it.
        try Data((#"{"g":1,"s":{"a":4}}"# + "\n\n" + #"{"g":3,"s":{"a":9}}"# + "\n").utf8).write(to: journal)
        let emptied = #expect(throws: Checkpoint.Problem.self) { try Checkpoint.read(url) }
        #expect(emptied?.message.hasPrefix("line 2 is empty") == true)
    }

    @Test("retired runs leave the checkpoint, snapshot and journal alike; epoch floors only rise")
    func checkpointRetiredRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("w.checkpoint")
        let old = SourceStream.key(source: "pos", epoch: 1)
        let new = SourceStream.key(source: "pos", epoch: 2)
        try Checkpoint(sources: [old: 7, "other": 3], givenUp: [old: [2...3]]).write(to: url)
        var change = Checkpoint.Change(sources: [new: 1, old: 8])
        change.generation = 1
        change.retired = [old]
        change.epochFloors = ["pos": 2]
        try Checkpoint.append(change, toJournalOf: url)
        var lower = Checkpoint.Change()
        lower.generation = 2
        lower.epochFloors = ["pos": 1]
        try Checkpoint.append(lower, toJournalOf: url)
        let read = try Checkpoint.read(url)
        #expect(read.sources == [new: 1, "other": 3] && read.givenUp.isEmpty && read.epochFloors == ["pos": 2])
        // The snapshot a compaction writes leaves the retired run out and keeps the floors.
        var state = CheckpointState(Checkpoint(sources: [old: 7, "other": 3]))
        state.apply(change)
        _ = try state.write(to: url)
        try Data().write(to: Checkpoint.journalURL(for: url))
        let compacted = try Checkpoint.read(url)
        #expect(compacted.sources == [new: 1, "other": 3] && compacted.epochFloors == ["pos": 2])
        #expect(state.sourceCount == 2)
    }

    @Test("the writer appends changes, compacts the journal into a snapshot, and reports failures")
    func checkpointWriter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("worker.checkpoint")
        let metrics = WorkerMetrics()
        let status = WorkerStatus()
        let writer = CheckpointWriter(
            url: url,
            resumed: Checkpoint(),
            logger: .init(label: "test"),
            shard: metrics.makeShard("checkpoint"),
            status: status,
            failuresBeforeUnhealthy: 2,
            compactionFloor: 0
        )
        // A missing folder makes every write fail; the second failure in a row is unhealthy.
        let broken = CheckpointWriter(
            url: folder.appendingPathComponent("missing/worker.checkpoint"),
            resumed: Checkpoint(),
            logger: .init(label: "test"),
            shard: metrics.makeShard("broken"),
            status: status,
            failuresBeforeUnhealthy: 2
        )
        #expect(!broken.writeFinal(Checkpoint.Change(sources: ["x": 1])))
        #expect(metrics.counts.checkpointFailures == 1 && status.isCheckpointHealthy)
        #expect(writer.writeFinal(Checkpoint.Change(sources: ["a": 3], pins: ["a": .init(endpoint: "tcp://a:1")])))
        let read = try Checkpoint.read(url)
        #expect(read.sources == ["a": 3] && read.endpoints == ["a": "tcp://a:1"])
        #expect(metrics.counts.checkpointCompactions == 1)
    }

    @Test("gap recovery: first request after the backoff, retries after the timeout, then given up")
    func recoverySchedule() {
        let start = ContinuousClock.now
        var recovery = GapRecovery(
            policy: .init(timeout: .milliseconds(100), attempts: 2, backoff: .milliseconds(10), maxBackoff: .seconds(1))
        )
        var missing: [ClosedRange<UInt64>] = [3...6]
        recovery.report(source: "s", range: 3...6, at: start)
        let early = recovery.due(at: start, stillMissing: { _, _ in missing }, hasEndpoint: { _ in true })
        #expect(early.requests.isEmpty && early.abandoned.isEmpty)
        #expect(recovery.nextDue == start + .milliseconds(10))
        // 3 arrived meanwhile: the request asks for 4...6 only.
        missing = [4...6]
        let first = recovery.due(
            at: start + .milliseconds(10),
            stillMissing: { _, _ in missing },
            hasEndpoint: { _ in true }
        )
        #expect(first.requests.map(\.range) == [4...6] && first.requests.map(\.attempt) == [1])
        // No reply within the timeout: asked again.
        let second = recovery.due(
            at: start + .milliseconds(110),
            stillMissing: { _, _ in missing },
            hasEndpoint: { _ in true }
        )
        #expect(second.requests.map(\.attempt) == [2])
        // The source has 4 and 5 but not 6: 6 is given up at once, the rest awaited.
        let answer = recovery.answered(id: first.requests[0].id, unavailable: [6], at: start + .milliseconds(120))
        #expect(
            answer.known
                && answer.abandoned == [
                    .init(source: "s", range: 6...6, reason: "the source no longer has these events")
                ]
        )
        missing = []
        let settled = recovery.due(
            at: start + .seconds(1),
            stillMissing: { _, _ in missing },
            hasEndpoint: { _ in true }
        )
        #expect(settled.requests.isEmpty && settled.abandoned.isEmpty && recovery.pending == 0)
        // Out of attempts, and without an endpoint, a gap is given up.
        recovery.report(source: "s", range: 9...9, at: start)
        for step in 1...2 {
            _ = recovery.due(at: start + .seconds(step * 2), stillMissing: { [$1] }, hasEndpoint: { _ in true })
        }
        let exhausted = recovery.due(at: start + .seconds(10), stillMissing: { [$1] }, hasEndpoint: { _ in true })
        #expect(exhausted.abandoned.map(\.reason) == ["no replay after 2 requests"])
        recovery.report(source: "t", range: 1...2, at: start)
        let orphan = recovery.due(at: start + .seconds(1), stillMissing: { [$1] }, hasEndpoint: { _ in false })
        #expect(orphan.abandoned.map(\.range) == [1...2])
        #expect(orphan.abandoned.map(\.reason) == ["no replay endpoint is known for source 't'"])
        // Sequences near the top of the accepted range: batches do not overflow.
        let top = IntakeTracker.maxSequence
        var high = GapRecovery(policy: .init(backoff: .zero, batch: 256))
        high.report(source: "h", range: (top - 10)...(top - 2), at: start)
        let highRequests = high.due(at: start, stillMissing: { [$1] }, hasEndpoint: { _ in true }).requests
        #expect(highRequests.map(\.range) == [(top - 10)...(top - 2)])
        #expect(GapRecovery.ranges([7, 3, 4, 9, 8]) == [3...4, 7...9])
        // A long gap is fetched in batches, the next one as soon as a reply served the last.
        var batches = GapRecovery(policy: .init(backoff: .zero, batch: 256))
        batches.report(source: "s", range: 1...1000, at: start)
        let firstBatch = batches.due(at: start, stillMissing: { [$1] }, hasEndpoint: { _ in true }).requests
        #expect(firstBatch.map(\.range) == [1...256])
        batches.answered(id: firstBatch[0].id, unavailable: [], at: start)
        let secondBatch = batches.due(at: start, stillMissing: { _, _ in [257...1000] }, hasEndpoint: { _ in true })
        #expect(secondBatch.requests.map(\.range) == [257...512] && secondBatch.requests.map(\.attempt) == [1])
    }

    @Test("a range given up far ahead is kept whole, and joins when the hole below it fills")
    func rangesAhead() {
        var seen = ContiguousSequence()
        seen.insert(5)
        seen.insert(10...(1 << 40))
        #expect(seen.missing == [1...4, 6...9])
        #expect(seen.contains(1 << 39) && !seen.contains(7))
        for sequence in UInt64(1)...4 { seen.insert(sequence) }
        #expect(seen.contiguous == 5)
        seen.insert(6...9)
        #expect(seen.contiguous == 1 << 40 && seen.missing.isEmpty && seen.aheadRanges.isEmpty)
    }

    @Test("a retry under a new sequence is done; the same retry again is a duplicate")
    func retriesMarkTheirSequence() {
        var tracker = IntakeTracker()
        #expect(tracker.observe(source: "s", sequence: 1, orderID: "o1") == .init(.new))
        #expect(tracker.observe(source: "s", sequence: 2, orderID: "o1") == .init(.retry))
        #expect(tracker.observe(source: "s", sequence: 2, orderID: "o1") == .init(.duplicate))
    }
}
