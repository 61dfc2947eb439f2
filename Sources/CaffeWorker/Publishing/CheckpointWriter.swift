import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Writes checkpoints off the event pipeline's thread: the pipeline posts the latest one
/// (``post(_:)``, which never blocks), this service's thread writes and fsyncs it; the final one,
/// at the end of a drain, is written by the pipeline itself (``write(_:)``), under the same lock,
/// so an older posted checkpoint can never replace it.
final class CheckpointWriter: Service {
    private let url: URL?
    private let logger: Logger
    private let shard: MetricShard
    private let latest = Mutex<Checkpoint?>(nil)
    /// The last checkpoint written, and whether it was the final one.
    private let written: Mutex<(last: Checkpoint?, isFinal: Bool)>
    private let posted = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Set by the final write: later posts are ignored.
    private let sealed = Atomic<Bool>(false)

    /// `resumed` is the checkpoint read at start: writing it again is skipped.
    init(url: URL?, resumed: Checkpoint, logger: Logger, shard: MetricShard) {
        self.url = url
        written = Mutex((resumed, false))
        self.logger = logger
        self.shard = shard
    }

    /// Queues `checkpoint` for writing (replacing one not yet written).
    func post(_ checkpoint: Checkpoint) {
        guard url != nil, !sealed.load(ordering: .relaxed) else { return }
        latest.withLock { $0 = checkpoint }
        posted.signal()
    }

    /// Writes `checkpoint` now, as the last one.
    func write(_ checkpoint: Checkpoint) {
        sealed.store(true, ordering: .sequentiallyConsistent)
        latest.withLock { $0 = nil }
        store(checkpoint, isFinal: true)
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
        while true {
            posted.wait()
            if let checkpoint = latest.withLock({ state -> Checkpoint? in
                defer { state = nil }
                return state
            }) {
                store(checkpoint, isFinal: false)
            }
            if stopping.load(ordering: .acquiring) { return }
        }
    }

    /// Writes `checkpoint` unless it equals the last one written or the final one is written.
    private func store(_ checkpoint: Checkpoint, isFinal: Bool) {
        guard let url else { return }
        written.withLock { written in
            guard !written.isFinal, written.last != checkpoint || isFinal else { return }
            written.isFinal = isFinal
            guard written.last != checkpoint else { return }
            do {
                try checkpoint.write(to: url)
                written.last = checkpoint
                shard.update { $0.checkpoints += 1 }
            } catch {
                logger.error("checkpoint not written", metadata: ["error": "\(error)"])
            }
        }
    }
}
