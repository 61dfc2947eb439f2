import CZeroMQ
import Glibc

/// A dedicated OS thread for work that blocks in libzmq (a proxy, a ZAP handler), kept off Swift's
/// cooperative thread pool.
final class ZMQThread: Sendable {
    nonisolated(unsafe) private var thread = pthread_t()

    /// Starts `body` on a new thread; the closure's captures move to that thread.
    init(name: String, _ body: sending @escaping () -> Void) throws(ZMQError) {
        let box = Unmanaged.passRetained(ThreadBody(name: name, body: body))
        let rc = pthread_create(
            &thread,
            nil,
            { argument in
                guard let argument else { return nil }
                let box = Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue()
                caffe_zmq_name_thread(box.name)
                box.body()
                return nil
            },
            box.toOpaque()
        )
        guard rc == 0 else {
            box.release()
            throw ZMQError(code: rc, operation: "pthread_create(\(name))")
        }
    }

    /// Waits for the thread's body to return. Call once.
    func join() {
        pthread_join(thread, nil)
    }
}

private final class ThreadBody {
    let name: String
    let body: () -> Void

    init(name: String, body: @escaping () -> Void) {
        self.name = name
        self.body = body
    }
}

/// An `eventfd` another thread can signal to wake a `zmq_poll` that lists it
/// (``ZMQPoller/register(fileDescriptor:for:)``).
public final class ZMQWakeup: Sendable {
    /// The descriptor to poll for readability.
    public let fileDescriptor: Int32

    /// A new non-blocking, close-on-exec `eventfd`.
    public init() throws(ZMQError) {
        let fd = caffe_zmq_eventfd()
        guard fd >= 0 else { throw ZMQError(code: errno, operation: "eventfd") }
        fileDescriptor = fd
    }

    deinit { Glibc.close(fileDescriptor) }

    /// Makes the descriptor readable.
    public func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(fileDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes the descriptor unreadable again.
    public func drain() {
        var value: UInt64 = 0
        _ = Glibc.read(fileDescriptor, &value, MemoryLayout<UInt64>.size)
    }
}
