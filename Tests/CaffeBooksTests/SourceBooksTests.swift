// Caffe — CaffeBooks tests.
import CaffeProtocol
import Testing

@testable import CaffeBooks

/// The pipeline's decisions with plain values: events, replies, deliveries and time in; actions out.
@Suite("Source books")
struct SourceBooksTests {
    let start = ContinuousClock.now
    static let endpoint = "tcp://127.0.0.1:9"

    func header(_ sequence: UInt64, order: String? = nil) -> Caffe_V1_EventHeader {
        var header = Caffe_V1_EventHeader()
        header.bodyType = Caffe_V1_OrderEvent.protoMessageName
        header.sourceID = "s"
        header.sequence = sequence
        header.orderID = order ?? "s-\(sequence)"
        return header
    }

    /// Event `sequence` of source `s`'s run `epoch`, its order id `s-<epoch>-<sequence>`.
    func event(_ sequence: UInt64, epoch: UInt64) -> Caffe_V1_EventHeader {
        var header = header(sequence, order: "s-\(epoch)-\(sequence)")
        header.sourceEpoch = epoch
        return header
    }

    func books(attempts: Int = 5) -> SourceBooks {
        SourceBooks(
            policy: Intake.Policy(
                recovery: GapRecovery.Policy(timeout: .seconds(1), attempts: attempts, backoff: .zero),
                configuredEndpoints: ["s": Self.endpoint]
            ),
            checkpointInterval: .seconds(1),
            now: start
        )
    }

    func ref(_ sequences: ClosedRange<UInt64>) -> SequenceRef { SequenceRef(source: "s", sequences: sequences) }

    /// The marks a checkpoint action carries, if the actions hold one.
    func marks(_ actions: [SourceBooks.Action]) -> [String: UInt64]? {
        for case .checkpoint(let change) in actions { return change.sources }
        return nil
    }

    /// The one replay request among `actions`.
    func fetched(_ actions: [SourceBooks.Action]) throws -> Intake.ReplayRequest {
        let requests = actions.compactMap { action -> Intake.ReplayRequest? in
            if case .fetch(let routed, let standing) = action, standing == .trusted { return routed }
            return nil
        }
        try #require(requests.count == 1)
        return requests[0]
    }

    @Test("a sequence reaches the checkpoint only once delivered; what is never delivered stays out")
    func atLeastOnce() {
        var books = books()
        #expect(books.admit(header(1), at: start).decision == .render(late: false))
        #expect(books.admit(header(2), at: start).decision == .render(late: false))
        #expect(books.checkpointIfDue(at: start).isEmpty)
        #expect(books.delivered([ref(1...1)]).isEmpty)
        #expect(marks(books.checkpointIfDue(at: start)) == ["s": 1])
        #expect(books.delivered([ref(2...2)]).isEmpty)
        // One change per interval.
        #expect(books.checkpointIfDue(at: start + .milliseconds(500)).isEmpty)
        #expect(marks(books.checkpointIfDue(at: start + .seconds(1))) == ["s": 2])
        // Taken but never delivered (an abandoned drain): not in the final checkpoint.
        #expect(books.admit(header(3), at: start).decision == .render(late: false))
        #expect(books.finalChange().sources.isEmpty)
    }

