import CaffeBooks
import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Writes checkpoints off the event pipeline's thread. The pipeline posts what changed
/// (``post(_:)``, which never blocks: changes accumulate until written); this service's thread
/// keeps the whole state, appends each change to the journal and compacts it into a new snapshot
/// when the journal has grown past the snapshot (``Checkpoint``). The final checkpoint, at the
/// end of a drain, is written by the pipeline itself (``writeFinal(_:)``), under the same lock, so
/// no later write can follow it.
///
/// A write that fails is counted and logged, and everything not yet on disk is written again at
/// the next post or within a second; after `failuresBeforeUnhealthy` failures in a row the worker
/// reports itself NOT_SERVING (``WorkerStatus``) until a write succeeds, and a final checkpoint
/// that cannot be written makes the drain fail (exit status 1): a restart would render again what
/// the file does not cover.
final class CheckpointWriter: Service {
    private let url: URL?
    private let logger: Logger
    private let shard: MetricShard
    private let status: WorkerStatus?
    private let failuresBeforeUnhealthy: Int
    /// The smallest journal compacted; below it, appending is always cheaper.
    private let compactionFloor: Int
    private let pending = Mutex<Checkpoint.Change?>(nil)
    private let books: Mutex<Books>
    private let posted = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Set by the final write: later posts are ignored.
    private let sealed = Atomic<Bool>(false)
    /// Pipelines yet to make their final write: only the last one's is final.
    private let finalsLeft: Atomic<Int>

    /// What the writer knows of the files.
    private struct Books {
        /// Everything the checkpoint holds, whether on disk yet or not.
        var state: CheckpointState
        var snapshotBytes = 0
        var journalBytes = 0
        /// What is applied to `state` and not on disk yet.
        var unwritten = Checkpoint.Change()
        /// A journal append failed part-way: only a snapshot is trustworthy now.
        var mustCompact = false
        var isDirty: Bool { !unwritten.isEmpty }
        var failuresInARow = 0
        var isFinal = false
    }

    /// `resumed` is the checkpoint read at start; `pipelines` post to it and each ends with
    /// ``writeFinal(_:)``.
    init(
        url: URL?,
        resumed: Checkpoint,
        logger: Logger,
        shard: MetricShard,
        status: WorkerStatus? = nil,
        failuresBeforeUnhealthy: Int = 3,
        compactionFloor: Int = 1 << 20,
        pipelines: Int = 1
    ) {
        finalsLeft = Atomic(max(1, pipelines))
        self.url = url
        self.logger = logger
        self.shard = shard
        self.status = status
        self.failuresBeforeUnhealthy = max(1, failuresBeforeUnhealthy)
        self.compactionFloor = compactionFloor
        var books = Books(state: CheckpointState(resumed))
        if let url {
            books.snapshotBytes = Self.size(of: url)
            books.journalBytes = Self.size(of: Checkpoint.journalURL(for: url))
        }
        self.books = Mutex(books)
    }

    /// Queues `change` for writing (merged with changes not yet written).
    func post(_ change: Checkpoint.Change) {
        guard url != nil, !change.isEmpty, !sealed.load(ordering: .relaxed) else { return }
        pending.withLock { waiting in
            if waiting == nil { waiting = change } else { waiting!.merge(change) }
        }
        shard.update { counts in
            if counts.checkpointBehindSince == 0 {
                counts.checkpointBehindSince = Double(WallClock.nanoseconds()) / 1e9
            }
        }
        posted.signal()
    }

