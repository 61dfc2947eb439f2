/// The books of the acknowledged output, without sockets: which consumer holds which delivery
/// under which tag, how much room each consumer's window leaves, what waits to be (re)delivered,
/// and which inputs have had every output acknowledged. Time is passed in; the
/// ``AcknowledgedChannel`` drives it with the socket, tests with plain values.
///
/// Rules:
/// - A consumer exists from its first feedback and gets at most `window` unacknowledged
///   deliveries; deliveries go round-robin to consumers with room, oldest first.
/// - Feedback for this incarnation acknowledges every delivery to that consumer up to
///   `acknowledged_through`; an input is complete when all its outputs are acknowledged.
/// - A consumer holding deliveries and silent for ``ackTimeout`` is dropped, and so is one the
///   socket cannot reach; what it held goes back to the front of the queue and is delivered
///   again (to anyone). Tags increase across consumers and are never reused in an incarnation.
struct DeliveryBook<Payload> {
    /// A consumer, by its routing id.
    typealias ConsumerID = [UInt8]

    /// One output on its way.
    struct Delivery {
        var payload: Payload
        /// The input it belongs to; `nil` for outputs of inputs with no sequence.
        var input: Int?
        /// Whether it has been sent before (a redelivery).
        var isRedelivery = false
    }

    /// What to send next: `delivery` to `consumer` under `tag`.
    struct Send {
        var consumer: ConsumerID
        var tag: UInt64
        var delivery: Delivery
    }

    private struct Consumer {
        var window: Int
        /// Tags in order, with their deliveries.
        var inFlight = FIFO<(tag: UInt64, delivery: Delivery)>()
        var lastHeard: ContinuousClock.Instant
    }

    private struct Input {
        var ref: SequenceRef
        var outstanding: Int
    }

    /// Random per worker start; acknowledgements for another incarnation acknowledge nothing.
    let incarnation: UInt64
    /// How long a consumer may stay silent.
    let ackTimeout: Duration
    /// The window of a consumer that asks for 0.
    let defaultWindow: Int
    /// The largest window granted (the socket's high-water mark: more could not be queued).
    let maxWindow: Int
    private var consumers: [ConsumerID: Consumer] = [:]
    private var rotation: [ConsumerID] = []
    private var nextInRotation = 0
    private var waiting = FIFO<Delivery>()
    private var inputs: [Int: Input] = [:]
    private var nextInput = 0
    /// Tags increase across all consumers and are never reused within an incarnation, so an
    /// acknowledgement repeated by a consumer that was dropped and came back cannot acknowledge
    /// deliveries it has not seen.
    private var nextTag: UInt64 = 1
    private(set) var completed: [SequenceRef] = []
    /// Deliveries in consumers' hands.
    private(set) var unacknowledged = 0
    /// Counts since the last ``takeCounts()``: acknowledged, redelivered, consumers lost.
    private var counts = (acknowledged: UInt64(0), redelivered: UInt64(0), lost: UInt64(0))

    init(incarnation: UInt64, ackTimeout: Duration, defaultWindow: Int, maxWindow: Int = 1 << 20) {
        self.incarnation = incarnation
        self.ackTimeout = ackTimeout
        self.maxWindow = max(1, maxWindow)
        self.defaultWindow = min(max(1, defaultWindow), self.maxWindow)
    }

    /// Deliveries waiting for a consumer with room.
    var waitingCount: Int { waiting.count }

    /// Consumers known.
    var consumerCount: Int { consumers.count }

    /// Nothing waiting and nothing unacknowledged.
    var isSettled: Bool { waiting.isEmpty && unacknowledged == 0 }

    /// Queues one input's outputs; the input completes (``takeCompleted()``) when all are
    /// acknowledged. An input with no outputs completes at once.
    mutating func enqueue(_ payloads: [Payload], completing ref: SequenceRef?) {
        var input: Int?
        if let ref {
            guard !payloads.isEmpty else {
                completed.append(ref)
                return
            }
            nextInput += 1
            inputs[nextInput] = Input(ref: ref, outstanding: payloads.count)
            input = nextInput
        }
        for payload in payloads { waiting.append(Delivery(payload: payload, input: input)) }
    }

