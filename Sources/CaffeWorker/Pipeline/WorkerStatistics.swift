import Synchronization

/// The worker's counters, updated by its threads without locks and read at any time.
public final class WorkerStatistics: Sendable {
    /// Events taken from the input socket.
    public let received = Atomic<UInt64>(0)
    /// Orders and complication requests rendered.
    public let rendered = Atomic<UInt64>(0)
    /// Output messages sent (confirmations, receipts, payloads, dead letters).
    public let published = Atomic<UInt64>(0)
    /// Events recognised as seen before and not rendered again.
    public let duplicates = Atomic<UInt64>(0)
    /// Inputs sent to the dead-letter topic.
    public let deadLettered = Atomic<UInt64>(0)
    /// Gaps detected (one per missing range reported).
    public let gaps = Atomic<UInt64>(0)
    /// Sequences missing in those gaps.
    public let missingSequences = Atomic<UInt64>(0)
    /// Checkpoints written.
    public let checkpoints = Atomic<UInt64>(0)

    public init() {}

    /// The counters by name, as `caffe.v1.Admin/Stats` and the logs report them.
    public var snapshot: [String: UInt64] {
        [
            "received": received.load(ordering: .relaxed),
            "rendered": rendered.load(ordering: .relaxed),
            "published": published.load(ordering: .relaxed),
            "duplicates": duplicates.load(ordering: .relaxed),
            "dead_lettered": deadLettered.load(ordering: .relaxed),
            "gaps": gaps.load(ordering: .relaxed),
            "missing_sequences": missingSequences.load(ordering: .relaxed),
            "checkpoints": checkpoints.load(ordering: .relaxed),
        ]
    }
}
