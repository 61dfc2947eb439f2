/// Every count the worker keeps, as plain numbers.
///
/// Each thread owns one of these and adds to it without locks or atomics; it hands a copy to its
/// ``MetricShard`` when it is about to wait (and at most every 100 ms while busy), and a scrape,
/// a Stats request or the stop log adds the shards up (``merge(_:)``). Counts only go up; gauges
/// are set by the one thread that owns them.
public struct WorkerCounts: Sendable {
    // MARK: Intake

    /// Input messages taken in (events, heartbeats, anything on the input socket).
    public var received: UInt64 = 0
    /// Inputs larger than `input.max_message_bytes`, refused.
    public var oversized: UInt64 = 0
    /// Events seen before (same sequence, or same order id under another sequence).
    public var duplicates: UInt64 = 0
    /// Events that arrived inside a range already given up, rendered after all.
    public var late: UInt64 = 0
    public var heartbeats: UInt64 = 0
    public var gaps: UInt64 = 0
    public var missingSequences: UInt64 = 0
    public var replayRequests: UInt64 = 0
    public var replayedEvents: UInt64 = 0
    public var unrecoverableGaps: UInt64 = 0
    public var unrecoverableSequences: UInt64 = 0
    /// Replay endpoints connected (each connection counted once).
    public var replayConnections: UInt64 = 0
    /// Announced replay endpoints that differed from the one pinned for their source, ignored.
    public var replayEndpointsRefused: UInt64 = 0
    /// Sources made dormant after their idle time, and dormant sources that sent again.
    public var sourcesExpired: UInt64 = 0
    public var sourcesRevived: UInt64 = 0
    /// Sources seen under a new, larger `source_epoch`: restarted, numbering from 1 again.
    public var sourceRestarts: UInt64 = 0
    /// Runs of sources retired: a newer run replaced them and theirs were done.
    public var sourcesRetired: UInt64 = 0
    /// Events of sources another shard owns (`input.shard`), dropped.
    public var notOwned: UInt64 = 0

    // MARK: Rendering

    /// Events rendered into outputs.
    public var rendered: UInt64 = 0
    /// Dead letters by reason (`malformed`, `invalid`, `oversized`, …).
    public var deadLetters: [String: UInt64] = [:]
    /// Outputs by kind and locale label.
    public var outputs: [LabelPair: UInt64] = [:]
    /// Render latency by kind (`order`, `complication`) and locale label.
    public var renderLatency: [LabelPair: LatencyHistogram] = [:]
    /// From the input header's `sent_at` to the output socket taking the event's last output, by
    /// kind (`order`, `complication`, `dead_letter`); events without `sent_at` are not in it.
    public var eventLatency: [String: LatencyHistogram] = [:]
    /// Since when (wall seconds since 1970) delivered progress has waited to be written to the
    /// checkpoint; 0 while the checkpoint on disk is current.
    public var checkpointBehindSince: Double = 0
    /// Active sources with the most events taken in and not yet done (delivered), at most
    /// ``WorkerCounts/maxLagLabels``, by source (`pos-1`, or `pos-1 (epoch …)`).
    public var sourceLag: [String: UInt64] = [:]
    /// Events taken in and not yet done, over every active source.
    public var totalLag: UInt64 = 0

    /// Sources named in `caffe_worker_source_lag_events`, at most.
    public static let maxLagLabels = 10
    /// Words agreement left as written, by locale label and reason (`unknownWord`, `unknownGender`,
    /// `unknownCase`), once per distinct text rendered.
    public var agreementWordsLeft: [LabelPair: UInt64] = [:]

    // MARK: Output

