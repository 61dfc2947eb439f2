import Synchronization

/// One thread's published counts.
///
/// The owning thread counts into its own ``WorkerCounts`` without locks and calls ``publish(_:)``
/// now and then (before it waits, and at most every ``WorkerMetrics/publishInterval`` while busy);
/// readers take ``snapshot`` at scrape time. Rare counts from threads that have no loop of their
/// own (reload, monitors) go through ``update(_:)``.
public final class MetricShard: Sendable {
    private let counts = Mutex(WorkerCounts())
    /// A name for debugging ("pipeline", "render-1", "rpc").
    public let name: String

    init(name: String) {
        self.name = name
    }

    /// Replaces the published counts with the owner's current ones.
    func publish(_ current: WorkerCounts) {
        counts.withLock { $0.overwrite(with: current) }
    }

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
    private var lastPublished = ContinuousClock.now
    private var dirty = false

    init(shard: MetricShard) {
        self.shard = shard
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
        shard.publish(counts)
        lastPublished = now
        dirty = false
    }
}
