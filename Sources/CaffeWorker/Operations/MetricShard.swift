import CaffeBooks
import Synchronization
import ZeroMQ

/// One thread's published counts.
///
/// The owning thread counts into its own ``WorkerCounts`` without locks and calls ``publish(_:)``
/// now and then (before it waits, and at most every ``WorkerMetrics/publishInterval`` while busy);
/// readers take ``snapshot`` at scrape time. Rare counts from threads that have no loop of their
/// own (reload, monitors) go through ``update(_:)``.
public final class MetricShard: Sendable {
    private let counts = Mutex(WorkerCounts())
    /// The publication request (``WorkerMetrics/freshCounts(timeout:)``) last answered.
    private let answered = Atomic<UInt64>(0)
    /// A name for debugging ("pipeline", "render-1", "rpc").
    public let name: String
    /// Wakes the owning thread when fresh counts are wanted; `nil` for shards updated in place.
    let wakeup: ZMQWakeup?

    init(name: String, wakeup: ZMQWakeup?) {
        self.name = name
        self.wakeup = wakeup
    }

    /// Replaces the published counts with the owner's current ones, answering request `generation`.
    func publish(_ current: WorkerCounts, answering generation: UInt64) {
        counts.withLock { $0.overwrite(with: current) }
        if generation > answered.load(ordering: .relaxed) { answered.store(generation, ordering: .releasing) }
    }

    /// The latest publication request answered.
    var answeredGeneration: UInt64 { answered.load(ordering: .acquiring) }

    /// Changes the published counts in place (for counts with no owning loop).
    func update(_ body: (inout WorkerCounts) -> Void) {
        counts.withLock { body(&$0) }
    }

    /// The counts as last published.
    var snapshot: WorkerCounts { counts.withLock { $0 } }
}

/// A thread's counts and when it last published them.
struct ThreadCounts {
    var counts = WorkerCounts()
    let shard: MetricShard
    let metrics: WorkerMetrics
    private var lastPublished = ContinuousClock.now
    private var dirty = false
    private var answered: UInt64 = 0

    /// A shard named `name` in `metrics`; with `wakeup`, a reader wanting fresh counts wakes this
    /// thread through it (the thread then calls ``publishIfRequested()``).
    init(_ name: String, in metrics: WorkerMetrics, wakeup: ZMQWakeup? = nil) {
        self.metrics = metrics
        shard = metrics.makeShard(name, wakeup: wakeup)
    }

    /// Publishes at once when a reader asked for fresh counts since the last publication.
    @inline(__always)
    mutating func publishIfRequested() {
        let requested = metrics.requestedGeneration
        guard requested > answered else { return }
        shard.publish(counts, answering: requested)
        answered = requested
        lastPublished = .now
        dirty = false
    }

    /// Changes the counts; cheap, no lock.
    @inline(__always)
    mutating func count(_ body: (inout WorkerCounts) -> Void) {
        body(&counts)
        dirty = true
    }

    /// Lends the counts to a call that may throw (the output channel counts what it sends).
    @inline(__always)
    mutating func counting<Result, Failure: Error>(
        _ body: (inout WorkerCounts) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        dirty = true
        return try body(&counts)
    }

    /// When unpublished counts are due to be published (the owner wakes up for it), if any.
    var nextPublish: ContinuousClock.Instant? { dirty ? lastPublished + WorkerMetrics.publishInterval : nil }

    /// Publishes if anything changed and the interval has passed, or at once when `force`.
    mutating func publish(force: Bool = false) {
        guard dirty else { return }
        let now = ContinuousClock.now
        guard force || now - lastPublished >= WorkerMetrics.publishInterval else { return }
        shard.publish(counts, answering: answered)
        lastPublished = now
        dirty = false
    }
}
