/// A queue per key (a source), served round-robin: each key's items leave in their order, and a
/// key with many items waiting takes its turn like a key with one. A neighbour that floods fills
/// its own queue; another source's event waits behind at most one item per busy key.
///
/// Appending and taking are O(1) amortised (a hash lookup per item); ``prepend(_:key:)`` puts an
/// item back at the front of its key's queue and its key at the front of the turn.
package struct FairQueue<Element> {
    private var queues: [String: FIFO<Element>] = [:]
    /// Keys with items, in turn order (each once).
    private var turns = FIFO<String>()
    package private(set) var count = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }

    /// Keys with items waiting.
    package var keyCount: Int { turns.count }

    /// Items waiting under `key`.
    package func count(for key: String) -> Int { queues[key]?.count ?? 0 }

    /// The item ``removeFirst()`` would take.
    package var first: Element? { turns.first.flatMap { queues[$0]?.first } }

    package mutating func append(_ element: Element, key: String) {
        if queues[key, default: FIFO()].isEmpty { turns.append(key) }
        queues[key, default: FIFO()].append(element)
        count += 1
    }

    /// The next item: the first of the key whose turn it is.
    package mutating func removeFirst() -> Element? {
        guard let key = turns.removeFirst() else { return nil }
        guard let element = queues[key]?.removeFirst() else { return removeFirst() }
        count -= 1
        if queues[key]?.isEmpty == false {
            turns.append(key)
        } else {
            queues[key] = nil
        }
        return element
    }

    /// Up to `limit` items, taken in turn.
    package mutating func removeFirst(_ limit: Int) -> [Element] {
        var taken: [Element] = []
        while taken.count < limit, let element = removeFirst() { taken.append(element) }
        return taken
    }

    /// Puts `elements` back first, in their order (see ``prepend(_:key:)``).
    package mutating func prepend(contentsOf elements: [(key: String, element: Element)]) {
        for (key, element) in elements.reversed() { prepend(element, key: key) }
    }

    /// Puts `element` back first: at the front of its key's queue, its key first in turn.
    package mutating func prepend(_ element: Element, key: String) {
        if queues[key, default: FIFO()].isEmpty {
            turns.prepend(contentsOf: [key])
        } else {
            // Its key already has a turn; move it to the front.
            var rest: [String] = []
            while let next = turns.removeFirst(), next != key { rest.append(next) }
            turns.prepend(contentsOf: [key] + rest)
        }
        queues[key, default: FIFO()].prepend(contentsOf: [element])
        count += 1
    }
}

extension FairQueue: Sendable where Element: Sendable {}