    @Test("a source under a new source_epoch is a new stream from 1; the old run's books stay the old run's")
    func restartedSource() throws {
        var books = books()
        for sequence: UInt64 in 1...3 {
            #expect(books.admit(header(sequence), at: start).decision == .render(late: false))
        }
        // Without an epoch a restart numbering from 1 again is taken for duplicates…
        #expect(books.admit(header(1, order: "again-1"), at: start).decision == .duplicate)
        // …with one, it is a new stream: rendered, and its gaps are its own.
        #expect(books.admit(event(1, epoch: 7), at: start).decision == .render(late: false))
        #expect(books.admit(event(1, epoch: 7), at: start).decision == .duplicate)
        let (decision, actions) = books.admit(event(3, epoch: 7), at: start)
        #expect(decision == .render(late: false))
        #expect(actions == [.gapFound(source: "s\u{1F}7", range: 2...2)])
        // The configured replay endpoint is the source id's, whatever the run.
        let routed = try fetched(books.due(at: start))
        #expect(routed.endpoint == Self.endpoint && routed.request.source == "s\u{1F}7")
        // Deliveries complete each run's own sequences.
        #expect(books.delivered([ref(1...3), SequenceRef(source: "s\u{1F}7", sequences: 1...1)]).isEmpty)
        #expect(marks(books.checkpointIfDue(at: start + .seconds(1))) == ["s": 3, "s\u{1F}7": 1])
        #expect(SourceStream.split("s\u{1F}7") == ("s", 7) && SourceStream.split("s") == ("s", 0))
        #expect(SourceStream.describe("s\u{1F}7") == "s (epoch 7)" && SourceStream.describe("s") == "s")
        #expect(SourceStream.split("a\u{1F}b") == ("a", 37))
        #expect(SourceStream.split("a\u{1F}!") == ("a\u{1F}!", 0) && SourceStream.split("a\u{1F}") == ("a\u{1F}", 0))
        // A short source id's key stays a small string (no allocation on the serial path).
        let key = SourceStream.key(source: "pos-1", epoch: 1_795_000_000_000_000)
        #expect(key.utf8.count <= 15 && SourceStream.split(key) == ("pos-1", 1_795_000_000_000_000))
        #expect(SourceStream.split(SourceStream.key(source: "p", epoch: .max)) == ("p", .max))
    }

    @Test("lag: taken in and not yet delivered, per active source, the furthest first")
    func lag() {
        var books = books()
        for sequence: UInt64 in 1...5 { _ = books.admit(header(sequence), at: start) }
        var other = header(1)
        other.sourceID = "t"
        _ = books.admit(other, at: start)
        _ = books.delivered([ref(1...2)])
        let (furthest, total) = books.lag(limit: 1)
        #expect(furthest.map(\.source) == ["s"] && furthest.map(\.events) == [3] && total == 4)
        _ = books.delivered([ref(3...5), SequenceRef(source: "t", sequences: 1...1)])
        #expect(books.lag(limit: 10).total == 0 && books.lag(limit: 10).furthest.isEmpty)
    }

    @Test("a gap is found, asked for at the configured endpoint, and filled by the reply")
    func gapFilled() throws {
        var books = books()
        #expect(books.admit(header(1), at: start).actions.isEmpty)
        let (decision, actions) = books.admit(header(4), at: start)
        #expect(decision == .render(late: false))
        #expect(actions == [.gapFound(source: "s", range: 2...3)])
        let routed = try fetched(books.due(at: start))
        #expect(routed.endpoint == Self.endpoint && routed.request.range == 2...3 && routed.request.attempt == 1)
        let reply = books.replied(
            to: routed.request,
            .served(events: [header(2), header(3)], unavailable: []),
            at: start
        )
        #expect(reply.decisions == [.render(late: false), .render(late: false)])
        #expect(reply.actions.isEmpty)
        // Nothing missing any more: at its next due time the gap closes, with no request.
        #expect(books.due(at: start + .seconds(10)).isEmpty)
        #expect(books.pendingGaps == 0 && books.nextDue == nil)
        // Replayed again: duplicates now.
        #expect(books.admit(header(2), at: start).decision == .duplicate)
    }

