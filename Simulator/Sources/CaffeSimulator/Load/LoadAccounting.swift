import Foundation
import Histogram

/// The books of a load run: what was sent (with its intended time), what came back, and from
/// that the latency histogram, losses, duplicates, dead letters, and counts per status and locale.
/// Pure and single-threaded: the run loop feeds it, tests feed it directly.
public struct LoadAccounting: Sendable {
    // Per sent message, indexed by its sequence − 1 (a run numbers its messages from 1): flat
    // arrays rather than a dictionary of records, so the books stay small and fast on long runs.
    private var intended: [Double] = []
    private var expected: [UInt8] = []
    /// Output kinds seen (one bit each, in ``kindBits``), and ``settledBit``.
    private var seen: [UInt8] = []
    private var localeIndex: [UInt16] = []
    private var locales: [String] = []
    private var localeIndices: [String: UInt16] = [:]
    private var kindBits: [String: UInt8] = [:]
    private static let settledBit: UInt8 = 0x80

    /// Latency in microseconds from the intended send time to the completing output.
    public private(set) var latency = Self.histogram(digits: .three)
    public private(set) var sent = 0
    public private(set) var received = 0
    public private(set) var duplicates = 0
    public private(set) var deadLettered = 0
    public private(set) var unexpected = 0
    /// Sent messages settled so far (completed, dead-lettered or answered with an error).
    public private(set) var settled = 0
    public private(set) var statusCodes: [String: Int] = [:]
    private var sentCounts: [Int] = []
    private var receivedCounts: [Int] = []
    /// Per second of the run: latencies completed in it (microseconds), for the over-time plot.
    public private(set) var perSecond: [Int: Histogram<UInt64>] = [:]
    /// Per second of the run (index = second): messages sent, completed, dead-lettered, answered
    /// with an error status.
    public private(set) var sentPerSecond: [Int] = []
    public private(set) var completedPerSecond: [Int] = []
    public private(set) var deadLettersPerSecond: [Int] = []
    public private(set) var errorsPerSecond: [Int] = []
    /// Latency per locale (microseconds), indexed like the locale codes.
    private var localeLatency: [Histogram<UInt64>] = []

    /// Messages intended before this many seconds count in every figure but the latency
    /// (fresh sessions compile their per-locale formatters; connections open).
    public var warmup: Double = 0

    public init(warmup: Double = 0) {
        self.warmup = warmup
    }

    /// Messages sent per locale.
    public var sentPerLocale: [String: Int] { perLocale(sentCounts) }
    /// Messages received per locale.
    public var receivedPerLocale: [String: Int] { perLocale(receivedCounts) }

    /// Message `sequence` (from 1) left, or was due to leave, at `intended` seconds; `expected`
    /// outputs (at most 7 kinds) complete it.
    public mutating func sent(
        _ sequence: UInt64,
        intended time: Double,
        locale: String,
        expected count: Int,
        at sendTime: Double? = nil
    ) {
        guard sequence > 0 else { return }
        Self.bump(&sentPerSecond, at: sendTime ?? time)
        let index = Int(sequence - 1)
        if index >= intended.count {
            let missing = index + 1 - intended.count
            intended += repeatElement(0, count: missing)
            expected += repeatElement(0, count: missing)
            seen += repeatElement(0, count: missing)
            localeIndex += repeatElement(0, count: missing)
        }
        let code = localeCode(locale)
        sent += 1
        sentCounts[Int(code)] += 1
        intended[index] = time
        expected[index] = UInt8(clamping: count)
        seen[index] = 0
        localeIndex[index] = code
    }

    /// An output of `kind` for message `sequence` arrived at `time` seconds. A kind seen before
    /// for the same message is a duplicate; a message never sent is unexpected.
    public mutating func output(_ sequence: UInt64, kind: String, at time: Double) {
        guard let index = sentIndex(sequence) else {
            unexpected += 1
            return
        }
        let bit = kindBit(kind)
        guard seen[index] & bit == 0 else {
            duplicates += 1
            return
        }
        seen[index] |= bit
        let kinds = (seen[index] & ~Self.settledBit).nonzeroBitCount
        if seen[index] & Self.settledBit == 0, kinds >= Int(expected[index]) {
            seen[index] |= Self.settledBit
            settled += 1
            received += 1
            receivedCounts[Int(localeIndex[index])] += 1
            Self.bump(&completedPerSecond, at: time)
            if intended[index] >= warmup {
                record(latency: time - intended[index], at: time, locale: Int(localeIndex[index]))
            }
        }
    }

    /// A dead letter for message `sequence`: settled, not lost, not received.
    public mutating func deadLetter(_ sequence: UInt64, at time: Double? = nil) {
        guard let index = sentIndex(sequence), seen[index] & Self.settledBit == 0 else { return }
        if let time { Self.bump(&deadLettersPerSecond, at: time) }
        seen[index] |= Self.settledBit
        settled += 1
        deadLettered += 1
    }

    /// An RPC reply for message `sequence` with a status code: OK completes it, any other code
    /// settles it.
    public mutating func reply(_ sequence: UInt64, code: String, at time: Double) {
        statusCodes[code, default: 0] += 1
        if code != "OK" { Self.bump(&errorsPerSecond, at: time) }
        if code == "OK" {
            output(sequence, kind: "reply", at: time)
        } else if let index = sentIndex(sequence), seen[index] & Self.settledBit == 0 {
            seen[index] |= Self.settledBit
            settled += 1
        }
    }

    /// Sent and not settled: lost once the run's timeout has passed.
    public var outstanding: Int { sent - settled }

    private func sentIndex(_ sequence: UInt64) -> Int? {
        guard sequence > 0, sequence <= UInt64(intended.count) else { return nil }
        let index = Int(sequence - 1)
        return expected[index] > 0 ? index : nil
    }

    private mutating func kindBit(_ kind: String) -> UInt8 {
        if let bit = kindBits[kind] { return bit }
        let bit = UInt8(1) << UInt8(min(kindBits.count, 6))
        kindBits[kind] = bit
        return bit
    }

    private mutating func localeCode(_ locale: String) -> UInt16 {
        if let code = localeIndices[locale] { return code }
        let code = UInt16(locales.count)
        locales.append(locale)
        localeIndices[locale] = code
        sentCounts.append(0)
        receivedCounts.append(0)
        localeLatency.append(Self.histogram(digits: .two))
        return code
    }

    private func perLocale(_ counts: [Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: zip(locales, counts).filter { $0.1 > 0 })
    }

    /// Latency per locale that completed anything.
    public var latencyPerLocale: [String: Histogram<UInt64>] {
        Dictionary(uniqueKeysWithValues: zip(locales, localeLatency).filter { $0.1.totalCount > 0 })
    }

    /// Adds one to `counts` at second `time` (the array grows to reach it).
    private static func bump(_ counts: inout [Int], at time: Double) {
        let second = max(0, Int(time))
        if second >= counts.count { counts += repeatElement(0, count: second + 1 - counts.count) }
        counts[second] += 1
    }

    private mutating func record(latency seconds: Double, at time: Double, locale: Int) {
        let microseconds = UInt64(max(0, seconds) * 1e6)
        _ = latency.record(microseconds)
        _ = localeLatency[locale].record(microseconds)
        // Recorded in place: reading the bucket out and writing it back would copy its counts.
        _ = perSecond[Int(time), default: Self.histogram(digits: .two)].record(microseconds)
    }

    private static func histogram(digits: SignificantDigits) -> Histogram<UInt64> {
        Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: digits)
    }
}
