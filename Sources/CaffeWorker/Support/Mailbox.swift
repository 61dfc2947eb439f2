import CaffeBooks
import Synchronization
import ZeroMQ

/// Results handed from helper threads to a thread that waits in `zmq_poll`: items go into a
/// locked list, and the eventfd is written only when the receiver said it was about to sleep, so
/// a busy receiver that collects results between its own work costs no system call.
final class Mailbox<Item: Sendable>: Sendable {
    private let state = Mutex<(items: [Item], sleeping: Bool)>(([], false))
    /// The descriptor the receiver polls.
    let wakeup: ZMQWakeup

    init() throws(ZMQError) {
        wakeup = try ZMQWakeup()
    }

    /// Adds `items`, waking the receiver if it sleeps.
    func post(_ items: sending [Item]) {
        let wake = state.withLock { state in
            state.items.append(contentsOf: items)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wake { wakeup.signal() }
    }

    /// Everything posted so far.
    func take() -> [Item] {
        state.withLock { state in
            guard !state.items.isEmpty else { return [] }
            let items = state.items
            state.items.removeAll(keepingCapacity: true)
            return items
        }
    }

    /// Announces that the receiver is about to wait; `false` when items are already there (it
    /// should take them instead).
    func prepareToSleep() -> Bool {
        state.withLock { state in
            guard state.items.isEmpty else { return false }
            state.sleeping = true
            return true
        }
    }

    /// Ends a wait: the receiver is awake again.
    func awake() {
        let wasSignalled = state.withLock { state in
            defer { state.sleeping = false }
            return !state.sleeping
        }
        if wasSignalled { wakeup.drain() }
    }
}
