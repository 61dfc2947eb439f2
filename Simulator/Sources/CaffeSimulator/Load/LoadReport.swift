import Foundation
import Histogram

/// What a load run measured, as text, JSON or one self-contained HTML page.
public struct LoadReport: Codable, Sendable {
    public var traffic: String
    public var profile: String
    public var sent: Int
    public var received: Int
    public var lost: Int
    public var duplicates: Int
    public var deadLettered: Int
    public var unexpected: Int
    /// Messages never sent: the input took nothing for longer than the timeout.
    public var unsent: Int
    public var targetRate: Double
    public var achievedRate: Double
    public var seconds: Double
    public var p50Milliseconds: Double
    public var p90Milliseconds: Double
    public var p99Milliseconds: Double
    public var p999Milliseconds: Double
    public var maxMilliseconds: Double
    public var meanMilliseconds: Double
    public var statusCodes: [String: Int]
    public var perLocale: [String: LocaleCounts]
    public var replayRequests: Int
    /// Per second of the run: completions and their latency.
    public var overTime: [Second]
    /// The latency distribution, for the percentile plot.
    public var percentiles: [Point]
    /// Per second: the target rate, what was sent, completed, dead-lettered, answered with an error.
    public var throughput: [Rate]
    /// Latency per locale.
    public var localeLatency: [LocaleLatency]
    /// The watched process's CPU and memory, once a second (empty when none was watched).
    public var resources: [ResourceSample]
    /// Messages still unsettled when the run was interrupted (not counted as lost).
    public var inFlightAtStop: Int
    /// When, how and against what the run ran.
    public var run: RunDetails
    /// Each `--threshold` condition with its measured value.
    public var thresholds: [ThresholdResult]
    /// Passed or failed, and why: see ``judge(_:)``.
    public var verdict: Verdict

    public struct Rate: Codable, Sendable {
        public var second: Int
        public var target: Double
        public var sent: Int
        public var completed: Int
        public var deadLettered: Int
        public var errors: Int

        enum CodingKeys: String, CodingKey {
            case second, target, sent, completed, errors
            case deadLettered = "dead_lettered"
        }
    }

    public struct LocaleLatency: Codable, Sendable {
        public var locale: String
        public var count: Int
        public var p50Milliseconds: Double
        public var p99Milliseconds: Double

        enum CodingKeys: String, CodingKey {
            case locale, count
            case p50Milliseconds = "p50_ms"
            case p99Milliseconds = "p99_ms"
        }
    }

    public struct ResourceSample: Codable, Sendable {
        public var second: Int
        public var cpuPercent: Double
        public var residentMegabytes: Double

        enum CodingKeys: String, CodingKey {
            case second
            case cpuPercent = "cpu_percent"
            case residentMegabytes = "rss_mb"
        }
    }

    public struct LocaleCounts: Codable, Sendable, Equatable {
        public var sent: Int
        public var received: Int
    }

    public struct Second: Codable, Sendable {
        public var second: Int
        public var count: Int
        public var p50Milliseconds: Double
        public var p99Milliseconds: Double
        public var maxMilliseconds: Double

        enum CodingKeys: String, CodingKey {
            case second, count
            case p50Milliseconds = "p50_ms"
            case p99Milliseconds = "p99_ms"
            case maxMilliseconds = "max_ms"
        }
    }

    public struct Point: Codable, Sendable {
        public var percentile: Double
        public var milliseconds: Double

        enum CodingKeys: String, CodingKey {
            case percentile
            case milliseconds = "ms"
        }
    }

    enum CodingKeys: String, CodingKey {
        case traffic, profile, sent, received, lost, duplicates
        case deadLettered = "dead_lettered"
        case unexpected, unsent
        case targetRate = "target_rate"
        case achievedRate = "achieved_rate"
        case seconds = "duration_s"
        case p50Milliseconds = "p50_ms"
        case p90Milliseconds = "p90_ms"
        case p99Milliseconds = "p99_ms"
        case p999Milliseconds = "p999_ms"
        case maxMilliseconds = "max_ms"
        case meanMilliseconds = "mean_ms"
        case statusCodes = "status_codes"
        case perLocale = "per_locale"
        case replayRequests = "replay_requests"
        case overTime = "over_time"
        case percentiles, throughput, resources, run, thresholds, verdict
        case localeLatency = "locale_latency"
        case inFlightAtStop = "in_flight_at_stop"
    }

