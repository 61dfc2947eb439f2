import CZeroMQ

/// A libzmq context: the I/O threads and the `inproc://` namespace that sockets share.
///
/// A context is safe to share between threads and tasks. Every ``ZMQSocket`` keeps its context
/// alive, so the context is terminated (`zmq_ctx_term`) only after its last socket has been closed
/// or released: termination never waits on a socket that someone still holds.
///
/// Contexts are created with `ZMQ_BLOCKY` off, so sockets start with a linger of zero: closing a
/// socket drops what it has not yet sent, and termination never hangs on an unreachable peer.
/// Set ``ZMQSocketOption/linger`` (or call ``ZMQSocket/close(linger:)``) where delivery of the last
/// messages matters.
public final class ZMQContext: Sendable {
    /// The `void *` returned by `zmq_ctx_new`; libzmq contexts are thread-safe.
    nonisolated(unsafe) let handle: UnsafeMutableRawPointer

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - ioThreads: libzmq I/O threads (`ZMQ_IO_THREADS`); one handles about a gigabyte a second.
    ///   - maxSockets: the most sockets the context may hold open (`ZMQ_MAX_SOCKETS`).
    /// - Throws: ``ZMQError`` when libzmq cannot create the context or rejects an option.
    public init(ioThreads: Int32 = 1, maxSockets: Int32 = 1023) throws(ZMQError) {
        guard let handle = zmq_ctx_new() else {
            throw ZMQError.last("zmq_ctx_new")
        }
        // Configure before storing: a failed initializer must not leave `deinit` a freed handle.
        for (option, value, name) in [
            (ZMQ_IO_THREADS, ioThreads, "ZMQ_IO_THREADS"),
            (ZMQ_MAX_SOCKETS, maxSockets, "ZMQ_MAX_SOCKETS"),
            (ZMQ_BLOCKY, 0, "ZMQ_BLOCKY"),
        ] where zmq_ctx_set(handle, option, value) != 0 {
            let error = ZMQError.last("zmq_ctx_set(\(name), \(value))")
            zmq_ctx_term(handle)
            throw error
        }
        self.handle = handle
    }

    deinit {
        // All sockets hold a strong reference to the context, so none is open here.
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
    }

    /// Creates a socket of the given type, owned by the caller's thread or task.
    public func socket(_ type: ZMQSocketType) throws(ZMQError) -> ZMQSocket {
        try ZMQSocket(context: self, type: type)
    }

    /// Shuts the context down without terminating it (`zmq_ctx_shutdown`).
    ///
    /// Blocking calls on this context's sockets, on any thread, return with ``ZMQError/isContextTerminated``,
    /// and new calls fail the same way. Owners still close their sockets; the context itself is
    /// terminated when the last reference goes.
    public func shutdown() {
        zmq_ctx_shutdown(handle)
    }
}

/// Facts about the libzmq library the process is linked against.
public enum ZMQLibrary {
    /// The libzmq version, such as `(4, 3, 4)`.
    public static var version: (major: Int32, minor: Int32, patch: Int32) {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return (major, minor, patch)
    }

    /// Whether libzmq was built with a capability: `"curve"`, `"ipc"`, `"pgm"`, `"draft"`… (`zmq_has`).
    public static func has(_ capability: String) -> Bool {
        zmq_has(capability) == 1
    }
}
