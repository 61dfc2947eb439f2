import CaffeProtocol

/// The schedule of replay requests for sequence gaps: when to ask a source again, and when to
/// give a range up as unrecoverable. Pure bookkeeping, driven by the intake thread with the time.
///
/// A gap is first asked for after ``Policy/backoff`` (events from one source may still arrive a
/// little out of order), then, without an answer within ``Policy/timeout``, again after a backoff
/// that doubles up to ``Policy/maxBackoff``, at most ``Policy/attempts`` times. Before each request
/// the range is narrowed to what is still missing, so a gap filled meanwhile costs nothing.
public struct GapRecovery: Sendable {
    public struct Policy: Hashable, Sendable {
        /// How long to wait for a reply before asking again.
        public var timeout: Duration
        /// Requests per gap before it is declared unrecoverable.
        public var attempts: Int
        /// The wait before the first request; doubled after each unanswered one.
        public var backoff: Duration
        /// The longest wait between requests.
        public var maxBackoff: Duration
        /// The most sequences one request asks for, so a reply stays well under the message size
        /// limit; a longer gap is fetched in consecutive requests.
        public var batch: UInt64

        public init(
            timeout: Duration = .seconds(1),
            attempts: Int = 5,
            backoff: Duration = .milliseconds(100),
            maxBackoff: Duration = .seconds(5),
            batch: UInt64 = 256
        ) {
            self.timeout = timeout
            self.attempts = attempts
            self.backoff = backoff
            self.maxBackoff = maxBackoff
            self.batch = max(1, batch)
        }
    }

    /// A request to send now.
    public struct Request: Hashable, Sendable {
        /// Echoed by the reply; names the gap.
        public var id: String
        public var source: String
        public var range: ClosedRange<UInt64>
        /// 1 for the first request of a gap.
        public var attempt: Int
    }

    /// A range given up on, and why.
    public struct Abandoned: Hashable, Sendable {
        /// The gap's request id (its requests' replies are no longer expected).
        public var id: String = ""
        public var source: String
        public var range: ClosedRange<UInt64>
        public var reason: String
    }

    private struct Gap {
        package var source: String
        package var range: ClosedRange<UInt64>
        package var attempt: Int
        package var due: ContinuousClock.Instant
        package var backoff: Duration
    }

    public let policy: Policy
    private var gaps: [String: Gap] = [:]
    private var nextID = 0

    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Gaps still being recovered.
    public var pending: Int { gaps.count }

    /// Whether a gap of `source` is still being recovered (a linear look: asked only when a
    /// replaced run is about to retire, and only while gaps are pending at all).
    public func isRecovering(_ source: String) -> Bool {
        !gaps.isEmpty && gaps.values.contains { $0.source == source }
    }

    /// The next time ``due(at:stillMissing:hasEndpoint:)`` has work, if any.
    public var nextDue: ContinuousClock.Instant? { gaps.values.map(\.due).min() }

    /// Starts recovering `range` of `source`.
    public mutating func report(source: String, range: ClosedRange<UInt64>, at now: ContinuousClock.Instant) {
        nextID += 1
        gaps["gap-\(nextID)"] = Gap(
            source: source,
            range: range,
            attempt: 0,
            due: now + policy.backoff,
            backoff: policy.backoff
        )
    }

