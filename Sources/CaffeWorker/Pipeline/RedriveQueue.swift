import CaffeBooks
import Synchronization
import ZeroMQ

/// Dead-lettered events an operator asked to have rendered again (`caffe.v1.Admin/Redrive`),
/// rendered on the RPC thread and handed to the event pipeline to publish, outside the sequence
/// books: not judged as duplicates, completing nothing, their outputs marked `redriven`.
final class RedriveQueue: Sendable {
    private let items = Mutex<[RenderedEvent]>([])
    /// How many wait, read without the lock on every turn of the pipeline.
    private let waiting = Atomic<Int>(0)
    /// The descriptor the pipeline polls.
    let wakeup: ZMQWakeup
    /// Events waiting at most; beyond, a request gets RESOURCE_EXHAUSTED.
    let capacity: Int

    init(capacity: Int = 256) throws(ZMQError) {
        wakeup = try ZMQWakeup()
        self.capacity = capacity
    }

    /// Whether a redrive offered now would be refused.
    var isFull: Bool { waiting.load(ordering: .acquiring) >= capacity }

    /// Queues `event`; `false` when the queue is full.
    func offer(_ event: RenderedEvent) -> Bool {
        let accepted = items.withLock { items in
            guard items.count < capacity else { return false }
            items.append(event)
            waiting.store(items.count, ordering: .releasing)
            return true
        }
        if accepted { wakeup.signal() }
        return accepted
    }

    /// Everything queued.
    func take() -> [RenderedEvent] {
        guard waiting.load(ordering: .acquiring) > 0 else { return [] }
        return items.withLock { items in
            defer {
                items.removeAll(keepingCapacity: true)
                waiting.store(0, ordering: .releasing)
            }
            return items
        }
    }
}

/// The metadata key marking an output rendered from a redriven dead letter.
let redrivenMetadataKey = "redriven"
