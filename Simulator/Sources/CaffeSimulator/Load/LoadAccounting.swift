import Foundation
import Histogram

/// The books of a load run: what was sent (with its intended time), what came back, and from
/// that the latency histogram, losses, duplicates, dead letters, and counts per status and locale.
/// Pure and single-threaded: the run loop feeds it, tests feed it directly.
public struct LoadAccounting: Sendable {
    /// How a sent message is settled: how many outputs complete it.
    struct Pending: Sendable {
        var intended: Double
        var locale: String
        var expected: Int
        var kinds: Set<String> = []
        var settled = false
    }

    private var pending: [String: Pending] = [:]
    /// Latency in microseconds from the intended send time to the completing output.
    public private(set) var latency = Histogram<UInt64>(
        highestTrackableValue: 600_000_000,
        numberOfSignificantValueDigits: .three
    )
    public private(set) var sent = 0
    public private(set) var received = 0
    public private(set) var duplicates = 0
    public private(set) var deadLettered = 0
    public private(set) var unexpected = 0
    /// Sent messages settled so far (completed, dead-lettered or answered with an error).
    public private(set) var settled = 0
    public private(set) var statusCodes: [String: Int] = [:]
    public private(set) var sentPerLocale: [String: Int] = [:]
    public private(set) var receivedPerLocale: [String: Int] = [:]
    /// Per second of the run: latencies completed in it (microseconds), for the over-time plot.
    public private(set) var perSecond: [Int: Histogram<UInt64>] = [:]

    /// Messages intended before this many seconds count in every figure but the latency
    /// (fresh sessions compile their per-locale formatters; connections open).
    public var warmup: Double = 0

    public init(warmup: Double = 0) {
        self.warmup = warmup
    }

    /// `id` left (or was due to leave) at `intended` seconds; `expected` outputs complete it.
    public mutating func sent(_ id: String, intended: Double, locale: String, expected: Int) {
        sent += 1
        sentPerLocale[locale, default: 0] += 1
        pending[id] = Pending(intended: intended, locale: locale, expected: expected)
    }

    /// An output of `kind` for `id` arrived at `time` seconds. A kind seen before for the same id
    /// is a duplicate; an id never sent is unexpected.
    public mutating func output(_ id: String, kind: String, at time: Double) {
        guard var entry = pending[id] else {
            unexpected += 1
            return
        }
        guard entry.kinds.insert(kind).inserted else {
            duplicates += 1
            return
        }
        if !entry.settled, entry.kinds.count >= entry.expected {
            entry.settled = true
            settled += 1
            received += 1
            receivedPerLocale[entry.locale, default: 0] += 1
            if entry.intended >= warmup { record(latency: time - entry.intended, at: time) }
        }
        pending[id] = entry
    }

    /// A dead letter for `id`: settled, not lost, not received.
    public mutating func deadLetter(_ id: String) {
        guard var entry = pending[id], !entry.settled else { return }
        entry.settled = true
        settled += 1
        deadLettered += 1
        pending[id] = entry
    }

    /// An RPC reply for `id` with a status code: OK completes it, any other code settles it.
    public mutating func reply(_ id: String, code: String, at time: Double) {
        statusCodes[code, default: 0] += 1
        if code == "OK" {
            output(id, kind: "reply", at: time)
        } else if var entry = pending[id], !entry.settled {
            entry.settled = true
            settled += 1
            pending[id] = entry
        }
    }

    /// Sent and not settled: lost once the run's timeout has passed.
    public var outstanding: Int { sent - settled }

    private mutating func record(latency seconds: Double, at time: Double) {
        let microseconds = UInt64(max(0, seconds) * 1e6)
        _ = latency.record(microseconds)
        let second = Int(time)
        var bucket =
            perSecond[second]
            ?? Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .two)
        _ = bucket.record(microseconds)
        perSecond[second] = bucket
    }
}
