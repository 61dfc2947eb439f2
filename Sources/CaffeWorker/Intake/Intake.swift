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
struct Intake: Sendable {
    struct Policy: Sendable {
        /// The most a sequence may run ahead of its source's highest; 0: no limit.
        var maxSequenceJump: UInt64 = 1_000_000
        /// Order ids remembered for duplicate checks across sequences.
        var rememberedOrders = 100_000
        /// When to ask for gaps, how often, in what batches.
        var recovery = GapRecovery.Policy()
        /// Replay endpoints by source, from configuration; they win over announced ones.
        var configuredEndpoints: [String: String] = [:]
        /// Sources whose announced replay endpoint is remembered (the least recently heard from
        /// is forgotten first).
        var maxAnnouncedSources = 10_000
    }

    /// What to do with one event.
    enum Decision: Hashable, Sendable {
        /// Render it (`late`: it arrived inside a range given up earlier).
        case render(late: Bool)
        /// Seen before: nothing to do.
        case duplicate
        /// A retry under a new sequence: nothing to render, but its sequence is done.
        case retry
        /// Dead-letter it as invalid; its sequence is not tracked (there is none to trust).
        case reject(String)
    }

    /// The decision on one event, and the gaps it revealed.
    struct Admission: Hashable, Sendable {
        var decision: Decision
        var gaps: [ClosedRange<UInt64>] = []
    }

    let policy: Policy
    private(set) var tracker: IntakeTracker
    private(set) var recovery: GapRecovery
    private var announced = LeastRecentlyUsed<String, String>(capacity: 1)

    init(policy: Policy, resumingFrom checkpoint: Checkpoint = Checkpoint()) {
        self.policy = policy
        tracker = IntakeTracker(
            resumingFrom: checkpoint.sources,
            givenUp: checkpoint.givenUpRanges,
            rememberedOrders: policy.rememberedOrders
        )
        recovery = GapRecovery(policy: policy.recovery)
        announced = LeastRecentlyUsed(capacity: policy.maxAnnouncedSources)
    }

    /// Judges an event by its header (not a heartbeat: see ``heartbeat(source:lastSequence:at:)``).
    mutating func admit(_ header: Caffe_V1_EventHeader, at now: ContinuousClock.Instant) -> Admission {
        let source = header.sourceID
        let sequence = header.sequence
        if let problem = problem(source: source, sequence: sequence) { return Admission(decision: .reject(problem)) }
        if let endpoint = header.metadata[replayEndpointMetadataKey], Self.isAcceptableAnnouncement(endpoint) {
            announced[source] = endpoint
        }
        let verdict = tracker.observe(source: source, sequence: sequence, orderID: header.orderID)
        for range in verdict.missing { recovery.report(source: source, range: range, at: now) }
        let decision: Decision =
            switch verdict.kind {
            case .new: .render(late: false)
            case .late: .render(late: true)
            case .duplicate: .duplicate
            case .retry: .retry
            }
        return Admission(decision: decision, gaps: verdict.missing)
    }

    /// Takes a heartbeat: `source` has sent everything up to `lastSequence`. Returns the gaps it
    /// revealed, or a reason to refuse it.
    mutating func heartbeat(
        _ header: Caffe_V1_EventHeader,
        lastSequence: UInt64,
        at now: ContinuousClock.Instant
    ) -> Result<[ClosedRange<UInt64>], HeartbeatRefusal> {
        guard !header.sourceID.isEmpty else { return .failure(HeartbeatRefusal("a heartbeat names its source")) }
        guard header.sequence == 0 else {
            return .failure(HeartbeatRefusal("a heartbeat takes no sequence of its own (header sequence is 0)"))
        }
        guard lastSequence > 0 else { return .success([]) }
        if let problem = problem(source: header.sourceID, sequence: lastSequence) {
            return .failure(HeartbeatRefusal(problem))
        }
        if let endpoint = header.metadata[replayEndpointMetadataKey], Self.isAcceptableAnnouncement(endpoint) {
            announced[header.sourceID] = endpoint
        }
        let gaps = tracker.heartbeat(source: header.sourceID, last: lastSequence)
        for range in gaps { recovery.report(source: header.sourceID, range: range, at: now) }
        return .success(gaps)
    }

    /// Why a heartbeat was refused.
    struct HeartbeatRefusal: Error, Hashable, Sendable {
        var detail: String
        init(_ detail: String) { self.detail = detail }
    }

