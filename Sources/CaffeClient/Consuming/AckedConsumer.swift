import CaffeProtocol
import CaffeTransport
import SwiftProtobuf
import ZeroMQ

/// Consumes one worker's acknowledged output (`output.kind: acked`, docs/WIRE.md "The
/// acknowledged output"): a DEALER that says hello with its window, takes deliveries
/// `[DeliveryTag][topic][header][body]`, and acknowledges what the application has processed —
/// cumulatively, after every quarter window, within ``acknowledgementDelay`` of the last one
/// processed, and every second regardless (a heartbeat, which also introduces it to a restarted
/// worker). Repeats (a redelivery, a second worker rendering the same stream) are acknowledged and
/// skipped by their ``OutputKey``.
///
/// ```swift
/// let consumer = try AckedConsumer(endpoint: ">tcp://127.0.0.1:5561", window: 100)
/// while let delivery = try await consumer.receive(timeout: .seconds(5)) {
///     try store(delivery.event)        // the application's work
///     consumer.processed(delivery)     // acknowledged with the next feedback
/// }
/// ```
///
/// One per worker (a DEALER connected to several spreads its feedback among them). Not
/// `Sendable`: it belongs to one task, as its socket belongs to one thread at a time.
public final class AckedConsumer {
    /// A delivery: its tag, and the output.
    public struct Delivery: Sendable {
        /// The worker's incarnation and the delivery's tag.
        public let incarnation: UInt64
        public let tag: UInt64
        /// The output delivered.
        public let event: OutputEvent
    }

    /// The socket deliveries arrive on (a poll loop may wait on it and feed
    /// ``accept(tagFrame:)`` itself).
    public let socket: ZMQSocket
    /// Deliveries the worker may send ahead of the acknowledgements: the hello's, and every
    /// feedback's (a consumer falling behind may lower it; at least 1).
    public var window: UInt32 {
        didSet { window = max(1, window) }
    }
    /// The address the socket is attached to (a bound wildcard port resolved).
    public let address: String
    /// The worker incarnation whose tags are being acknowledged (0: none seen yet).
    public private(set) var incarnation: UInt64 = 0
    /// The highest tag processed, in the current incarnation.
    public private(set) var processedThrough: UInt64 = 0
    /// Times the tags started again: the worker restarted (a new incarnation) or forgot this
    /// consumer (its tags went back).
    public private(set) var workerRestarts = 0
    /// Outputs skipped as repeats, and deliveries that were not readable (acknowledged all the same:
    /// a delivery nobody acknowledges would hold the worker's window).
    public var repeats: Int { deduplicator?.repeats ?? 0 }
    public private(set) var unreadable = 0

    private var acknowledged: UInt64 = 0
    private var received: UInt64 = 0
    /// The tag of the last delivery ``receive(timeout:)`` returned, and the highest one it skipped
    /// since (a repeat, an unreadable one): skipped tags are acknowledged only once every returned
    /// delivery before them is processed, acknowledgements being cumulative.
    private var returned: UInt64 = 0
    private var skipped: UInt64 = 0
    private var lastSent = ContinuousClock.now - .seconds(10)
    private var deduplicator: OutputDeduplicator?

    /// How long a processed delivery may wait for its acknowledgement.
    public static let acknowledgementDelay = Duration.milliseconds(5)

    /// A DEALER attached to the worker's acknowledged output (`>tcp://…` or a bare address
    /// connects, `@…` binds, for a worker whose output connects), in `context`. `window` ≥ 1;
    /// `deduplicate` remembers that many output keys (0: every delivery is returned); `curve`
    /// for a worker that runs CURVE.
    public init(
        endpoint: String,
        window: UInt32 = 100,
        deduplicate: Int = 1_000_000,
        curve: CurveCredentials? = nil,
        context: ZMQContext
    ) throws(CaffeClientError) {
        guard window >= 1 else { throw .invalidEvent("a hello needs a window of at least 1") }
        guard let parsed = CaffeEndpoint(parsing: endpoint, defaultMode: .connect) else { throw .badEndpoint(endpoint) }
        self.window = window
        deduplicator = deduplicate > 0 ? OutputDeduplicator(capacity: deduplicate) : nil
        do {
            socket = try context.socket(.dealer)
            try socket.set(.receiveHighWaterMark, to: Int32(clamping: Int(window) * 4 + 1000))
            // A connection that died silently (a partitioned host) is noticed and made again.
            try socket.set(.heartbeatInterval, to: .seconds(1))
            try socket.set(.heartbeatTimeout, to: .seconds(3))
            try curve?.secure(socket)
            address = try socket.attach(parsed)
        } catch {
            throw .transport(error)
        }
    }

    deinit { socket.close(linger: .zero) }

    /// Closes the socket (`linger`: how long queued feedback may still leave).
    public func close(linger: Duration = .zero) {
        socket.close(linger: ZMQTimeout(linger))
    }

