import Foundation

/// When each message of an open-loop run is meant to leave, from the start of the run: a constant
/// rate, a linear ramp, or steps. Latency is measured from these intended times, not from when a
/// message actually left, so a stalled system cannot hide its queueing (no coordinated omission).
public enum LoadProfile: Hashable, Sendable, CustomStringConvertible {
    /// `rate` messages per second.
    case constant(rate: Double)
    /// From `from` to `to` messages per second, linearly over `seconds`, then `to`.
    case ramp(from: Double, to: Double, seconds: Double)
    /// Each rate for its number of seconds, then the last rate.
    case steps([(rate: Double, seconds: Double)])

    /// Reads `constant:2000`, `ramp:100-5000:30` or `step:1000x10,2000x10` (rate x seconds).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "constant":
            guard let rate = Double(parts[1]), rate > 0 else { return nil }
            self = .constant(rate: rate)
        case "ramp":
            let fields = parts[1].split(separator: ":").map(String.init)
            let rates = fields.first?.split(separator: "-").compactMap { Double($0) } ?? []
            guard fields.count == 2, rates.count == 2, let seconds = Double(fields[1]), seconds > 0,
                rates.allSatisfy({ $0 > 0 })
            else { return nil }
            self = .ramp(from: rates[0], to: rates[1], seconds: seconds)
        case "step":
            var steps: [(rate: Double, seconds: Double)] = []
            for item in parts[1].split(separator: ",") {
                let fields = item.split(separator: "x").compactMap { Double($0) }
                guard fields.count == 2, fields[0] > 0, fields[1] > 0 else { return nil }
                steps.append((fields[0], fields[1]))
            }
            guard !steps.isEmpty else { return nil }
            self = .steps(steps)
        default:
            return nil
        }
    }

    /// How long the profile lasts by itself: a ramp's or the steps' seconds; `nil` for a constant
    /// rate, which lasts as long as it is given (`--duration`, `--count`).
    public var seconds: Double? {
        switch self {
        case .constant: nil
        case .ramp(_, _, let seconds): seconds
        case .steps(let steps): steps.reduce(0) { $0 + $1.seconds }
        }
    }

    /// What an open-loop run sends: until `duration` (or the profile's own length) is over, and at
    /// most `count` messages when a count is given; a constant rate given neither sends
    /// `defaultCount`. `countEndsFirst` says when the count will stop the run before its time,
    /// which the caller prints.
    public func bounds(count: Int?, duration: Double?, defaultCount: Int = 10_000) -> (
        count: Int, duration: Double?, countEndsFirst: Bool
    ) {
        guard let length = duration ?? seconds else { return (count ?? defaultCount, nil, false) }
        guard let count, count < Int.max else { return (Int.max, length, false) }
        return (count, length, offsets(count: count + 1, duration: length).count > count)
    }

    /// The rate at `time` seconds into the run.
    public func rate(at time: Double) -> Double {
        switch self {
        case .constant(let rate): return rate
        case .ramp(let from, let to, let seconds): return time >= seconds ? to : from + (to - from) * time / seconds
        case .steps(let steps):
            var start = 0.0
            for step in steps {
                if time < start + step.seconds { return step.rate }
                start += step.seconds
            }
            return steps.last?.rate ?? 1
        }
    }

    /// The intended offsets (seconds) of the first `count` messages, or of every message before
    /// `duration` seconds when that comes first.
    public func offsets(count: Int, duration: Double? = nil) -> [Double] {
        var offsets: [Double] = []
        offsets.reserveCapacity(min(count, 1 << 20))
        var time = 0.0
        // A whole run of `duration` seconds at rate R is R × duration messages, not one more
        // because 1/R added up fell short of the end by a rounding error.
        let end = duration.map { $0 - 1e-9 * max(1, $0) }
        while offsets.count < count {
            if let end, time >= end { break }
            offsets.append(time)
            if case .constant(let rate) = self {
                time = Double(offsets.count) / rate
            } else {
                time += 1 / rate(at: time)
            }
        }
        return offsets
    }

    public var description: String {
        switch self {
        case .constant(let rate): "constant \(Int(rate))/s"
        case .ramp(let from, let to, let seconds): "ramp \(Int(from))→\(Int(to))/s over \(Int(seconds)) s"
        case .steps(let steps):
            "steps " + steps.map { "\(Int($0.rate))/s×\(Int($0.seconds)) s" }.joined(separator: ", ")
        }
    }

    public static func == (lhs: LoadProfile, rhs: LoadProfile) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
