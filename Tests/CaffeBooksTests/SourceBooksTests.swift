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
        func event(_ sequence: UInt64, epoch: UInt64) -> Caffe_V1_EventHeader {
            var header = header(sequence, order: "s-\(epoch)-\(sequence)")
            header.sourceEpoch = epoch
            return header
        }
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

    @Test("an input refused for its content completes its sequence by its dead letter; seen again, it is a duplicate")
    func refusedInput() {
        var books = books()
        #expect(books.refuse(header(1), at: start).refusal == .deadLetter(completing: ref(1...1)))
        #expect(books.refuse(header(1), at: start).refusal == .duplicate)
        #expect(books.refuse(nil, at: start).refusal == .deadLetter(completing: nil))
    }
}
