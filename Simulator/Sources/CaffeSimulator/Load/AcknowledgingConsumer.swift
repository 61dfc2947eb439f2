import CaffeProtocol
import SwiftProtobuf
import ZeroMQ

/// The consumer side of the worker's acknowledged output (`output.kind: acked`,
/// `caffe/v1/delivery.proto`): a DEALER that announces itself with a window, takes deliveries
/// `[DeliveryTag][topic][header][body]`, and acknowledges what it has processed cumulatively —
/// after every quarter window, at least every ``acknowledgementDelay`` while something is
/// unacknowledged, and every second regardless (a heartbeat, which also announces it to a
/// restarted worker).
///
/// Owned by one thread, like its socket.
public struct AcknowledgingConsumer {
    public let socket: ZMQSocket
    public let window: UInt32
    /// The worker incarnation whose tags are being acknowledged.
    public private(set) var incarnation: UInt64 = 0
    /// The highest tag processed, and the highest acknowledged.
    public private(set) var processed: UInt64 = 0
    private var acknowledged: UInt64 = 0
    private var lastSent = ContinuousClock.now - .seconds(10)
    /// Worker restarts seen (a new incarnation after another).
    public private(set) var workerRestarts = 0

    /// How long a processed delivery may wait for its acknowledgement.
    public static let acknowledgementDelay = Duration.milliseconds(5)

    /// A DEALER on `context`, attached to the worker's output endpoint (`>` connects, `@` binds).
    public init(context: ZMQContext, endpoint: String, window: UInt32 = 1000) throws {
        socket = try context.socket(.dealer)
        try socket.set(.receiveHighWaterMark, to: Int32(clamping: Int(window) * 4 + 1000))
        try LoadRun.attach(socket, endpoint)
        self.window = window
    }

    /// Tells the worker this consumer exists (call once connected, and it is repeated every second).
    public mutating func announce() throws(ZMQError) {
        try sendFeedback()
    }

    /// The tag of a delivery's first frame; the delivery is processed once the caller has handled
    /// the rest of it. Returns `false` for a first frame that is not a `DeliveryTag`.
    public mutating func accept(tagFrame: ZMQMessage) -> Bool {
        guard let tag = try? Caffe_V1_DeliveryTag(serializedBytes: tagFrame.bytes) else { return false }
        if tag.incarnation != incarnation {
            if incarnation != 0 { workerRestarts += 1 }
            incarnation = tag.incarnation
            processed = 0
            acknowledged = 0
        }
        processed = max(processed, tag.tag)
        return true
    }

    /// Sends an acknowledgement or heartbeat when one is due.
    public mutating func acknowledgeIfDue(at now: ContinuousClock.Instant = .now) throws(ZMQError) {
        let pending = processed > acknowledged
        let quarterWindow = processed - acknowledged >= UInt64(max(1, window / 4))
        if quarterWindow || (pending && now - lastSent >= Self.acknowledgementDelay) || now - lastSent >= .seconds(1) {
            try sendFeedback(at: now)
        }
    }

    /// Acknowledges everything processed that is not acknowledged yet, now: the last feedback of a
    /// consumer about to go, so the worker is not left holding deliveries nobody will acknowledge.
    public mutating func acknowledgeEverything() throws(ZMQError) {
        guard processed > acknowledged else { return }
        try sendFeedback()
    }

    /// When ``acknowledgeIfDue(at:)`` next has something to do.
    public var nextDue: ContinuousClock.Instant {
        processed > acknowledged ? lastSent + Self.acknowledgementDelay : lastSent + .seconds(1)
    }

    private mutating func sendFeedback(at now: ContinuousClock.Instant = .now) throws(ZMQError) {
        var feedback = Caffe_V1_ConsumerFeedback()
        feedback.incarnation = incarnation
        feedback.acknowledgedThrough = processed
        feedback.window = window
        let bytes: [UInt8] = (try? feedback.serializedBytes()) ?? []
        _ = try socket.send(bytes, more: false, timeout: .zero)
        acknowledged = processed
        lastSent = now
    }
}
