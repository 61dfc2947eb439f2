import CaffeBooks
import CaffeProtocol
import Logging
import SwiftProtobuf
import ZeroMQ

/// Where outputs leave the worker, and what "delivered" means there: one type per
/// `output.kind`, owned by the event pipeline's thread.
///
/// | kind | socket | an input is done (checkpointed) when… |
/// |---|---|---|
/// | `pub` | XPUB, `ZMQ_XPUB_NODROP` | every output was accepted by the socket for every subscriber of its topic |
/// | `push` | PUSH, `ZMQ_IMMEDIATE` | every output was accepted by the socket for a connected consumer |
/// | `acked` | ROUTER, credit and acknowledgements | a consumer acknowledged every output |
///
/// Only `acked` survives a crash of the worker with outputs still queued: PUB and PUSH hand
/// outputs to libzmq, which holds them in memory until the peer takes them.
protocol OutputChannel: AnyObject {
    /// What to poll the socket for now.
    var interest: ZMQEvents { get }
    /// When ``service(at:counts:)`` must run although the socket stayed quiet.
    var nextDeadline: ContinuousClock.Instant? { get }
    /// Whether everything offered is delivered (what a drain waits for).
    var isSettled: Bool { get }

    /// Offers one input's outputs. `false` when the channel cannot take them now: the caller keeps
    /// the event (``RenderedEvent/nextOutput`` says how far it got) and offers it again later.
    func offer(_ event: inout RenderedEvent, at now: ContinuousClock.Instant, counts: inout WorkerCounts)
        throws(ZMQError)
        -> Bool
    /// Reads what the socket has for the worker and sends what became possible.
    func service(at now: ContinuousClock.Instant, counts: inout WorkerCounts) throws(ZMQError)
    /// Inputs whose outputs were all delivered since the last call.
    func takeCompleted() -> [SequenceRef]
    /// Connections of the socket that closed (file descriptors, from its monitor).
    func connectionsClosed(_ connections: [Int32])
}

extension OutputChannel {
    func connectionsClosed(_ connections: [Int32]) {}
}

extension WorkerConfiguration.Output.Kind {
    /// The libzmq socket type of this kind of output.
    var socketType: ZMQSocketType {
        switch self {
        case .pub: .xpub
        case .push: .push
        case .acked: .router
        }
    }

    /// Sets the socket options this kind needs, before it binds or connects.
    func configure(_ socket: ZMQSocket, _ output: WorkerConfiguration.Output) throws(ZMQError) {
        try socket.set(.sendHighWaterMark, to: Int32(output.highWaterMark))
        switch self {
        case .pub:
            // A full subscriber makes the send wait instead of silently dropping for it.
            try socket.set(.xpubNoDrop, to: true)
        case .push:
            // Queue only to connected consumers: with none, sending waits.
            try socket.set(.immediate, to: true)
        case .acked:
            // A delivery to a consumer that has gone fails instead of vanishing.
            try socket.set(.routerMandatory, to: true)
        }
    }

    /// The channel over `socket`, configured and attached.
    func channel(_ socket: ZMQSocket, _ output: WorkerConfiguration.Output, logger: Logger? = nil) -> any OutputChannel
    {
        switch self {
        case .pub: PublishChannel(socket: socket)
        case .push: PushChannel(socket: socket)
        case .acked:
            AcknowledgedChannel(
                socket: socket,
                ackTimeout: output.ackTimeout,
                defaultWindow: output.window,
                maxWindow: output.highWaterMark,
                maxConsumers: output.maxConsumers,
                logger: logger
            )
        }
    }
}

/// PUB with `ZMQ_XPUB_NODROP`: every subscriber of a topic gets every output while it is
/// connected; a subscriber at its high-water mark makes the send wait (retried every
/// millisecond, since an XPUB always reports itself writable) instead of dropping.
final class PublishChannel: OutputChannel {
    let socket: ZMQSocket
    private var blockedSince: ContinuousClock.Instant?
    private var completed: [SequenceRef] = []

    init(socket: ZMQSocket) {
        self.socket = socket
    }

    /// Subscriptions arrive as messages; they are read and dropped.
    var interest: ZMQEvents { .readable }
    var nextDeadline: ContinuousClock.Instant? { blockedSince.map { _ in .now + .milliseconds(1) } }
    var isSettled: Bool { true }

