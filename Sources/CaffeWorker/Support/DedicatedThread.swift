import CZeroMQ
import CaffeBooks
import Foundation
import ServiceLifecycle
import Synchronization
import ZeroMQ

/// Runs `body` on a thread of its own (blocking libzmq loops stay off Swift's cooperative pool)
/// and returns its result when it ends.
func runOnDedicatedThread<Result: Sendable>(
    named name: String,
    _ body: @escaping @Sendable () -> Result
) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            // Foundation names only its own object; name the OS thread, for top and perf.
            caffe_zmq_name_thread(name)
            continuation.resume(returning: body())
        }
        thread.name = name
        thread.start()
    }
}

/// Moves a value that is not `Sendable` (a socket, a channel) to the thread that will own it.
/// The value must not be used by the sender afterwards; that is the whole promise.
struct Handoff<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// How a service that runs on a thread of its own was asked to stop, and the wake-up its loop
/// polls so that it sees the request at once. Requests only escalate: none, drain, abandon.
final class ThreadStop: Sendable {
    enum Request: Int {
        case none = 0
        /// Finish what was taken in, take nothing new (graceful shutdown).
        case drain = 1
        /// Stop now (the task was cancelled).
        case abandon = 2
    }

    /// Signalled on every request; the loop lists its descriptor in its poll.
    let wakeup: ZMQWakeup
    private let level = Atomic<Int>(Request.none.rawValue)

    init() throws(ZMQError) {
        wakeup = try ZMQWakeup()
    }

    /// The strongest request so far.
    var request: Request { Request(rawValue: level.load(ordering: .acquiring)) ?? .abandon }

    /// Whether any stop was asked for.
    var isRequested: Bool { request != .none }

    /// Raises the request to `request` (never lowers it) and wakes the loop.
    func post(_ request: Request) {
        var current = level.load(ordering: .relaxed)
        while current < request.rawValue {
            let (exchanged, original) = level.compareExchange(
                expected: current,
                desired: request.rawValue,
                ordering: .sequentiallyConsistent
            )
            if exchanged { break }
            current = original
        }
        wakeup.signal()
    }
}

/// Runs a service's loop on a thread named `name` until it returns: the service group's graceful
/// shutdown posts ``ThreadStop/Request/drain`` to `stop`, the task's cancellation
/// ``ThreadStop/Request/abandon``.
func runThreadService<Result: Sendable>(
    named name: String,
    stop: ThreadStop,
    _ body: @escaping @Sendable () -> Result
) async -> Result {
    await withTaskCancellationHandler {
        await withGracefulShutdownHandler {
            await runOnDedicatedThread(named: name, body)
        } onGracefulShutdown: {
            stop.post(.drain)
        }
    } onCancel: {
        stop.post(.abandon)
    }
}
