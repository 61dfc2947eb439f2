import Foundation

extension ConfigurationDiff {
    /// The report as one self-contained HTML page: the verdict of the gates, the keys that differ,
    /// and per change its examples side by side, the words that changed marked (`<del>` before,
    /// `<ins>` after).
    public static func html(_ report: Report, allow: [String] = [], gates: [Gate] = [], trips: [String] = []) -> String
    {
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>caffe-sim diff</title>
            <style>
            body { font: 15px/1.45 system-ui, sans-serif; margin: 2em; color: #1d1d1f; max-width: 1400px; }
            h1 { font-size: 1.6em; margin-bottom: 0.2em; }
            .verdict { padding: 0.6em 1em; border-radius: 6px; font-weight: 600; margin: 1em 0; }
            .pass { background: #e3f4e6; color: #17602a; } .fail { background: #fde2e1; color: #9b1c1c; }
            .none { background: #eef0f4; color: #333; }
            table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1.5em; table-layout: fixed; }
            th, td { border-bottom: 1px solid #e2e4e8; padding: 0.45em 0.6em; text-align: left; vertical-align: top; }
            th { background: #f6f7f9; font-weight: 600; }
            col.id { width: 8em; } col.field { width: 12em; }
            td.id { font-family: ui-monospace, monospace; font-size: 0.9em; }
            td.field { color: #555; font-size: 0.9em; }
            del { background: #ffd7d5; color: #8a1212; text-decoration: line-through; }
            ins { background: #cdf5d4; color: #0f5a23; text-decoration: none; }
            h2 { font-size: 1.15em; margin-top: 1.6em; } .count { color: #555; font-weight: normal; }
            .allowed { color: #17602a; font-size: 0.85em; } .together { color: #8a5a00; font-size: 0.85em; }
            code { font-family: ui-monospace, monospace; background: #f2f3f5; padding: 0 0.25em; }
            table.keys th { font-weight: normal; background: none; } table.keys tr:first-child th { font-weight: 600; }
            col.key { width: 22em; } col.seen { width: 16em; } .unseen { color: #9b1c1c; font-weight: 600; }
            </style></head><body>

            """
        let events = report.orders + report.complications
        page += "<h1>What customers see differently</h1>\n"
        page += "<p>\(report.orders) orders and \(report.complications) complication requests from "
        page += "<code>\(escape(report.journal))</code>, rendered with <code>\(escape(report.before))</code> "
        page += "and <code>\(escape(report.after))</code> "
        page += String(format: "in %.2f s on %d threads.</p>\n", report.seconds, report.threads)
        if gates.isEmpty {
            page += "<div class=\"verdict none\">No gate given.</div>\n"
        } else if trips.isEmpty {
            page += "<div class=\"verdict pass\">PASSED: \(gates.map(\.rawValue).joined(separator: ", "))</div>\n"
        } else {
            page += "<div class=\"verdict fail\">FAILED<br>" + trips.map(escape).joined(separator: "<br>") + "</div>\n"
        }
        let share = events == 0 ? 0 : Double(report.changedEvents) * 100 / Double(events)
        page += "<p><strong>\(report.changedEvents)</strong> of \(events) events changed"
        page += String(format: " (%.1f %%).", share)
        page += " Keys that differ: "
        page +=
            report.catalogChanges.isEmpty
            ? "none" : report.catalogChanges.map { "<code>\(escape($0))</code>" }.joined(separator: ", ")
        page += ".</p>\n"
        if !report.keyChanges.isEmpty {
            page += "<table class=\"keys\"><colgroup><col class=\"key\"><col><col><col class=\"seen\"></colgroup>\n"
            page += "<tr><th>key</th><th>value before</th><th>value after</th><th>in this journal</th></tr>\n"
            for key in report.keyChanges {
                let (before, after) = marked(key.before ?? "", key.after ?? "")
                let seen =
                    key.unseenReason.map { "<span class=\"unseen\">not checked: \(escape($0))</span>" }
                    ?? escape(key.seenSummary)
                let mark = Self.allowed(key.name, allow) ? " <span class=\"allowed\">allowed</span>" : ""
                page += "<tr><th><code>\(escape(key.key))</code> \(key.kind.rawValue)\(mark)</th>"
                page += "<th>\(key.before == nil ? "<em>absent</em>" : before)</th>"
                page += "<th>\(key.after == nil ? "<em>absent</em>" : after)</th><th>\(seen)</th></tr>\n"
            }
            page += "</table>\n"
        }
        for entry in unmatched(allow, report) {
            page += "<p class=\"unseen\"><code>--allow \(escape(entry))</code> names no key that differs.</p>\n"
        }
        for change in report.changes {
            let isAllowed = !change.keys.isEmpty && change.keys.allSatisfy { Self.allowed($0, allow) }
            page += "<h2>\(escape(change.output)) · \(escape(change.locale)) · <code>\(escape(change.key))</code> "
            page += "<span class=\"count\">— \(change.count) \(change.count == 1 ? "event" : "events")</span>"
            switch change.attribution {
            case .alone: break
            case .together: page += " <span class=\"together\">only together</span>"
            case .notSplit: page += " <span class=\"together\">not split</span>"
            case .unexplained: page += " <span class=\"together\">unexplained</span>"
            }
            if isAllowed { page += " <span class=\"allowed\">allowed</span>" }
            page += "</h2>\n<table><colgroup><col class=\"id\"><col class=\"field\"><col><col></colgroup>\n"
            page += "<tr><th>order</th><th>field</th><th>before</th><th>after</th></tr>\n"
            for example in change.examples {
                let (before, after) = marked(example.before, example.after)
                let field = escape(example.field) + (example.stylingOnly ? " (styling)" : "")
                page += "<tr><td class=\"id\">\(escape(example.id))</td><td class=\"field\">\(field)</td>"
                page += "<td>\(before)</td><td>\(after)</td></tr>\n"
            }
            page += "</table>\n"
        }
        if !report.failures.isEmpty {
            page +=
                "<h2>Dead letters</h2>\n<table><tr><th>change</th><th>reason</th><th>events</th><th>examples</th></tr>\n"
            for failure in report.failures {
                let examples = failure.examples.map { "<code>\(escape($0.id))</code> \(escape($0.detail))" }
                page += "<tr><td>\(escape(failure.change))</td><td>\(escape(failure.reason))</td>"
                page += "<td>\(failure.count)</td><td>\(examples.joined(separator: "<br>"))</td></tr>\n"
            }
            page += "</table>\n"
        }
        return page + "</body></html>\n"
    }

    /// Both texts escaped, the words only one of them has marked: `<del>` in `before`, `<ins>` in
    /// `after` (a longest common subsequence of words, spaces and punctuation).
    static func marked(_ before: String, _ after: String) -> (String, String) {
        let old = words(before)
        let new = words(after)
        // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var left = ""
        var right = ""
        var (i, j) = (0, 0)
        var removed = ""
        var added = ""
        func flush() {
            if !removed.isEmpty { left += "<del>\(escape(removed))</del>" }
            if !added.isEmpty { right += "<ins>\(escape(added))</ins>" }
            removed = ""
            added = ""
        }
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                flush()
                left += escape(old[i])
                right += escape(new[j])
                i += 1
                j += 1
            } else if j < new.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                added += new[j]
                j += 1
            } else {
                removed += old[i]
                i += 1
            }
        }
        flush()
        return (left, right)
    }

    /// Runs of letters and digits, and every other character on its own.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else {
                if !current.isEmpty { words.append(current) }
                current = ""
                words.append(String(character))
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "<br>"
            default: out.append(character)
            }
        }
        return out
    }
}
