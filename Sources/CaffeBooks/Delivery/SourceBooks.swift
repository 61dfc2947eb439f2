import CaffeProtocol

/// Who asks a replay endpoint for a place on a connection (``SourceBooks/Action/fetch(_:standing:)``).
package enum ReplayStanding: Hashable, Sendable {
    /// From configuration: always connected, not counted.
    case trusted
    /// Answered before, or its source has sent many events.
    case established
    /// Neither: at most half the places.
    case newcomer
}

/// What the pipeline knows of its sources' streams, as a state machine: events, heartbeats,
/// replay replies, deliveries and the passing of time go in; decisions and actions come out (send
/// this replay request, dead-letter that range, write this checkpoint). No sockets, no clock of
/// its own, no logging: the pipeline thread carries the actions out, and tests drive it with plain
/// values.
///
/// The at-least-once rules live here: a sequence counts as done (and reaches the checkpoint) only
/// once ``delivered(_:)`` says its outputs were delivered, a retry under a new sequence is done at
/// once, a range given up is done once its dead letter is delivered; what is never delivered —
/// an abandoned drain — stays out of the checkpoint and is replayed after a restart.
package struct SourceBooks {
    /// Something the pipeline must do or report.
    package enum Action: Hashable, Sendable {
        /// A gap `range` of `source` was revealed: count and log it (its recovery is scheduled).
        case gapFound(source: String, range: ClosedRange<UInt64>)
        /// An announced replay endpoint was not simply pinned: changed, or refused.
        case announced(source: String, Intake.Announcement)
        /// Send this replay request, with the place its endpoint may take.
        case fetch(Intake.ReplayRequest, standing: ReplayStanding)
        /// A range is given up: dead-letter it; the dead letter completes it once delivered.
        case giveUp(GapRecovery.Abandoned)
        /// A dormant source came back (its mark with it).
        case revived(source: String)
        /// A settled, idle source went dormant (only its mark is kept).
        case expired(source: String)
        /// A run of a source that a newer run replaced was done, and is retired: its books and
        /// its checkpoint entry go.
        case retired(source: String)
        /// Write this change to the checkpoint.
        case checkpoint(Checkpoint.Change)
    }

    /// A replay reply, as the wire client matched it to its request.
    package enum ReplayAnswer: Sendable {
        /// Refused, or unreadable: the request counts as unanswered.
        case refused
        /// The headers of the events it sent (inside the request), and the sequences the source
        /// says it no longer has.
        case served(events: [Caffe_V1_EventHeader], unavailable: [UInt64])
    }

    /// What a refused input (readable header, unusable content) completes.
    package enum Refusal: Hashable, Sendable {
        /// Seen before: nothing to send.
        case duplicate
        /// Dead-letter it; the dead letter completes `ref` (none when its header names no sequence).
        case deadLetter(completing: SequenceRef?)
    }

    /// Events a source must have sent for its replay endpoint to count as established.
    package static let establishedEvents: UInt32 = 16

    package private(set) var intake: Intake
    package private(set) var ledger = CheckpointLedger()
    private let checkpointInterval: Duration
    private var nextCheckpoint: ContinuousClock.Instant
    /// Runs a newer run of their source replaced, with the newer epoch and when, waiting to be done.
    private var superseded = FIFO<(source: String, newer: UInt64, since: ContinuousClock.Instant)>()
    private var supersededCount = 0
    /// The replaced runs are looked at every 100 ms at most (a flood of restarts would otherwise
    /// have them looked at on every turn of the pipeline).
    private var nextRetirement: ContinuousClock.Instant?
    /// Superseded runs remembered at most; past it the oldest is left as it is (dormant, kept).
    package static let maxSuperseded = 100_000
    /// How long a replaced run keeps its books after the newer run began: its stragglers (events
    /// sent before the restart, arriving late) are judged in their own stream meanwhile; after,
    /// they are dead-lettered `INVALID` (docs/WIRE.md, "Sources and sequences").
    package static let retirementGrace = Duration.seconds(1)

    package init(
        policy: Intake.Policy,
        resumingFrom checkpoint: Checkpoint = Checkpoint(),
        checkpointInterval: Duration,
        now: ContinuousClock.Instant = .now
    ) {
        intake = Intake(policy: policy, resumingFrom: checkpoint, now: now)
        self.checkpointInterval = checkpointInterval
        nextCheckpoint = now
    }

    // MARK: Events

    /// Judges an event by its header (not a heartbeat); `key` is the header's ``SourceStream`` key
    /// when the caller made it already.
    package mutating func admit(
        _ header: Caffe_V1_EventHeader,
        key: String? = nil,
        identity: String = "",
        at now: ContinuousClock.Instant
    ) -> (decision: Intake.Decision, actions: [Action]) {
        let source = key ?? header.streamKey
        let admission = intake.admit(header, key: source, identity: identity, at: now)
        var actions = admission.gaps.isEmpty ? [] : Self.found(admission.gaps, source: source)
        if let announcement = admission.announcement, Self.isReported(announcement) {
            actions.append(.announced(source: source, announcement))
        }
        if case .retry = admission.decision {
            // Nothing to render, but the sequence is done.
            actions += complete(SequenceRef(source: source, sequence: header.sequence))
        }
        return (admission.decision, actions)
    }

    /// Tracks an input refused for its content whose header could still be read (`nil`: none),
    /// so its sequence is not a gap and its dead letter completes it.
    package mutating func refuse(
        _ header: Caffe_V1_EventHeader?,
        at now: ContinuousClock.Instant
    ) -> (refusal: Refusal, actions: [Action]) {
        guard let header else { return (.deadLetter(completing: nil), []) }
        let admission = intake.admit(header, at: now)
        let actions = Self.found(admission.gaps, source: header.streamKey)
        let ref = SequenceRef(source: header.streamKey, sequence: header.sequence)
        switch admission.decision {
        case .render:
            return (.deadLetter(completing: ref), actions)
        case .duplicate:
            return (.duplicate, actions)
        case .retry:
            return (.duplicate, actions + complete(ref))
        case .reject:
            return (.deadLetter(completing: nil), actions)
        }
    }

    /// Takes a heartbeat: its source has sent everything up to `lastSequence`.
    package mutating func heartbeat(
        _ header: Caffe_V1_EventHeader,
        lastSequence: UInt64,
        identity: String = "",
        at now: ContinuousClock.Instant
    ) -> Result<[Action], Intake.HeartbeatRefusal> {
        intake.heartbeat(header, lastSequence: lastSequence, identity: identity, at: now).map { gaps, announcement in
            var actions = Self.found(gaps, source: header.streamKey)
            if let announcement, Self.isReported(announcement) {
                actions.append(.announced(source: header.streamKey, announcement))
            }
            return actions
        }
    }

    // MARK: Gap recovery

    // MARK: Lag

    /// Events taken in and not yet done (delivered) per active source: the `limit` furthest
    /// behind (largest first, then by name) and the total over every active source.
    package func lag(limit: Int) -> (furthest: [(source: String, events: UInt64)], total: UInt64) {
        var furthest: [(source: String, events: UInt64)] = []
        var total: UInt64 = 0
        intake.tracker.forEachActive { source, highest in
            let done = ledger.mark(of: source) ?? 0
            guard highest > done else { return }
            let behind = highest - done
            total &+= behind
            guard furthest.count < limit || behind > furthest[furthest.count - 1].events else { return }
            furthest.append((source, behind))
            furthest.sort { ($0.events, $1.source) > ($1.events, $0.source) }
            if furthest.count > limit { furthest.removeLast() }
        }
        return (furthest, total)
    }

    /// When the next replay request or give-up is due.
    package var nextDue: ContinuousClock.Instant? { intake.nextDue }

    /// The replay requests to send at `now` and the ranges given up.
    package mutating func due(at now: ContinuousClock.Instant) -> [Action] {
        guard let due = intake.nextDue, due <= now else { return [] }
        let (requests, abandoned) = intake.due(at: now)
        var actions = abandoned.map(Action.giveUp)
        for routed in requests {
            let source = routed.request.source
            let standing: ReplayStanding =
                intake.isConfigured(source)
                ? .trusted
                : intake.tracker.received(from: source) >= Self.establishedEvents ? .established : .newcomer
            actions.append(.fetch(routed, standing: standing))
        }
        return actions
    }

    /// A request could not be sent now (no connection free): it is tried again later, not
    /// counted as an attempt.
    package mutating func postpone(_ request: GapRecovery.Request, at now: ContinuousClock.Instant) {
        intake.postpone(id: request.id, at: now)
    }

    /// A request's endpoint cannot be used at all: its gap is given up now.
    package mutating func unusable(_ request: GapRecovery.Request, reason: String) -> [Action] {
        intake.abandon(request, reason: reason).map(Action.giveUp)
    }

    /// Takes the answer to `request`: the events it carried are judged like live ones (their
    /// decisions, in order, for the pipeline to carry out); a refusal, or a reply that neither
    /// filled anything nor named what the source lacks, counts as unanswered; what the source
    /// says it no longer has is given up.
    package mutating func replied(
        to request: GapRecovery.Request,
        _ answer: ReplayAnswer,
        at now: ContinuousClock.Instant
    ) -> (decisions: [Intake.Decision], actions: [Action]) {
        switch answer {
        case .refused:
            let abandoned = intake.answered(id: request.id, progress: false, unavailable: [], at: now)
            return ([], abandoned.map(Action.giveUp))
        case .served(let events, let unavailable):
            let missingBefore = Self.count(intake.missing(source: request.source, in: request.range))
            var decisions: [Intake.Decision] = []
            var actions: [Action] = []
            for header in events {
                let (decision, more) = admit(header, at: now)
                decisions.append(decision)
                actions += more
            }
            let missingAfter = Self.count(intake.missing(source: request.source, in: request.range))
            let progress = missingAfter < missingBefore || unavailable.contains { request.range.contains($0) }
            let abandoned = intake.answered(id: request.id, progress: progress, unavailable: unavailable, at: now)
            return (decisions, actions + abandoned.map(Action.giveUp))
        }
    }

    /// Gaps being recovered.
    package var pendingGaps: Int { intake.pendingGaps }

    // MARK: Deliveries and the checkpoint

    /// Marks the sequences of `refs` done: their outputs were delivered.
    package mutating func delivered(_ refs: [SequenceRef]) -> [Action] {
        guard !refs.isEmpty else { return [] }
        let actions = syncRevived()
        for ref in refs { ledger.complete(ref) }
        return actions
    }

    /// Says that the run `source` (a ``SourceStream`` key with an epoch) was replaced by its
    /// source's run of epoch `newer`: once everything it took in is done, it is retired.
    package mutating func superseded(_ source: String, by newer: UInt64, at now: ContinuousClock.Instant) {
        if supersededCount >= Self.maxSuperseded, superseded.removeFirst() != nil { supersededCount -= 1 }
        superseded.append((source, newer, now))
        supersededCount += 1
    }

    /// Retires the replaced runs past their grace whose events are all done and whose gaps are
    /// not being recovered, `limit` looked at; the others wait.
    private mutating func retireSuperseded(at now: ContinuousClock.Instant, limit: Int) -> [Action] {
        var actions: [Action] = []
        var kept: [(source: String, newer: UInt64, since: ContinuousClock.Instant)] = []
        var looked = 0
        while looked < limit, let entry = superseded.removeFirst() {
            looked += 1
            supersededCount -= 1
            guard let highest = intake.highest(of: entry.source) else { continue }
            // A dormant run was done when it went dormant; an active one is done once the ledger says so.
            let done = intake.isDormant(entry.source) || ledger.isDone(entry.source, through: highest)
            if now - entry.since >= Self.retirementGrace, done, intake.retire(entry.source, supersededBy: entry.newer) {
                ledger.forget(entry.source)
                actions.append(.retired(source: entry.source))
            } else {
                kept.append(entry)
            }
        }
        for entry in kept {
            superseded.append(entry)
            supersededCount += 1
        }
        return actions
    }

    /// Makes settled sources idle for the policy's idle time dormant, `limit` at most; an idle
    /// source with sequences not yet done stays active. Retires the replaced runs that are done.
    package mutating func expireIdle(at now: ContinuousClock.Instant, limit: Int = 256) -> [Action] {
        var actions = syncRevived()
        if supersededCount > 0, nextRetirement.map({ now >= $0 }) ?? true {
            nextRetirement = now + .milliseconds(100)
            actions += retireSuperseded(at: now, limit: 16 * limit)
        }
        for idle in intake.idleSources(at: now, limit: limit) {
            if ledger.isDone(idle.source, through: idle.highest) {
                intake.makeDormant(idle.source)
                ledger.forget(idle.source)
                actions.append(.expired(source: idle.source))
            } else {
                intake.keepActive(idle.source, at: now)
            }
        }
        return actions
    }

    /// Whether anything moved since the last checkpoint change.
    package var hasCheckpointChanges: Bool { ledger.isChanged || intake.hasCheckpointChanges }

    /// When the next checkpoint change is due, if anything moved.
    package var nextCheckpointDue: ContinuousClock.Instant? { hasCheckpointChanges ? nextCheckpoint : nil }

    /// A checkpoint change when one is due (at most one per interval) and anything moved.
    package mutating func checkpointIfDue(at now: ContinuousClock.Instant) -> [Action] {
        guard now >= nextCheckpoint, hasCheckpointChanges else { return [] }
        nextCheckpoint = now + checkpointInterval
        var actions = syncRevived()
        actions.append(.checkpoint(takeChange()))
        return actions
    }

    /// Everything that moved, for the final checkpoint of a drain.
    package mutating func finalChange() -> Checkpoint.Change {
        _ = syncRevived()
        return takeChange()
    }

    private mutating func takeChange() -> Checkpoint.Change {
        let (givenUp, pins) = intake.takeCheckpointChanges()
        var change = Checkpoint.Change(sources: ledger.takeChanges(), givenUp: givenUp, pins: pins)
        (change.retired, change.epochFloors) = intake.takeRetirements()
        return change
    }

    private mutating func complete(_ ref: SequenceRef) -> [Action] {
        let actions = syncRevived()
        ledger.complete(ref)
        return actions
    }

    /// Brings into the ledger the sources intake revived from dormancy.
    private mutating func syncRevived() -> [Action] {
        intake.takeRevived().map { source, mark in
            ledger.revive(source, mark: mark)
            return .revived(source: source)
        }
    }

    private static func found(_ gaps: [ClosedRange<UInt64>], source: String) -> [Action] {
        gaps.map { .gapFound(source: source, range: $0) }
    }

    private static func isReported(_ announcement: Intake.Announcement) -> Bool {
        switch announcement.outcome {
        case .pinned, .unchanged: false
        case .changed, .refused: true
        }
    }

    private static func count(_ ranges: [ClosedRange<UInt64>]) -> UInt64 {
        ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound + 1) }
    }
}
