import Foundation

extension LoadReport {
    /// One self-contained HTML page: the figures, latency over time (p50, p99, max per second) and
    /// the latency by percentile, drawn as inline SVG (no scripts, no external files).
    public var html: String {
        let figures: [(String, String)] = [
            ("traffic", "\(traffic), \(profile)"), ("sent", "\(sent)"), ("received", "\(received)"),
            ("lost", "\(lost)"), ("duplicates", "\(duplicates)"), ("dead-lettered", "\(deadLettered)"),
            ("target rate", String(format: "%.0f/s", targetRate)),
            ("achieved rate", String(format: "%.0f/s", achievedRate)),
            ("p50", String(format: "%.3f ms", p50Milliseconds)), ("p99", String(format: "%.3f ms", p99Milliseconds)),
            ("p99.9", String(format: "%.3f ms", p999Milliseconds)), ("max", String(format: "%.3f ms", maxMilliseconds)),
        ]
        let rows = figures.map { "<tr><th>\(Self.escape($0.0))</th><td>\(Self.escape($0.1))</td></tr>" }.joined()
        let overTimeChart = Self.chart(
            title: "Latency over time (ms, from the intended send time)",
            xLabel: "second of the run",
            series: [
                ("p50", "#2b8a3e", overTime.map { (Double($0.second), $0.p50Milliseconds) }),
                ("p99", "#e8590c", overTime.map { (Double($0.second), $0.p99Milliseconds) }),
                ("max", "#c92a2a", overTime.map { (Double($0.second), $0.maxMilliseconds) }),
            ],
            xTicks: nil
        )
        // Percentiles on a "nines" axis: x = log10(1 / (1 - p)).
        let nines = percentiles.map { (min(5, log10(1 / max(1e-5, 1 - $0.percentile / 100))), $0.milliseconds) }
        let percentileChart = Self.chart(
            title: "Latency by percentile (ms)",
            xLabel: "percentile",
            series: [("latency", "#1c7ed6", nines)],
            xTicks: [(0, "0%"), (1, "90%"), (2, "99%"), (3, "99.9%"), (4, "99.99%")]
        )
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>caffe-sim load report</title>
            <style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}\
            th{text-align:left;padding:2px 12px 2px 0;color:#555;font-weight:normal}td{font-variant-numeric:tabular-nums}\
            svg{display:block;margin:1.5em 0}</style></head><body>
            <h1>caffe-sim load report</h1>
            <table>\(rows)</table>
            \(overTimeChart)
            \(percentileChart)
            </body></html>

            """
    }

    static func chart(
        title: String,
        xLabel: String,
        series: [(name: String, color: String, points: [(Double, Double)])],
        xTicks: [(Double, String)]?
    ) -> String {
        let (width, height, left, bottom, top, right) = (720.0, 300.0, 60.0, 40.0, 30.0, 90.0)
        let all = series.flatMap(\.points)
        let maxX = max(1, all.map(\.0).max() ?? 1)
        let maxY = max(0.001, all.map(\.1).max() ?? 1) * 1.1
        func x(_ value: Double) -> Double { left + value / maxX * (width - left - right) }
        func y(_ value: Double) -> Double { height - bottom - value / maxY * (height - bottom - top) }
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(escape(title))\">"
        svg += "<text x=\"\(left)\" y=\"18\" font-size=\"14\">\(escape(title))</text>"
        svg += "<line x1=\"\(left)\" y1=\"\(y(0))\" x2=\"\(width - right)\" y2=\"\(y(0))\" stroke=\"#888\"/>"
        svg += "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(y(0))\" stroke=\"#888\"/>"
        for step in 0...4 {
            let value = maxY * Double(step) / 4
            svg +=
                "<text x=\"\(left - 6)\" y=\"\(y(value) + 4)\" font-size=\"11\" text-anchor=\"end\">"
                + String(format: "%.2f", value) + "</text>"
        }
        let ticks =
            xTicks
            ?? (0...4).map { step in
                let value = maxX * Double(step) / 4
                return (value, String(format: "%.0f", value))
            }
        for (value, label) in ticks where value <= maxX {
            svg +=
                "<text x=\"\(x(value))\" y=\"\(height - bottom + 16)\" font-size=\"11\" text-anchor=\"middle\">\(escape(label))</text>"
        }
        svg +=
            "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 6)\" font-size=\"12\" text-anchor=\"middle\">\(escape(xLabel))</text>"
        for (index, line) in series.enumerated() where !line.points.isEmpty {
            let path = line.points.map { String(format: "%.1f,%.1f", x($0.0), y($0.1)) }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\" points=\"\(path)\"/>"
            svg +=
                "<text x=\"\(width - right + 10)\" y=\"\(top + 16 * Double(index + 1))\" font-size=\"12\" fill=\"\(line.color)\">\(escape(line.name))</text>"
        }
        return svg + "</svg>"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