    /// The requests to send at `now`, and the ranges to give up on.
    ///
    /// - Parameters:
    ///   - stillMissing: the parts of a range not received meanwhile.
    ///   - hasEndpoint: whether a replay endpoint is known for a source; without one a gap is
    ///     given up at its first due time.
    public mutating func due(
        at now: ContinuousClock.Instant,
        stillMissing: (String, ClosedRange<UInt64>) -> [ClosedRange<UInt64>],
        hasEndpoint: (String) -> Bool
    ) -> (requests: [Request], abandoned: [Abandoned]) {
        var requests: [Request] = []
        var abandoned: [Abandoned] = []
        for id in gaps.keys.sorted() {
            guard var gap = gaps[id], gap.due <= now else { continue }
            let missing = stillMissing(gap.source, gap.range)
            guard let lower = missing.first?.lowerBound, let upper = missing.last?.upperBound else {
                gaps[id] = nil
                continue
            }
            gap.range = lower...upper
            if !hasEndpoint(gap.source) {
                gaps[id] = nil
                abandoned += missing.map {
                    Abandoned(
                        source: gap.source,
                        range: $0,
                        reason: "no replay endpoint is known for source '\(SourceStream.describe(gap.source))'"
                    )
                }
            } else if gap.attempt >= policy.attempts {
                gaps[id] = nil
                abandoned += missing.map {
                    Abandoned(
                        id: id,
                        source: gap.source,
                        range: $0,
                        reason: "no replay after \(policy.attempts) request\(policy.attempts == 1 ? "" : "s")"
                    )
                }
            } else {
                gap.attempt += 1
                gap.due = now + policy.timeout + (gap.attempt > 1 ? gap.backoff : .zero)
                if gap.attempt > 1 { gap.backoff = min(gap.backoff * 2, policy.maxBackoff) }
                gaps[id] = gap
                let first = missing[0]
                let asked =
                    first.lowerBound...(first.lowerBound + min(first.upperBound - first.lowerBound, policy.batch - 1))
                requests.append(Request(id: id, source: gap.source, range: asked, attempt: gap.attempt))
            }
        }
        return (requests, abandoned)
    }

    /// Gives up the gap of request `id` at once (its endpoint cannot be used): its missing ranges,
    /// with `reason`.
    public mutating func abandon(id: String, reason: String, stillMissing: [ClosedRange<UInt64>]) -> [Abandoned] {
        guard let gap = gaps.removeValue(forKey: id) else { return [] }
        return stillMissing.map { Abandoned(id: id, source: gap.source, range: $0, reason: reason) }
    }

    /// Request `id` could not be sent (no connection to spare): it does not count as an attempt
    /// and is due again after the first backoff.
    public mutating func postpone(id: String, at now: ContinuousClock.Instant) {
        guard var gap = gaps[id] else { return }
        gap.attempt = max(0, gap.attempt - 1)
        gap.due = now + policy.backoff
        gaps[id] = gap
    }

    /// A reply arrived for request `id`: the source sent what it has and named what it no longer
    /// has (`unavailable`, given up now). A reply that served the request (`served`) starts the
    /// next batch at once, with the attempts and backoff reset; a refusal waits the backoff.
    /// Whatever is still missing is asked for again. Replies to gaps no longer pending are
    /// ignored (`known` is false).
    @discardableResult
    public mutating func answered(
        id: String,
        served: Bool = true,
        unavailable: [UInt64],
        at now: ContinuousClock.Instant
    ) -> (known: Bool, abandoned: [Abandoned]) {
        guard var gap = gaps[id] else { return (false, []) }
        let lost = Self.ranges(unavailable.filter { gap.range.contains($0) })
        let abandoned = lost.map {
            Abandoned(source: gap.source, range: $0, reason: "the source no longer has these events")
        }
        if served {
            gap.due = now
            gap.attempt = 0
            gap.backoff = policy.backoff
        } else {
            gap.due = now + gap.backoff
            gap.backoff = min(gap.backoff * 2, policy.maxBackoff)
        }
        gaps[id] = gap
        return (true, abandoned)
    }

    /// Sorted numbers grouped into contiguous ranges.
    package static func ranges(_ numbers: [UInt64]) -> [ClosedRange<UInt64>] {
        var ranges: [ClosedRange<UInt64>] = []
        for number in Set(numbers).sorted() {
            if let last = ranges.last, last.upperBound + 1 == number {
                ranges[ranges.count - 1] = last.lowerBound...number
            } else {
                ranges.append(number...number)
            }
        }
        return ranges
    }
}