    /// Why an event with this source and sequence cannot be taken, if it cannot.
    private func problem(source: String, sequence: UInt64) -> String? {
        guard !source.isEmpty else { return "the event header has no source_id" }
        guard sequence > 0 else { return "the event header has no sequence (sources number their events from 1)" }
        guard sequence <= IntakeTracker.maxSequence else {
            return "sequence \(sequence) is beyond the highest accepted, \(IntakeTracker.maxSequence)"
        }
        let highest = tracker.highest(of: source)
        if policy.maxSequenceJump > 0, sequence > highest, sequence - highest > policy.maxSequenceJump {
            return "sequence \(sequence) jumps \(sequence - highest) past the highest seen from '\(source)' "
                + "(\(highest)); input.max_sequence_jump allows \(policy.maxSequenceJump)"
        }
        return nil
    }

    /// Whether an endpoint announced in metadata (which anyone can write) may be connected to:
    /// `tcp://` or `ipc://` only (never `inproc://`, which would reach the worker's own sockets),
    /// at most 256 bytes.
    static func isAcceptableAnnouncement(_ endpoint: String) -> Bool {
        endpoint.utf8.count <= 256 && (endpoint.hasPrefix("tcp://") || endpoint.hasPrefix("ipc://"))
    }

    /// The replay endpoint for `source`: configured, else announced.
    func replayEndpoint(for source: String) -> String? {
        policy.configuredEndpoints[source] ?? announced.peek(source)
    }

    /// The next time ``due(at:)`` has work.
    var nextDue: ContinuousClock.Instant? { recovery.nextDue }

    /// Gaps being recovered.
    var pendingGaps: Int { recovery.pending }

    /// A replay request to send now, with where to send it.
    struct ReplayRequest: Hashable, Sendable {
        var request: GapRecovery.Request
        var endpoint: String
    }

    /// The requests to send at `now` and the ranges to give up on (already marked given up).
    mutating func due(at now: ContinuousClock.Instant) -> (
        requests: [ReplayRequest], abandoned: [GapRecovery.Abandoned]
    ) {
        let tracker = tracker
        let configured = policy.configuredEndpoints
        let announced = announced
        let (requests, abandoned) = recovery.due(
            at: now,
            stillMissing: { tracker.missing(source: $0, in: $1) },
            hasEndpoint: { configured[$0] != nil || announced.peek($0) != nil }
        )
        for gap in abandoned { self.tracker.abandon(source: gap.source, gap.range) }
        let routed = requests.compactMap { request in
            replayEndpoint(for: request.source).map { ReplayRequest(request: request, endpoint: $0) }
        }
        return (routed, abandoned)
    }

    /// Records a reply to request `id` for `range` of `source`: `progress` when it filled
    /// something or named what the source lacks. Returns the ranges given up now.
    mutating func answered(
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
    mutating func abandon(_ request: GapRecovery.Request, reason: String) -> [GapRecovery.Abandoned] {
        let missing = tracker.missing(source: request.source, in: request.range)
        let abandoned = recovery.abandon(id: request.id, reason: reason, stillMissing: missing)
        for gap in abandoned { tracker.abandon(source: gap.source, gap.range) }
        return abandoned
    }

    /// Request `id` could not be sent now; it is tried again later without counting as an attempt.
    mutating func postpone(id: String, at now: ContinuousClock.Instant) {
        recovery.postpone(id: id, at: now)
    }

    /// Whether `source`'s replay endpoint comes from configuration (trusted) rather than metadata.
    func isConfigured(_ source: String) -> Bool { policy.configuredEndpoints[source] != nil }

    /// The parts of `range` of `source` still missing.
    func missing(source: String, in range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
        tracker.missing(source: source, in: range)
    }
}

/// The metadata key under which a source announces its `caffe.v1.Replay/Fetch` endpoint.
let replayEndpointMetadataKey = "replay_endpoint"

/// A map that keeps at most `capacity` entries, forgetting the least recently used one.
struct LeastRecentlyUsed<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private var entries: [Key: (value: Value, stamp: UInt64)] = [:]
    private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The value for `key` without counting it as a use.
    func peek(_ key: Key) -> Value? { entries[key]?.value }

    var count: Int { entries.count }

    subscript(key: Key) -> Value? {
        get { entries[key]?.value }
        set {
            clock += 1
            guard let newValue else {
                entries[key] = nil
                return
            }
            entries[key] = (newValue, clock)
            if entries.count > capacity, let oldest = entries.min(by: { $0.value.stamp < $1.value.stamp })?.key {
                entries[oldest] = nil
            }
        }
    }
}
