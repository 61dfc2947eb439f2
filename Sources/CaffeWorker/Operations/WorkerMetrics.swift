import CaffeProtocol
import CoreMetrics
import Prometheus
import Synchronization

/// A count the worker both reads itself (`caffe.v1.Admin/Stats`, the stop log) and exports to
/// Prometheus through swift-metrics.
public final class WorkerCounter: Sendable {
    private let value = Atomic<UInt64>(0)
    private let counter: CoreMetrics.Counter?

    /// A counter exported as `label`, or (without a factory) one kept for Stats only, whose
    /// Prometheus family is labelled and counted elsewhere.
    init(_ label: String, dimensions: [(String, String)] = [], factory: PrometheusMetricsFactory?) {
        counter = factory.map { CoreMetrics.Counter(label: label, dimensions: dimensions, factory: $0) }
    }

    /// Adds `amount`.
    public func add(_ amount: UInt64 = 1) {
        value.add(amount, ordering: .relaxed)
        counter?.increment(by: Int64(truncatingIfNeeded: amount))
    }

    /// The count so far.
    public var count: UInt64 { value.load(ordering: .relaxed) }
}

/// The worker's metrics, in one Prometheus registry served at `/metrics`.
///
/// Counters: events received, rendered, published; duplicates; dead letters by reason; gaps,
/// missing sequences, replay requests, replayed events, unrecoverable gaps; RPC requests by method
/// and status; CURVE handshake failures; checkpoints; reloads by result. Per output kind and
/// locale: outputs and render latency (histogram). Gauges: the render and RPC queue depths,
/// gaps being recovered, and whether the worker is serving.
public final class WorkerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory

    public let received: WorkerCounter
    public let rendered: WorkerCounter
    public let published: WorkerCounter
    public let duplicates: WorkerCounter
    public let deadLettered: WorkerCounter
    public let gaps: WorkerCounter
    public let missingSequences: WorkerCounter
    public let replayRequests: WorkerCounter
    public let replayedEvents: WorkerCounter
    public let unrecoverableGaps: WorkerCounter
    public let unrecoverableSequences: WorkerCounter
    public let checkpoints: WorkerCounter
    public let handshakeFailures: WorkerCounter
    public let rpcRequests: WorkerCounter

    /// Events handed to the render threads and not yet published.
    let renderQueue = Atomic<Int>(0)
    /// RPC render requests waiting for or being rendered.
    let rpcQueue = Atomic<Int>(0)
    private let renderQueueGauge: CoreMetrics.Gauge
    private let rpcQueueGauge: CoreMetrics.Gauge
    private let pendingGapsGauge: CoreMetrics.Gauge
    private let servingGauge: CoreMetrics.Gauge
    private let labelled = Mutex<[String: WorkerCounter]>([:])
    private let localeLabels = Mutex<Set<String>>([])
    private let timers = Mutex<[String: CoreMetrics.Timer]>([:])

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
            .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(100), .seconds(1),
        ]
        self.factory = factory
        func counter(_ name: String) -> WorkerCounter { WorkerCounter("caffe_worker_\(name)_total", factory: factory) }
        received = counter("events_received")
        rendered = counter("events_rendered")
        published = counter("outputs_published")
        duplicates = counter("duplicates")
        deadLettered = WorkerCounter("dead_letters", factory: nil)
        gaps = counter("gaps")
        missingSequences = counter("missing_sequences")
        replayRequests = counter("replay_requests")
        replayedEvents = counter("replayed_events")
        unrecoverableGaps = counter("unrecoverable_gaps")
        unrecoverableSequences = counter("unrecoverable_sequences")
        checkpoints = counter("checkpoints")
        handshakeFailures = counter("handshake_failures")
        rpcRequests = WorkerCounter("rpc_requests", factory: nil)
        renderQueueGauge = CoreMetrics.Gauge(
            label: "caffe_worker_queue_depth",
            dimensions: [("queue", "render")],
            factory: factory
        )
        rpcQueueGauge = CoreMetrics.Gauge(
            label: "caffe_worker_queue_depth",
            dimensions: [("queue", "rpc")],
            factory: factory
        )
        pendingGapsGauge = CoreMetrics.Gauge(label: "caffe_worker_gaps_pending", factory: factory)
        servingGauge = CoreMetrics.Gauge(label: "caffe_worker_serving", factory: factory)
    }

    /// Counts a dead letter, in the total and by reason.
    func deadLetter(reason: String) {
        deadLettered.add()
        counter("dead_letters", [("reason", reason)]).add()
    }

    /// Counts an answered RPC request, in the total and by method and status. Methods the worker
    /// does not serve are labelled `other`, so clients cannot grow the label set.
    func rpcRequest(method: String, code: String) {
        rpcRequests.add()
        let served = [
            CaffeMethod.renderOrder, CaffeMethod.renderComplication, CaffeMethod.healthCheck, CaffeMethod.stats,
        ]
        counter("rpc_requests", [("method", served.contains(method) ? method : "other"), ("code", code)]).add()
    }

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

    /// Distinct locale label values before the rest are labelled `other`.
    static let maxLocaleLabels = 64

    /// A counter with labels, made once per label set; every label set of a family must use the same label names.
    func counter(_ name: String, _ dimensions: [(String, String)]) -> WorkerCounter {
        let key = name + dimensions.map { "|\($0.0)=\($0.1)" }.joined()
        return labelled.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = WorkerCounter("caffe_worker_\(name)_total", dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }

    /// The render latency histogram for one output kind and locale.
    func renderTimer(kind: String, locale: String) -> CoreMetrics.Timer {
        let key = kind + "|" + locale
        return timers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = CoreMetrics.Timer(
                label: "caffe_worker_render_seconds",
                dimensions: [("kind", kind), ("locale", locale)],
                factory: factory
            )
            timers[key] = timer
            return timer
        }
    }

    /// Records the gauges' current values (called before each scrape and Stats answer).
    func refreshGauges(pendingGaps: Int, serving: Bool) {
        renderQueueGauge.record(renderQueue.load(ordering: .relaxed))
        rpcQueueGauge.record(rpcQueue.load(ordering: .relaxed))
        pendingGapsGauge.record(pendingGaps)
        servingGauge.record(serving ? 1 : 0)
    }

    /// The unlabelled counters by name, as `caffe.v1.Admin/Stats` and the stop log report them.
    public var snapshot: [String: UInt64] {
        [
            "received": received.count, "rendered": rendered.count, "published": published.count,
            "duplicates": duplicates.count, "dead_lettered": deadLettered.count, "gaps": gaps.count,
            "missing_sequences": missingSequences.count, "replay_requests": replayRequests.count,
            "replayed_events": replayedEvents.count, "unrecoverable_gaps": unrecoverableGaps.count,
            "unrecoverable_sequences": unrecoverableSequences.count, "checkpoints": checkpoints.count,
            "handshake_failures": handshakeFailures.count, "rpc_requests": rpcRequests.count,
        ]
    }

    /// The gauges by name, for `caffe.v1.Admin/Stats`.
    var gauges: [String: Double] {
        [
            "render_queue": Double(renderQueue.load(ordering: .relaxed)),
            "rpc_queue": Double(rpcQueue.load(ordering: .relaxed)),
        ]
    }

    /// Every metric in Prometheus text format.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
