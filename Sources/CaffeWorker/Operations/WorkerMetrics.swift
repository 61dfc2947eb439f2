import CaffeBooks
import CaffeProtocol
import Synchronization
import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

/// The worker's metrics: one ``MetricShard`` per thread, added up when read, and written in the
/// Prometheus text format for `/metrics`.
///
/// Counters: events received, rendered, published, acknowledged, redelivered; duplicates, late
/// events, heartbeats, oversized inputs; dead letters by reason; gaps, missing sequences, replay
/// requests and events, unrecoverable gaps; RPC requests by method and status, replies dropped;
/// CURVE handshake failures; input disconnects; checkpoints; reloads by result; outputs by kind
/// and locale. Histogram: render latency by kind and locale. Gauges: queue depths, gaps being
/// recovered, consumers and unacknowledged deliveries, whether the worker is serving.
public final class WorkerMetrics: Sendable {
    private let shards = Mutex<[MetricShard]>([])
    private let requested = Atomic<UInt64>(0)
    private let localeLabels = Mutex<Set<String>>([])

    /// How often a busy thread publishes its counts.
    static let publishInterval = Duration.milliseconds(100)

    /// Distinct locale label values before the rest are labelled `other`.
    static let maxLocaleLabels = 64

    public init() {}

    /// A new shard for one thread (or one rare-event source, updated in place: no `wakeup`).
    func makeShard(_ name: String, wakeup: ZMQWakeup? = nil) -> MetricShard {
        let shard = MetricShard(name: name, wakeup: wakeup)
        shards.withLock { $0.append(shard) }
        return shard
    }

    /// The latest request for fresh counts; threads compare it with what they answered.
    var requestedGeneration: UInt64 { requested.load(ordering: .acquiring) }

    /// Every shard's counts, after asking each thread with a loop to publish what it has now
    /// (waiting at most `timeout`): what a Stats answer or a scrape reports is then at least
    /// everything those threads had done when it was asked, whether they were busy or asleep.
    func freshCounts(timeout: Duration = .milliseconds(50)) -> WorkerCounts {
        let generation = requestFreshCounts()
        let deadline = ContinuousClock.now + timeout
        while !hasFreshCounts(generation), ContinuousClock.now < deadline { usleep(200) }
        return counts
    }

    /// Asks every thread with a loop to publish what it has now; returns the request's generation,
    /// for ``hasFreshCounts(_:)``. For a reader that must not wait (the RPC thread).
    func requestFreshCounts() -> UInt64 {
        let generation = requested.add(1, ordering: .acquiringAndReleasing).newValue
        for shard in shards.withLock({ $0 }) { shard.wakeup?.signal() }
        return generation
    }

    /// Whether every thread with a loop has published since request `generation`.
    func hasFreshCounts(_ generation: UInt64) -> Bool {
        shards.withLock { $0 }.allSatisfy { $0.wakeup == nil || $0.answeredGeneration >= generation }
    }

    /// Every shard's counts added up.
    public var counts: WorkerCounts {
        var total = WorkerCounts()
        for shard in shards.withLock({ $0 }) { total.merge(shard.snapshot) }
        return total
    }

    /// The unlabelled counters by name, as `caffe.v1.Admin/Stats` and the stop log report them.
    public var snapshot: [String: UInt64] { counts.snapshot }

    /// The label for a locale: the first ``maxLocaleLabels`` distinct values as themselves, then
    /// `other` (complication locales come from requests, so they are not a closed set).
    func localeLabel(_ locale: String) -> String {
        localeLabels.withLock { labels in
            if labels.contains(locale) { return locale }
            guard labels.count < Self.maxLocaleLabels else { return "other" }
            labels.insert(locale)
            return locale
        }
    }

    /// The RPC method label: served methods as themselves, anything else `other`, so clients
    /// cannot grow the label set.
    static func methodLabel(_ method: String) -> String {
        [
            CaffeMethod.renderOrder, CaffeMethod.renderComplication, CaffeMethod.healthCheck, CaffeMethod.stats,
            CaffeMethod.redrive,
        ].contains(method) ? method : "other"
    }

