import CZeroMQ
import Synchronization

/// A ZAP handler (RFC 27) that admits only CURVE clients whose public key is on an allow-list.
///
/// libzmq asks the handler bound at `inproc://zeromq.zap.01` of a context about every connection to
/// a CURVE server socket of that context. Without a handler, a CURVE server admits *any* client that
/// knows the server's public key; with this one running, unknown keys fail their handshake
/// (``ZMQMonitorEventKind/handshakeFailedAuth`` on the server, status 400) and never deliver a message.
///
/// The handler runs on a thread of its own until ``stop()`` or release — and from then on libzmq
/// admits any client again, so pass it to ``ZMQSocket/makeCurveServer(keys:authenticator:)``,
/// which keeps it alive as long as the server socket. Admitted messages carry the
/// client's Z85 public key as their `"User-Id"` metadata (``ZMQMessage/metadata(_:)``).
///
/// ```swift
/// let authenticator = try ZMQAuthenticator(context: context, allowedClientKeys: [clientKeys.publicKey])
/// let server = try context.socket(.router)
/// try server.makeCurveServer(keys: serverKeys)
/// ```
public final class ZMQAuthenticator: Sendable {
    /// The endpoint libzmq sends ZAP requests to.
    public static let endpoint = "inproc://zeromq.zap.01"

    private let state: State
    private let thread: ZMQThread

    /// Binds the ZAP endpoint of `context` and starts answering requests.
    ///
    /// - Throws: ``ZMQError`` with `EADDRINUSE` if the context already has a ZAP handler.
    public init(context: ZMQContext, allowedClientKeys: Set<ZMQCurveKey>) throws(ZMQError) {
        let state = try State(allowed: allowedClientKeys)
        let socket = try context.socket(.rep)
        try socket.set(.linger, to: .zero)
        try socket.bind(Self.endpoint)
        self.state = state
        // The thread holds the state, not `self`, so releasing the authenticator stops it.
        thread = try ZMQThread(name: "zmq.zap") { state.serve(socket) }
    }

    deinit {
        stop()
    }

    /// Adds a client key to the allow-list; new connections with it are admitted.
    public func allow(_ key: ZMQCurveKey) {
        _ = state.allowed.withLock { $0.insert(key) }
    }

    /// Removes a client key; its existing connections stay, new ones are refused.
    public func revoke(_ key: ZMQCurveKey) {
        _ = state.allowed.withLock { $0.remove(key) }
    }

    /// Handshakes admitted so far.
    public var admitted: Int { state.admitted.load(ordering: .relaxed) }

    /// Handshakes refused so far (unknown key, or a mechanism other than CURVE).
    public var refused: Int { state.refused.load(ordering: .relaxed) }

    /// Stops answering and unbinds the ZAP endpoint; waits for the handler thread to finish.
    ///
    /// - Important: libzmq lets every client through when no ZAP handler is bound, so after this
    ///   the context's CURVE servers admit any key. Close them first, or hand the authenticator to
    ///   ``ZMQSocket/makeCurveServer(keys:authenticator:)`` so it lives as long as they do.
    public func stop() {
        guard !state.stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        state.wakeup.signal()
        thread.join()
    }

    /// What the handler thread and the owner share.
    private final class State: Sendable {
        let allowed: Mutex<Set<ZMQCurveKey>>
        let admitted = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let stopping = Atomic<Bool>(false)
        let wakeup: ZMQWakeup

        init(allowed: Set<ZMQCurveKey>) throws(ZMQError) {
            self.allowed = Mutex(allowed)
            wakeup = try ZMQWakeup()
        }

        func serve(_ socket: ZMQSocket) {
            defer {
                // Unbinding an inproc endpoint is immediate; closing alone frees it later, on the reaper thread.
                try? socket.unbind(ZMQAuthenticator.endpoint)
                socket.close()
            }
            var poller = ZMQPoller()
            let requests = poller.register(socket, for: .readable)
            poller.register(fileDescriptor: wakeup.fileDescriptor, for: .readable)
            while !stopping.load(ordering: .acquiring) {
                do {
                    try poller.poll(timeout: .infinite)
                    guard poller.isReadable(requests), let request = try socket.tryReceiveMultipart() else { continue }
                    try socket.send(multipart: reply(to: request))
                } catch let error where error.isContextTerminated {
                    return
                } catch {
                    // Keep the endpoint bound whatever happens: without a handler, libzmq would
                    // admit every client. An unanswered request only stalls that one handshake.
                    continue
                }
            }
        }

        /// Builds the ZAP reply (RFC 27) for one request.
        private func reply(to request: [ZMQMessage]) -> [any ZMQFrameRepresentable] {
            // Request: version, request id, domain, address, routing id, mechanism, credentials…
            guard request.count >= 6, request[0].string == "1.0" else {
                refused.add(1, ordering: .relaxed)
                let requestID = request.count > 1 ? request[1].bytes : []
                return ["1.0", requestID, "500", "malformed ZAP request", "", ""]
            }
            let requestID = request[1].bytes
            let mechanism = request[5].string
            if mechanism == "CURVE", request.count >= 7, let key = try? ZMQCurveKey(bytes: request[6].bytes),
                allowed.withLock({ $0.contains(key) })
            {
                admitted.add(1, ordering: .relaxed)
                return ["1.0", requestID, "200", "OK", key.z85, ""]
            }
            refused.add(1, ordering: .relaxed)
            let reason = mechanism == "CURVE" ? "client key not allowed" : "CURVE required"
            return ["1.0", requestID, "400", reason, "", ""]
        }
    }
}