    /// Outputs the output socket accepted.
    public var published: UInt64 = 0
    /// Outputs consumers acknowledged (acknowledged output only).
    public var acknowledged: UInt64 = 0
    /// Outputs sent again after a consumer left them unacknowledged.
    public var redelivered: UInt64 = 0
    /// Consumers dropped for silence or disconnection with deliveries in flight.
    public var consumersLost: UInt64 = 0
    /// Checkpoint writes (journal lines or snapshots) that put everything pending on disk.
    public var checkpoints: UInt64 = 0
    /// Checkpoint writes that failed, and snapshots written (journal compactions).
    public var checkpointFailures: UInt64 = 0
    /// Torn last lines of the checkpoint journal skipped at start (a write cut short).
    public var checkpointTornLines: UInt64 = 0
    public var checkpointCompactions: UInt64 = 0
    /// Messages on the acknowledged output's socket that are not a consumer's feedback.
    public var undecodableFeedback: UInt64 = 0
    /// Consumers dropped to stay within `output.max_consumers` (the longest idle first).
    public var consumersEvicted: UInt64 = 0
    /// Consumers that disconnected (seen by the socket monitor).
    public var consumersDisconnected: UInt64 = 0
    /// Deliveries taken back from a consumer that kept them past `output.ack_timeout_ms`.
    public var deliveriesTimedOut: UInt64 = 0

    // MARK: Requests

    /// Requests answered, by method (served ones; others are `other`) and status.
    public var rpc: [LabelPair: UInt64] = [:]
    /// Replies dropped because their client was gone or not reading.
    public var rpcRepliesDropped: UInt64 = 0

    // MARK: Operations

    public var reloadsLoaded: UInt64 = 0
    public var reloadsRejected: UInt64 = 0
    /// Events whose render failed for a reason that is the configuration's, parked for the next
    /// reload instead of dead-lettered; and those rendered again after one.
    public var parked: UInt64 = 0
    public var unparked: UInt64 = 0
    /// Dead letters an operator had rendered again (`caffe.v1.Admin/Redrive`).
    public var redriven: UInt64 = 0
    /// Spans of traced events sent to the OTLP collector, spans dropped (queue full or a post that
    /// failed), and posts that failed (`tracing.otlp_endpoint`).
    public var spansExported: UInt64 = 0
    public var spansDropped: UInt64 = 0
    public var spanExportFailures: UInt64 = 0
    /// Locale resources and programs compiled, and evicted to stay within the cache bound.
    public var localeCompilations: UInt64 = 0
    public var localeEvictions: UInt64 = 0
    /// Locales the pipeline thread compiled once common, and orders it rendered with the nearest
    /// compiled locale (no helper free).
    public var localePromotions: UInt64 = 0
    public var localeApproximations: UInt64 = 0
    /// Refused handshakes on secured endpoints (every mechanism failure, not only ZAP refusals).
    public var handshakeFailures: UInt64 = 0
    /// Connections to the input that ended (a peer that went away, or a message over the hard limit).
    public var inputDisconnects: UInt64 = 0

    // MARK: Gauges (set by their owner)

    /// Events taken in and not yet handed to the output.
    public var renderQueue: Int = 0
    /// Render requests waiting.
    public var rpcQueue: Int = 0
    public var pendingGaps: Int = 0
    /// Consumers of the acknowledged output, and deliveries awaiting their acknowledgement.
    public var consumers: Int = 0
    public var unacknowledged: Int = 0
    /// Sources held in full and dormant ones (their marks only).
    public var activeSources: Int = 0
    public var dormantSources: Int = 0
    /// Events parked, waiting for a reload.
    public var parkedNow: Int = 0
    /// Bytes the render threads' locale caches hold, and their bound.
    public var localeCacheBytes: Int = 0
    public var localeCacheBound: Int = 0

    public init() {}

