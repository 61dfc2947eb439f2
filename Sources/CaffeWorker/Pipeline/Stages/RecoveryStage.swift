import CaffeBooks
import CaffeProtocol
import CaffeTransport
import Logging
import ZeroMQ

/// What brings lost or failed events back: the replay client that asks sources for the
/// sequences the books found missing, the gaps given up (reported and dead-lettered, which
/// completes them), the events parked until a reload can render them, and the dead letters an
/// operator had rendered again (redrive).
struct RecoveryStage {
    /// The replay client: its connections are in the loop's poll set.
    private(set) var replay: ReplayClient
    /// Dead letters to publish again, rendered on the RPC thread.
    let redrives: RedriveQueue?
    /// Failed because of the configuration, waiting for a reload.
    private var parked = FIFO<InputEvent>()
    private var parkedSoFar: UInt64 = 0
    private let maxParked: Int
    private let logger: Logger

    init(replay: ReplayClient, redrives: RedriveQueue?, maxParked: Int, logger: Logger) {
        self.replay = replay
        self.redrives = redrives
        self.maxParked = maxParked
        self.logger = logger
    }

    /// Events parked now.
    var parkedCount: Int { parked.count }

    // MARK: Gap recovery

    /// The replay replies that arrived.
    mutating func replies() throws(ZMQError) -> [ReplayClient.Reply] { try replay.receive() }

    /// Sends a replay request the books decided on; returns what the books decide when it cannot
    /// go out.
    mutating func fetch(
        _ routed: Intake.ReplayRequest,
        standing: ReplayStanding,
        at now: ContinuousClock.Instant,
        books: inout SourceBooks,
        telemetry: inout PipelineTelemetry
    ) -> [SourceBooks.Action] {
        let request = routed.request
        switch replay.send(routed, standing: standing, at: now) {
        case .sent(let connected):
            telemetry.count {
                if connected { $0.replayConnections += 1 }
                $0.replayRequests += 1
            }
        case .postponed:
            books.postpone(request, at: now)
        case .notSent:
            break
        case .unusable(let reason):
            // An endpoint libzmq refuses will not work later either: give the gap up now.
            return books.unusable(request, reason: reason)
        }
        return []
    }

    /// A source's reply: the books' actions, then each served event with what the books decided
    /// for it (intake carries it out like a live one's); what the reply names as unavailable is
    /// given up.
    mutating func take(
        _ reply: ReplayClient.Reply,
        at now: ContinuousClock.Instant,
        books: inout SourceBooks,
        telemetry: inout PipelineTelemetry
    ) -> (actions: [SourceBooks.Action], events: [(Intake.Decision, InputEvent, [ZMQMessage])]) {
        let request = reply.request
        switch reply.answer {
        case .refused:
            return (books.replied(to: request, .refused, at: now).actions, [])
        case .served(let events, let unavailable):
            let (decisions, actions) = books.replied(
                to: request,
                .served(events: events.map(\.event.header), unavailable: unavailable),
                at: now
            )
            telemetry.count { $0.replayedEvents += UInt64(events.count) }
            logger.info(
                "replay received",
                metadata: [
                    "source": "\(request.source)", "events": "\(events.count)", "unavailable": "\(unavailable.count)",
                ]
            )
            return (actions, decisions.enumerated().map { ($1, events[$0].event, events[$0].frames) })
        }
    }

    /// Reports `gap` loudly (metric, error log) and returns its dead letter, which completes the
    /// range.
    mutating func giveUp(_ gap: GapRecovery.Abandoned, telemetry: inout PipelineTelemetry) -> RenderedEvent {
        replay.forget(gap.id)
        let size = gap.range.upperBound - gap.range.lowerBound + 1
        telemetry.count {
            $0.unrecoverableGaps += 1
            WorkerCounts.add(size, to: &$0.unrecoverableSequences)
        }
        logger.error(
            "unrecoverable gap",
            metadata: [
                "source": "\(SourceStream.describe(gap.source))", "from": "\(gap.range.lowerBound)",
                "to": "\(gap.range.upperBound)", "reason": "\(gap.reason)",
            ]
        )
        return .unrecoverableGap(gap)
    }

    /// Closes replay connections idle for `replay.idle_timeout_ms`.
    mutating func closeIdle(at now: ContinuousClock.Instant) { replay.closeIdle(at: now) }

    mutating func closeAll() { replay.closeAll() }

    // MARK: Parking

    /// Keeps an event whose render failed because of the configuration, to render it again after
    /// the next successful reload; it is not completed meanwhile (a restart asks the source for it
    /// again). Beyond `render.max_parked` it is dead-lettered after all: that letter is returned.
    mutating func park(_ event: InputEvent, reason: String) -> RenderedEvent? {
        guard parked.count < maxParked else {
            return .deadLetter(
                .renderFailed,
                reason + " (not parked: render.max_parked events already wait for a reload)",
                event: event
            )
        }
        parked.append(event)
        parkedSoFar += 1
        if isLoggedOccurrence(parkedSoFar) {
            var metadata: Logger.Metadata = [
                "source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)", "reason": "\(reason)",
                "parked_so_far": "\(parkedSoFar)",
            ]
            metadata.addTrace(event.header.traceParent)
            logger.error("event parked until a reload: the catalog cannot render it", metadata: metadata)
        }
        return nil
    }

    /// After a successful reload: the parked events, to be rendered before anything else.
    mutating func unpark(telemetry: inout PipelineTelemetry) -> [InputEvent] {
        guard !parked.isEmpty else { return [] }
        var events: [InputEvent] = []
        while let event = parked.removeFirst() { events.append(event) }
        telemetry.count { $0.unparked += UInt64(events.count) }
        logger.notice("rendering parked events again after a reload", metadata: ["events": "\(events.count)"])
        return events
    }

    // MARK: Redrive

    /// The dead letters an operator had rendered again (on the RPC thread), to publish outside the
    /// sequence books: their outputs complete nothing, and carry the letter's trace context as it
    /// came (no span of the worker's).
    mutating func redriven(telemetry: inout PipelineTelemetry) -> [RenderedEvent] {
        guard let redrives else { return [] }
        let results = redrives.take()
        if !results.isEmpty { telemetry.count { $0.redriven += UInt64(results.count) } }
        return results
    }
}

// Recovery's dead letter.
extension RenderedEvent {
    /// A dead letter for an unrecoverable gap: it completes the whole range.
    static func unrecoverableGap(_ gap: GapRecovery.Abandoned) -> RenderedEvent {
        var letter = Caffe_V1_DeadLetter()
        letter.detail =
            "sequences \(gap.range.lowerBound)...\(gap.range.upperBound) of '\(SourceStream.describe(gap.source))' are lost: "
            + gap.reason
        letter.gapFrom = gap.range.lowerBound
        letter.gapTo = gap.range.upperBound
        var header = Caffe_V1_EventHeader()
        (header.sourceID, header.sourceEpoch) = SourceStream.split(gap.source)
        // The gap's first sequence, so a consumer can tell which stream and where.
        header.sequence = gap.range.lowerBound
        return deadLetter(
            .unrecoverableGap,
            letter.detail,
            letter: letter,
            header: header,
            ref: SequenceRef(source: gap.source, sequences: gap.range)
        )
    }

}
