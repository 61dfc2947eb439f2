import CaffeProtocol

/// What the worker has taken in, per source: it tells a new event from a duplicate (by sequence,
/// and by order id for a publisher that retried under a new sequence), reports each gap once, as
/// the ranges to ask the source to replay, remembers the ranges it gave up on, so an event that
/// arrives late inside one is still rendered rather than taken for a duplicate, and holds each
/// source's pinned replay endpoint.
///
/// Memory per source is bounded: a source idle for the policy's idle time whose books are settled
/// (nothing ahead of its contiguous mark) becomes **dormant** — only its mark, given-up ranges and
/// pinned endpoint are kept, in a compact table — and is revived by its next event. A checkpoint
/// resumes every source dormant.
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
        /// A new sequence carrying an order id this source sent under another one (a publisher's
        /// retry): nothing to render, but the sequence is done, or the checkpoint would wait for it.
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

    /// One source's books while an event is judged: expanded from its ``Record``.
    package struct Source: Sendable {
        /// Received or given up.
        package var seen: ContiguousSequence
        /// The highest sequence received, so each gap is reported once.
        package var highest: UInt64
        /// Ranges given up on (sorted, disjoint), minus the events that arrived late in them;
        /// the newest ``IntakeTracker/maxGivenUpRanges``.
        package var givenUp: [ClosedRange<UInt64>] = []
        /// The pinned replay endpoint (an index into ``IntakeTracker/pins``; 0: none).
        package var pin: UInt32 = 0
        /// The activity tick it was last active in (`.max`: not queued since it came back).
        package var lastActive: UInt32 = 0
        /// Events taken from it (saturating): its standing when replay connections are scarce.
        package var received: UInt32 = 0

        /// Nothing held ahead of the contiguous mark: what a dormant source can be reduced to.
        package var isSettled: Bool { seen.isContiguous && seen.contiguous == highest }

        package init(seen: ContiguousSequence, highest: UInt64, lastActive: UInt32 = .max) {
            self.seen = seen
            self.highest = highest
            self.lastActive = lastActive
        }

        package init(_ record: Record) {
            seen = record.extra.first?.seen ?? ContiguousSequence(contiguous: record.contiguous)
            highest = record.highest
            givenUp = record.extra.first?.givenUp ?? []
            pin = record.pin
            lastActive = record.lastActive
            received = record.received
        }
    }

    /// One source's books as stored, active or dormant: 40 bytes, the rare parts boxed.
    package struct Record: Sendable {
        package var contiguous: UInt64 = 0
        package var highest: UInt64 = 0
        /// Sequences held ahead of the mark and ranges given up (empty: none).
        package var extra: [RecordExtra] = []
        package var pin: UInt32 = 0
        package var lastActive: UInt32 = .max
        package var received: UInt32 = 0
        package var isDormant = false
        /// A run of a source that a newer run replaced and that was done: it stands for nothing
        /// and goes at the next compaction.
        package var isRetired = false

        package init(mark: UInt64 = 0, isDormant: Bool = false) {
            contiguous = mark
            highest = mark
            self.isDormant = isDormant
        }

        package init(_ source: Source, isDormant: Bool) {
            contiguous = source.seen.contiguous
            highest = source.highest
            if !source.seen.isContiguous || !source.givenUp.isEmpty {
                extra = [RecordExtra(seen: source.seen.isContiguous ? nil : source.seen, givenUp: source.givenUp)]
            }
            pin = source.pin
            lastActive = source.lastActive
            received = source.received
            self.isDormant = isDormant
        }

        package var isSettled: Bool { extra.first?.seen == nil && contiguous == highest }
        package var givenUp: [ClosedRange<UInt64>] { extra.first?.givenUp ?? [] }
    }

    /// What few sources have: numbers seen out of order, ranges given up.
    package struct RecordExtra: Sendable {
        package var seen: ContiguousSequence?
        package var givenUp: [ClosedRange<UInt64>]
    }

    /// A replay endpoint pinned for a source, and the CURVE identity (`User-Id`) that announced it,
    /// if any.
    public struct Pin: Hashable, Sendable {
        public var endpoint: String
        public var identity: String

        public init(endpoint: String, identity: String = "") {
            self.endpoint = endpoint
            self.identity = identity
        }
    }

    private var table = SourceTable<Record>()
    private var dormantCount = 0
    private var recentOrders: RecentOrders
    /// Pinned endpoints, interned: many sources share one.
    private var pins: [Pin] = [Pin(endpoint: "")]
    private var pinIndex: [Pin: UInt32] = [:]
    /// Sources (record indices) in the order they became active in a tick, for finding idle ones
    /// without a scan.
    private var activity = FIFO<(index: UInt32, tick: UInt32)>()
    /// Sources whose given-up ranges or pin changed since ``takeCheckpointChanges()``.
    private var changed: Set<UInt32> = []
    /// Sources revived since ``takeRevived()``, with the mark they came back with.
    private var revived: [(source: String, mark: UInt64)] = []
    /// Per source id, the epoch below which an unknown run is refused: runs older than it were
    /// retired (``retire(_:supersededBy:)``) and must not start again as new streams.
    private var epochFloors: [String: UInt64] = [:]
    /// Runs retired and floors raised since ``takeRetirements()``.
    private var retiredSinceTaken: [String] = []
    private var floorsSinceTaken: [String: UInt64] = [:]
    /// Retired records still in the table (they go when the table is compacted).
    private var retiredCount = 0
    private let epoch: ContinuousClock.Instant
    /// How long a tick lasts, and how many ticks of idleness make a source dormant.
    private let tickLength: Duration
    private let idleTicks: UInt32

    /// The highest sequence accepted: far beyond any real stream, low enough that no range
    /// arithmetic on sequences can overflow.
    public static let maxSequence: UInt64 = 1 << 62

    /// Given-up ranges remembered per source for late arrivals.
    public static let maxGivenUpRanges = 256

    /// Starts from checkpointed marks, every source dormant until it sends again: events at or
    /// below the marks are duplicates, except in the given-up ranges the checkpoint lists, where
    /// they are late.
    ///
    /// - Parameter idleTime: how long a settled source stays active without events.
    public init(
        resumingFrom checkpoint: [String: UInt64] = [:],
        givenUp: [String: [ClosedRange<UInt64>]] = [:],
        pinned: [String: Pin] = [:],
        epochFloors: [String: UInt64] = [:],
        rememberedOrders: Int = 100_000,
        idleTime: Duration = .seconds(15),
        now: ContinuousClock.Instant = .now
    ) {
        epoch = now
        self.epochFloors = epochFloors
        // Four ticks per idle time: a source is found idle between one and 1¼ idle times after its
        // last event, and is queued at most five times meanwhile however busy it is.
        tickLength = max(.milliseconds(1), idleTime / 4)
        idleTicks = 4
        table = SourceTable(minimumCapacity: checkpoint.count)
        recentOrders = RecentOrders(capacity: rememberedOrders)
        func dormantIndex(_ source: String) -> Int {
            if let index = table.index(of: source) { return index }
            dormantCount += 1
            return table.append(source, Record(isDormant: true))
        }
        for (source, mark) in checkpoint { table[dormantIndex(source)] = Record(mark: mark, isDormant: true) }
        for (source, ranges) in givenUp where !ranges.isEmpty {
            let index = dormantIndex(source)
            table[index].extra = [
                RecordExtra(
                    seen: nil,
                    givenUp: Array(ranges.sorted { $0.lowerBound < $1.lowerBound }.suffix(Self.maxGivenUpRanges))
                )
            ]
        }
        for (source, pin) in pinned {
            let index = dormantIndex(source)
            table[index].pin = intern(pin)
        }
    }

    /// Active and dormant sources.
    public var counts: (active: Int, dormant: Int) { (table.count - dormantCount - retiredCount, dormantCount) }

    private func record(_ source: String) -> Record? {
        guard let index = table.index(of: source), !table[index].isRetired else { return nil }
        return table[index]
    }

    /// The highest sequence received from `source` (0: none).
    public func highest(of source: String) -> UInt64 { record(source)?.highest ?? 0 }

    /// Calls `body` with each active source and the highest sequence taken from it.
    package func forEachActive(_ body: (_ source: String, _ highest: UInt64) -> Void) {
        for index in 0..<table.count where !table[index].isDormant && !table[index].isRetired {
            body(table.key(at: index), table[index].highest)
        }
    }

    /// Events taken from `source` since this worker started.
    public func received(from source: String) -> UInt32 { record(source)?.received ?? 0 }

    /// Whether `source` has sent an event this worker took (now or before a restart).
    public func knows(_ source: String) -> Bool { record(source) != nil }

    /// Whether `source` is dormant.
    public func isDormant(_ source: String) -> Bool { record(source)?.isDormant ?? false }

    /// The epoch below which an unknown run of `sourceID` is refused (0: none).
    public func epochFloor(of sourceID: String) -> UInt64 { epochFloors[sourceID] ?? 0 }

    // MARK: Retired runs

    /// Retires the run `name` (a ``SourceStream`` key with an epoch) that a run of epoch `newer`
    /// replaced: its books go (the record now, its place at the next compaction), the checkpoint
    /// drops it, and an unknown run of the source older than `newer` is refused from now on.
    /// Only a settled run retires (nothing held ahead of its mark); `false` otherwise.
    @discardableResult
    public mutating func retire(_ name: String, supersededBy newer: UInt64) -> Bool {
        guard let index = table.index(of: name), !table[index].isRetired, table[index].isSettled else { return false }
        if table[index].isDormant { dormantCount -= 1 }
        var retired = Record()
        retired.isRetired = true
        table[index] = retired
        retiredCount += 1
        changed.remove(UInt32(index))
        retiredSinceTaken.append(name)
        let sourceID = SourceStream.split(name).source
        if newer > epochFloors[sourceID] ?? 0 {
            epochFloors[sourceID] = newer
            floorsSinceTaken[sourceID] = newer
        }
        compactIfNeeded()
        return true
    }

    /// Runs retired and epoch floors raised since the last call, for the checkpoint.
    public mutating func takeRetirements() -> (retired: [String], floors: [String: UInt64]) {
        defer {
            retiredSinceTaken.removeAll(keepingCapacity: true)
            floorsSinceTaken.removeAll(keepingCapacity: true)
        }
        return (retiredSinceTaken, floorsSinceTaken)
    }

    /// Whether runs were retired since ``takeRetirements()``.
    public var hasRetirements: Bool { !retiredSinceTaken.isEmpty }

    /// Rebuilds the table without retired records once they are many (at least 1,024 and half the
    /// table), renumbering the activity queue and the changed set.
    private mutating func compactIfNeeded() {
        guard retiredCount >= 1024, retiredCount * 2 >= table.count else { return }
        let (compacted, newIndex) = table.compacted { table[$0].isRetired }
        table = compacted
        var activity = FIFO<(index: UInt32, tick: UInt32)>()
        while let entry = self.activity.removeFirst() {
            if let index = newIndex[Int(entry.index)] { activity.append((UInt32(index), entry.tick)) }
        }
        self.activity = activity
        changed = Set(changed.compactMap { newIndex[Int($0)].map(UInt32.init) })
        retiredCount = 0
    }

    /// Judges an event from `source` (a ``SourceStream`` key) with `sequence` (1 through
    /// ``maxSequence``, which the caller checks) and `orderID` (empty: none).
    ///
    /// - Parameter sourceID: the source id the key was made from, when it has an epoch: order ids
    ///   are remembered per source across its runs, so an order sent again after a restart under
    ///   a new epoch is a retry, not a new order.
    public mutating func observe(
        source name: String,
        sourceID: String? = nil,
        sequence: UInt64,
        orderID: String,
        at now: ContinuousClock.Instant = .now
    ) -> Verdict {
        // Order ids are remembered per source: another source cannot make this one's orders vanish.
        let orderKey = orderID.isEmpty ? nil : RecentOrders.key(source: sourceID ?? name, orderID: orderID)
        let knownOrder = orderKey.map(recentOrders.contains) ?? false
        if let orderKey { recentOrders.insert(orderKey) }
        var (index, source) = take(name)
        defer { put(index, &source, at: now) }
        source.received = source.received &+ (source.received == .max ? 0 : 1)
        if source.takeLate(sequence) {
            changed.insert(UInt32(index))
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
    /// and not reported before is returned, to be asked for. A dormant source that has sent
    /// nothing new stays dormant.
    public mutating func heartbeat(
        source name: String,
        last: UInt64,
        at now: ContinuousClock.Instant = .now
    ) -> [ClosedRange<UInt64>] {
        guard last > highest(of: name) else { return [] }
        var (index, source) = take(name)
        defer { put(index, &source, at: now) }
        let before = source.highest
        source.highest = last
        return source.seen.missing(in: (before + 1)...last)
    }

    /// Gives up on `range` of `source` (the source cannot replay it), so later events are not
    /// held behind it; an event that still arrives inside it is ``Kind/late``.
    public mutating func abandon(source name: String, _ range: ClosedRange<UInt64>) {
        var (index, source) = take(name)
        defer { put(index, &source, at: nil) }
        for hole in source.seen.missing(in: range) {
            source.seen.insert(hole)
            source.rememberGivenUp(hole)
        }
        changed.insert(UInt32(index))
    }

    /// The parts of `range` of `source` not received (nor given up on) yet.
    public func missing(source: String, in range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
        guard let record = record(source) else { return [range] }
        return (record.extra.first?.seen ?? ContiguousSequence(contiguous: record.contiguous)).missing(in: range)
    }

    /// Sequences still missing per source.
    public var missing: [String: [ClosedRange<UInt64>]] {
        var all: [String: [ClosedRange<UInt64>]] = [:]
        for index in table.indices {
            if let seen = table[index].extra.first?.seen, !seen.missing.isEmpty {
                all[table.key(at: index)] = seen.missing
            }
        }
        return all
    }

    /// The ranges given up on per source, active or dormant.
    public var givenUp: [String: [ClosedRange<UInt64>]] {
        var all: [String: [ClosedRange<UInt64>]] = [:]
        for index in table.indices where !table[index].givenUp.isEmpty {
            all[table.key(at: index)] = table[index].givenUp
        }
        return all
    }

    // MARK: Replay endpoints

    /// What became of an announced endpoint.
    public enum PinOutcome: Hashable, Sendable {
        /// The source had none: this one is pinned.
        case pinned
        /// The same one as pinned.
        case unchanged
        /// A different one, taken because changes are allowed or the announcer proved the identity
        /// that pinned the old one.
        case changed(from: String)
        /// A different one, ignored: the source keeps `kept`.
        case refused(kept: String)
    }

    /// The replay endpoint pinned for `source`, if any.
    public func pin(of source: String) -> Pin? {
        let index = record(source)?.pin ?? 0
        return index == 0 ? nil : pins[Int(index)]
    }

    /// Pins `pin` for `source` if it has none; changes it only when `allowChange`, or when the
    /// announcer's CURVE identity is the one that pinned the current endpoint. The source must be
    /// known (call after ``observe(source:sequence:orderID:at:)`` or with a known source).
    public mutating func announce(_ pin: Pin, for name: String, allowChange: Bool) -> PinOutcome {
        let current = self.pin(of: name)
        if let current, current.endpoint == pin.endpoint { return .unchanged }
        if let current, !allowChange, current.identity.isEmpty || current.identity != pin.identity {
            return .refused(kept: current.endpoint)
        }
        let interned = intern(pin)
        let index =
            table.index(of: name)
            ?? {
                dormantCount += 1
                return table.append(name, Record(isDormant: true))
            }()
        table[index].pin = interned
        changed.insert(UInt32(index))
        return current.map { .changed(from: $0.endpoint) } ?? .pinned
    }

    private mutating func intern(_ pin: Pin) -> UInt32 {
        if let index = pinIndex[pin] { return index }
        pins.append(pin)
        let index = UInt32(pins.count - 1)
        pinIndex[pin] = index
        return index
    }

    // MARK: Idle sources

    /// A source found idle: its name and highest sequence (the mark it will keep).
    public struct IdleSource: Hashable, Sendable {
        public var source: String
        public var highest: UInt64
    }

    /// Up to `limit` settled sources idle for the idle time at `now`, in the order they went
    /// quiet. Each is either made dormant (``makeDormant(_:)``) or kept (``keepActive(_:at:)``) by
    /// the caller, who knows whether its outputs are all delivered.
    public mutating func idleSources(at now: ContinuousClock.Instant, limit: Int) -> [IdleSource] {
        let current = tick(now)
        var found: [IdleSource] = []
        while found.count < limit, let first = activity.first, first.tick &+ idleTicks <= current {
            _ = activity.removeFirst()
            let index = Int(first.index)
            let record = table[index]
            guard !record.isDormant, !record.isRetired, record.lastActive == first.tick else { continue }
            if record.isSettled {
                found.append(IdleSource(source: table.key(at: index), highest: record.highest))
            } else {
                queue(index, at: current)
            }
        }
        return found
    }

    /// When the oldest queued source could be found idle.
    public var nextIdleCheck: ContinuousClock.Instant? {
        activity.first.map { epoch + tickLength * Int(min($0.tick, UInt32.max - idleTicks) + idleTicks) }
    }

    /// Reduces an active source to its dormant form.
    public mutating func makeDormant(_ name: String) {
        guard let index = table.index(of: name), !table[index].isDormant, !table[index].isRetired else { return }
        table[index].isDormant = true
        table[index].lastActive = .max
        dormantCount += 1
    }

    /// Keeps `source` active for another idle time.
    public mutating func keepActive(_ name: String, at now: ContinuousClock.Instant) {
        guard let index = table.index(of: name), !table[index].isDormant, !table[index].isRetired else { return }
        queue(index, at: tick(now))
    }

    private mutating func queue(_ index: Int, at tick: UInt32) {
        table[index].lastActive = tick
        activity.append((UInt32(index), tick))
    }

    /// Sources revived since the last call, with the marks they resumed from.
    public mutating func takeRevived() -> [(source: String, mark: UInt64)] {
        guard !revived.isEmpty else { return [] }
        defer { revived.removeAll(keepingCapacity: true) }
        return revived
    }

    // MARK: Checkpoint

    /// Whether given-up ranges or pins changed since ``takeCheckpointChanges()``.
    public var hasCheckpointChanges: Bool { !changed.isEmpty }

    /// What changed for the checkpoint since the last call: each changed source's given-up ranges
    /// (empty: none left) and pinned endpoint.
    public mutating func takeCheckpointChanges() -> (givenUp: [String: [ClosedRange<UInt64>]], pins: [String: Pin]) {
        guard !changed.isEmpty else { return ([:], [:]) }
        var givenUp: [String: [ClosedRange<UInt64>]] = [:]
        var pinned: [String: Pin] = [:]
        for index in changed {
            let record = table[Int(index)]
            let name = table.key(at: Int(index))
            givenUp[name] = record.givenUp
            if record.pin != 0 { pinned[name] = pins[Int(record.pin)] }
        }
        changed.removeAll(keepingCapacity: true)
        return (givenUp, pinned)
    }

    // MARK: Books

    private func tick(_ now: ContinuousClock.Instant) -> UInt32 {
        let elapsed = max(.zero, now - epoch)
        return UInt32(clamping: Int64(elapsed / tickLength))
    }

    /// The books of `name`, expanded (revived from dormancy, or new).
    private mutating func take(_ name: String) -> (index: Int, source: Source) {
        guard let index = table.index(of: name) else {
            let index = table.append(name, Record())
            return (index, Source(Record()))
        }
        if table[index].isRetired {
            // A retired run taken again (intake refuses its events by the epoch floor; a caller
            // that did not ask starts it afresh).
            table[index] = Record()
            retiredCount -= 1
            return (index, Source(Record()))
        }
        if table[index].isDormant {
            table[index].isDormant = false
            table[index].lastActive = .max
            dormantCount -= 1
            revived.append((name, table[index].contiguous))
        }
        return (index, Source(table[index]))
    }

    /// Stores `index`'s books back; `now`: it was active then (queued for the idle check once per tick).
    private mutating func put(_ index: Int, _ source: inout Source, at now: ContinuousClock.Instant?) {
        if let now {
            let current = tick(now)
            if source.lastActive != current {
                source.lastActive = current
                activity.append((UInt32(index), current))
            }
        } else if source.lastActive == .max {
            // Revived or made without an event (a gap given up): queue it so it can go dormant again.
            source.lastActive = tick(epoch)
            activity.append((UInt32(index), source.lastActive))
        }
        table[index] = Record(source, isDormant: false)
    }
}

extension IntakeTracker.Source {
    /// Takes `sequence` out of the given-up ranges; `true` if it was in one.
    package mutating func takeLate(_ sequence: UInt64) -> Bool {
        guard !givenUp.isEmpty else { return false }
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
    package mutating func rememberGivenUp(_ range: ClosedRange<UInt64>) {
        let index = givenUp.firstIndex { $0.lowerBound > range.lowerBound } ?? givenUp.endIndex
        givenUp.insert(range, at: index)
        if givenUp.count > IntakeTracker.maxGivenUpRanges { givenUp.removeFirst() }
    }
}

/// The most recent order ids of each source, kept as 64-bit keyed hashes of (source, order id):
/// 100,000 of them in ~2.5 MB rather than ~12 MB of strings. The hash is SipHash with a key drawn
/// at random per process, so no sender can aim a collision; by chance, two ids of a full window
/// collide about once in four billion windows.
package typealias RecentOrders = RecentSet<UInt64>

extension RecentSet where Member == UInt64 {
    package static func key(source: String, orderID: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(orderID)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