    @Test(
        "a source that keeps refusing: asked as many times as allowed, then the range is given up; its dead letter completes it"
    )
    func refusedUntilGivenUp() throws {
        var books = books(attempts: 2)
        _ = books.admit(header(1), at: start)
        _ = books.admit(header(3), at: start)
        var fetches = 0
        var givenUp: [GapRecovery.Abandoned] = []
        var now = start
        for _ in 0..<6 {
            for action in books.due(at: now) {
                switch action {
                case .fetch(let routed, _):
                    fetches += 1
                    for case .giveUp(let gap) in books.replied(to: routed.request, .refused, at: now).actions {
                        givenUp.append(gap)
                    }
                case .giveUp(let gap):
                    givenUp.append(gap)
                default:
                    Issue.record("unexpected \(action)")
                }
            }
            now += .seconds(10)
        }
        #expect(fetches == 2)
        #expect(givenUp.map(\.range) == [2...2])
        _ = books.delivered([ref(1...1), ref(3...3)])
        #expect(books.finalChange().sources == ["s": 1])
        // The dead letter of the range is delivered: the source's mark moves past it.
        _ = books.delivered([ref(2...2)])
        #expect(books.finalChange().sources == ["s": 3])
    }

    @Test("what the source says it no longer has is given up at once; an unusable endpoint gives its gap up too")
    func unavailableAndUnusable() throws {
        var books = books()
        _ = books.admit(header(1), at: start)
        _ = books.admit(header(5), at: start)
        let routed = try fetched(books.due(at: start))
        let reply = books.replied(to: routed.request, .served(events: [header(2)], unavailable: [3, 4]), at: start)
        #expect(reply.decisions == [.render(late: false)])
        let gaps = reply.actions.compactMap { action -> ClosedRange<UInt64>? in
            if case .giveUp(let gap) = action { return gap.range }
            return nil
        }
        #expect(gaps == [3...4])

        var other = self.books()
        _ = other.admit(header(1), at: start)
        _ = other.admit(header(3), at: start)
        let request = try fetched(other.due(at: start)).request
        #expect(
            other.unusable(request, reason: "no such host")
                == [.giveUp(GapRecovery.Abandoned(id: request.id, source: "s", range: 2...2, reason: "no such host"))]
        )
    }

    @Test("a retry under a new sequence is done at once; the mark passes it once the original is delivered")
    func retryIsDone() {
        var books = books()
        #expect(books.admit(header(1, order: "o-1"), at: start).decision == .render(late: false))
        #expect(books.admit(header(2, order: "o-1"), at: start).decision == .retry)
        // Sequence 2 is done, 1 is not: the mark stays at 0.
        #expect(books.finalChange().sources["s", default: 0] == 0)
        _ = books.delivered([ref(1...1)])
        #expect(books.finalChange().sources == ["s": 2])
    }

    @Test("a source id holding U+001F is refused: it cannot stand for another source's run, nor move its books")
    func forgedStreamKey() {
        var books = books()
        var real = header(1)
        real.sourceEpoch = 7
        #expect(books.admit(real, at: start).decision == .render(late: false))
        // `s` U+001F `7` with no epoch spells the key of s's run 7.
        var forged = header(2, order: "forged-2")
        forged.sourceID = "s\u{1F}7"
        #expect(
            books.admit(forged, at: start).decision
                == .reject("the event header's source_id holds the control character U+001F")
        )
        #expect(books.refuse(forged, at: start).refusal == .deadLetter(completing: nil))
        real.sequence = 2
        real.orderID = "s-2"
        #expect(books.admit(real, at: start).decision == .render(late: false))
        var long = header(1)
        long.sourceID = String(repeating: "x", count: 129)
        #expect(
            books.admit(long, at: start).decision
                == .reject("the event header's source_id is 129 bytes long; at most 128 are accepted")
        )
    }

    @Test("an order sent again by a restarted source under its new epoch is a retry, not a new order")
    func orderIDsAcrossRuns() {
        var books = books()
        #expect(books.admit(header(1, order: "o-1"), at: start).decision == .render(late: false))
        var again = header(1, order: "o-1")
        again.sourceEpoch = 5
        #expect(books.admit(again, at: start).decision == .retry)
        var other = header(1, order: "o-1")
        other.sourceID = "t"
        #expect(books.admit(other, at: start).decision == .render(late: false))
    }

    @Test("a replaced run retires once done: its books and checkpoint entry go, and its epoch is refused after")
    func retiredRuns() throws {
        var books = books()
        let run1 = SourceStream.key(source: "s", epoch: 1)
        let run2 = SourceStream.key(source: "s", epoch: 2)
        let run3 = SourceStream.key(source: "s", epoch: 3)
        for sequence: UInt64 in 1...2 { _ = books.admit(event(sequence, epoch: 1), at: start) }
        _ = books.delivered([SequenceRef(source: run1, sequences: 1...2)])
        _ = books.admit(event(1, epoch: 2), at: start)
        books.superseded(run1, by: 2, at: start)
        // Within the grace its stragglers are still its own; after it, it retires.
        #expect(!books.expireIdle(at: start + .milliseconds(500)).contains(.retired(source: run1)))
        #expect(books.admit(event(3, epoch: 1), at: start).decision == .render(late: false))
        _ = books.delivered([SequenceRef(source: run1, sequences: 3...3)])
        #expect(books.expireIdle(at: start + .seconds(1)).contains(.retired(source: run1)))
        let change = try #require(
            books.checkpointIfDue(at: start + .seconds(1)).compactMap { action -> Checkpoint.Change? in
                if case .checkpoint(let change) = action { change } else { nil }
            }.first
        )
        #expect(change.retired == [run1] && change.epochFloors == ["s": 2])
        #expect(
            books.admit(event(3, epoch: 1), at: start).decision
                == .reject("source_epoch 1 of 's' is older than epoch 2, which replaced it; that run is retired")
        )
        #expect(
            books.admit(event(4, epoch: 1), at: start).decision
                == .reject("source_epoch 1 of 's' is older than epoch 2, which replaced it; that run is retired")
        )
        // A run with an event not delivered yet waits; delivered, it retires at the next look.
        _ = books.admit(event(1, epoch: 3), at: start)
        books.superseded(run2, by: 3, at: start + .seconds(1))
        #expect(!books.expireIdle(at: start + .seconds(2)).contains(.retired(source: run2)))
        _ = books.delivered([SequenceRef(source: run2, sequences: 1...1)])
        #expect(books.expireIdle(at: start + .seconds(3)).contains(.retired(source: run2)))
        #expect(books.intake.tracker.knows(run3) && !books.intake.tracker.knows(run2))
        // A worker resuming from the floors refuses the retired epochs too.
        var resumed = Checkpoint()
        resumed.epochFloors = ["s": 3]
        var again = SourceBooks(
            policy: Intake.Policy(recovery: GapRecovery.Policy(timeout: .seconds(1), attempts: 1, backoff: .zero)),
            resumingFrom: resumed,
            checkpointInterval: .seconds(1),
            now: start
        )
        #expect(again.admit(event(5, epoch: 2), at: start).decision != .render(late: false))
        #expect(again.admit(event(1, epoch: 4), at: start).decision == .render(late: false))
    }

    @Test("a source that restarts with every event keeps its books bounded: done runs retire, the table compacts")
    func restartFlood() {
        var books = books()
        var previous: String?
        for epoch: UInt64 in 1...5000 {
            var header = header(1, order: "flood-\(epoch)")
            header.sourceEpoch = epoch
            _ = books.admit(header, at: start)
            let key = SourceStream.key(source: "s", epoch: epoch)
            _ = books.delivered([SequenceRef(source: key, sequences: 1...1)])
            if let previous { books.superseded(previous, by: epoch, at: start + .milliseconds(Int64(epoch))) }
            previous = key
            if epoch % 100 == 0 { _ = books.expireIdle(at: start + .milliseconds(Int64(epoch) + 1000)) }
        }
        _ = books.expireIdle(at: start + .seconds(60))
        let counts = books.intake.tracker.counts
        #expect(counts.active + counts.dormant == 1)
    }

    @Test("an input refused for its content completes its sequence by its dead letter; seen again, it is a duplicate")
    func refusedInput() {
        var books = books()
        #expect(books.refuse(header(1), at: start).refusal == .deadLetter(completing: ref(1...1)))
        #expect(books.refuse(header(1), at: start).refusal == .duplicate)
        #expect(books.refuse(nil, at: start).refusal == .deadLetter(completing: nil))
    }
}
