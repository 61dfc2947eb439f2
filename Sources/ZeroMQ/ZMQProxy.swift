import CZeroMQ
import Synchronization

/// Message counts of a running proxy, as `zmq_proxy_steerable` reports them for `STATISTICS`.
public struct ZMQProxyStatistics: Hashable, Sendable {
    /// Traffic of one side of the proxy.
    public struct Side: Hashable, Sendable {
        /// Messages received on this side (frames counted as libzmq counts them: whole messages).
        public var messagesIn: UInt64
        /// Bytes received on this side.
        public var bytesIn: UInt64
        /// Messages sent out of this side.
        public var messagesOut: UInt64
        /// Bytes sent out of this side.
        public var bytesOut: UInt64

        public init(messagesIn: UInt64, bytesIn: UInt64, messagesOut: UInt64, bytesOut: UInt64) {
            self.messagesIn = messagesIn
            self.bytesIn = bytesIn
            self.messagesOut = messagesOut
            self.bytesOut = bytesOut
        }
    }

    /// The frontend socket's traffic.
    public var frontend: Side
    /// The backend socket's traffic.
    public var backend: Side

    public init(frontend: Side, backend: Side) {
        self.frontend = frontend
        self.backend = backend
    }
}

/// libzmq's built-in proxy (`zmq_proxy_steerable`) on a thread of its own, steerable from any thread.
///
/// The two classic devices:
/// - a *queue* between many clients and many workers: ROUTER frontend, DEALER backend;
/// - a *forwarder* between publishers and subscribers: XSUB frontend, XPUB backend.
///
/// Every message passing through can be copied to a *capture* socket (PUB, PUSH or PAIR).
///
/// ```swift
/// let frontend = try context.socket(.xsub)
/// try frontend.bind("tcp://127.0.0.1:5555")
/// let backend = try context.socket(.xpub)
/// try backend.bind("tcp://127.0.0.1:5556")
/// let proxy = try ZMQProxy(frontend: frontend, backend: backend)
/// let stats = try proxy.statistics()
/// proxy.terminate()
/// ```
///
/// The sockets move to the proxy's thread and are closed there when it ends.
public final class ZMQProxy: Sendable {
    private let control: Mutex<ZMQSocket>
    private let thread: ZMQThread
    private let outcome: Outcome
    private let isTerminated = Atomic<Bool>(false)

    /// Starts the proxy with sockets already bound or connected.
    public init(
        frontend: sending ZMQSocket,
        backend: sending ZMQSocket,
        capture: sending ZMQSocket? = nil
    ) throws(ZMQError) {
        let context = frontend.context
        let endpoint = ZMQInprocName.make("proxy.control")
        let controlled = try context.socket(.pair)
        try controlled.bind(endpoint)
        let controller = try context.socket(.pair)
        try controller.connect(endpoint)
        let outcome = Outcome()
        thread = try ZMQThread(name: "zmq.proxy") {
            let rc = zmq_proxy_steerable(frontend.handle, backend.handle, capture?.handle, controlled.handle)
            if rc != 0 {
                let error = ZMQError.last("zmq_proxy_steerable")
                outcome.error.withLock { $0 = error }
            }
            outcome.hasEnded.store(true, ordering: .releasing)
            for socket in [frontend, backend, capture, controlled] { socket?.close() }
        }
        self.outcome = outcome
        self.control = Mutex(controller)
    }

    deinit {
        terminate()
    }

    /// Runs libzmq's proxy on the calling thread until the context is shut down (`zmq_proxy`).
    ///
    /// For a thread that has nothing else to do; ``init(frontend:backend:capture:)`` is the steerable form.
    public static func run(frontend: ZMQSocket, backend: ZMQSocket, capture: ZMQSocket? = nil) throws(ZMQError) {
        let frontendHandle = try frontend.open("zmq_proxy")
        let backendHandle = try backend.open("zmq_proxy")
        guard zmq_proxy(frontendHandle, backendHandle, capture?.handle) == 0 else {
            throw ZMQError.last("zmq_proxy")
        }
    }

