// Caffe — CaffeBooks tests.
import Testing

@testable import CaffeBooks

/// Queues per source, served in turn.
@Suite("Fair queue")
struct FairQueueTests {
    @Test("a key with many items waiting takes its turn like a key with one; each key keeps its order")
    func turns() {
        var queue = FairQueue<String>()
        for index in 1...5 { queue.append("flood-\(index)", key: "flood") }
        queue.append("a-1", key: "a")
        queue.append("a-2", key: "a")
        queue.append("b-1", key: "b")
        #expect(queue.count == 8 && queue.first == "flood-1")
        #expect(queue.removeFirst(8) == ["flood-1", "a-1", "b-1", "flood-2", "a-2", "flood-3", "flood-4", "flood-5"])
        #expect(queue.isEmpty && queue.removeFirst() == nil)
    }

    @Test("items put back go first, their key first in turn")
    func prepend() {
        var queue = FairQueue<String>()
        queue.append("a-1", key: "a")
        queue.append("b-1", key: "b")
        queue.append("b-2", key: "b")
        let taken = queue.removeFirst(2)
        #expect(taken == ["a-1", "b-1"])
        queue.prepend(contentsOf: [("b", "b-1"), ("a", "a-1")])
        #expect(queue.removeFirst(3) == ["b-1", "a-1", "b-2"])
    }

    @Test("the acknowledged output serves sources in turn: a flood does not hold another source's outputs")
    func deliveriesInTurn() {
        var book = DeliveryBook<String>(incarnation: 7, ackTimeout: .seconds(5), defaultWindow: 10)
        for sequence in UInt64(1)...6 {
            book.enqueue(["flood-\(sequence)"], completing: SequenceRef(source: "flood", sequence: sequence))
        }
        book.enqueue(["honest-1"], completing: SequenceRef(source: "honest", sequence: 1))
        book.feedback(from: Array("c".utf8), incarnation: 0, acknowledgedThrough: 0, window: 3, at: .now)
        var sent: [String] = []
        while let send = book.nextSend() { sent.append(send.delivery.payload) }
        #expect(sent == ["flood-1", "honest-1", "flood-2"])
    }

    @Test("a key's emptied queue is kept for its next item; a flood of one-off keys keeps no more than the bound")
    func emptyQueuesBounded() {
        var queue = FairQueue<Int>()
        for index in 0..<1000 {
            queue.append(index, key: "once-\(index)")
            #expect(queue.removeFirst() == index)
        }
        #expect(queue.queues.count <= FairQueue<Int>.retainedEmptyQueues + 1)
        // A kept key comes back, takes its turn and keeps its order.
        queue.append(1, key: "steady")
        #expect(queue.removeFirst() == 1)
        queue.append(2, key: "steady")
        queue.append(3, key: "other")
        queue.append(4, key: "steady")
        queue.prepend(0, key: "steady")
        #expect(queue.removeFirst(4) == [0, 3, 2, 4])
        #expect(queue.isEmpty && queue.emptyQueues <= FairQueue<Int>.retainedEmptyQueues)
    }
}