    /// Adds `other` to these counts (gauges add up too: each has one owner).
    public mutating func merge(_ other: WorkerCounts) {
        received += other.received
        oversized += other.oversized
        duplicates += other.duplicates
        late += other.late
        heartbeats += other.heartbeats
        gaps += other.gaps
        missingSequences += other.missingSequences
        replayRequests += other.replayRequests
        replayedEvents += other.replayedEvents
        unrecoverableGaps += other.unrecoverableGaps
        unrecoverableSequences += other.unrecoverableSequences
        replayConnections += other.replayConnections
        replayEndpointsRefused += other.replayEndpointsRefused
        sourcesExpired += other.sourcesExpired
        sourcesRevived += other.sourcesRevived
        sourceRestarts += other.sourceRestarts
        sourcesRetired += other.sourcesRetired
        notOwned += other.notOwned
        rendered += other.rendered
        deadLetters.merge(other.deadLetters, uniquingKeysWith: +)
        outputs.merge(other.outputs, uniquingKeysWith: +)
        renderLatency.merge(other.renderLatency) { $0.merged(with: $1) }
        eventLatency.merge(other.eventLatency) { $0.merged(with: $1) }
        agreementWordsLeft.merge(other.agreementWordsLeft, uniquingKeysWith: +)
        published += other.published
        acknowledged += other.acknowledged
        redelivered += other.redelivered
        consumersLost += other.consumersLost
        checkpoints += other.checkpoints
        checkpointFailures += other.checkpointFailures
        checkpointTornLines += other.checkpointTornLines
        checkpointCompactions += other.checkpointCompactions
        undecodableFeedback += other.undecodableFeedback
        consumersEvicted += other.consumersEvicted
        consumersDisconnected += other.consumersDisconnected
        deliveriesTimedOut += other.deliveriesTimedOut
        parked += other.parked
        unparked += other.unparked
        redriven += other.redriven
        spansExported += other.spansExported
        spansDropped += other.spansDropped
        spanExportFailures += other.spanExportFailures
        localeCompilations += other.localeCompilations
        localeEvictions += other.localeEvictions
        localePromotions += other.localePromotions
        localeApproximations += other.localeApproximations
        rpc.merge(other.rpc, uniquingKeysWith: +)
        rpcRepliesDropped += other.rpcRepliesDropped
        reloadsLoaded += other.reloadsLoaded
        reloadsRejected += other.reloadsRejected
        handshakeFailures += other.handshakeFailures
        inputDisconnects += other.inputDisconnects
        renderQueue += other.renderQueue
        rpcQueue += other.rpcQueue
        pendingGaps += other.pendingGaps
        consumers += other.consumers
        unacknowledged += other.unacknowledged
        activeSources += other.activeSources
        dormantSources += other.dormantSources
        parkedNow += other.parkedNow
        localeCacheBytes += other.localeCacheBytes
        localeCacheBound += other.localeCacheBound
        checkpointBehindSince = max(checkpointBehindSince, other.checkpointBehindSince)
        sourceLag.merge(other.sourceLag) { max($0, $1) }
        totalLag += other.totalLag
    }

    /// Makes these counts equal to `other` without sharing storage with it: dictionaries are
    /// updated entry by entry, so the owner's next count does not copy its dictionaries (counts
    /// only gain keys, so no entry is ever removed).
    mutating func overwrite(with other: WorkerCounts) {
        let deadLetters = self.deadLetters
        let outputs = self.outputs
        let renderLatency = self.renderLatency
        let eventLatency = self.eventLatency
        let rpc = self.rpc
        let agreementWordsLeft = self.agreementWordsLeft
        self = other
        self.agreementWordsLeft = agreementWordsLeft
        for (key, value) in other.agreementWordsLeft where self.agreementWordsLeft[key] != value {
            self.agreementWordsLeft[key] = value
        }
        self.deadLetters = deadLetters
        self.outputs = outputs
        self.renderLatency = renderLatency
        self.eventLatency = eventLatency
        self.rpc = rpc
        for (key, value) in other.deadLetters where self.deadLetters[key] != value { self.deadLetters[key] = value }
        for (key, value) in other.outputs where self.outputs[key] != value { self.outputs[key] = value }
        for (key, value) in other.renderLatency {
            if let current = self.renderLatency[key], !(current != value) { continue }
            self.renderLatency[key] = value
        }
        for (key, value) in other.eventLatency {
            if let current = self.eventLatency[key], !(current != value) { continue }
            self.eventLatency[key] = value
        }
        for (key, value) in other.rpc where self.rpc[key] != value { self.rpc[key] = value }
    }

