import Foundation

extension LoadReport {
    /// The columns of ``csv``, in order.
    public static let csvColumns = [
        "second", "target_per_s", "sent", "completed", "dead_lettered", "errors", "p50_ms", "p99_ms", "max_ms",
        "cpu_percent", "rss_mb",
    ]

    /// One row per second of the run (the shape CI tools and spreadsheets read): what was due,
    /// sent, completed, dead-lettered and answered with an error, that second's latency, and the
    /// watched process's CPU and memory. A cell is empty where the second has no value (no
    /// completions, no watched process).
    public var csv: String {
        let latency = Dictionary(overTime.map { ($0.second, $0) }, uniquingKeysWith: { first, _ in first })
        let samples = Dictionary(resources.map { ($0.second, $0) }, uniquingKeysWith: { _, last in last })
        let seconds = Set(throughput.map(\.second)).union(latency.keys).union(samples.keys).sorted()
        let rates = Dictionary(throughput.map { ($0.second, $0) }, uniquingKeysWith: { first, _ in first })
        func number(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "" }
        var rows = [Self.csvColumns.joined(separator: ",")]
        for second in seconds {
            let rate = rates[second]
            let cells = [
                "\(second)", number(rate?.target, "%.1f"), "\(rate?.sent ?? 0)", "\(rate?.completed ?? 0)",
                "\(rate?.deadLettered ?? 0)", "\(rate?.errors ?? 0)", number(latency[second]?.p50Milliseconds, "%.3f"),
                number(latency[second]?.p99Milliseconds, "%.3f"), number(latency[second]?.maxMilliseconds, "%.3f"),
                number(samples[second]?.cpuPercent, "%.1f"), number(samples[second]?.residentMegabytes, "%.1f"),
            ]
            rows.append(cells.joined(separator: ","))
        }
        return rows.joined(separator: "\n")
    }
}
