import Foundation

extension LoadReport {
    /// Whether a run passed, and every reason it did not. A run passes only when every threshold
    /// held and nothing was lost, left unsent, dead-lettered, answered with an error status or
    /// received that was never sent, and it ran to its end. Duplicates do not fail a run: delivery
    /// is at least once.
    public struct Verdict: Codable, Sendable, Equatable {
        public var passed: Bool
        /// One short phrase per reason, such as `threshold p99<5ms: 49.09 ms` or `lost 12`.
        public var problems: [String]

        /// The one line a reader sees first.
        public var headline: String {
            passed ? "PASSED" : "FAILED: " + problems.joined(separator: "; ")
        }
    }

    /// One `--threshold` condition, judged.
    public struct ThresholdResult: Codable, Sendable, Equatable {
        /// As written: `p99<5ms`.
        public var condition: String
        public var metric: String
        /// The run's value of the metric, in `unit`.
        public var measured: Double
        /// `ms`, `/s`, or empty for a count.
        public var unit: String
        public var passed: Bool

        /// `✓ p99<5ms (measured 3.214 ms)`.
        public var line: String {
            "\(passed ? "✓" : "✗") \(condition) (measured \(measuredText))"
        }

        /// The measured value with its unit: `49.090 ms`, `1950/s`, `12`.
        public var measuredText: String {
            switch unit {
            case "ms": String(format: "%.3f ms", measured)
            case "/s": String(format: "%.0f/s", measured)
            default: String(format: "%.0f", measured)
            }
        }
    }

    /// When, how and against what a run ran: the report's run-details block.
    public struct RunDetails: Codable, Sendable, Equatable {
        /// The start, ISO 8601 in UTC.
        public var started = ""
        /// The command line as given.
        public var command = ""
        /// `caffe-sim`'s version.
        public var version = ""
        public var host = ""
        /// Where messages went and where outputs came from.
        public var input = ""
        public var output = ""
        /// Stopped by SIGINT or SIGTERM before its end.
        public var interrupted = false
        /// Why sending ended before the profile's time, when it did (`--count`).
        public var note: String?

        public init() {}
    }

    /// Sets ``thresholds`` from `thresholds` and ``verdict`` from them and the counts.
    public mutating func judge(_ thresholds: LoadThresholds?) {
        self.thresholds = thresholds?.evaluate(self) ?? []
        var problems = self.thresholds.filter { !$0.passed }.map { "threshold \($0.condition): \($0.measuredText)" }
        if run.interrupted { problems.append("interrupted after \(String(format: "%.1f", seconds)) s") }
        if lost > 0 { problems.append("lost \(lost)") }
        if unsent > 0 { problems.append("not sent \(unsent)") }
        if deadLettered > 0 { problems.append("dead-lettered \(deadLettered)") }
        let errors = statusCodes.filter { $0.key != "OK" }.sorted { $0.key < $1.key }
        if !errors.isEmpty {
            let total = errors.map(\.value).reduce(0, +)
            problems.append(
                "error statuses \(total) (" + errors.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
            )
        }
        if unexpected > 0 { problems.append("unexpected outputs \(unexpected)") }
        if sent == 0 { problems.append("nothing sent") }
        verdict = Verdict(passed: problems.isEmpty, problems: problems)
    }
}
