/// What the worker has taken in, per source: it tells a new event from a duplicate (by sequence,
/// and by order id for a publisher that retried under a new sequence), reports each gap once, as
/// the ranges to ask the source to replay, and remembers the ranges it gave up on, so an event
/// that arrives late inside one is still rendered rather than taken for a duplicate.
///
/// Owned by the thread that runs intake; not shared.
public struct IntakeTracker: Sendable {
    /// What to do with an arriving event.
    public enum Kind: Hashable, Sendable {
        /// Not seen before: render it.
        case new
        /// Inside a range given up as unrecoverable, now arrived after all: render it.
        case late
        /// Seen before under this sequence: nothing to do.
        case duplicate
        /// A new sequence carrying an order id seen under another one (a publisher's retry):
        /// nothing to render, but the sequence is done, or the checkpoint would wait for it.
        case retry
    }

    /// The judgement on one event.
    public struct Verdict: Hashable, Sendable {
        public var kind: Kind
        /// Sequences this event shows were skipped, not reported before: ask the source for them.
        public var missing: [ClosedRange<UInt64>]

        public init(_ kind: Kind, missing: [ClosedRange<UInt64>] = []) {
            self.kind = kind
            self.missing = missing
        }
    }

    /// One source's books.
    struct Source: Sendable {
        /// Received or given up.
        var seen: ContiguousSequence
        /// The highest sequence received, so each gap is reported once.
        var highest: UInt64
        /// Ranges given up on (sorted, disjoint), minus the events that arrived late in them;
        /// the newest ``IntakeTracker/maxGivenUpRanges``.
        var givenUp: [ClosedRange<UInt64>] = []
    }

    private var sources: [String: Source]
    private var recentOrders: RecentSet

    /// The highest sequence accepted: far beyond any real stream, low enough that no range
    /// arithmetic on sequences can overflow.
    public static let maxSequence: UInt64 = 1 << 62

    /// Given-up ranges remembered per source for late arrivals.
    public static let maxGivenUpRanges = 256

    /// Starts from checkpointed marks: events at or below them are duplicates, except in the
    /// given-up ranges the checkpoint lists, where they are late.
    public init(
        resumingFrom checkpoint: [String: UInt64] = [:],
        givenUp: [String: [ClosedRange<UInt64>]] = [:],
        rememberedOrders: Int = 100_000
    ) {
        sources = checkpoint.mapValues { Source(seen: ContiguousSequence(contiguous: $0), highest: $0) }
        for (source, ranges) in givenUp {
            sources[source, default: Source(seen: ContiguousSequence(), highest: 0)].givenUp = Array(
                ranges.sorted { $0.lowerBound < $1.lowerBound }.suffix(Self.maxGivenUpRanges)
            )
        }
        recentOrders = RecentSet(capacity: rememberedOrders)
    }

    /// The highest sequence received from `source` (0: none).
    public func highest(of source: String) -> UInt64 { sources[source]?.highest ?? 0 }

    /// Judges an event from `source` with `sequence` (1 through ``maxSequence``, which the caller
    /// checks) and `orderID` (empty: none).
    public mutating func observe(source name: String, sequence: UInt64, orderID: String) -> Verdict {
        let knownOrder = !orderID.isEmpty && recentOrders.contains(orderID)
        if !orderID.isEmpty { recentOrders.insert(orderID) }
        var source = sources[name] ?? Source(seen: ContiguousSequence(), highest: 0)
        defer { sources[name] = source }
        if source.takeLate(sequence) {
            return Verdict(knownOrder ? .retry : .late)
        }
        let isNew = source.seen.insert(sequence)
        let before = source.highest
        let kind: Kind = !isNew ? .duplicate : knownOrder ? .retry : .new
        guard sequence > before + 1 else {
            source.highest = max(before, sequence)
            return Verdict(kind)
        }
        source.highest = sequence
        // Only the numbers between the previous highest and this one are news.
        let fresh = source.seen.missing(in: (before + 1)...(sequence - 1))
        return Verdict(kind, missing: fresh)
    }

    /// Learns from a heartbeat that `source` has sent everything up to `last`: the part not seen
    /// and not reported before is returned, to be asked for.
    public mutating func heartbeat(source name: String, last: UInt64) -> [ClosedRange<UInt64>] {
        var source = sources[name] ?? Source(seen: ContiguousSequence(), highest: 0)
        defer { sources[name] = source }
        let before = source.highest
        guard last > before else { return [] }
        source.highest = last
        return source.seen.missing(in: (before + 1)...last)
    }

    /// Gives up on `range` of `source` (the source cannot replay it), so later events are not
    /// held behind it; an event that still arrives inside it is ``Kind/late``.
    public mutating func abandon(source name: String, _ range: ClosedRange<UInt64>) {
        var source = sources[name] ?? Source(seen: ContiguousSequence(), highest: 0)
        for hole in source.seen.missing(in: range) {
            source.seen.insert(hole)
            source.rememberGivenUp(hole)
        }
        sources[name] = source
    }

    /// The parts of `range` of `source` not received (nor given up on) yet.
    public func missing(source: String, in range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
        guard let books = sources[source] else { return [range] }
        return books.seen.missing(in: range)
    }

    /// Sequences still missing per source.
    public var missing: [String: [ClosedRange<UInt64>]] {
        sources.compactMapValues { $0.seen.missing.isEmpty ? nil : $0.seen.missing }
    }

    /// The ranges given up on per source, for the checkpoint.
    public var givenUp: [String: [ClosedRange<UInt64>]] {
        sources.compactMapValues { $0.givenUp.isEmpty ? nil : $0.givenUp }
    }
}

extension IntakeTracker.Source {
    /// Takes `sequence` out of the given-up ranges; `true` if it was in one.
    mutating func takeLate(_ sequence: UInt64) -> Bool {
        // Binary search: the last range starting at or below `sequence`.
        var low = 0
        var high = givenUp.count
        while low < high {
            let middle = (low + high) / 2
            if givenUp[middle].lowerBound <= sequence { low = middle + 1 } else { high = middle }
        }
        guard low > 0, givenUp[low - 1].contains(sequence) else { return false }
        let range = givenUp.remove(at: low - 1)
        var pieces: [ClosedRange<UInt64>] = []
        if range.lowerBound < sequence { pieces.append(range.lowerBound...(sequence - 1)) }
        if sequence < range.upperBound { pieces.append((sequence + 1)...range.upperBound) }
        givenUp.insert(contentsOf: pieces, at: low - 1)
        return true
    }

    /// Records a range given up on, keeping the newest ones.
    mutating func rememberGivenUp(_ range: ClosedRange<UInt64>) {
        let index = givenUp.firstIndex { $0.lowerBound > range.lowerBound } ?? givenUp.endIndex
        givenUp.insert(range, at: index)
        if givenUp.count > IntakeTracker.maxGivenUpRanges { givenUp.removeFirst() }
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