    /// Every metric in the Prometheus text format (version 0.0.4), with `serving` as a gauge.
    func exposition(serving: Bool, healthy: Bool? = nil) -> [UInt8] {
        let counts = freshCounts()
        var text = PrometheusText()
        func counter(_ name: String, _ help: String, _ value: UInt64) {
            text.family("caffe_worker_\(name)_total", type: "counter", help: help)
            text.sample("caffe_worker_\(name)_total", value: value)
        }
        counter("events_received", "Input messages taken in.", counts.received)
        counter("events_rendered", "Events rendered into outputs.", counts.rendered)
        counter("outputs_published", "Outputs the output socket accepted.", counts.published)
        counter("outputs_acknowledged", "Outputs consumers acknowledged.", counts.acknowledged)
        counter(
            "outputs_redelivered",
            "Outputs sent again after a consumer left them unacknowledged.",
            counts.redelivered
        )
        counter("consumers_lost", "Consumers dropped with deliveries in flight.", counts.consumersLost)
        counter("duplicates", "Events seen before, not rendered again.", counts.duplicates)
        counter("late_events", "Events that arrived inside a range given up, rendered after all.", counts.late)
        counter("heartbeats", "Heartbeats from sources.", counts.heartbeats)
        counter("oversized_messages", "Inputs over input.max_message_bytes, refused.", counts.oversized)
        counter("gaps", "Gaps in a source's sequence.", counts.gaps)
        counter("missing_sequences", "Sequences found missing.", counts.missingSequences)
        counter("replay_requests", "Replay requests sent to sources.", counts.replayRequests)
        counter("replayed_events", "Events received in replay replies.", counts.replayedEvents)
        counter("replay_connections", "Connections made to replay endpoints.", counts.replayConnections)
        counter("unrecoverable_gaps", "Gaps given up on.", counts.unrecoverableGaps)
        counter("unrecoverable_sequences", "Sequences given up on.", counts.unrecoverableSequences)
        counter("checkpoints", "Checkpoint writes that put everything pending on disk.", counts.checkpoints)
        counter("checkpoint_failures", "Checkpoint writes that failed.", counts.checkpointFailures)
        counter(
            "checkpoint_compactions",
            "Checkpoint snapshots written (journal compactions).",
            counts.checkpointCompactions
        )
        counter(
            "replay_endpoints_refused",
            "Announced replay endpoints that differed from the one pinned for their source, ignored.",
            counts.replayEndpointsRefused
        )
        counter("sources_expired", "Idle sources made dormant (only their marks kept).", counts.sourcesExpired)
        counter("sources_revived", "Dormant sources that sent again.", counts.sourcesRevived)
        counter(
            "undecodable_feedback",
            "Messages on the acknowledged output's socket that are not consumer feedback.",
            counts.undecodableFeedback
        )
        counter(
            "consumers_evicted",
            "Consumers dropped to stay within output.max_consumers, the longest idle first.",
            counts.consumersEvicted
        )
        counter(
            "consumers_disconnected",
            "Consumers of the acknowledged output that disconnected.",
            counts.consumersDisconnected
        )
        counter(
            "deliveries_timed_out",
            "Deliveries taken back from a consumer that held them past output.ack_timeout_ms.",
            counts.deliveriesTimedOut
        )
        counter(
            "parked_events",
            "Events whose render failed because of the configuration, parked for the next reload.",
            counts.parked
        )
        counter("unparked_events", "Parked events rendered again after a reload.", counts.unparked)
        counter("redriven_events", "Dead letters rendered again on request (caffe.v1.Admin/Redrive).", counts.redriven)
        counter(
            "locale_compilations",
            "Locale resources and programs compiled by the render threads.",
            counts.localeCompilations
        )
        counter("locale_evictions", "Locale resources evicted to stay within the cache bound.", counts.localeEvictions)
        counter(
            "locale_promotions",
            "Locales the pipeline thread compiled itself once common (others go to a helper).",
            counts.localePromotions
        )
        counter(
            "locale_approximations",
            "Orders rendered with the nearest compiled locale while theirs was not (a note says so).",
            counts.localeApproximations
        )
        counter("handshake_failures", "Refused handshakes on secured endpoints.", counts.handshakeFailures)
        counter("input_disconnects", "Input connections that ended.", counts.inputDisconnects)
        counter("rpc_replies_dropped", "Replies dropped: client gone or not reading.", counts.rpcRepliesDropped)

        text.family("caffe_worker_dead_letters_total", type: "counter", help: "Dead letters by reason.")
        for (reason, value) in counts.deadLetters.sorted(by: { $0.key < $1.key }) {
            text.sample("caffe_worker_dead_letters_total", [("reason", reason)], value: value)
        }
        text.family(
            "caffe_worker_agreement_words_left_total",
            type: "counter",
            help: "Words grammar agreement left as written (unknown word or gender), by locale and reason; "
                + "once per distinct text rendered."
        )
        for (label, value) in counts.agreementWordsLeft.sorted(by: {
            ($0.key.first, $0.key.second) < ($1.key.first, $1.key.second)
        }) {
            text.sample(
                "caffe_worker_agreement_words_left_total",
                [("locale", label.first), ("reason", label.second)],
                value: value
            )
        }
        text.family(
            "caffe_worker_rpc_requests_total",
            type: "counter",
            help: "Requests answered, by method and status."
        )
        for (label, value) in counts.rpc.sorted(by: { ($0.key.first, $0.key.second) < ($1.key.first, $1.key.second) }) {
            text.sample(
                "caffe_worker_rpc_requests_total",
                [("method", label.first), ("code", label.second)],
                value: value
            )
        }
        text.family("caffe_worker_outputs_total", type: "counter", help: "Outputs rendered, by kind and locale.")
        for (label, value) in counts.outputs.sorted(by: {
            ($0.key.first, $0.key.second) < ($1.key.first, $1.key.second)
        }) {
            text.sample("caffe_worker_outputs_total", [("kind", label.first), ("locale", label.second)], value: value)
        }
        text.family("caffe_worker_reloads_total", type: "counter", help: "Catalog and menu reloads, by result.")
        text.sample("caffe_worker_reloads_total", [("result", "loaded")], value: counts.reloadsLoaded)
        text.sample("caffe_worker_reloads_total", [("result", "rejected")], value: counts.reloadsRejected)

        text.family("caffe_worker_render_seconds", type: "histogram", help: "Render latency, by kind and locale.")
        for (label, histogram) in counts.renderLatency.sorted(by: {
            ($0.key.first, $0.key.second) < ($1.key.first, $1.key.second)
        }) {
            text.histogram("caffe_worker_render_seconds", [("kind", label.first), ("locale", label.second)], histogram)
        }

        text.family("caffe_worker_queue_depth", type: "gauge", help: "Work waiting, by queue.")
        text.sample("caffe_worker_queue_depth", [("queue", "render")], value: Double(counts.renderQueue))
        text.sample("caffe_worker_queue_depth", [("queue", "rpc")], value: Double(counts.rpcQueue))
        text.family("caffe_worker_gaps_pending", type: "gauge", help: "Gaps being recovered.")
        text.sample("caffe_worker_gaps_pending", value: Double(counts.pendingGaps))
        text.family("caffe_worker_consumers", type: "gauge", help: "Consumers of the acknowledged output.")
        text.sample("caffe_worker_consumers", value: Double(counts.consumers))
        text.family("caffe_worker_unacknowledged", type: "gauge", help: "Deliveries awaiting acknowledgement.")
        text.sample("caffe_worker_unacknowledged", value: Double(counts.unacknowledged))
        text.family(
            "caffe_worker_sources",
            type: "gauge",
            help: "Sources known, by state (active: books in full; dormant: mark only)."
        )
        text.sample("caffe_worker_sources", [("state", "active")], value: Double(counts.activeSources))
        text.sample("caffe_worker_sources", [("state", "dormant")], value: Double(counts.dormantSources))
        text.family("caffe_worker_parked", type: "gauge", help: "Events parked until the next successful reload.")
        text.sample("caffe_worker_parked", value: Double(counts.parkedNow))
        text.family(
            "caffe_worker_locale_cache_bytes",
            type: "gauge",
            help: "Bytes held by the render threads' locale caches."
        )
        text.sample("caffe_worker_locale_cache_bytes", value: Double(counts.localeCacheBytes))
        text.family(
            "caffe_worker_locale_cache_bound_bytes",
            type: "gauge",
            help: "The locale caches' bound (render.locale_cache_bytes per thread)."
        )
        text.sample("caffe_worker_locale_cache_bound_bytes", value: Double(counts.localeCacheBound))
        text.family("caffe_worker_serving", type: "gauge", help: "1 while the worker takes new work.")
        text.sample("caffe_worker_serving", value: serving ? 1.0 : 0.0)
        text.family("caffe_worker_healthy", type: "gauge", help: "1 while serving with the checkpoint being written.")
        text.sample("caffe_worker_healthy", value: (healthy ?? serving) ? 1.0 : 0.0)
        return text.bytes
    }
}
