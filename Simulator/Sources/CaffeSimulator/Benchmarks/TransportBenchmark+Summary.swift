import Foundation

extension TransportBenchmark {
    /// The report as a small text table.
    public static func summary(_ report: Report) -> String {
        var lines = ["size      binding msg/s        C msg/s   ratio"]
        let sizes = report.ratio.keys.compactMap(Int.init).sorted()
        for size in sizes {
            let key = String(size)
            let binding = format(report.bindingMessagesPerSecond[key] ?? 0)
            let baseline = format(report.cMessagesPerSecond[key] ?? 0)
            let ratio = report.ratio[key] ?? 0
            lines.append(
                "\(pad(key + " B", 8))\(pad(binding, 15, left: true))\(pad(baseline, 15, left: true))"
                    + "\(pad(String(format: "%.3f", ratio), 8, left: true))"
            )
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }
}