    /// The next delivery to send, assigned a consumer with room and a tag; `nil` when nothing
    /// waits or no consumer has room.
    mutating func nextSend() -> Send? {
        guard let delivery = waiting.first, !rotation.isEmpty else { return nil }
        for step in 0..<rotation.count {
            let index = (nextInRotation + step) % rotation.count
            let id = rotation[index]
            guard var consumer = consumers[id], consumer.inFlight.count < consumer.window else { continue }
            _ = waiting.removeFirst()
            let tag = nextTag
            nextTag += 1
            consumer.inFlight.append((tag, delivery))
            consumers[id] = consumer
            unacknowledged += 1
            if delivery.isRedelivery { counts.redelivered += 1 }
            nextInRotation = (index + 1) % rotation.count
            return Send(consumer: id, tag: tag, delivery: delivery)
        }
        return nil
    }

    /// Takes a consumer's feedback: registers it, sets its window and, for this incarnation,
    /// acknowledges its deliveries up to `acknowledgedThrough`.
    mutating func feedback(
        from id: ConsumerID,
        incarnation: UInt64,
        acknowledgedThrough: UInt64,
        window: Int,
        at now: ContinuousClock.Instant
    ) {
        var consumer = consumers[id] ?? Consumer(window: defaultWindow, lastHeard: now)
        if consumers[id] == nil { rotation.append(id) }
        consumer.window = window > 0 ? min(window, maxWindow) : defaultWindow
        consumer.lastHeard = now
        if incarnation == self.incarnation {
            while let first = consumer.inFlight.first, first.tag <= acknowledgedThrough {
                _ = consumer.inFlight.removeFirst()
                unacknowledged -= 1
                counts.acknowledged += 1
                acknowledge(first.delivery)
            }
        }
        consumers[id] = consumer
    }

    private mutating func acknowledge(_ delivery: Delivery) {
        guard let index = delivery.input, var input = inputs[index] else { return }
        input.outstanding -= 1
        if input.outstanding == 0 {
            inputs[index] = nil
            completed.append(input.ref)
        } else {
            inputs[index] = input
        }
    }

    /// Takes back `send`, which the socket could not take now (the consumer's queue is full): the
    /// delivery goes back to the front, and the consumer gets nothing more until it next reports.
    mutating func retract(_ send: Send) {
        guard var consumer = consumers[send.consumer] else { return }
        _ = consumer.inFlight.removeLast(1)
        consumer.window = consumer.inFlight.count
        consumers[send.consumer] = consumer
        unacknowledged -= 1
        if send.delivery.isRedelivery { counts.redelivered -= 1 }
        waiting.prepend(contentsOf: [send.delivery])
    }

    /// Drops consumers that hold deliveries and stayed silent for longer than ``ackTimeout``; what
    /// they held is delivered again. A consumer holding nothing needs no heartbeat: if it has
    /// gone, the socket reports it unreachable at the next send (``drop(_:)``).
    mutating func expire(at now: ContinuousClock.Instant) {
        for (id, consumer) in consumers where !consumer.inFlight.isEmpty && now - consumer.lastHeard > ackTimeout {
            drop(id)
        }
    }

    /// Drops a consumer the socket cannot reach; what it held is delivered again.
    mutating func drop(_ id: ConsumerID) {
        guard let consumer = consumers.removeValue(forKey: id) else { return }
        rotation.removeAll { $0 == id }
        if !rotation.isEmpty { nextInRotation %= rotation.count } else { nextInRotation = 0 }
        var held: [Delivery] = []
        var inFlight = consumer.inFlight
        while let entry = inFlight.removeFirst() {
            var delivery = entry.delivery
            delivery.isRedelivery = true
            held.append(delivery)
        }
        unacknowledged -= held.count
        if !held.isEmpty { counts.lost += 1 }
        waiting.prepend(contentsOf: held)
    }

    /// The earliest time a consumer holding deliveries could time out.
    var nextExpiry: ContinuousClock.Instant? {
        consumers.values.filter { !$0.inFlight.isEmpty }.map(\.lastHeard).min().map { $0 + ackTimeout }
    }

    /// Inputs completed since the last call.
    mutating func takeCompleted() -> [SequenceRef] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }

    /// Counts since the last call.
    mutating func takeCounts() -> (acknowledged: UInt64, redelivered: UInt64, lost: UInt64) {
        defer { counts = (0, 0, 0) }
        return counts
    }
}
