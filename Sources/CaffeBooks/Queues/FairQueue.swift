/// A queue per key (a source), served round-robin: each key's items leave in their order, and a
/// key with many items waiting takes its turn like a key with one. A neighbour that floods fills
/// its own queue; another source's event waits behind at most one item per busy key.
///
/// Appending and taking are O(1) amortised (one hash lookup per item); ``prepend(_:key:)`` puts an
/// item back at the front of its key's queue and its key at the front of the turn. A key's queue
/// stays allocated when it empties, so a source sending one event at a time does not allocate
/// and free a queue per event; past ``retainedEmptyQueues`` empty queues they are dropped, so a
/// flood of one-off keys costs no memory after it.
/// Public and inlinable, unlike the rest of CaffeBooks (`package`): a generic type used from another
/// module is specialized there only from a public inlinable body (`@inlinable package` is not
/// serialized), and unspecialized it cost the pipeline thread ~1.5 µs per order in metadata lookups.
public struct FairQueue<Element> {
    @usableFromInline var queues: [String: FIFO<Element>] = [:]
    /// Keys with items, in turn order (each once).
    @usableFromInline var turns = FIFO<String>()
    @usableFromInline var storedCount = 0
    /// Queues kept although empty.
    @usableFromInline var emptyQueues = 0

    /// Empty queues kept at most, for keys that are likely to come back.
    public static var retainedEmptyQueues: Int { 256 }

    /// Items waiting, all keys together.
    @inlinable public var count: Int { storedCount }

    @inlinable public init() {}

    @inlinable public var isEmpty: Bool { count == 0 }

    /// Keys with items waiting.
    @inlinable public var keyCount: Int { turns.count }

    /// Items waiting under `key`.
    @inlinable public func count(for key: String) -> Int { queues[key]?.count ?? 0 }

    /// The item ``removeFirst()`` would take.
    @inlinable public var first: Element? { turns.first.flatMap { queues[$0]?.first } }

    @inlinable public mutating func append(_ element: Element, key: String) {
        if let index = queues.index(forKey: key) {
            if queues.values[index].isEmpty {
                turns.append(key)
                emptyQueues -= 1
            }
            queues.values[index].append(element)
        } else {
            turns.append(key)
            var queue = FIFO<Element>()
            queue.append(element)
            queues[key] = queue
        }
        storedCount += 1
    }

    /// The next item: the first of the key whose turn it is.
    @inlinable public mutating func removeFirst() -> Element? {
        while let key = turns.removeFirst() {
            guard let index = queues.index(forKey: key), let element = queues.values[index].removeFirst() else {
                continue
            }
            storedCount -= 1
            if !queues.values[index].isEmpty {
                turns.append(key)
            } else {
                emptyQueues += 1
                if emptyQueues > Self.retainedEmptyQueues { dropEmptyQueues() }
            }
            return element
        }
        return nil
    }

    /// Forgets the queues that are empty.
    @usableFromInline mutating func dropEmptyQueues() {
        queues = queues.filter { !$0.value.isEmpty }
        emptyQueues = 0
    }

    /// Up to `limit` items, taken in turn.
    @inlinable public mutating func removeFirst(_ limit: Int) -> [Element] {
        var taken: [Element] = []
        taken.reserveCapacity(Swift.min(limit, storedCount))
        while taken.count < limit, let element = removeFirst() { taken.append(element) }
        return taken
    }

    /// Puts `elements` back first, in their order (see ``prepend(_:key:)``).
    @inlinable public mutating func prepend(contentsOf elements: [(key: String, element: Element)]) {
        for (key, element) in elements.reversed() { prepend(element, key: key) }
    }

    /// Puts `element` back first: at the front of its key's queue, its key first in turn.
    @inlinable public mutating func prepend(_ element: Element, key: String) {
        if queues[key]?.isEmpty == true { emptyQueues -= 1 }
        if queues[key, default: FIFO()].isEmpty {
            turns.prepend(contentsOf: [key])
        } else {
            // Its key already has a turn; move it to the front.
            var rest: [String] = []
            while let next = turns.removeFirst(), next != key { rest.append(next) }
            turns.prepend(contentsOf: [key] + rest)
        }
        queues[key, default: FIFO()].prepend(contentsOf: [element])
        storedCount += 1
    }
}

extension FairQueue: Sendable where Element: Sendable {}