    /// Stops forwarding; messages wait in the sockets' queues (`PAUSE`).
    public func pause() throws(ZMQError) {
        try command("PAUSE")
    }

    /// Resumes forwarding after ``pause()`` (`RESUME`).
    public func resume() throws(ZMQError) {
        try command("RESUME")
    }

    /// Message and byte counts since the proxy started (`STATISTICS`).
    public func statistics(timeout: ZMQTimeout = .seconds(5)) throws(ZMQError) -> ZMQProxyStatistics {
        try checkRunning("STATISTICS")
        return try control.withLock { socket throws(ZMQError) in
            // A reply that came after an earlier call gave up must not answer this call.
            while try socket.tryReceiveMultipart() != nil {}
            guard try socket.send("STATISTICS", timeout: Self.commandTimeout) else {
                throw ZMQError(
                    code: EAGAIN,
                    operation: "zmq_proxy_steerable(STATISTICS)",
                    message: "the proxy is not reading commands"
                )
            }
            guard let frames = try socket.receiveMultipart(timeout: timeout) else {
                throw ZMQError(code: EAGAIN, operation: "zmq_proxy_steerable(STATISTICS)", message: "no reply in time")
            }
            guard frames.count == 8, frames.allSatisfy({ $0.count == 8 }) else {
                throw ZMQError.invalidArgument(
                    "zmq_proxy_steerable(STATISTICS)",
                    "unexpected reply of \(frames.count) frames"
                )
            }
            let values = frames.map { frame in frame.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }
            return ZMQProxyStatistics(
                frontend: .init(messagesIn: values[0], bytesIn: values[1], messagesOut: values[2], bytesOut: values[3]),
                backend: .init(messagesIn: values[4], bytesIn: values[5], messagesOut: values[6], bytesOut: values[7])
            )
        }
    }

    /// Stops the proxy (`TERMINATE`), waits for its thread, and closes its sockets. Called on release too.
    ///
    /// - Returns: the error that ended the proxy early, if any (for example `ETERM` after a context shutdown).
    @discardableResult
    public func terminate() -> ZMQError? {
        if !isTerminated.exchange(true, ordering: .acquiringAndReleasing) {
            // If the proxy already ended (context shut down) the command goes nowhere, which is fine.
            control.withLock { socket in
                _ = try? socket.send("TERMINATE", timeout: .zero)
            }
            thread.join()
            control.withLock { $0.close() }
        }
        return outcome.error.withLock { $0 }
    }

    /// How the proxy's thread ended, shared with it.
    private final class Outcome: Sendable {
        let error = Mutex<ZMQError?>(nil)
        let hasEnded = Atomic<Bool>(false)
    }

    /// How long a command may wait to be queued on the control socket.
    private static let commandTimeout = ZMQTimeout.seconds(1)

    /// Throws if the proxy was terminated or its thread has ended (for example on a routing error).
    private func checkRunning(_ command: String) throws(ZMQError) {
        if isTerminated.load(ordering: .acquiring) {
            throw ZMQError(
                code: ETERM,
                operation: "zmq_proxy_steerable(\(command))",
                message: "the proxy was terminated"
            )
        }
        if outcome.hasEnded.load(ordering: .acquiring) {
            let cause = outcome.error.withLock { $0 }
            throw ZMQError(
                code: cause?.code ?? ETERM,
                operation: "zmq_proxy_steerable(\(command))",
                message: "the proxy has stopped" + (cause.map { ": \($0)" } ?? "")
            )
        }
    }

    private func command(_ name: String) throws(ZMQError) {
        try checkRunning(name)
        let sent = try control.withLock { socket throws(ZMQError) in try socket.send(name, timeout: Self.commandTimeout)
        }
        guard sent else {
            throw ZMQError(
                code: EAGAIN,
                operation: "zmq_proxy_steerable(\(name))",
                message: "the proxy is not reading commands"
            )
        }
    }
}