    init(
        configuration: LoadRun.Configuration,
        books: LoadAccounting,
        targetRate: Double,
        sendSeconds: Double,
        seconds: Double,
        replayRequests: Int,
        unsent: Int = 0,
        resources: [ResourceSample] = [],
        run: RunDetails = RunDetails()
    ) {
        func ms(_ microseconds: UInt64) -> Double { Double(microseconds) / 1000 }
        traffic = configuration.traffic.rawValue
        profile = configuration.profile?.description ?? "closed loop, \(configuration.concurrency) in flight"
        sent = books.sent
        received = books.received
        lost = run.interrupted ? 0 : books.outstanding
        inFlightAtStop = run.interrupted ? books.outstanding : 0
        self.run = run
        thresholds = []
        verdict = Verdict(passed: true, problems: [])
        duplicates = books.duplicates
        deadLettered = books.deadLettered
        unexpected = books.unexpected
        self.unsent = unsent
        self.targetRate = targetRate
        achievedRate = seconds > 0 ? Double(books.received) / seconds : 0
        self.seconds = seconds
        let latency = books.latency
        p50Milliseconds = ms(latency.valueAtPercentile(50))
        p90Milliseconds = ms(latency.valueAtPercentile(90))
        p99Milliseconds = ms(latency.valueAtPercentile(99))
        p999Milliseconds = ms(latency.valueAtPercentile(99.9))
        maxMilliseconds = ms(latency.max)
        meanMilliseconds = latency.totalCount > 0 ? latency.mean / 1000 : 0
        statusCodes = books.statusCodes
        perLocale = books.sentPerLocale.mapValues { LocaleCounts(sent: $0, received: 0) }
        for (locale, count) in books.receivedPerLocale {
            perLocale[locale, default: .init(sent: 0, received: 0)].received = count
        }
        self.replayRequests = replayRequests
        overTime = books.perSecond.keys.sorted().compactMap { second in
            guard let bucket = books.perSecond[second] else { return nil }
            return Second(
                second: second,
                count: Int(bucket.totalCount),
                p50Milliseconds: ms(bucket.valueAtPercentile(50)),
                p99Milliseconds: ms(bucket.valueAtPercentile(99)),
                maxMilliseconds: ms(bucket.max)
            )
        }
        self.resources = resources
        let seconds = max(
            books.sentPerSecond.count,
            books.completedPerSecond.count,
            books.deadLettersPerSecond.count,
            books.errorsPerSecond.count
        )
        func value(_ counts: [Int], _ second: Int) -> Int { second < counts.count ? counts[second] : 0 }
        throughput = (0..<seconds).map { second in
            Rate(
                second: second,
                target: Double(second) < sendSeconds
                    ? configuration.profile.map { $0.rate(at: Double(second) + 0.5) } ?? 0 : 0,
                sent: value(books.sentPerSecond, second),
                completed: value(books.completedPerSecond, second),
                deadLettered: value(books.deadLettersPerSecond, second),
                errors: value(books.errorsPerSecond, second)
            )
        }
        localeLatency = books.latencyPerLocale.sorted { $0.key < $1.key }.map { locale, histogram in
            LocaleLatency(
                locale: locale,
                count: Int(histogram.totalCount),
                p50Milliseconds: ms(histogram.valueAtPercentile(50)),
                p99Milliseconds: ms(histogram.valueAtPercentile(99))
            )
        }
        percentiles =
            latency.totalCount == 0
            ? []
            : [0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100].map {
                Point(percentile: $0, milliseconds: ms(latency.valueAtPercentile($0)))
            }
        judge(nil)
    }

