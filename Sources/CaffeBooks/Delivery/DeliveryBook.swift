/// The books of the acknowledged output, without sockets: which consumer holds which delivery
/// under which tag, how much room each consumer's window leaves, what waits to be (re)delivered,
/// and which inputs have had every output acknowledged. Time is passed in; the
/// ``AcknowledgedChannel`` drives it with the socket, tests with plain values.
///
/// Rules:
/// - A consumer exists from its hello: feedback with a window of at least 1. Anything else from a
///   peer the book does not know is refused (``FeedbackOutcome``). At most ``maxConsumers`` exist:
///   a new one takes the place of the one idle longest (holding nothing; unproven ones first), or
///   is refused when every one holds deliveries.
/// - A consumer is *unproven* until it acknowledges a delivery: until then its window is at most
///   ``probationWindow``, and it gets deliveries only when no proven consumer has room. A peer
///   that registers and never reads costs at most that many deliveries an ack timeout each, and
///   none while an honest consumer keeps up.
/// - Deliveries go round-robin to consumers with room, oldest first. Feedback for this incarnation
///   acknowledges every delivery to that consumer up to `acknowledged_through`; an input is
///   complete when all its outputs are acknowledged.
/// - A consumer is dropped, and what it held goes back to the front of the queue for anyone, when
///   it holds a delivery older than ``ackTimeout`` (heartbeats do not extend a hold), when it holds
///   deliveries and stays silent that long, when the socket cannot reach it, or when its
///   connection closes. Tags increase across consumers and are never reused in an incarnation.
public struct DeliveryBook<Payload> {
    /// A consumer, by its routing id.
    public typealias ConsumerID = [UInt8]

    /// One output on its way.
    public struct Delivery {
        public var payload: Payload
        /// The input it belongs to; `nil` for outputs of inputs with no sequence.
        public var input: Int?
        /// Its source: deliveries wait in a queue per source, served in turn.
        public var source = ""
        /// Whether it has been sent before (a redelivery).
        public var isRedelivery = false

        @inlinable
        public init(payload: Payload, input: Int?, source: String = "", isRedelivery: Bool = false) {
            self.payload = payload
            self.input = input
            self.source = source
            self.isRedelivery = isRedelivery
        }
    }

    /// What to send next: `delivery` to `consumer` under `tag`.
    public struct Send {
        public var consumer: ConsumerID
        public var tag: UInt64
        public var delivery: Delivery

        @inlinable
        public init(consumer: ConsumerID, tag: UInt64, delivery: Delivery) {
            self.consumer = consumer
            self.tag = tag
            self.delivery = delivery
        }
    }

    /// What became of one feedback message.
    public enum FeedbackOutcome: Hashable {
        /// A known consumer's feedback, taken.
        case taken
        /// A hello: the consumer exists now (`evicted`: the idle one it replaced).
        case registered(evicted: ConsumerID?)
        /// From an unknown peer and not a hello (no window): ignored.
        case notHello
        /// A hello refused: every consumer place is taken by one holding deliveries.
        case full
    }

    @usableFromInline struct Consumer {
        public var window: Int
        /// Tags in order, with their deliveries and when they were sent.
        public var inFlight = FIFO<(tag: UInt64, delivery: Delivery, sentAt: ContinuousClock.Instant)>()
        public var lastHeard: ContinuousClock.Instant
        /// Whether it has acknowledged a delivery.
        public var isProven = false
        /// The connection its feedback came on (`-1`: unknown), so a disconnect can name it.
        public var connection: Int32 = -1

        @usableFromInline
        init(window: Int, lastHeard: ContinuousClock.Instant) {
            self.window = window
            self.lastHeard = lastHeard
        }

        /// The deliveries it may hold now.
        @inlinable public func room(probation: Int) -> Int {
            (isProven ? window : min(window, probation)) - inFlight.count
        }
    }

    @usableFromInline struct Input {
        public var ref: SequenceRef
        public var outstanding: Int

        @usableFromInline
        init(ref: SequenceRef, outstanding: Int) {
            self.ref = ref
            self.outstanding = outstanding
        }
    }