    /// Tells the worker this consumer exists (sent by ``receive(timeout:)`` too, and repeated every
    /// second).
    public func announce() throws(CaffeClientError) {
        try sendFeedback(at: .now)
    }

    /// The next output not seen before, or `nil` when none came within `timeout`. Sends what
    /// acknowledgements and heartbeats fall due while it waits. Call ``processed(_:)`` once the
    /// application has handled it.
    public func receive(timeout: Duration) async throws(CaffeClientError) -> Delivery? {
        let until = ContinuousClock.now + timeout
        while true {
            try acknowledgeIfDue()
            let now = ContinuousClock.now
            guard now < until else { return nil }
            let wait = min(until, nextDue) - now
            let frames: [ZMQMessage]?
            do {
                frames = try await socket.receiveMultipart(timeout: max(wait, .milliseconds(1)))
            } catch {
                throw .transport(error as? ZMQError ?? ZMQError(code: 0, operation: "receive", message: "\(error)"))
            }
            guard let frames, let first = frames.first, take(tagFrame: first) else { continue }
            let tag = received
            guard let event = try? OutputEvent(frames: Array(frames.dropFirst())) else {
                unreadable += 1
                skip(tag)
                continue
            }
            if deduplicator?.isFirst(event.key) == false {
                skip(tag)
                continue
            }
            returned = tag
            return Delivery(incarnation: incarnation, tag: tag, event: event)
        }
    }

    /// The application has handled `delivery` (and, acknowledgements being cumulative, every one
    /// before it): it is acknowledged with the next feedback.
    public func processed(_ delivery: Delivery) {
        guard delivery.incarnation == incarnation else { return }
        processedThrough = max(processedThrough, delivery.tag)
        if processedThrough >= returned { processedThrough = max(processedThrough, skipped) }
    }

    /// A delivery the application never sees: acknowledged with the others once every delivery
    /// returned before it is processed.
    private func skip(_ tag: UInt64) {
        if processedThrough >= returned {
            processedThrough = max(processedThrough, tag)
        } else {
            skipped = max(skipped, tag)
        }
    }

    /// Takes a delivery's first frame, for a caller reading the socket itself; the delivery counts
    /// as processed. `false` for a frame that is not a `DeliveryTag`.
    public func accept(tagFrame: ZMQMessage) -> Bool {
        guard take(tagFrame: tagFrame) else { return false }
        processedThrough = max(processedThrough, received)
        return true
    }

    /// Reads a delivery's tag: a new incarnation, or a tag that went back (the worker forgot this
    /// consumer), starts the count again from it.
    private func take(tagFrame: ZMQMessage) -> Bool {
        guard let tag = try? Caffe_V1_DeliveryTag(serializedBytes: tagFrame.bytes) else { return false }
        if tag.incarnation != incarnation || tag.tag <= received {
            if incarnation != 0 || received != 0 { workerRestarts += 1 }
            incarnation = tag.incarnation
            processedThrough = tag.tag - min(tag.tag, 1)
            acknowledged = processedThrough
            returned = processedThrough
            skipped = 0
        }
        received = tag.tag
        return true
    }

    /// Sends an acknowledgement or heartbeat when one is due.
    public func acknowledgeIfDue(at now: ContinuousClock.Instant = .now) throws(CaffeClientError) {
        let pending = processedThrough > acknowledged
        let quarterWindow = processedThrough - min(processedThrough, acknowledged) >= UInt64(max(1, window / 4))
        if quarterWindow || (pending && now - lastSent >= Self.acknowledgementDelay) || now - lastSent >= .seconds(1) {
            try sendFeedback(at: now)
        }
    }

    /// Acknowledges everything processed that is not yet, now: the last feedback of a consumer
    /// about to go, so the worker is not left holding deliveries nobody will acknowledge.
    public func acknowledgeEverything() throws(CaffeClientError) {
        guard processedThrough > acknowledged else { return }
        try sendFeedback(at: .now)
    }

    /// When ``acknowledgeIfDue(at:)`` next has something to do.
    public var nextDue: ContinuousClock.Instant {
        processedThrough > acknowledged ? lastSent + Self.acknowledgementDelay : lastSent + .seconds(1)
    }

    private func sendFeedback(at now: ContinuousClock.Instant) throws(CaffeClientError) {
        var feedback = Caffe_V1_ConsumerFeedback()
        feedback.incarnation = incarnation
        feedback.acknowledgedThrough = processedThrough
        feedback.window = window
        let bytes: [UInt8] = (try? feedback.serializedBytes()) ?? []
        do {
            // The queue to the worker full: tried again when next due.
            guard try socket.send(bytes, more: false, timeout: .zero) else { return }
        } catch {
            throw .transport(error)
        }
        acknowledged = processedThrough
        lastSent = now
    }
}