    /// Adds `amount` to a count, saturating instead of wrapping.
    @inline(__always)
    static func add(_ amount: UInt64, to count: inout UInt64) {
        count = count.addingReportingOverflow(amount).overflow ? .max : count &+ amount
    }

    /// The sum of the dead letters.
    public var deadLettered: UInt64 { deadLetters.values.reduce(0, +) }

    /// The sum of the RPC requests answered.
    public var rpcRequests: UInt64 { rpc.values.reduce(0, +) }

    /// The counters by name, as `caffe.v1.Admin/Stats` and the stop log report them: every one of
    /// ``counters`` under its name, and the labelled families (`dead_letters`, `rpc_requests`,
    /// `outputs`, `agreement_words_left`, `reloads`) summed over their labels — the names
    /// `/metrics` gives them without `caffe_worker_` and `_total`.
    public var snapshot: [String: UInt64] {
        var named = Dictionary(uniqueKeysWithValues: Self.counters.map { ($0.name, self[keyPath: $0.value]) })
        named["dead_letters"] = deadLettered
        named["rpc_requests"] = rpcRequests
        named["outputs"] = outputs.values.reduce(0, +)
        named["agreement_words_left"] = agreementWordsLeft.values.reduce(0, +)
        named["reloads"] = reloadsLoaded + reloadsRejected
        return named
    }

    /// Every unlabelled counter, in one place: `caffe_worker_<name>_total` in `/metrics` and
    /// `<name>` in `caffe.v1.Admin/Stats` (docs/OPERATIONS.md has the list).
    static let counters: [(name: String, help: String, value: any KeyPath<WorkerCounts, UInt64> & Sendable)] = [
        ("events_received", "Input messages taken in.", \.received),
        ("events_rendered", "Events rendered into outputs.", \.rendered),
        ("outputs_published", "Outputs the output socket accepted.", \.published),
        ("outputs_acknowledged", "Outputs consumers acknowledged.", \.acknowledged),
        ("outputs_redelivered", "Outputs sent again after a consumer left them unacknowledged.", \.redelivered),
        ("consumers_lost", "Consumers dropped with deliveries in flight.", \.consumersLost),
        ("duplicates", "Events seen before, not rendered again.", \.duplicates),
        ("late_events", "Events that arrived inside a range given up, rendered after all.", \.late),
        ("heartbeats", "Heartbeats from sources.", \.heartbeats),
        ("oversized_messages", "Inputs over input.max_message_bytes, refused.", \.oversized),
        ("gaps", "Gaps in a source's sequence.", \.gaps),
        ("missing_sequences", "Sequences found missing.", \.missingSequences),
        ("replay_requests", "Replay requests sent to sources.", \.replayRequests),
        ("replayed_events", "Events received in replay replies.", \.replayedEvents),
        ("replay_connections", "Connections made to replay endpoints.", \.replayConnections),
        ("unrecoverable_gaps", "Gaps given up on.", \.unrecoverableGaps),
        ("unrecoverable_sequences", "Sequences given up on.", \.unrecoverableSequences),
        ("checkpoints", "Checkpoint writes that put everything pending on disk.", \.checkpoints),
        ("checkpoint_failures", "Checkpoint writes that failed.", \.checkpointFailures),
        (
            "checkpoint_torn_lines", "Torn last lines of the checkpoint journal skipped at start (a write cut short).",
            \.checkpointTornLines
        ),
        ("checkpoint_compactions", "Checkpoint snapshots written (journal compactions).", \.checkpointCompactions),
        (
            "replay_endpoints_refused",
            "Announced replay endpoints that differed from the one pinned for their source, ignored.",
            \.replayEndpointsRefused
        ),
        ("sources_expired", "Idle sources made dormant (only their marks kept).", \.sourcesExpired),
        ("sources_revived", "Dormant sources that sent again.", \.sourcesRevived),
        (
            "source_restarts", "Sources seen under a new source_epoch: restarted, their numbering from 1 again.",
            \.sourceRestarts
        ),
        (
            "sources_retired",
            "Runs of sources retired: a newer source_epoch replaced them and their events were done.",
            \.sourcesRetired
        ),
        (
            "events_not_owned",
            "Events of sources another shard owns (input.shard), dropped: their owner renders them.",
            \.notOwned
        ),
        (
            "undecodable_feedback", "Messages on the acknowledged output's socket that are not consumer feedback.",
            \.undecodableFeedback
        ),
        (
            "consumers_evicted", "Consumers dropped to stay within output.max_consumers, the longest idle first.",
            \.consumersEvicted
        ),
        ("consumers_disconnected", "Consumers of the acknowledged output that disconnected.", \.consumersDisconnected),
        (
            "deliveries_timed_out", "Deliveries taken back from a consumer that held them past output.ack_timeout_ms.",
            \.deliveriesTimedOut
        ),
        (
            "parked_events", "Events whose render failed because of the configuration, parked for the next reload.",
            \.parked
        ),
        ("unparked_events", "Parked events rendered again after a reload.", \.unparked),
        ("redriven_events", "Dead letters rendered again on request (caffe.v1.Admin/Redrive).", \.redriven),
        ("spans_exported", "Spans of traced events the OTLP collector accepted (four per event).", \.spansExported),
        (
            "spans_dropped", "Spans of traced events dropped: the export queue was full or the collector failed.",
            \.spansDropped
        ),
        ("span_exports_failed", "Posts to the OTLP collector that failed or were refused.", \.spanExportFailures),
        ("locale_compilations", "Locale resources and programs compiled by the render threads.", \.localeCompilations),
        ("locale_evictions", "Locale resources evicted to stay within the cache bound.", \.localeEvictions),
        (
            "locale_promotions", "Locales the pipeline thread compiled itself once common (others go to a helper).",
            \.localePromotions
        ),
        (
            "locale_approximations",
            "Orders rendered with the nearest compiled locale while theirs was not (a note says so).",
            \.localeApproximations
        ),
        ("handshake_failures", "Refused handshakes on secured endpoints.", \.handshakeFailures),
        ("input_disconnects", "Input connections that ended.", \.inputDisconnects),
        ("rpc_replies_dropped", "Replies dropped: client gone or not reading.", \.rpcRepliesDropped),
    ]
}

