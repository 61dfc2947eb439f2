/// Sending and receiving from Swift concurrency.
///
/// These calls never block a thread: they try the operation without waiting and, if it would
/// block, suspend until the socket's `ZMQ_FD` signals, then re-read `ZMQ_EVENTS` (the descriptor is
/// edge-triggered, so the re-check after every operation is what makes this correct). They run on
/// the caller's executor, so the socket never leaves its owning task or actor. Cancelling the task
/// ends a wait with `CancellationError`.
extension ZMQSocket {
    /// Suspends until the socket can do one of `events` (`true`) or `deadline` passes (`false`).
    nonisolated(nonsending) public func waitUntil(
        _ events: ZMQEvents,
        deadline: ContinuousClock.Instant? = nil
    ) async throws -> Bool {
        try await waitUntil(events, deadline: deadline, trustingEvents: true)
    }

    /// The wait behind every async operation.
    ///
    /// `trustingEvents: false` is for a retry after an operation failed although `ZMQ_EVENTS` said
    /// it could proceed (a ROUTER with ``ZMQSocketOption/routerMandatory`` whose addressed peer is
    /// full while another has room): then only a signal on `ZMQ_FD` ends the wait, never a spin.
    nonisolated(nonsending) func waitUntil(
        _ events: ZMQEvents,
        deadline: ContinuousClock.Instant?,
        trustingEvents: Bool
    ) async throws -> Bool {
        let descriptor = try fileDescriptor
        var trusting = trustingEvents
        while true {
            try Task.checkCancellation()
            if try !self.events.isDisjoint(with: events), trusting { return true }
            if let deadline, deadline <= .now { return false }
            _ = try await ZMQReadinessReactor.shared().wait(for: descriptor, deadline: deadline)
            trusting = true
        }
    }

    /// Repeats a non-blocking `attempt` until it succeeds, waiting for `events` in between;
    /// `false` if `deadline` passes first.
    nonisolated(nonsending) func retry(
        awaiting events: ZMQEvents,
        deadline: ContinuousClock.Instant? = nil,
        _ attempt: () throws(ZMQError) -> Bool
    ) async throws -> Bool {
        var trusting = true
        while try !attempt() {
            guard try await waitUntil(events, deadline: deadline, trustingEvents: trusting) else { return false }
            trusting = false
        }
        return true
    }

    /// Receives the next frame into an existing message object, suspending until one arrives.
    ///
    /// The allocation-free form for async hot loops.
    nonisolated(nonsending) public func receive(into message: ZMQMessage) async throws {
        _ = try await retry(awaiting: .readable) { () throws(ZMQError) in try receive(into: message, wait: .never) }
    }

    /// Receives the next frame, suspending until one arrives.
    nonisolated(nonsending) public func receive() async throws -> ZMQMessage {
        let message = ZMQMessage()
        try await receive(into: message)
        return message
    }

    /// Receives the next frame, suspending at most `timeout`; `nil` if none arrived in time.
    nonisolated(nonsending) public func receive(timeout: Duration) async throws -> ZMQMessage? {
        let message = ZMQMessage()
        let received = try await retry(awaiting: .readable, deadline: .deadline(after: timeout)) {
            () throws(ZMQError) in
            try receive(into: message, wait: .never)
        }
        return received ? message : nil
    }

    /// Receives every frame of the next message, suspending until it arrives.
    nonisolated(nonsending) public func receiveMultipart() async throws -> [ZMQMessage] {
        let first = try await receive()
        return try collectRemainingFrames(after: first)
    }

    /// Receives every frame of the next message, suspending at most `timeout`; `nil` if none arrived.
    nonisolated(nonsending) public func receiveMultipart(timeout: Duration) async throws -> [ZMQMessage]? {
        guard let first = try await receive(timeout: timeout) else { return nil }
        return try collectRemainingFrames(after: first)
    }

    /// Sends one frame, suspending while the socket's queue is full.
    nonisolated(nonsending) public func send(_ frame: some ZMQFrameRepresentable, more: Bool = false) async throws {
        _ = try await retry(awaiting: .writable) { () throws(ZMQError) in try send(frame, more: more, wait: .never) }
    }

    /// Sends all frames as one message, suspending while the socket's queue is full.
    nonisolated(nonsending) public func send(multipart frames: [any ZMQFrameRepresentable]) async throws {
        _ = try await retry(awaiting: .writable) { () throws(ZMQError) in try send(multipart: frames, wait: .never) }
    }

    /// Sends message frames as one message without copying, suspending while the queue is full.
    nonisolated(nonsending) public func send(multipart messages: [ZMQMessage]) async throws {
        _ = try await retry(awaiting: .writable) { () throws(ZMQError) in try send(multipart: messages, wait: .never) }
    }

    /// The socket's incoming messages (all frames of each) as an async sequence, ending on cancellation.
    public func messages() -> ZMQIncomingMessages {
        ZMQIncomingMessages(socket: self)
    }
}

/// The messages arriving on a socket, each as its frames; iterated by the socket's owner.
public struct ZMQIncomingMessages: AsyncSequence {
    public typealias Element = [ZMQMessage]
    public typealias Failure = any Error

    let socket: ZMQSocket

    public struct AsyncIterator: AsyncIteratorProtocol {
        let socket: ZMQSocket

        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [ZMQMessage]? {
            do {
                return try await socket.receiveMultipart()
            } catch is CancellationError {
                return nil
            }
        }

        public mutating func next() async throws -> [ZMQMessage]? {
            try await next(isolation: nil)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(socket: socket)
    }
}