    /// Random per worker start; acknowledgements for another incarnation acknowledge nothing.
    public let incarnation: UInt64
    /// How long a consumer may hold a delivery, or stay silent while it holds one.
    public let ackTimeout: Duration
    /// The window of a consumer whose feedback carries none after its hello.
    public let defaultWindow: Int
    /// The largest window granted (the socket's high-water mark: more could not be queued).
    public let maxWindow: Int
    /// Consumers at most.
    public let maxConsumers: Int
    /// The window of a consumer until its first acknowledgement.
    public let probationWindow: Int
    @usableFromInline var consumers: [ConsumerID: Consumer] = [:]
    @usableFromInline var rotation: [ConsumerID] = []
    @usableFromInline var nextInRotation = 0
    /// Waiting for a consumer with room: a queue per source, served in turn, so a source that
    /// floods does not hold another's outputs behind its own.
    @usableFromInline var waiting = FairQueue<Delivery>()
    @usableFromInline var inputs: [Int: Input] = [:]
    @usableFromInline var nextInput = 0
    /// Tags increase across all consumers and are never reused within an incarnation, so an
    /// acknowledgement repeated by a consumer that was dropped and came back cannot acknowledge
    /// deliveries it has not seen.
    @usableFromInline var nextTag: UInt64 = 1
    @usableFromInline var storedCompleted: [SequenceRef] = []
    /// Inputs completed and not yet taken (``takeCompleted()``).
    @inlinable public var completed: [SequenceRef] { storedCompleted }
    /// Deliveries in consumers' hands.
    @usableFromInline var storedUnacknowledged = 0
    @inlinable public var unacknowledged: Int { storedUnacknowledged }
    /// Counts since the last ``takeCounts()``.
    @usableFromInline var counts = Counts()

    /// What happened since the last ``takeCounts()``.
    public struct Counts: Equatable {
        public var acknowledged: UInt64 = 0
        public var redelivered: UInt64 = 0
        /// Consumers dropped for silence or unreachable, holding deliveries.
        public var lost: UInt64 = 0
        /// Consumers whose hold on a delivery outlasted the ack timeout.
        public var timedOut: UInt64 = 0
        /// Deliveries taken back from them.
        public var deliveriesTimedOut: UInt64 = 0
        public var evicted: UInt64 = 0
        public var refused: UInt64 = 0
        public var disconnected: UInt64 = 0

        @inlinable
        public init() {}
    }

    @inlinable public init(
        incarnation: UInt64,
        ackTimeout: Duration,
        defaultWindow: Int,
        maxWindow: Int = 1 << 20,
        maxConsumers: Int = 256,
        probationWindow: Int = 8
    ) {
        self.incarnation = incarnation
        self.ackTimeout = ackTimeout
        self.maxWindow = max(1, maxWindow)
        self.defaultWindow = min(max(1, defaultWindow), self.maxWindow)
        self.maxConsumers = max(1, maxConsumers)
        self.probationWindow = max(1, probationWindow)
    }

    /// Deliveries waiting for a consumer with room.
    @inlinable public var waitingCount: Int { waiting.count }

    /// Deliveries of `source`'s inputs waiting.
    @inlinable public func waitingCount(source: String) -> Int { waiting.count(for: source) }

    /// Consumers known.
    @inlinable public var consumerCount: Int { consumers.count }

    /// Nothing waiting and nothing unacknowledged.
    @inlinable public var isSettled: Bool { waiting.isEmpty && unacknowledged == 0 }

    /// Queues one input's outputs; the input completes (``takeCompleted()``) when all are
    /// acknowledged. An input with no outputs completes at once.
    @inlinable public mutating func enqueue(_ payloads: [Payload], completing ref: SequenceRef?) {
        var input: Int?
        if let ref {
            guard !payloads.isEmpty else {
                storedCompleted.append(ref)
                return
            }
            nextInput += 1
            inputs[nextInput] = Input(ref: ref, outstanding: payloads.count)
            input = nextInput
        }
        let source = ref?.source ?? ""
        for payload in payloads {
            waiting.append(Delivery(payload: payload, input: input, source: source), key: source)
        }
    }

    /// The next delivery to send, assigned a consumer with room and a tag; `nil` when nothing
    /// waits or no consumer has room. Proven consumers come first.
    @inlinable public mutating func nextSend(at now: ContinuousClock.Instant = .now) -> Send? {
        guard let delivery = waiting.first, !rotation.isEmpty else { return nil }
        for proven in [true, false] {
            for step in 0..<rotation.count {
                let index = (nextInRotation + step) % rotation.count
                let id = rotation[index]
                guard hasRoom(id, proven: proven) else { continue }
                _ = waiting.removeFirst()
                let tag = nextTag
                nextTag += 1
                // In place: a copy of the consumer taken out and put back would copy its whole
                // window of deliveries on every send.
                consumers[id]?.inFlight.append((tag, delivery, now))
                storedUnacknowledged += 1
                if delivery.isRedelivery { counts.redelivered += 1 }
                nextInRotation = (index + 1) % rotation.count
                return Send(consumer: id, tag: tag, delivery: delivery)
            }
        }
        return nil
    }

    /// Whether consumer `id` is `proven` (or not) and may hold one more delivery.
    @usableFromInline func hasRoom(_ id: ConsumerID, proven: Bool) -> Bool {
        guard let consumer = consumers[id] else { return false }
        return consumer.isProven == proven && consumer.room(probation: probationWindow) > 0
    }