    func offer(_ event: inout RenderedEvent, at now: ContinuousClock.Instant, counts: inout WorkerCounts)
        throws(ZMQError)
        -> Bool
    {
        guard try sendOutputs(&event, on: socket, counts: &counts) else {
            blockedSince = blockedSince ?? now
            return false
        }
        blockedSince = nil
        if let ref = event.ref { completed.append(ref) }
        return true
    }

    func service(at now: ContinuousClock.Instant, counts: inout WorkerCounts) throws(ZMQError) {
        while try socket.tryReceiveMultipart() != nil {}
    }

    func takeCompleted() -> [SequenceRef] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }
}

/// PUSH with `ZMQ_IMMEDIATE`: outputs are shared out among connected consumers; with none, or
/// all of them full, sending waits for the socket to become writable.
final class PushChannel: OutputChannel {
    let socket: ZMQSocket
    private var isBlocked = false
    private var completed: [SequenceRef] = []

    init(socket: ZMQSocket) {
        self.socket = socket
    }

    var interest: ZMQEvents { isBlocked ? .writable : [] }
    var nextDeadline: ContinuousClock.Instant? { nil }
    var isSettled: Bool { true }

    func offer(_ event: inout RenderedEvent, at now: ContinuousClock.Instant, counts: inout WorkerCounts)
        throws(ZMQError)
        -> Bool
    {
        isBlocked = try !sendOutputs(&event, on: socket, counts: &counts)
        guard !isBlocked else { return false }
        if let ref = event.ref { completed.append(ref) }
        return true
    }

    func service(at now: ContinuousClock.Instant, counts: inout WorkerCounts) throws(ZMQError) {}

    func takeCompleted() -> [SequenceRef] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }
}

/// Sends `event`'s unsent outputs without waiting; `false` at the first one the socket cannot
/// take now (libzmq takes a message's later frames once it took the first).
private func sendOutputs(_ event: inout RenderedEvent, on socket: ZMQSocket, counts: inout WorkerCounts)
    throws(ZMQError) -> Bool
{
    while !event.isSent {
        let output = event.outputs[event.nextOutput]
        guard try socket.send(output.topic, more: true, timeout: .zero) else { return false }
        try socket.send(output.header, more: true)
        try socket.send(output.body, more: false)
        event.nextOutput += 1
        counts.published += 1
    }
    return true
}

/// The acknowledged output: a ROUTER whose consumers (DEALERs) grant a window and acknowledge
/// cumulatively (`caffe/v1/delivery.proto`). An input is complete only when every output of it
/// is acknowledged, so the checkpoint never covers an output that sat in a queue; what a consumer
/// leaves unacknowledged is delivered again. The books are ``DeliveryBook``.
final class AcknowledgedChannel: OutputChannel {
    let socket: ZMQSocket
    private var book: DeliveryBook<OutputMessage>
    /// Deliveries queued here at most; beyond, offers wait (and intake stops reading).
    private let capacity: Int
    private let logger: Logger?
    /// Messages refused so far, for logging the first few and then one in a thousand.
    private var refusedSoFar: UInt64 = 0

    init(
        socket: ZMQSocket,
        ackTimeout: Duration,
        defaultWindow: Int,
        maxWindow: Int,
        maxConsumers: Int = 256,
        capacity: Int = 4096,
        logger: Logger? = nil
    ) {
        self.socket = socket
        book = DeliveryBook(
            incarnation: UInt64.random(in: 1...UInt64.max),
            ackTimeout: ackTimeout,
            defaultWindow: defaultWindow,
            maxWindow: maxWindow,
            maxConsumers: maxConsumers
        )
        self.capacity = capacity
        self.logger = logger
    }

    /// The incarnation this worker's tags carry.
    var incarnation: UInt64 { book.incarnation }

    var interest: ZMQEvents { .readable }
    var nextDeadline: ContinuousClock.Instant? { book.nextExpiry }
    var isSettled: Bool { book.isSettled }

    func offer(_ event: inout RenderedEvent, at now: ContinuousClock.Instant, counts: inout WorkerCounts)
        throws(ZMQError)
        -> Bool
    {
        // One source may fill half the queue: another's outputs still find room.
        guard book.waitingCount < capacity, book.waitingCount(source: event.ref?.source ?? "") < capacity / 2
        else { return false }
        book.enqueue(event.outputs, completing: event.ref)
        event.nextOutput = event.outputs.count
        try pump(at: now, counts: &counts)
        return true
    }

