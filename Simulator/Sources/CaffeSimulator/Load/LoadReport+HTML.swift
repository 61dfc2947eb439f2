import Foundation

extension LoadReport {
    /// One self-contained HTML page, read at a glance the way k6, ghz and vegeta reports are: the
    /// verdict (red when a threshold failed or anything was lost, unsent, dead-lettered or
    /// answered with an error), the thresholds with their measured values, the run's details, the
    /// headline figures, then rate (target, sent, completed) per second, latency over time,
    /// errors per second, latency per locale, latency by percentile, and the worker's CPU and
    /// memory when the run watched it. Inline SVG with axes at round numbers; no scripts, no
    /// external files, so it can be attached anywhere.
    public var html: String {
        let figures: [(String, String)] =
            [
                ("traffic", "\(traffic), \(profile)"), ("sent", "\(sent)"), ("received", "\(received)"),
                ("lost", "\(lost)"), ("duplicates", "\(duplicates)"), ("dead-lettered", "\(deadLettered)"),
                ("unsent", "\(unsent)"), ("target rate", String(format: "%.0f/s", targetRate)),
                ("achieved rate", String(format: "%.0f/s", achievedRate)),
                ("p50", String(format: "%.3f ms", p50Milliseconds)),
                ("p99", String(format: "%.3f ms", p99Milliseconds)),
                ("p99.9", String(format: "%.3f ms", p999Milliseconds)),
                ("max", String(format: "%.3f ms", maxMilliseconds)),
            ] + statusCodes.sorted { $0.key < $1.key }.map { ("status \($0.key)", "\($0.value)") }
        let cards = figures.map {
            "<div class=\"card\"><div class=\"label\">\(Self.escape($0.0))</div><div class=\"value\">\(Self.escape($0.1))</div></div>"
        }.joined()
        // Per-second values sit in the middle of their second. The last second of a run is
        // partial: drawn as a rate, it is a cliff that did not happen.
        let whole = throughput.filter { Double($0.second + 1) <= seconds + 0.05 }
        let wholeLatency = overTime.filter { Double($0.second + 1) <= seconds + 0.05 }
        let partialNote = whole.count < throughput.count ? " (the last, partial second left out)" : ""
        var charts: [String] = []
        charts.append(
            Self.lineChart(
                title: "Rate per second" + partialNote,
                yUnit: "/s",
                series: [
                    .init("target", "#868e96", whole.map { (Double($0.second) + 0.5, $0.target) }, dashed: true),
                    .init("sent", "#1c7ed6", whole.map { (Double($0.second) + 0.5, Double($0.sent)) }),
                    .init("completed", "#2b8a3e", whole.map { (Double($0.second) + 0.5, Double($0.completed)) }),
                ]
            )
        )
        charts.append(
            Self.lineChart(
                title: "Latency over time, from the intended send time"
                    + (wholeLatency.count < overTime.count ? " (the last, partial second left out)" : ""),
                yUnit: "ms",
                series: [
                    .init("p50", "#2b8a3e", wholeLatency.map { (Double($0.second) + 0.5, $0.p50Milliseconds) }),
                    .init("p99", "#e8590c", wholeLatency.map { (Double($0.second) + 0.5, $0.p99Milliseconds) }),
                    .init("max", "#c92a2a", wholeLatency.map { (Double($0.second) + 0.5, $0.maxMilliseconds) }),
                ]
            )
        )
        charts.append(
            Self.lineChart(
                title: "Errors per second" + partialNote,
                yUnit: "/s",
                series: [
                    .init("dead letters", "#e8590c", whole.map { (Double($0.second) + 0.5, Double($0.deadLettered)) }),
                    .init("error statuses", "#c92a2a", whole.map { (Double($0.second) + 0.5, Double($0.errors)) }),
                ],
                minimumMaxY: 1
            )
        )
        if !localeLatency.isEmpty { charts.append(Self.localeChart(localeLatency)) }
        let nines = percentiles.map { (min(5, log10(1 / max(1e-5, 1 - $0.percentile / 100))), $0.milliseconds) }
        charts.append(
            Self.lineChart(
                title: "Latency by percentile",
                yUnit: "ms",
                series: [.init("latency", "#1c7ed6", nines)],
                xLabel: "percentile",
                xTicks: [(0, "0%"), (1, "90%"), (2, "99%"), (3, "99.9%"), (4, "99.99%")]
            )
        )
        if !resources.isEmpty {
            charts.append(
                Self.lineChart(
                    title: "Worker CPU (100 % = one core)",
                    yUnit: "%",
                    series: [.init("cpu", "#7048e8", resources.map { (Double($0.second), $0.cpuPercent) })],
                    minimumMaxY: 10
                )
            )
            charts.append(
                Self.lineChart(
                    title: "Worker resident memory",
                    yUnit: "MB",
                    series: [.init("rss", "#1098ad", resources.map { (Double($0.second), $0.residentMegabytes) })],
                    minimumMaxY: 1
                )
            )
        }
        let color = verdict.passed ? "#2b8a3e" : "#c92a2a"
        let headline = verdict.passed ? "PASSED" : "FAILED"
        let reasons =
            verdict.passed
            ? "" : "<ul class=\"problems\">" + verdict.problems.map { "<li>\(Self.escape($0))</li>" }.joined() + "</ul>"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>caffe-sim load report: \(headline)</title>
            <style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}\
            .verdict{border-left:8px solid \(color);padding:8px 16px;margin:1em 0;background:\(verdict.passed ? "#ebfbee" : "#fff5f5")}\
            .verdict h2{margin:0;color:\(color);font-size:22px}.verdict p{margin:4px 0}.problems{margin:4px 0;color:#c92a2a}\
            table{border-collapse:collapse;margin:0.5em 0 1em}td,th{text-align:left;padding:3px 12px 3px 0;\
            vertical-align:top}th{color:#868e96;font-weight:normal}td.mono{font-family:ui-monospace,monospace;\
            word-break:break-all}.pass{color:#2b8a3e;font-weight:600}.fail{color:#c92a2a;font-weight:600}\
            .cards{display:flex;flex-wrap:wrap;gap:8px;margin:1em 0}.card{border:1px solid #dee2e6;\
            border-radius:6px;padding:6px 12px;min-width:110px}.label{color:#868e96;font-size:12px}\
            .value{font-size:18px;font-variant-numeric:tabular-nums}\
            .charts{display:grid;grid-template-columns:1fr;gap:16px}\
            svg{display:block;width:100%;height:auto;background:#fff;border:1px solid #f1f3f5;border-radius:6px}</style></head><body>
            <h1>caffe-sim load report</h1>
            <div class="verdict"><h2>\(headline)</h2>\(reasons)<p>sent \(sent), received \(received), \
            \(String(format: "%.0f", achievedRate))/s of \(String(format: "%.0f", targetRate))/s, \
            p99 \(String(format: "%.2f", p99Milliseconds)) ms</p></div>
            \(thresholdTable)
            \(runTable)
            <div class="cards">\(cards)</div>
            <div class="charts">\(charts.joined(separator: "\n"))</div>
            </body></html>

            """
    }

    /// The thresholds with their measured values, ✓ or ✗; nothing when none were given.
    var thresholdTable: String {
        guard !thresholds.isEmpty else { return "" }
        let rows = thresholds.map { result in
            "<tr><td class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "✓" : "✗")</td>"
                + "<td class=\"mono\">\(Self.escape(result.condition))</td>"
                + "<td>measured \(Self.escape(result.measuredText))</td></tr>"
        }
        return "<h3>Thresholds</h3><table>\(rows.joined())</table>"
    }

    /// When, how and against what the run ran.
    var runTable: String {
        var rows: [(String, String)] = [
            ("started", run.started), ("command", run.command), ("caffe-sim", run.version), ("host", run.host),
            ("input", run.input), ("output", run.output),
            ("profile", profile), ("duration", String(format: "%.2f s", seconds)),
        ]
        if let note = run.note { rows.append(("note", note)) }
        if run.interrupted { rows.append(("interrupted", "\(inFlightAtStop) in flight when it stopped")) }
        let cells = rows.filter { !$0.1.isEmpty }.map {
            "<tr><th>\(Self.escape($0.0))</th><td class=\"mono\">\(Self.escape($0.1))</td></tr>"
        }
        return "<h3>Run</h3><table>\(cells.joined())</table>"
    }

    /// One line of a chart.
    struct Series {
        var name: String
        var color: String
        var points: [(Double, Double)]
        var dashed = false

        init(_ name: String, _ color: String, _ points: [(Double, Double)], dashed: Bool = false) {
            self.name = name
            self.color = color
            self.points = points
            self.dashed = dashed
        }
    }

    /// Round tick values from 0 to at least `maximum`: steps of 1, 2 or 5 × 10ⁿ, about five of them.
    static func niceTicks(upTo maximum: Double) -> [Double] {
        let maximum = max(maximum, 1e-9)
        let rough = maximum / 5
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        let count = Int((maximum / step).rounded(.up))
        return (0...count).map { Double($0) * step }
    }

    /// A tick label without needless decimals: 0, 2.5, 1000, 0.05.
    static func tickLabel(_ value: Double) -> String {
        if value == value.rounded() { return String(format: "%.0f", value) }
        // Six significant digits hide binary noise (0.30000000000000004) and keep small steps
        // (0.0002) whole.
        return String(format: "%.6g", value)
    }

    /// Series with at most this many points get a dot at each.
    static let dotsUpTo = 40

    static func lineChart(
        title: String,
        yUnit: String,
        series: [Series],
        xLabel: String = "second of the run",
        xTicks: [(Double, String)]? = nil,
        minimumMaxY: Double = 0.001
    ) -> String {
        let (width, height, left, bottom, top, right) = (1400.0, 300.0, 64.0, 44.0, 34.0, 130.0)
        let all = series.flatMap(\.points)
        let yTicks = niceTicks(upTo: max(minimumMaxY, all.map(\.1).max() ?? 1))
        let maxY = yTicks.last ?? 1
        let ticksX = xTicks ?? niceTicks(upTo: max(1, all.map(\.0).max() ?? 1)).map { ($0, tickLabel($0)) }
        let maxX = max(ticksX.last?.0 ?? 1, all.map(\.0).max() ?? 1)
        func x(_ value: Double) -> Double { left + value / maxX * (width - left - right) }
        func y(_ value: Double) -> Double { height - bottom - value / maxY * (height - bottom - top) }
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(escape(title))\">"
        svg += "<text x=\"\(left)\" y=\"20\" font-size=\"14\" font-weight=\"600\">\(escape(title))</text>"
        if all.isEmpty {
            svg +=
                "<text x=\"\(width / 2)\" y=\"\(height / 2)\" font-size=\"13\" text-anchor=\"middle\" fill=\"#868e96\">"
                + "no data</text>"
            return svg + "</svg>"
        }
        for value in yTicks {
            svg +=
                "<line x1=\"\(left)\" y1=\"\(y(value))\" x2=\"\(width - right)\" y2=\"\(y(value))\" stroke=\"#f1f3f5\"/>"
            svg +=
                "<text x=\"\(left - 6)\" y=\"\(y(value) + 4)\" font-size=\"11\" text-anchor=\"end\">"
                + "\(tickLabel(value))</text>"
        }
        svg += "<text x=\"12\" y=\"\(top - 8)\" font-size=\"11\" fill=\"#868e96\">\(escape(yUnit))</text>"
        svg += "<line x1=\"\(left)\" y1=\"\(y(0))\" x2=\"\(width - right)\" y2=\"\(y(0))\" stroke=\"#868e96\"/>"
        svg += "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(y(0))\" stroke=\"#868e96\"/>"
        for (value, label) in ticksX where value <= maxX {
            svg +=
                "<text x=\"\(x(value))\" y=\"\(height - bottom + 16)\" font-size=\"11\" text-anchor=\"middle\">\(escape(label))</text>"
        }
        svg +=
            "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 8)\" font-size=\"12\" text-anchor=\"middle\" fill=\"#868e96\">\(escape(xLabel))</text>"
        for (index, line) in series.enumerated() where !line.points.isEmpty {
            // A line needs three points to show a shape: from two it is a diagonal that says
            // nothing about what happened between them. Few points are drawn as dots.
            if line.points.count >= 3 {
                let path = line.points.map { String(format: "%.1f,%.1f", x($0.0), y($0.1)) }.joined(separator: " ")
                let dash = line.dashed ? " stroke-dasharray=\"6 4\"" : ""
                svg +=
                    "<polyline fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash) points=\"\(path)\"/>"
            }
            if line.points.count < 3 || line.points.count <= Self.dotsUpTo {
                for point in line.points {
                    svg +=
                        String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"", x(point.0), y(point.1))
                        + " fill=\"\(line.color)\"/>"
                }
            }
            svg +=
                "<text x=\"\(width - right + 12)\" y=\"\(top + 18 * Double(index + 1))\" font-size=\"12\" fill=\"\(line.color)\">\(escape(line.name))</text>"
        }
        return svg + "</svg>"
    }

    /// p50 and p99 per locale as horizontal bars.
    static func localeChart(_ locales: [LocaleLatency]) -> String {
        let rowHeight = 22.0
        let (width, left, right, top) = (1400.0, 90.0, 130.0, 40.0)
        let height = top + rowHeight * Double(locales.count) + 40
        let ticks = niceTicks(upTo: max(0.001, locales.map(\.p99Milliseconds).max() ?? 1))
        let maxValue = ticks.last ?? 1
        func x(_ value: Double) -> Double { left + value / maxValue * (width - left - right) }
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Latency per locale\">"
        svg +=
            "<text x=\"\(left)\" y=\"20\" font-size=\"14\" font-weight=\"600\">Latency per locale (ms): p50 and p99</text>"
        for value in ticks {
            svg +=
                "<line x1=\"\(x(value))\" y1=\"\(top - 6)\" x2=\"\(x(value))\" y2=\"\(height - 30)\" stroke=\"#f1f3f5\"/>"
            svg +=
                "<text x=\"\(x(value))\" y=\"\(height - 14)\" font-size=\"11\" text-anchor=\"middle\">\(tickLabel(value))</text>"
        }
        for (index, locale) in locales.enumerated() {
            let rowTop = top + rowHeight * Double(index)
            svg +=
                "<text x=\"\(left - 8)\" y=\"\(rowTop + 14)\" font-size=\"12\" text-anchor=\"end\">\(escape(locale.locale))</text>"
            svg +=
                "<rect x=\"\(left)\" y=\"\(rowTop + 3)\" width=\"\(max(1, x(locale.p99Milliseconds) - left))\" height=\"14\" fill=\"#ffd8a8\"/>"
            svg +=
                "<rect x=\"\(left)\" y=\"\(rowTop + 6)\" width=\"\(max(1, x(locale.p50Milliseconds) - left))\" height=\"8\" fill=\"#2b8a3e\"/>"
            svg +=
                "<text x=\"\(x(locale.p99Milliseconds) + 4)\" y=\"\(rowTop + 14)\" font-size=\"11\" fill=\"#868e96\">"
                + String(format: "%.2f", locale.p99Milliseconds) + " (\(locale.count))</text>"
        }
        return svg + "</svg>"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
