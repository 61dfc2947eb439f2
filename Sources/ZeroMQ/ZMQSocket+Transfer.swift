import CZeroMQ
import Glibc

/// How a send or receive waits, derived from a ``ZMQTimeout``.
enum ZMQWait {
    /// A plain blocking call. A socket-level timeout (`ZMQ_SNDTIMEO`/`ZMQ_RCVTIMEO`) expiring
    /// throws `EAGAIN` when `throwsOnTimeout`, and is reported as "not done" otherwise.
    case blocking(throwsOnTimeout: Bool)
    /// Poll up to the deadline; `EAGAIN` at the deadline is reported as "not done".
    case until(ContinuousClock.Instant)
    /// One non-blocking attempt (`ZMQ_DONTWAIT`).
    case never

    init(_ timeout: ZMQTimeout) {
        switch timeout {
        case .infinite: self = .blocking(throwsOnTimeout: false)
        case .milliseconds(let value) where value <= 0: self = .never
        case .milliseconds(let value): self = .until(.deadline(after: .milliseconds(value)))
        }
    }
}

extension ZMQSocket {
    /// Runs one libzmq send or receive `attempt` (given its flags) under a wait policy.
    ///
    /// Returns `false` when the call would block and the policy allows giving up; retries on `EINTR`.
    @inline(__always)
    func transfer(
        _ wait: ZMQWait,
        awaiting events: ZMQEvents,
        _ operation: @autoclosure () -> String,
        attempt: (UnsafeMutableRawPointer, Int32) -> Int32
    ) throws(ZMQError) -> Bool {
        let handle = try open(operation())
        var pollSaidReady = false
        while true {
            let flags: Int32 = if case .blocking = wait { 0 } else { ZMQ_DONTWAIT }
            if attempt(handle, flags) >= 0 { return true }
            let code = zmq_errno()
            switch code {
            case EINTR:
                continue
            case EAGAIN:
                switch wait {
                case .blocking(let throwsOnTimeout):
                    guard throwsOnTimeout else { return false }
                    throw ZMQError(code: code, operation: operation(), message: "timed out (socket timeout option)")
                case .never:
                    return false
                case .until(let deadline):
                    let remaining = ContinuousClock.now.duration(to: deadline)
                    guard remaining > .zero else { return false }
                    if pollSaidReady {
                        // Ready for some peer but not this message (a ROUTER with a full peer):
                        // back off briefly instead of spinning until the deadline.
                        usleep(UInt32(min(ZMQTimeout(remaining).rawMilliseconds, 1)) * 1000)
                    }
                    var item = zmq_pollitem_t(socket: handle, fd: 0, events: events.rawValue, revents: 0)
                    let millis = ZMQTimeout(remaining).rawMilliseconds
                    let ready = zmq_poll(&item, 1, Int(millis))
                    if ready < 0 && zmq_errno() != EINTR {
                        throw ZMQError.last("zmq_poll(\(operation()))")
                    }
                    pollSaidReady = ready > 0
                }
            default:
                throw ZMQError(code: code, operation: operation())
            }
        }
    }

    // MARK: Sending frames

    /// Sends one frame, copying its bytes, and blocks until libzmq has queued it (`zmq_send`).
    ///
    /// - Parameters:
    ///   - frame: the bytes to send.
    ///   - more: `true` when further frames of the same message follow (`ZMQ_SNDMORE`).
    /// - Throws: ``ZMQError``; ``ZMQError/isWouldBlock`` only if ``ZMQSocketOption/sendTimeout`` is set.
    public func send(_ frame: some ZMQFrameRepresentable, more: Bool = false) throws(ZMQError) {
        _ = try send(frame, more: more, wait: .blocking(throwsOnTimeout: true))
    }

    /// Sends one frame, waiting at most `timeout`; returns `false` if it could not be queued in time.
    ///
    /// `.zero` makes one non-blocking attempt: a full queue is an outcome, not an error.
    public func send(_ frame: some ZMQFrameRepresentable, more: Bool = false, timeout: ZMQTimeout) throws(ZMQError)
        -> Bool
    {
        try send(frame, more: more, wait: ZMQWait(timeout))
    }

    /// Sends one frame if that can be done without blocking; returns `false` otherwise.
    public func trySend(_ frame: some ZMQFrameRepresentable, more: Bool = false) throws(ZMQError) -> Bool {
        try send(frame, more: more, wait: .never)
    }

    @inline(__always)
    func send(_ frame: some ZMQFrameRepresentable, more: Bool, wait: ZMQWait) throws(ZMQError) -> Bool {
        let moreFlag = more ? ZMQ_SNDMORE : 0
        let outcome = frame.withFrameBytes { bytes in
            Result { () throws(ZMQError) in
                try transfer(wait, awaiting: .writable, "zmq_send(\(type))") { handle, flags in
                    zmq_send(handle, bytes.baseAddress, bytes.count, flags | moreFlag)
                }
            }
        }
        return try outcome.get()
    }

    /// Sends a message frame without copying its bytes (`zmq_msg_send`); the frame is left empty.
    public func send(_ message: ZMQMessage, more: Bool = false) throws(ZMQError) {
        _ = try send(message, more: more, wait: .blocking(throwsOnTimeout: true))
    }

    /// Sends a message frame without copying, waiting at most `timeout`; on `false` the frame keeps its content.
    public func send(_ message: ZMQMessage, more: Bool = false, timeout: ZMQTimeout) throws(ZMQError) -> Bool {
        try send(message, more: more, wait: ZMQWait(timeout))
    }

