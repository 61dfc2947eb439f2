/// What the worker has taken in, per source: it tells a new event from a duplicate (by sequence,
/// and by order id for a publisher that retried under a new sequence) and reports each gap once,
/// as the ranges to ask the source to replay.
///
/// Owned by the intake thread; not shared.
public struct IntakeTracker: Sendable {
    /// What to do with an arriving event.
    public struct Verdict: Hashable, Sendable {
        /// Seen before (same sequence, or same order id): do not render it again.
        public var isDuplicate: Bool
        /// Sequences this event shows were skipped, not reported before: ask the source for them.
        public var missing: [ClosedRange<UInt64>]
        /// The event's sequence had not been seen: even a duplicate by order id must be marked
        /// done under it, or the source's checkpoint would wait for it for ever.
        public var isNewSequence: Bool

        public init(isDuplicate: Bool, missing: [ClosedRange<UInt64>] = [], isNewSequence: Bool = false) {
            self.isDuplicate = isDuplicate
            self.missing = missing
            self.isNewSequence = isNewSequence
        }
    }

    private var sources: [String: ContiguousSequence]
    private var recentOrders: RecentSet
    /// The highest sequence seen per source, so each gap is reported once.
    private var highest: [String: UInt64]

    /// Starts from checkpointed marks: events at or below them are duplicates.
    public init(resumingFrom checkpoint: [String: UInt64] = [:], rememberedOrders: Int = 100_000) {
        sources = checkpoint.mapValues { ContiguousSequence(contiguous: $0) }
        highest = checkpoint
        recentOrders = RecentSet(capacity: rememberedOrders)
    }

    /// The highest sequence accepted: far beyond any real stream, low enough that no range
    /// arithmetic on sequences can overflow.
    public static let maxSequence: UInt64 = 1 << 62

    /// Judges an event from `source` with `sequence` (0: unsequenced; at most ``maxSequence``,
    /// which the caller checks) and `orderID` (empty: none).
    public mutating func observe(source: String, sequence: UInt64, orderID: String) -> Verdict {
        let knownOrder = !orderID.isEmpty && recentOrders.contains(orderID)
        if !orderID.isEmpty { recentOrders.insert(orderID) }
        guard sequence > 0 else { return Verdict(isDuplicate: knownOrder) }
        var seen = sources[source] ?? ContiguousSequence()
        let isNew = seen.insert(sequence)
        sources[source] = seen
        let before = highest[source] ?? 0
        guard sequence > before + 1 else {
            highest[source] = max(before, sequence)
            return Verdict(isDuplicate: knownOrder || !isNew, isNewSequence: isNew)
        }
        highest[source] = sequence
        // Only the numbers between the previous highest and this one are news.
        let fresh = seen.missing.compactMap { range -> ClosedRange<UInt64>? in
            let lower = max(range.lowerBound, before + 1)
            let upper = min(range.upperBound, sequence - 1)
            return lower <= upper ? lower...upper : nil
        }
        return Verdict(isDuplicate: knownOrder || !isNew, missing: fresh, isNewSequence: isNew)
    }

    /// Gives up on `range` of `source` (the source cannot replay it), so later events are not
    /// held behind it.
    public mutating func abandon(source: String, _ range: ClosedRange<UInt64>) {
        sources[source, default: ContiguousSequence()].insert(range)
    }

    /// The parts of `range` of `source` not received (nor given up on) yet.
    public func missing(source: String, in range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
        guard let seen = sources[source] else { return [range] }
        return seen.missing.compactMap { hole -> ClosedRange<UInt64>? in
            let lower = max(hole.lowerBound, range.lowerBound)
            let upper = min(hole.upperBound, range.upperBound)
            return lower <= upper ? lower...upper : nil
        }
    }

    /// Sequences still missing per source.
    public var missing: [String: [ClosedRange<UInt64>]] {
        sources.compactMapValues { $0.missing.isEmpty ? nil : $0.missing }
    }
}

/// The most recent `capacity` strings, for duplicate checks with bounded memory.
struct RecentSet: Sendable {
    private var members: Set<String> = []
    private var order: [String] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func contains(_ member: String) -> Bool { members.contains(member) }

    mutating func insert(_ member: String) {
        guard members.insert(member).inserted else { return }
        if order.count < capacity {
            order.append(member)
        } else {
            members.remove(order[next])
            order[next] = member
            next = (next + 1) % capacity
        }
    }
}