/// Two label values: (kind, locale) or (method, code).
public struct LabelPair: Hashable, Sendable {
    public var first: String
    public var second: String

    public init(_ first: String, _ second: String) {
        self.first = first
        self.second = second
    }
}

/// Counts of durations in fixed buckets, plus their sum: a Prometheus histogram's data.
public struct LatencyHistogram: Sendable {
    /// Upper bounds in nanoseconds: 25 µs to 1 s.
    public static let bounds: [UInt64] = [
        25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000,
        100_000_000, 1_000_000_000,
    ]

    /// Observations per bucket (not cumulative); the last counts those above every bound. Inline,
    /// so copying a histogram allocates nothing.
    public private(set) var buckets = InlineArray<13, UInt64>(repeating: 0)
    public private(set) var sumNanoseconds: UInt64 = 0
    public private(set) var count: UInt64 = 0

    public init() {}

    /// Records one duration.
    public mutating func record(nanoseconds: UInt64) {
        var index = 0
        while index < Self.bounds.count, nanoseconds > Self.bounds[index] { index += 1 }
        buckets[index] &+= 1
        sumNanoseconds &+= nanoseconds
        count &+= 1
    }

    static func != (lhs: LatencyHistogram, rhs: LatencyHistogram) -> Bool {
        lhs.count != rhs.count || lhs.sumNanoseconds != rhs.sumNanoseconds
    }

    func merged(with other: LatencyHistogram) -> LatencyHistogram {
        var result = self
        for index in result.buckets.indices { result.buckets[index] &+= other.buckets[index] }
        result.sumNanoseconds &+= other.sumNanoseconds
        result.count &+= other.count
        return result
    }
}