    @inline(__always)
    func send(_ message: ZMQMessage, more: Bool, wait: ZMQWait) throws(ZMQError) -> Bool {
        let moreFlag = more ? ZMQ_SNDMORE : 0
        return try transfer(wait, awaiting: .writable, "zmq_msg_send(\(type))") { handle, flags in
            zmq_msg_send(&message.raw, handle, flags | moreFlag)
        }
    }

    // MARK: Sending multipart messages

    /// Sends all frames as one message; peers receive all of them or none.
    public func send(multipart frames: [any ZMQFrameRepresentable]) throws(ZMQError) {
        _ = try send(multipart: frames, wait: .blocking(throwsOnTimeout: true))
    }

    /// Sends all frames as one message, waiting at most `timeout` for the first to be queued.
    ///
    /// libzmq checks the high-water mark on a message's first frame only, so once that is queued
    /// the rest follow without waiting. Returns `false` if nothing was sent.
    public func send(multipart frames: [any ZMQFrameRepresentable], timeout: ZMQTimeout) throws(ZMQError) -> Bool {
        try send(multipart: frames, wait: ZMQWait(timeout))
    }

    func send(multipart frames: [any ZMQFrameRepresentable], wait: ZMQWait) throws(ZMQError) -> Bool {
        guard let last = frames.indices.last else {
            throw ZMQError.invalidArgument("zmq_send(\(type))", "a message needs at least one frame")
        }
        for index in frames.indices {
            let ok = try send(
                frames[index],
                more: index != last,
                wait: index == 0 ? wait : .blocking(throwsOnTimeout: true)
            )
            if !ok { return false }
        }
        return true
    }

    /// Sends message frames as one message without copying their bytes; the frames are left empty.
    public func send(multipart messages: [ZMQMessage]) throws(ZMQError) {
        _ = try send(multipart: messages, wait: .blocking(throwsOnTimeout: true))
    }

    /// Sends message frames as one message, waiting at most `timeout` for the first to be queued.
    public func send(multipart messages: [ZMQMessage], timeout: ZMQTimeout) throws(ZMQError) -> Bool {
        try send(multipart: messages, wait: ZMQWait(timeout))
    }

    func send(multipart messages: [ZMQMessage], wait: ZMQWait) throws(ZMQError) -> Bool {
        guard let last = messages.indices.last else {
            throw ZMQError.invalidArgument("zmq_msg_send(\(type))", "a message needs at least one frame")
        }
        for index in messages.indices {
            let ok = try send(
                messages[index],
                more: index != last,
                wait: index == 0 ? wait : .blocking(throwsOnTimeout: true)
            )
            if !ok { return false }
        }
        return true
    }

    // MARK: Receiving frames

    /// Receives the next frame, blocking until one arrives (`zmq_msg_recv`).
    ///
    /// - Throws: ``ZMQError``; ``ZMQError/isWouldBlock`` only if ``ZMQSocketOption/receiveTimeout`` is set.
    public func receive() throws(ZMQError) -> ZMQMessage {
        let message = ZMQMessage()
        _ = try receive(into: message, wait: .blocking(throwsOnTimeout: true))
        return message
    }

    /// Receives the next frame, waiting at most `timeout`; `nil` if none arrived in time.
    public func receive(timeout: ZMQTimeout) throws(ZMQError) -> ZMQMessage? {
        let message = ZMQMessage()
        return try receive(into: message, wait: ZMQWait(timeout)) ? message : nil
    }

    /// Receives a frame if one is waiting; `nil` otherwise.
    public func tryReceive() throws(ZMQError) -> ZMQMessage? {
        try receive(timeout: .zero)
    }

    /// Receives the next frame into an existing message object, replacing its content.
    ///
    /// The allocation-free form for hot loops. Returns `false` if no frame arrived within `timeout`.
    public func receive(into message: ZMQMessage, timeout: ZMQTimeout = .infinite) throws(ZMQError) -> Bool {
        try receive(into: message, wait: ZMQWait(timeout))
    }

    @inline(__always)
    func receive(into message: ZMQMessage, wait: ZMQWait) throws(ZMQError) -> Bool {
        try transfer(wait, awaiting: .readable, "zmq_msg_recv(\(type))") { handle, flags in
            zmq_msg_recv(&message.raw, handle, flags)
        }
    }

    // MARK: Receiving multipart messages

    /// Receives every frame of the next message, blocking until it arrives.
    public func receiveMultipart() throws(ZMQError) -> [ZMQMessage] {
        let first = try receive()
        return try collectRemainingFrames(after: first)
    }

    /// Receives every frame of the next message, waiting at most `timeout`; `nil` if none arrived.
    public func receiveMultipart(timeout: ZMQTimeout) throws(ZMQError) -> [ZMQMessage]? {
        guard let first = try receive(timeout: timeout) else { return nil }
        return try collectRemainingFrames(after: first)
    }

    /// Receives every frame of a message if one is waiting; `nil` otherwise.
    public func tryReceiveMultipart() throws(ZMQError) -> [ZMQMessage]? {
        try receiveMultipart(timeout: .zero)
    }

    /// libzmq delivers messages atomically: once the first frame is here, the rest are too.
    func collectRemainingFrames(after first: ZMQMessage) throws(ZMQError) -> [ZMQMessage] {
        var frames = [first]
        while frames[frames.count - 1].hasMore {
            let next = ZMQMessage()
            _ = try receive(into: next, wait: .blocking(throwsOnTimeout: true))
            frames.append(next)
        }
        return frames
    }
}
