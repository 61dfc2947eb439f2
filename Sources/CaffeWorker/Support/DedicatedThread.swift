import CZeroMQ
import Foundation

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
