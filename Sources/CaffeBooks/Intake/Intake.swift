import CaffeProtocol

/// The intake stage: what becomes of each event a source sends, which gaps to ask the source for
/// and when, and which ranges to give up on. Pure bookkeeping (no sockets, time passed in), driven
/// by the event pipeline's thread and tested with plain values.
///
/// An event's header is judged here, once: it must name its source and carry a sequence from 1
/// (heartbeats excepted), not beyond ``IntakeTracker/maxSequence`` and not more than
/// ``Policy/maxSequenceJump`` past the highest one its source has sent (a jump that size is a
/// broken or hostile source, and taking it would give up everything in between). Then the
/// ``IntakeTracker`` tells new from duplicate, late and retried events, and reveals gaps, which
/// ``GapRecovery`` schedules.
package struct Intake: Sendable {
    package struct Policy: Sendable {
        /// The most a sequence may run ahead of its source's highest; 0: no limit.
        package var maxSequenceJump: UInt64 = 1_000_000
        /// Order ids remembered (per source) for duplicate checks across sequences.
        package var rememberedOrders = 100_000
        /// When to ask for gaps, how often, in what batches.
        package var recovery = GapRecovery.Policy()
        /// Replay endpoints by source, from configuration; they win over announced ones.
        package var configuredEndpoints: [String: String] = [:]
        /// Whether a source's announced replay endpoint may change once pinned (otherwise only an
        /// announcement with the CURVE identity that pinned it can change it).
        package var allowEndpointChange = false
        /// How long a settled source stays active without events before it becomes dormant.
        package var idleTime: Duration = .seconds(15)
        /// The most a heartbeat's `last_sequence` may run ahead of the highest event seen from its
        /// source (0: only ``maxSequenceJump``): a quiet source's tail is short; a gap of a million
        /// claimed by a heartbeat alone is a forgery that would be counted as a million lost orders.
        package var maxHeartbeatJump: UInt64 = 10_000

        package init(
            maxSequenceJump: UInt64 = 1_000_000,
            rememberedOrders: Int = 100_000,
            recovery: GapRecovery.Policy = GapRecovery.Policy(),
            configuredEndpoints: [String: String] = [:],
            allowEndpointChange: Bool = false,
            idleTime: Duration = .seconds(15),
            maxHeartbeatJump: UInt64 = 10_000
        ) {
            self.maxSequenceJump = maxSequenceJump
            self.rememberedOrders = rememberedOrders
            self.recovery = recovery
            self.configuredEndpoints = configuredEndpoints
            self.allowEndpointChange = allowEndpointChange
            self.idleTime = idleTime
            self.maxHeartbeatJump = maxHeartbeatJump
        }
    }

    /// What to do with one event.
    package enum Decision: Hashable, Sendable {
        /// Render it (`late`: it arrived inside a range given up earlier).
        case render(late: Bool)
        /// Seen before: nothing to do.
        case duplicate
        /// A retry under a new sequence: nothing to render, but its sequence is done.
        case retry
        /// Dead-letter it as invalid; its sequence is not tracked (there is none to trust).
        case reject(String)
    }

    /// The decision on one event, the gaps it revealed, and what became of the replay endpoint it
    /// announced.
    package struct Admission: Hashable, Sendable {
        package var decision: Decision
        package var gaps: [ClosedRange<UInt64>] = []
        package var announcement: Announcement? = nil
    }

    /// An announced replay endpoint and what became of it.
    package struct Announcement: Hashable, Sendable {
        package var endpoint: String
        package var outcome: IntakeTracker.PinOutcome
    }

    package let policy: Policy
    package private(set) var tracker: IntakeTracker
    package private(set) var recovery: GapRecovery

    package init(
        policy: Policy,
        resumingFrom checkpoint: Checkpoint = Checkpoint(),
        now: ContinuousClock.Instant = .now
    ) {
        self.policy = policy
        tracker = IntakeTracker(
            resumingFrom: checkpoint.sources,
            givenUp: checkpoint.givenUpRanges,
            pinned: checkpoint.pins,
            epochFloors: checkpoint.epochFloors,
            rememberedOrders: policy.rememberedOrders,
            idleTime: policy.idleTime,
            now: now
        )
        recovery = GapRecovery(policy: policy.recovery)
    }

    /// Judges an event by its header (not a heartbeat: see ``heartbeat(_:lastSequence:identity:at:)``).
    ///
    /// - Parameter identity: the sender's CURVE identity (`User-Id`), when the input authenticates.
    /// - Parameter key: the header's ``SourceStream`` key, when the caller made it already.
    package mutating func admit(
        _ header: Caffe_V1_EventHeader,
        key: String? = nil,
        identity: String = "",
        at now: ContinuousClock.Instant
    ) -> Admission {
        if let problem = Identifier.problem(header.sourceID) {
            return Admission(decision: .reject("the event header's source_id \(problem)"))
        }
        let source = key ?? header.streamKey
        let sequence = header.sequence
        if let problem = problem(source: source, sequence: sequence) { return Admission(decision: .reject(problem)) }
        if header.sourceEpoch != 0, header.sourceEpoch < tracker.epochFloor(of: header.sourceID), !tracker.knows(source)
        {
            return Admission(
                decision: .reject(
                    "source_epoch \(header.sourceEpoch) of '\(header.sourceID)' is older than epoch "
                        + "\(tracker.epochFloor(of: header.sourceID)), which replaced it; that run is retired"
                )
            )
        }
        let verdict = tracker.observe(
            source: source,
            sourceID: header.sourceID,
            sequence: sequence,
            orderID: header.orderID,
            at: now
        )
        for range in verdict.missing { recovery.report(source: source, range: range, at: now) }
        let decision: Decision =
            switch verdict.kind {
            case .new: .render(late: false)
            case .late: .render(late: true)
            case .duplicate: .duplicate
            case .retry: .retry
            }
        return Admission(
            decision: decision,
            gaps: verdict.missing,
            announcement: announce(header, key: source, identity: identity)
        )
    }

    /// Pins or checks the replay endpoint `header` announces for its (known) stream `key`.
    private mutating func announce(_ header: Caffe_V1_EventHeader, key: String, identity: String) -> Announcement? {
        guard let endpoint = header.metadata[replayEndpointMetadataKey], Self.isAcceptableAnnouncement(endpoint),
            policy.configuredEndpoints[header.sourceID] == nil
        else { return nil }
        let outcome = tracker.announce(
            IntakeTracker.Pin(endpoint: endpoint, identity: identity),
            for: key,
            allowChange: policy.allowEndpointChange
        )
        return Announcement(endpoint: endpoint, outcome: outcome)
    }

    /// Takes a heartbeat: `source` has sent everything up to `lastSequence`. Returns the gaps it
    /// revealed and what became of the endpoint it announced, or a reason to refuse it. A source
    /// must introduce itself with an event: a heartbeat from a source this worker never took an
    /// event from (now or before a restart) is refused, so a forged one cannot conjure up a
    /// range of lost orders.
    package mutating func heartbeat(
        _ header: Caffe_V1_EventHeader,
        lastSequence: UInt64,
        identity: String = "",
        at now: ContinuousClock.Instant
    ) -> Result<(gaps: [ClosedRange<UInt64>], announcement: Announcement?), HeartbeatRefusal> {
        guard !header.sourceID.isEmpty else { return .failure(HeartbeatRefusal("a heartbeat names its source")) }
        if let problem = Identifier.problem(header.sourceID) {
            return .failure(HeartbeatRefusal("a heartbeat's source_id \(problem)"))
        }
        guard header.sequence == 0 else {
            return .failure(HeartbeatRefusal("a heartbeat takes no sequence of its own (header sequence is 0)"))
        }
        guard lastSequence > 0 else { return .success(([], nil)) }
        if let problem = problem(source: header.streamKey, sequence: lastSequence) {
            return .failure(HeartbeatRefusal(problem))
        }
        let source = header.streamKey
        guard tracker.knows(source) else {
            return .failure(
                HeartbeatRefusal(
                    "a heartbeat from '\(header.sourceID)', which has sent no event yet: "
                        + "a source introduces itself with an event"
                )
            )
        }
        let highest = tracker.highest(of: source)
        if policy.maxHeartbeatJump > 0, lastSequence > highest, lastSequence - highest > policy.maxHeartbeatJump {
            return .failure(
                HeartbeatRefusal(
                    "a heartbeat's last_sequence \(lastSequence) is \(lastSequence - highest) past the highest event "
                        + "seen from '\(header.sourceID)' (\(highest)); input.max_heartbeat_jump allows "
                        + "\(policy.maxHeartbeatJump)"
                )
            )
        }
        let gaps = tracker.heartbeat(source: source, last: lastSequence, at: now)
        for range in gaps { recovery.report(source: source, range: range, at: now) }
        return .success((gaps, announce(header, key: source, identity: identity)))
    }

    /// Why a heartbeat was refused.
    package struct HeartbeatRefusal: Error, Hashable, Sendable {
        package var detail: String
        package init(_ detail: String) { self.detail = detail }
    }

    /// Why an event of this stream (a ``SourceStream`` key) and sequence cannot be taken, if it
    /// cannot.
    private func problem(source: String, sequence: UInt64) -> String? {
        guard !source.isEmpty, !SourceStream.split(source).source.isEmpty else {
            return "the event header has no source_id"
        }
        guard sequence > 0 else { return "the event header has no sequence (sources number their events from 1)" }
        guard sequence <= IntakeTracker.maxSequence else {
            return "sequence \(sequence) is beyond the highest accepted, \(IntakeTracker.maxSequence)"
        }
        let highest = tracker.highest(of: source)
        if policy.maxSequenceJump > 0, sequence > highest, sequence - highest > policy.maxSequenceJump {
            return "sequence \(sequence) jumps \(sequence - highest) past the highest seen from "
                + "'\(SourceStream.describe(source))' "
                + "(\(highest)); input.max_sequence_jump allows \(policy.maxSequenceJump)"
        }
        return nil
    }

    /// Whether an endpoint announced in metadata (which anyone can write) may be connected to:
    /// `tcp://` or `ipc://` only (never `inproc://`, which would reach the worker's own sockets),
    /// at most 256 bytes.
    package static func isAcceptableAnnouncement(_ endpoint: String) -> Bool {
        endpoint.utf8.count <= 256 && (endpoint.hasPrefix("tcp://") || endpoint.hasPrefix("ipc://"))
    }

    /// The replay endpoint for `source` (a ``SourceStream`` key): configured for its source id,
    /// else the one pinned when it first announced one.
    package func replayEndpoint(for source: String) -> String? {
        policy.configuredEndpoints[SourceStream.split(source).source] ?? tracker.pin(of: source)?.endpoint
    }

    /// The next time ``due(at:)`` has work.
    package var nextDue: ContinuousClock.Instant? { recovery.nextDue }

    /// Gaps being recovered.
    package var pendingGaps: Int { recovery.pending }

    /// A replay request to send now, with where to send it.
    package struct ReplayRequest: Hashable, Sendable {
        package var request: GapRecovery.Request
        package var endpoint: String
    }

    /// The requests to send at `now` and the ranges to give up on (already marked given up).
    package mutating func due(at now: ContinuousClock.Instant) -> (
        requests: [ReplayRequest], abandoned: [GapRecovery.Abandoned]
    ) {
        let tracker = tracker
        let (requests, abandoned) = recovery.due(
            at: now,
            stillMissing: { tracker.missing(source: $0, in: $1) },
            hasEndpoint: { [self] in replayEndpoint(for: $0) != nil }
        )
        for gap in abandoned { self.tracker.abandon(source: gap.source, gap.range) }
        let routed = requests.compactMap { request in
            replayEndpoint(for: request.source).map { ReplayRequest(request: request, endpoint: $0) }
        }
        return (routed, abandoned)
    }

    /// Records a reply to request `id` for `range` of `source`: `progress` when it filled
    /// something or named what the source lacks. Returns the ranges given up now.
    package mutating func answered(
        id: String,
        progress: Bool,
        unavailable: [UInt64],
        at now: ContinuousClock.Instant
    ) -> [GapRecovery.Abandoned] {
        let (_, abandoned) = recovery.answered(id: id, served: progress, unavailable: unavailable, at: now)
        for gap in abandoned { tracker.abandon(source: gap.source, gap.range) }
        return abandoned
    }

    /// Gives up request `id`'s gap now: its endpoint cannot be used. Returns the ranges given up.
    package mutating func abandon(_ request: GapRecovery.Request, reason: String) -> [GapRecovery.Abandoned] {
        let missing = tracker.missing(source: request.source, in: request.range)
        let abandoned = recovery.abandon(id: request.id, reason: reason, stillMissing: missing)
        for gap in abandoned { tracker.abandon(source: gap.source, gap.range) }
        return abandoned
    }

    /// Request `id` could not be sent now; it is tried again later without counting as an attempt.
    package mutating func postpone(id: String, at now: ContinuousClock.Instant) {
        recovery.postpone(id: id, at: now)
    }

    /// Whether `source`'s replay endpoint comes from configuration (trusted) rather than metadata.
    package func isConfigured(_ source: String) -> Bool {
        policy.configuredEndpoints[SourceStream.split(source).source] != nil
    }

    // MARK: Sources

    /// Settled sources idle for ``Policy/idleTime`` (see ``IntakeTracker/idleSources(at:limit:)``).
    package mutating func idleSources(at now: ContinuousClock.Instant, limit: Int) -> [IntakeTracker.IdleSource] {
        tracker.idleSources(at: now, limit: limit)
    }

    package mutating func makeDormant(_ source: String) { tracker.makeDormant(source) }

    /// Retires the run `source` that a run of epoch `newer` replaced, if it is settled
    /// (``IntakeTracker/retire(_:supersededBy:)``).
    package mutating func retire(_ source: String, supersededBy newer: UInt64) -> Bool {
        // A gap still being recovered keeps the run: its books are what the recovery checks.
        guard !recovery.isRecovering(source) else { return false }
        return tracker.retire(source, supersededBy: newer)
    }

    /// Whether `source` is dormant (settled and done when it went quiet).
    package func isDormant(_ source: String) -> Bool { tracker.isDormant(source) }

    /// Whether intake holds books for `source` (a ``SourceStream`` key), and its highest sequence.
    package func highest(of source: String) -> UInt64? { tracker.knows(source) ? tracker.highest(of: source) : nil }

    /// Runs retired and epoch floors raised since the last call.
    package mutating func takeRetirements() -> (retired: [String], floors: [String: UInt64]) {
        tracker.takeRetirements()
    }

    package mutating func keepActive(_ source: String, at now: ContinuousClock.Instant) {
        tracker.keepActive(source, at: now)
    }

    /// Sources brought back from dormancy since the last call, with their marks.
    package mutating func takeRevived() -> [(source: String, mark: UInt64)] { tracker.takeRevived() }

    package var hasCheckpointChanges: Bool { tracker.hasCheckpointChanges || tracker.hasRetirements }

    /// Given-up ranges and pinned endpoints changed since the last call.
    package mutating func takeCheckpointChanges() -> (
        givenUp: [String: [ClosedRange<UInt64>]], pins: [String: IntakeTracker.Pin]
    ) {
        tracker.takeCheckpointChanges()
    }

    /// The parts of `range` of `source` still missing.
    package func missing(source: String, in range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
        tracker.missing(source: source, in: range)
    }
}

/// The metadata key under which a source announces its `caffe.v1.Replay/Fetch` endpoint.
package let replayEndpointMetadataKey = "replay_endpoint"