    /// A few lines for a terminal.
    public var summary: String {
        var lines = [
            verdict.headline,
            "\(traffic), \(profile): sent \(sent), received \(received), lost \(lost), duplicates \(duplicates), dead-lettered \(deadLettered)",
            String(format: "rate: target %.0f/s, achieved %.0f/s over %.2f s", targetRate, achievedRate, seconds),
            String(
                format: "latency from intended send: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms",
                p50Milliseconds,
                p90Milliseconds,
                p99Milliseconds,
                p999Milliseconds,
                maxMilliseconds
            ),
        ]
        if unsent > 0 {
            lines.append("not sent: \(unsent) (the input took nothing for longer than the timeout)")
        }
        if run.interrupted {
            lines.append("interrupted: \(inFlightAtStop) still in flight when the run stopped (not counted as lost)")
        }
        if !statusCodes.isEmpty {
            lines.append(
                "status: "
                    + statusCodes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            )
        }
        lines.append(
            "per locale (received/sent): "
                + perLocale.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.received)/\($0.value.sent)" }
                .joined(separator: ", ")
        )
        if replayRequests > 0 { lines.append("replay requests served: \(replayRequests)") }
        lines += thresholds.map(\.line)
        return lines.joined(separator: "\n")
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// `--threshold 'p99<10ms,lost==0'`: conditions on a report; any violated one fails the run.
public struct LoadThresholds: Sendable {
    public struct Condition: Sendable, CustomStringConvertible {
        public var metric: String
        public var comparison: String
        public var value: Double
        public var text: String
        public var description: String { text }
    }

    public let conditions: [Condition]

    static let metrics = [
        "p50", "p90", "p99", "p999", "max", "mean", "lost", "duplicates", "dead_lettered", "received", "sent",
        "achieved_rate", "unexpected", "unsent",
    ]

    /// Reads comma-separated `metric op value`: metrics p50 p90 p99 p999 max mean (with ms, s or
    /// us; ms when bare), lost, duplicates, dead_lettered, received, sent, unexpected, unsent,
    /// achieved_rate; operators < <= > >= == !=.
    public init(_ text: String) throws(LoadError) {
        var conditions: [Condition] = []
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            guard let match = item.wholeMatch(of: /([a-z_0-9]+)\s*(<=|>=|==|!=|<|>)\s*([0-9.]+)\s*(ms|us|s)?/) else {
                throw LoadError("'\(item)' is not a threshold such as p99<10ms or lost==0")
            }
            let metric = String(match.output.1)
            guard Self.metrics.contains(metric) else {
                throw LoadError("'\(metric)' is not one of \(Self.metrics.joined(separator: ", "))")
            }
            guard var value = Double(match.output.3) else {
                throw LoadError("'\(item)': '\(match.output.3)' is not a number")
            }
            switch match.output.4 {
            case "s": value *= 1000
            case "us": value /= 1000
            default: break
            }
            conditions.append(Condition(metric: metric, comparison: String(match.output.2), value: value, text: item))
        }
        self.conditions = conditions
    }

    /// Each condition judged against `report`, with the value it measured.
    public func evaluate(_ report: LoadReport) -> [LoadReport.ThresholdResult] {
        conditions.map { condition in
            let actual = report.value(of: condition.metric)
            let holds: Bool =
                switch condition.comparison {
                case "<": actual < condition.value
                case "<=": actual <= condition.value
                case ">": actual > condition.value
                case ">=": actual >= condition.value
                case "==": actual == condition.value
                default: actual != condition.value
                }
            return LoadReport.ThresholdResult(
                condition: condition.text,
                metric: condition.metric,
                measured: actual,
                unit: Self.unit(of: condition.metric),
                passed: holds
            )
        }
    }

    /// The conditions `report` violates.
    public func violations(of report: LoadReport) -> [Condition] {
        zip(conditions, evaluate(report)).filter { !$0.1.passed }.map(\.0)
    }

    /// `ms` for latencies, `/s` for the rate, nothing for counts.
    static func unit(of metric: String) -> String {
        switch metric {
        case "p50", "p90", "p99", "p999", "max", "mean": "ms"
        case "achieved_rate": "/s"
        default: ""
        }
    }
}

extension LoadReport {
    /// The figure a threshold's `metric` names (latencies in milliseconds).
    func value(of metric: String) -> Double {
        switch metric {
        case "p50": p50Milliseconds
        case "p90": p90Milliseconds
        case "p99": p99Milliseconds
        case "p999": p999Milliseconds
        case "max": maxMilliseconds
        case "mean": meanMilliseconds
        case "lost": Double(lost)
        case "duplicates": Double(duplicates)
        case "dead_lettered": Double(deadLettered)
        case "received": Double(received)
        case "sent": Double(sent)
        case "unexpected": Double(unexpected)
        case "unsent": Double(unsent)
        default: achievedRate
        }
    }
}