    /// Writes `change` and everything still pending now, as the last write: a full snapshot, or,
    /// when the snapshot cannot be written, a journal line if the journal is intact. Returns
    /// whether the checkpoint on disk now holds everything. With several pipelines, every one but
    /// the last to end only posts its change (`true`): the last one's write covers them all.
    @discardableResult
    func writeFinal(_ change: Checkpoint.Change) -> Bool {
        if finalsLeft.subtract(1, ordering: .acquiringAndReleasing).newValue > 0 {
            post(change)
            return true
        }
        sealed.store(true, ordering: .sequentiallyConsistent)
        guard let url else { return true }
        var all = pending.withLock { waiting -> Checkpoint.Change in
            defer { waiting = nil }
            return waiting ?? Checkpoint.Change()
        }
        all.merge(change)
        return books.withLock { books in
            guard !books.isFinal else { return true }
            books.isFinal = true
            return persist(all, books: &books, url: url, final: true)
        }
    }

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await runOnDedicatedThread(named: "caffe-checkpoint") { self.writeLoop() } }
            try? await gracefulShutdown()
            stopping.store(true, ordering: .sequentiallyConsistent)
            posted.signal()
            await group.waitForAll()
        }
    }

    private func writeLoop() {
        guard let url else { return }
        while true {
            // A failed write is tried again within a second, posted or not.
            let retrying = books.withLock { $0.isDirty }
            if retrying {
                _ = posted.wait(timeout: .now() + .seconds(1))
            } else {
                posted.wait()
            }
            if stopping.load(ordering: .acquiring) { return }
            let change = pending.withLock { waiting -> Checkpoint.Change? in
                defer { waiting = nil }
                return waiting
            }
            books.withLock { books in
                guard !books.isFinal, change != nil || books.isDirty else { return }
                _ = persist(change ?? Checkpoint.Change(), books: &books, url: url, final: false)
            }
        }
    }

    /// Applies `change` and writes what is not on disk: a journal line, or a snapshot when the
    /// journal has outgrown it (or cannot be trusted), or when `final`.
    private func persist(_ change: Checkpoint.Change, books: inout Books, url: URL, final: Bool) -> Bool {
        if !change.isEmpty {
            var change = change
            change.generation = books.state.generation + 1
            books.state.apply(change)
            books.unwritten.merge(change)
            books.unwritten.generation = change.generation
        }
        guard books.isDirty else { return true }
        var failure: Checkpoint.Problem?
        if final || books.mustCompact || books.journalBytes >= max(compactionFloor, books.snapshotBytes) {
            do {
                books.snapshotBytes = try books.state.write(to: url)
                books.unwritten = Checkpoint.Change()
                books.mustCompact = false
                shard.update { $0.checkpointCompactions += 1 }
                do {
                    try Checkpoint.truncateJournal(of: url)
                    books.journalBytes = 0
                } catch {
                    // Harmless: its lines are at or below the snapshot's generation.
                    logger.warning("checkpoint journal not emptied", metadata: ["error": "\(error)"])
                }
            } catch {
                failure = error
            }
        }
        if books.isDirty, !books.mustCompact {
            do {
                books.journalBytes += try Checkpoint.append(books.unwritten, toJournalOf: url)
                books.unwritten = Checkpoint.Change()
            } catch {
                // Perhaps a part-written line, which later lines would follow: only a snapshot now.
                books.mustCompact = true
                failure = failure ?? error
            }
        }
        guard !books.isDirty else {
            books.failuresInARow += 1
            let failures = books.failuresInARow
            shard.update { $0.checkpointFailures += 1 }
            logger.error(
                final ? "final checkpoint not written" : "checkpoint not written",
                metadata: ["error": "\(failure.map { "\($0)" } ?? "unknown")", "failures_in_a_row": "\(failures)"]
            )
            if failures >= failuresBeforeUnhealthy, status?.isCheckpointHealthy != false {
                status?.set(checkpointHealthy: false)
                logger.critical(
                    "checkpoint failing: reporting NOT_SERVING until a checkpoint is written",
                    metadata: ["failures_in_a_row": "\(failures)"]
                )
            }
            return false
        }
        if books.failuresInARow > 0 {
            logger.notice("checkpoint written again", metadata: ["after_failures": "\(books.failuresInARow)"])
            books.failuresInARow = 0
        }
        if status?.isCheckpointHealthy == false { status?.set(checkpointHealthy: true) }
        shard.update {
            $0.checkpoints += 1
            // Checked under the shard's lock, which post() takes after queueing its change.
            if pending.withLock({ $0 == nil }) { $0.checkpointBehindSince = 0 }
        }
        return true
    }

    private static func size(of url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}
