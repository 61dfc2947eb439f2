// Caffe — CaffeBooks tests.
import Testing

@testable import CaffeBooks

/// The acknowledged output's books with plain values: windows, acknowledgements, redelivery.
@Suite("Delivery book")
struct DeliveryBookTests {
    typealias Book = DeliveryBook<String>
    static let start = ContinuousClock.now

    static func sends(_ book: inout Book) -> [(consumer: String, tag: UInt64, payload: String)] {
        var sent: [(String, UInt64, String)] = []
        while let send = book.nextSend(at: Self.start) {
            sent.append((String(decoding: send.consumer, as: UTF8.self), send.tag, send.delivery.payload))
        }
        return sent
    }

    @Test("nothing is sent before a consumer reports; windows bound what each holds")
    func windows() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(5), defaultWindow: 2)
        book.enqueue(["a1", "a2"], completing: SequenceRef(source: "s", sequence: 1))
        book.enqueue(["b1", "b2"], completing: SequenceRef(source: "s", sequence: 2))
        #expect(Self.sends(&book).isEmpty)
        book.feedback(from: Array("x".utf8), incarnation: 0, acknowledgedThrough: 0, window: 2, at: Self.start)
        book.feedback(from: Array("y".utf8), incarnation: 0, acknowledgedThrough: 0, window: 1, at: Self.start)
        let sent = Self.sends(&book)
        #expect(sent.map(\.consumer) == ["x", "y", "x"])
        #expect(sent.map(\.tag) == [1, 2, 3])
        #expect(sent.map(\.payload) == ["a1", "a2", "b1"])
        #expect(book.waitingCount == 1 && book.unacknowledged == 3)
    }

    @Test("an input completes only when every output is acknowledged, by this incarnation")
    func acknowledgements() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(5), defaultWindow: 10)
        let consumer = Array("x".utf8)
        book.feedback(from: consumer, incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start)
        book.enqueue(["a1", "a2"], completing: SequenceRef(source: "s", sequence: 1))
        book.enqueue(["dead letter"], completing: nil)
        _ = Self.sends(&book)
        // Another incarnation's acknowledgement acknowledges nothing.
        book.feedback(from: consumer, incarnation: 6, acknowledgedThrough: 3, window: 0, at: Self.start)
        #expect(book.takeCompleted().isEmpty && book.unacknowledged == 3)
        book.feedback(from: consumer, incarnation: 7, acknowledgedThrough: 1, window: 0, at: Self.start)
        #expect(book.takeCompleted().isEmpty)
        book.feedback(from: consumer, incarnation: 7, acknowledgedThrough: 3, window: 0, at: Self.start)
        #expect(book.takeCompleted() == [SequenceRef(source: "s", sequence: 1)])
        #expect(book.isSettled)
        #expect(book.takeCounts().acknowledged == 3)
    }

    @Test("a silent consumer's deliveries go to another, counted as redelivered")
    func redelivery() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(5), defaultWindow: 10)
        book.feedback(from: Array("x".utf8), incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start)
        book.enqueue(["a1"], completing: SequenceRef(source: "s", sequence: 1))
        #expect(Self.sends(&book).map(\.consumer) == ["x"])
        book.feedback(
            from: Array("y".utf8),
            incarnation: 0,
            acknowledgedThrough: 0,
            window: 10,
            at: Self.start + .seconds(4)
        )
        book.expire(at: Self.start + .seconds(6))
        #expect(book.consumerCount == 1)
        let again = Self.sends(&book)
        #expect(again.map(\.consumer) == ["y"] && again.map(\.payload) == ["a1"] && again.map(\.tag) == [2])
        let counts = book.takeCounts()
        #expect(counts.redelivered == 1 && counts.lost == 1)
        book.feedback(
            from: Array("y".utf8),
            incarnation: 7,
            acknowledgedThrough: 2,
            window: 0,
            at: Self.start + .seconds(6)
        )
        #expect(book.takeCompleted() == [SequenceRef(source: "s", sequence: 1)])
    }

    @Test("a consumer dropped and back cannot acknowledge, with its old acknowledgement, what it has not seen")
    func staleAcknowledgement() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(1), defaultWindow: 10)
        let consumer = Array("x".utf8)
        book.feedback(from: consumer, incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start)
        book.enqueue(["a1"], completing: SequenceRef(source: "s", sequence: 1))
        #expect(Self.sends(&book).map(\.tag) == [1])
        book.feedback(from: consumer, incarnation: 7, acknowledgedThrough: 1, window: 0, at: Self.start)
        #expect(book.takeCompleted() == [SequenceRef(source: "s", sequence: 1)])
        book.enqueue(["b1"], completing: SequenceRef(source: "s", sequence: 2))
        #expect(Self.sends(&book).map(\.tag) == [2])
        book.expire(at: Self.start + .seconds(2))
        // It comes back repeating its last acknowledgement: b1, now tag 3, stays unacknowledged.
        book.feedback(from: consumer, incarnation: 7, acknowledgedThrough: 1, window: 10, at: Self.start + .seconds(2))
        #expect(Self.sends(&book).map(\.tag) == [3])
        #expect(book.takeCompleted().isEmpty && book.unacknowledged == 1)
    }

    @Test("a consumer holding nothing is not dropped for silence")
    func idleConsumerStays() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(1), defaultWindow: 10)
        book.feedback(from: Array("x".utf8), incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start)
        book.expire(at: Self.start + .seconds(60))
        #expect(book.consumerCount == 1 && book.nextExpiry == nil)
        book.enqueue(["a1"], completing: nil)
        #expect(Self.sends(&book).map(\.consumer) == ["x"])
    }

    @Test("a send the socket refuses is taken back and the consumer waits for its next report")
    func retract() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(5), defaultWindow: 10)
        book.feedback(from: Array("x".utf8), incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start)
        book.enqueue(["a1", "a2"], completing: nil)
        guard let send = book.nextSend() else {
            Issue.record("nothing to send")
            return
        }
        book.retract(send)
        #expect(book.nextSend() == nil && book.waitingCount == 2 && book.unacknowledged == 0)
        book.feedback(from: Array("x".utf8), incarnation: 7, acknowledgedThrough: 0, window: 10, at: Self.start)
        // Tags are never reused: the retracted one is gone.
        #expect(Self.sends(&book).map(\.tag) == [2, 3])
    }

    @Test("a consumer exists only after a hello with a window; an empty or windowless message registers nothing")
    func hello() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(5), defaultWindow: 10)
        #expect(
            book.feedback(from: Array("x".utf8), incarnation: 0, acknowledgedThrough: 0, window: 0, at: Self.start)
                == .notHello
        )
        #expect(book.consumerCount == 0)
        #expect(
            book.feedback(from: Array("x".utf8), incarnation: 0, acknowledgedThrough: 0, window: 5, at: Self.start)
                == .registered(evicted: nil)
        )
        // Known now: its feedback without a window takes output.window.
        #expect(
            book.feedback(from: Array("x".utf8), incarnation: 7, acknowledgedThrough: 0, window: 0, at: Self.start)
                == .taken
        )
    }

    @Test("consumers are bounded: a newcomer replaces the one idle longest, unproven first, or is refused")
    func boundedConsumers() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(5), defaultWindow: 10, maxConsumers: 2)
        let (a, b, c, d) = (Array("a".utf8), Array("b".utf8), Array("c".utf8), Array("d".utf8))
        book.feedback(from: a, incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start)
        book.enqueue(["o1"], completing: nil)
        _ = Self.sends(&book)
        book.feedback(from: a, incarnation: 7, acknowledgedThrough: 1, window: 10, at: Self.start)  // a is proven
        book.feedback(from: b, incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start + .seconds(1))
        // c replaces b (unproven), although a has been idle longer.
        #expect(
            book.feedback(from: c, incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start + .seconds(2))
                == .registered(evicted: b)
        )
        // Every place holding deliveries: d is refused.
        book.enqueue(["o2", "o3"], completing: nil)
        #expect(Self.sends(&book).map(\.consumer).sorted() == ["a", "a"])
        book.enqueue(["o4", "o5", "o6", "o7", "o8", "o9", "o10", "o11", "o12"], completing: nil)
        _ = Self.sends(&book)
        #expect(
            book.feedback(from: d, incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start + .seconds(3))
                == .full
        )
        #expect(book.takeCounts().evicted == 1 && book.consumerCount == 2)
    }

    @Test("an unproven consumer gets deliveries only when no proven one has room, and at most its probation window")
    func probation() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(5), defaultWindow: 100, probationWindow: 2)
        let honest = Array("h".utf8)
        book.feedback(from: honest, incarnation: 0, acknowledgedThrough: 0, window: 4, at: Self.start)
        book.enqueue(["o1"], completing: nil)
        _ = Self.sends(&book)
        book.feedback(from: honest, incarnation: 7, acknowledgedThrough: 1, window: 4, at: Self.start)
        for index in 0..<50 {
            book.feedback(
                from: Array("p\(index)".utf8),
                incarnation: 0,
                acknowledgedThrough: 0,
                window: 1000,
                at: Self.start
            )
        }
        book.enqueue(["o2", "o3", "o4", "o5"], completing: nil)
        #expect(Self.sends(&book).map(\.consumer) == ["h", "h", "h", "h"])
        // The honest consumer full: the rest go to phantoms, two at most each.
        book.enqueue(["o6", "o7", "o8"], completing: nil)
        #expect(Self.sends(&book).map(\.consumer).allSatisfy { $0.hasPrefix("p") })
    }

    @Test("a hold ends after the ack timeout even while the consumer keeps reporting; the delivery goes to another")
    func holdTimeout() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(2), defaultWindow: 10)
        let (greedy, other) = (Array("g".utf8), Array("o".utf8))
        book.feedback(from: greedy, incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start)
        book.enqueue(["a1"], completing: SequenceRef(source: "s", sequence: 1))
        #expect(Self.sends(&book).map(\.consumer) == ["g"])
        for second in 1...3 {
            book.feedback(
                from: greedy,
                incarnation: 7,
                acknowledgedThrough: 0,
                window: 10,
                at: Self.start + .seconds(second)
            )
        }
        book.feedback(from: other, incarnation: 0, acknowledgedThrough: 0, window: 10, at: Self.start + .seconds(3))
        #expect(book.nextExpiry == Self.start + .seconds(2))
        book.expire(at: Self.start + .seconds(3))
        let counts = book.takeCounts()
        #expect(counts.timedOut == 1 && counts.deliveriesTimedOut == 1)
        #expect(Self.sends(&book).map(\.consumer) == ["o"])
    }

    @Test("a consumer whose connection closed is forgotten at once, and what it held is delivered again")
    func disconnect() {
        var book = Book(incarnation: 7, ackTimeout: .seconds(60), defaultWindow: 10)
        book.feedback(
            from: Array("x".utf8),
            incarnation: 0,
            acknowledgedThrough: 0,
            window: 10,
            connection: 12,
            at: Self.start
        )
        book.feedback(
            from: Array("y".utf8),
            incarnation: 0,
            acknowledgedThrough: 0,
            window: 10,
            connection: 13,
            at: Self.start
        )
        book.enqueue(["a1"], completing: nil)
        #expect(Self.sends(&book).map(\.consumer) == ["x"])
        book.disconnected(connection: 12)
        #expect(book.consumerCount == 1 && book.takeCounts().disconnected == 1)
        #expect(Self.sends(&book).map(\.consumer) == ["y"])
    }
}
