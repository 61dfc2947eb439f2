import CZeroMQ
import Synchronization

/// A libzmq socket.
///
/// libzmq sockets are not thread-safe, so a ``ZMQSocket`` is not `Sendable`: one thread or task owns
/// it at a time, and may hand it on with `sending`. Other parties reach it by message (an
/// `inproc://` socket pair or an `AsyncStream`). The blocking calls suit a thread of its own; from
/// Swift concurrency use the `async` calls, which wait on the socket's `ZMQ_FD` instead of blocking
/// a cooperative thread.
///
/// ```swift
/// let context = try ZMQContext()
/// let pull = try context.socket(.pull)
/// let endpoint = try pull.bind("tcp://127.0.0.1:*")   // "tcp://127.0.0.1:41234"
/// let push = try context.socket(.push)
/// try push.connect(endpoint)
/// try push.send("hello")
/// let frame = try pull.receive()
/// ```
///
/// Close a socket with ``close(linger:)``; releasing the last reference closes it too.
public final class ZMQSocket {
    /// The socket's type.
    public let type: ZMQSocketType
    /// The context the socket belongs to; the socket keeps it alive.
    public let context: ZMQContext
    /// The `void *` from `zmq_socket`, `nil` once closed.
    private(set) var handle: UnsafeMutableRawPointer?
    /// Objects that must live as long as the socket (its ZAP authenticator).
    var keptAlive: [AnyObject] = []

    init(context: ZMQContext, type: ZMQSocketType) throws(ZMQError) {
        guard let handle = zmq_socket(context.handle, type.rawValue) else {
            throw ZMQError.last("zmq_socket(\(type))")
        }
        self.type = type
        self.context = context
        self.handle = handle
    }

    deinit {
        if let handle { zmq_close(handle) }
    }

    /// Whether ``close(linger:)`` has been called.
    public var isClosed: Bool { handle == nil }

    /// The open socket's handle, or a ``ZMQError/isSocketClosed`` error.
    @inline(__always)
    func open(_ operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard let handle else {
            throw ZMQError(code: ENOTSOCK, operation: operation(), message: "the socket is closed")
        }
        return handle
    }

    /// Closes the socket (`zmq_close`).
    ///
    /// - Parameter linger: how long libzmq may keep trying to deliver messages still queued for
    ///   sending; `nil` keeps the socket's ``ZMQSocketOption/linger`` setting. Closing returns at
    ///   once either way; the lingering happens on libzmq's I/O threads.
    public func close(linger: ZMQTimeout? = nil) {
        guard let handle else { return }
        if let linger {
            var value = linger.rawMilliseconds
            zmq_setsockopt(handle, ZMQ_LINGER, &value, MemoryLayout<Int32>.size)
        }
        // Tasks awaiting this socket (other tasks of the owning actor) must learn it is gone.
        var descriptor: Int32 = -1
        var size = MemoryLayout<Int32>.size
        let reactor = ZMQReadinessReactor.ifStarted
        if reactor != nil { zmq_getsockopt(handle, ZMQ_FD, &descriptor, &size) }
        zmq_close(handle)
        self.handle = nil
        if let reactor, descriptor >= 0 { reactor.wakeAll(descriptor) }
    }

    // MARK: Endpoints

    /// Binds to an endpoint and returns the endpoint actually bound (`zmq_bind`, then `ZMQ_LAST_ENDPOINT`).
    ///
    /// A wildcard port is resolved: `tcp://127.0.0.1:*` returns `tcp://127.0.0.1:41234`.
    @discardableResult
    public func bind(_ endpoint: String) throws(ZMQError) -> String {
        let handle = try open("zmq_bind(\(endpoint))")
        guard zmq_bind(handle, endpoint) == 0 else { throw ZMQError.last("zmq_bind(\(endpoint))") }
        return try get(.lastEndpoint)
    }

    /// Connects to an endpoint (`zmq_connect`); the connection itself is made in the background.
    public func connect(_ endpoint: String) throws(ZMQError) {
        let handle = try open("zmq_connect(\(endpoint))")
        guard zmq_connect(handle, endpoint) == 0 else { throw ZMQError.last("zmq_connect(\(endpoint))") }
    }

    /// Stops listening on an endpoint returned by ``bind(_:)`` (`zmq_unbind`).
    public func unbind(_ endpoint: String) throws(ZMQError) {
        let handle = try open("zmq_unbind(\(endpoint))")
        guard zmq_unbind(handle, endpoint) == 0 else { throw ZMQError.last("zmq_unbind(\(endpoint))") }
    }

    /// Drops the connection to an endpoint passed to ``connect(_:)`` (`zmq_disconnect`).
    public func disconnect(_ endpoint: String) throws(ZMQError) {
        let handle = try open("zmq_disconnect(\(endpoint))")
        guard zmq_disconnect(handle, endpoint) == 0 else { throw ZMQError.last("zmq_disconnect(\(endpoint))") }
    }

    // MARK: Subscriptions

    /// Subscribes a SUB socket to messages whose first frame starts with `prefix` (`""`: everything).
    public func subscribe(_ prefix: some ZMQFrameRepresentable) throws(ZMQError) {
        try set(.subscribe, to: prefix.withFrameBytes { Array($0) })
    }

    /// Removes one earlier ``subscribe(_:)`` of the same prefix.
    public func unsubscribe(_ prefix: some ZMQFrameRepresentable) throws(ZMQError) {
        try set(.unsubscribe, to: prefix.withFrameBytes { Array($0) })
    }

    // MARK: Readiness

    /// What the socket can do now without blocking (`ZMQ_EVENTS`).
    ///
    /// Reading it also lets libzmq process pending commands; it is the re-check that the
    /// edge-triggered ``fileDescriptor`` requires.
    public var events: ZMQEvents {
        get throws(ZMQError) { try get(.events) }
    }

    /// The file descriptor that signals *possible* readiness (`ZMQ_FD`).
    ///
    /// It is edge-triggered and says nothing by itself: after it becomes readable, and after every
    /// send or receive, read ``events``. The `async` calls do this for you.
    public var fileDescriptor: Int32 {
        get throws(ZMQError) { try get(.fileDescriptor) }
    }
}

/// Unique names for the binding's internal `inproc://` endpoints.
enum ZMQInprocName {
    private static let counter = Atomic<UInt64>(0)

    static func make(_ purpose: String) -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return "inproc://caffe.zeromq.\(purpose).\(number)"
    }
}
