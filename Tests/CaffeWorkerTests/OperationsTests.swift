// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import Foundation
import Testing

@testable import CaffeWorker

/// What operators read: the counters' one naming, the process metrics, the log budget, the
/// dead-letter excerpt.
@Suite("Operations: metrics, names, log budget")
struct OperationsTests {
    @Test("every Admin/Stats counter is a /metrics counter of the same name, and the reverse")
    func oneNaming() {
        var counts = WorkerCounts()
        counts.deadLetters = ["malformed": 2, "invalid": 1]
        let statsNames = Set(counts.snapshot.keys)
        #expect(statsNames.count == WorkerCounts.counters.count + 5)
        #expect(counts.snapshot["dead_letters"] == 3)
        let metrics = WorkerMetrics()
        let text = String(decoding: metrics.exposition(serving: true, healthy: true, ready: true), as: UTF8.self)
        let counterFamilies = Set(
            text.matches(of: /# TYPE caffe_worker_([a-z_]+)_total counter/).map { String($0.output.1) }
        )
        #expect(counterFamilies == statsNames)
    }

    @Test("docs/OPERATIONS.md lists every metric family a worker exposes, and no other")
    func documented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/OPERATIONS.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let listed = Set(
            text.matches(of: /\n\| `([a-z_]+)` \| (counter|gauge|histogram) \|/).map { String($0.output.1) }
        )
        let exposition = String(
            decoding: WorkerMetrics().exposition(serving: true, healthy: true, ready: true),
            as: UTF8.self
        )
        let exposed = Set(exposition.matches(of: #/\# TYPE ([a-z_]+) /#).map { String($0.output.1) })
        #expect(
            listed == exposed,
            "undocumented: \(exposed.subtracting(listed)), stale: \(listed.subtracting(exposed))"
        )
    }

    @Test("the exposition ends with build info and the standard process metrics, read from /proc")
    func processMetrics() throws {
        let text = String(decoding: WorkerMetrics().exposition(serving: true), as: UTF8.self)
        #expect(
            text.contains("caffe_build_info{version=\"\(CaffeVersion.current)\",swift=\"\(CaffeVersion.swift)\"} 1\n")
        )
        let process = try #require(ProcessMetrics.current())
        #expect(process.residentBytes > 1_000_000 && process.virtualBytes >= process.residentBytes)
        #expect(process.openDescriptors >= 3 && process.maxDescriptors >= process.openDescriptors)
        #expect(abs(process.startTime - Date().timeIntervalSince1970) < 24 * 3600)
        for family in [
            "process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
            "process_open_fds", "process_max_fds", "process_start_time_seconds",
        ] {
            #expect(text.contains("# TYPE \(family) "), "\(family)")
        }
        // A command name with spaces and parentheses does not shift the fields.
        let fields = try #require(ProcessMetrics.fieldsAfterName("42 (a) b (c)) S 1 2 3"))
        #expect(fields.prefix(4) == ["S", "1", "2", "3"])
    }

    @Test("the log budget lets a burst through, then a rate, and says how many it held back")
    func logBudget() {
        var budget = LogBudget(perSecond: 2, burst: 3)
        let start = ContinuousClock.now
        #expect((0..<5).map { _ in budget.admit(at: start) } == [0, 0, 0, nil, nil])
        #expect(budget.flush(at: start) == nil)
        // Half a second later one line may go out: it says two were held back.
        #expect(budget.admit(at: start + .milliseconds(500)) == 2)
        #expect(budget.admit(at: start + .milliseconds(500)) == nil)
        #expect(budget.flush(at: start + .seconds(2)) == 1)
        #expect(budget.flush(at: start + .seconds(3)) == nil)
    }

    @Test("a dead letter's excerpt shows printable bytes, dots for the rest, and is cut short")
    func excerpt() {
        #expect(DeadLetterNote.excerpt(of: Array("\u{0A}\u{03}abc".utf8)) == "..abc")
        #expect(
            DeadLetterNote.excerpt(of: [UInt8](repeating: 0x41, count: 70)) == String(repeating: "A", count: 64) + "…"
        )
        #expect(DeadLetterNote.excerpt(of: [UInt8]()) == "")
    }
}
