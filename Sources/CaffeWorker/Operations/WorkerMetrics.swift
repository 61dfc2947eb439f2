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
    /// Each renderer's locale cache (bytes, bound), whichever pipeline heard of it last.
    private let localeCaches = Mutex<[Int: (bytes: Int, bound: Int)]>([:])

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
        let caches = localeCaches.withLock { $0.values.reduce((0, 0)) { ($0.0 + $1.bytes, $0.1 + $1.bound) } }
        total.localeCacheBytes += caches.0
        total.localeCacheBound += caches.1
        return total
    }

    /// The counts last published by the shard named `name` (`pipeline`, `pipeline-1`, `hub`…), if
    /// there is one: what one thread did, as `bench worker` and the tests read it.
    func counts(ofShard name: String) -> WorkerCounts? {
        shards.withLock { $0 }.first { $0.name == name }?.snapshot
    }

    /// What renderer `renderer`'s locale cache holds now (a helper's report reaches whichever
    /// pipeline it rendered for; kept here, each renderer is counted once).
    func reportLocaleCache(renderer: Int, bytes: Int, bound: Int) {
        localeCaches.withLock { $0[renderer] = (bytes, bound) }
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

    /// Every metric in the Prometheus text format (version 0.0.4), with `serving`, `healthy` and
    /// `ready` as gauges, then `caffe_build_info` and the `process_*` families.
    func exposition(serving: Bool, healthy: Bool? = nil, ready: Bool? = nil) -> [UInt8] {
        let counts = freshCounts()
        var text = PrometheusText()
        for counter in WorkerCounts.counters {
            text.family("caffe_worker_\(counter.name)_total", type: "counter", help: counter.help)
            text.sample("caffe_worker_\(counter.name)_total", value: counts[keyPath: counter.value])
        }

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

        text.family(
            "caffe_worker_event_latency_seconds",
            type: "histogram",
            help: "From the input header's sent_at (the source's clock) to the output socket taking the last "
                + "output, by kind; events without sent_at are not counted."
        )
        for (kind, histogram) in counts.eventLatency.sorted(by: { $0.key < $1.key }) {
            text.histogram("caffe_worker_event_latency_seconds", [("kind", kind)], histogram)
        }

        text.family(
            "caffe_worker_checkpoint_age_seconds",
            type: "gauge",
            help: "How long delivered progress has waited to be written to the checkpoint; 0 while it is current."
        )
        let behind = counts.checkpointBehindSince
        text.sample(
            "caffe_worker_checkpoint_age_seconds",
            value: behind > 0 ? max(0, Double(WallClock.nanoseconds()) / 1e9 - behind) : 0
        )
        text.family(
            "caffe_worker_source_lag_events",
            type: "gauge",
            help: "Events taken in and not yet delivered, for the \(WorkerCounts.maxLagLabels) active sources "
                + "furthest behind (sources caught up are not listed)."
        )
        for (source, lag) in counts.sourceLag.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            text.sample("caffe_worker_source_lag_events", [("source", source)], value: lag)
        }
        text.family("caffe_worker_lag_events", type: "gauge", help: "Events taken in and not yet delivered, in all.")
        text.sample("caffe_worker_lag_events", value: counts.totalLag)

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
        if let ready {
            text.family(
                "caffe_worker_ready",
                type: "gauge",
                help: "1 while ready for traffic: serving, checkpoint writable, inputs connected (/readyz)."
            )
            text.sample("caffe_worker_ready", value: ready ? 1.0 : 0.0)
        }
        ProcessMetrics.writeBuildInfo("caffe", to: &text)
        ProcessMetrics.current()?.write(to: &text)
        return text.bytes
    }
}
