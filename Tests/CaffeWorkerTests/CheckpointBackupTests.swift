// Caffe — CaffeWorker tests.
import CaffeBooks
import CaffeProtocol
import Foundation
import Testing
import WorkerTestKit
import ZeroMQ

/// README "Kubernetes", Backup: a checkpoint is the snapshot and its journal, and a copy of both
/// taken while the worker writes — the journal first — reads back as a checkpoint, never ahead of
/// the worker. The snapshot alone is not the backup: before the journal first outgrows it, there
/// is none.
@Suite("Checkpoint backups")
struct CheckpointBackupTests {
    @Test("copies taken while the worker writes read back, their marks rising and never ahead of the worker's")
    func copiesWhileRunning() throws {
        let folder = try TemporaryFolder("checkpoint-backup")
        let context = try ZMQContext()
        defer { context.shutdown() }
        let source = try OrderSource(context: context, folder: folder.url)
        defer { source.stop() }
        let collector = try WorkerRecoveryTests.Collector(context: context)
        let checkpoint = folder.url.appendingPathComponent("worker.checkpoint")
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: [
                "input.kind=pull", "input.endpoints=>\(source.pushEndpoint)", "output.kind=push",
                "output.endpoints=>\(collector.endpoint)", "checkpoint.path=\(checkpoint.path)",
            ]
        )
        _ = try worker.waitUntilServing()
        let journal = URL(fileURLWithPath: checkpoint.path + ".journal")
        var marks: [UInt64] = []
        var snapshots = 0
        for round in 0..<8 {
            for sequence in UInt64(round * 5 + 1)...UInt64(round * 5 + 5) {
                try source.send(TestOrders.order(sequence))
            }
            Thread.sleep(forTimeInterval: 0.15)
            // The backup: the journal first, then the snapshot if there is one.
            let copy = folder.url.appendingPathComponent("backup-\(round)")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            let copied = copy.appendingPathComponent("worker.checkpoint")
            if FileManager.default.fileExists(atPath: journal.path) {
                try FileManager.default.copyItem(at: journal, to: URL(fileURLWithPath: copied.path + ".journal"))
            }
            if FileManager.default.fileExists(atPath: checkpoint.path) {
                try FileManager.default.copyItem(at: checkpoint, to: copied)
                snapshots += 1
            }
            marks.append(try Checkpoint.read(copied).sources[TestOrders.defaultSource] ?? 0)
        }
        _ = try collector.collect { $0.count >= 80 }
        // Until it drains, the worker wrote no snapshot: a backup of the configured name alone
        // would have held nothing.
        #expect(snapshots == 0)
        #expect(worker.terminate() == 0)
        let final = try Checkpoint.read(checkpoint).sources[TestOrders.defaultSource]
        #expect(final == 40)
        #expect(marks == marks.sorted() && marks.last.map { $0 > 0 } == true && marks.allSatisfy { $0 <= 40 })
    }
}