    func service(at now: ContinuousClock.Instant, counts: inout WorkerCounts) throws(ZMQError) {
        while let frames = try socket.tryReceiveMultipart() {
            // [routing id][feedback], or with a REQ-style empty delimiter between them. Feedback
            // with fields this worker does not know is not feedback: random bytes can decode.
            guard frames.count >= 2, frames.dropFirst().dropLast().allSatisfy(\.isEmpty),
                let payload = frames.last, !payload.isEmpty,
                let feedback = try? Caffe_V1_ConsumerFeedback(serializedBytes: payload.bytes),
                feedback.unknownFields.data.isEmpty
            else {
                refuse(frames, "not a ConsumerFeedback", counts: &counts)
                continue
            }
            let outcome = book.feedback(
                from: frames[0].bytes,
                incarnation: feedback.incarnation,
                acknowledgedThrough: feedback.acknowledgedThrough,
                window: Int(min(feedback.window, 1 << 20)),
                connection: payload.sourceFileDescriptor ?? -1,
                at: now
            )
            switch outcome {
            case .taken, .registered:
                break
            case .notHello:
                refuse(
                    frames,
                    "feedback from an unknown consumer without a window (a hello names its window)",
                    counts: &counts
                )
            case .full:
                logger?.warning(
                    "consumer refused: output.max_consumers consumers all hold deliveries",
                    metadata: ["max_consumers": "\(book.maxConsumers)"]
                )
            }
        }
        book.expire(at: now)
        try pump(at: now, counts: &counts)
        let tally = book.takeCounts()
        counts.acknowledged += tally.acknowledged
        counts.redelivered += tally.redelivered
        counts.consumersLost += tally.lost
        counts.consumersEvicted += tally.evicted + tally.refused
        counts.consumersDisconnected += tally.disconnected
        counts.deliveriesTimedOut += tally.deliveriesTimedOut
        if tally.timedOut > 0 {
            logger?.warning(
                "consumer held deliveries past output.ack_timeout_ms; they go to others",
                metadata: ["consumers": "\(tally.timedOut)", "deliveries": "\(tally.deliveriesTimedOut)"]
            )
        }
        counts.consumers = book.consumerCount
        counts.unacknowledged = book.unacknowledged
    }

    func connectionsClosed(_ connections: [Int32]) {
        for connection in connections { book.disconnected(connection: connection) }
    }

    /// Counts a message that is not feedback, and logs the first ten and then one in a thousand.
    private func refuse(_ frames: [ZMQMessage], _ why: String, counts: inout WorkerCounts) {
        counts.undecodableFeedback += 1
        refusedSoFar += 1
        guard isLoggedOccurrence(refusedSoFar) else { return }
        logger?.warning(
            "acknowledged output: message refused",
            metadata: [
                "why": "\(why)", "frames": "\(frames.count)",
                "bytes": "\(frames.dropFirst().reduce(0) { $0 + $1.count })",
                "refused_so_far": "\(refusedSoFar)",
            ]
        )
    }

    /// Sends what the consumers' windows allow: `[routing id][DeliveryTag][topic][header][body]`,
    /// copies of the kept frames.
    private func pump(at now: ContinuousClock.Instant, counts: inout WorkerCounts) throws(ZMQError) {
        while let send = book.nextSend(at: now) {
            var tag = Caffe_V1_DeliveryTag()
            tag.incarnation = book.incarnation
            tag.tag = send.tag
            let output = send.delivery.payload
            do {
                guard try socket.send(ZMQMessage(send.consumer), more: true, timeout: .zero) else {
                    // Its queue is full although its window has room: wait for its next report.
                    book.retract(send)
                    continue
                }
                try socket.send(ZMQMessage((try? tag.serializedBytes() as [UInt8]) ?? []), more: true)
                try socket.send(output.topic.copy(), more: true)
                try socket.send(output.header.copy(), more: true)
                try socket.send(output.body.copy(), more: false)
                counts.published += 1
            } catch  where error.isHostUnreachable {
                book.drop(send.consumer)
            }
        }
    }

    func takeCompleted() -> [SequenceRef] { book.takeCompleted() }
}