    /// Takes a consumer's feedback: a hello registers it (within ``maxConsumers``); a known
    /// consumer's sets its window (0: `output.window`) and, for this incarnation, acknowledges its
    /// deliveries up to `acknowledgedThrough`.
    @discardableResult
    @inlinable public mutating func feedback(
        from id: ConsumerID,
        incarnation: UInt64,
        acknowledgedThrough: UInt64,
        window: Int,
        connection: Int32 = -1,
        at now: ContinuousClock.Instant
    ) -> FeedbackOutcome {
        var outcome = FeedbackOutcome.taken
        var consumer: Consumer
        // Taken out while it changes (and put back below), so its window of deliveries is not copied.
        if let known = consumers.removeValue(forKey: id) {
            consumer = known
            consumer.window = window > 0 ? min(window, maxWindow) : defaultWindow
        } else {
            guard window > 0 else { return .notHello }
            var evicted: ConsumerID?
            if consumers.count >= maxConsumers {
                // The one idle longest, unproven before proven; none idle: refuse the newcomer.
                let idle = consumers.filter { $0.value.inFlight.isEmpty }
                guard
                    let oldest = idle.min(by: {
                        ($0.value.isProven ? 1 : 0, $0.value.lastHeard) < (
                            $1.value.isProven ? 1 : 0, $1.value.lastHeard
                        )
                    })?.key
                else {
                    counts.refused += 1
                    return .full
                }
                drop(oldest)
                counts.evicted += 1
                evicted = oldest
            }
            consumer = Consumer(window: min(window, maxWindow), lastHeard: now)
            rotation.append(id)
            outcome = .registered(evicted: evicted)
        }
        consumer.lastHeard = now
        if connection >= 0 { consumer.connection = connection }
        if incarnation == self.incarnation {
            while let first = consumer.inFlight.first, first.tag <= acknowledgedThrough {
                _ = consumer.inFlight.removeFirst()
                storedUnacknowledged -= 1
                counts.acknowledged += 1
                consumer.isProven = true
                acknowledge(first.delivery)
            }
        }
        consumers[id] = consumer
        return outcome
    }

    @usableFromInline mutating func acknowledge(_ delivery: Delivery) {
        guard let index = delivery.input, var input = inputs[index] else { return }
        input.outstanding -= 1
        if input.outstanding == 0 {
            inputs[index] = nil
            storedCompleted.append(input.ref)
        } else {
            inputs[index] = input
        }
    }

    /// Takes back `send`, which the socket could not take now (the consumer's queue is full): the
    /// delivery goes back to the front, and the consumer gets nothing more until it next reports.
    @inlinable public mutating func retract(_ send: Send) {
        guard var consumer = consumers.removeValue(forKey: send.consumer) else { return }
        _ = consumer.inFlight.removeLast(1)
        consumer.window = consumer.inFlight.count
        consumers[send.consumer] = consumer
        storedUnacknowledged -= 1
        if send.delivery.isRedelivery { counts.redelivered -= 1 }
        waiting.prepend(send.delivery, key: send.delivery.source)
    }

    /// Drops consumers holding a delivery sent more than ``ackTimeout`` ago, or holding
    /// deliveries and silent that long; what they held is delivered again. A consumer holding
    /// nothing needs no heartbeat: if it has gone, its disconnection (``disconnected(connection:)``)
    /// or the next send (``drop(_:)``) removes it.
    @inlinable public mutating func expire(at now: ContinuousClock.Instant) {
        for (id, consumer) in consumers {
            guard let oldest = consumer.inFlight.first else { continue }
            if now - consumer.lastHeard > ackTimeout {
                drop(id)
            } else if now - oldest.sentAt > ackTimeout {
                counts.timedOut += 1
                counts.deliveriesTimedOut += UInt64(consumer.inFlight.count)
                drop(id, lost: false)
            }
        }
    }

    /// Drops the consumers whose feedback came over `connection`, which has closed.
    @inlinable public mutating func disconnected(connection: Int32) {
        for (id, consumer) in consumers where consumer.connection == connection {
            counts.disconnected += 1
            drop(id, lost: !consumer.inFlight.isEmpty)
        }
    }

    /// Drops a consumer the socket cannot reach; what it held is delivered again.
    @inlinable public mutating func drop(_ id: ConsumerID, lost: Bool = true) {
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
        storedUnacknowledged -= held.count
        if !held.isEmpty, lost { counts.lost += 1 }
        waiting.prepend(contentsOf: held.map { ($0.source, $0) })
    }

    /// The earliest time a consumer holding deliveries could time out.
    @inlinable public var nextExpiry: ContinuousClock.Instant? {
        var earliest: ContinuousClock.Instant?
        for consumer in consumers.values {
            guard let oldest = consumer.inFlight.first else { continue }
            let due = min(oldest.sentAt, consumer.lastHeard) + ackTimeout
            if earliest == nil || due < earliest! { earliest = due }
        }
        return earliest
    }

    /// Inputs completed since the last call.
    @inlinable public mutating func takeCompleted() -> [SequenceRef] {
        defer { storedCompleted.removeAll(keepingCapacity: true) }
        return storedCompleted
    }

    /// Counts since the last call.
    @inlinable public mutating func takeCounts() -> Counts {
        defer { counts = Counts() }
        return counts
    }
}
