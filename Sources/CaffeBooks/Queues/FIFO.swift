/// A first-in, first-out queue over an array with a moving head: appends and removals from the
/// front are amortised O(1) and allocate only when the storage grows.
package struct FIFO<Element> {
    private var storage: [Element?] = []
    private var head = 0

    package init() {}

    package var count: Int { storage.count - head }
    package var isEmpty: Bool { head == storage.count }

    /// The oldest element.
    package var first: Element? { isEmpty ? nil : storage[head] }

    package mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Puts `elements` in front of everything queued, in their order.
    package mutating func prepend(contentsOf elements: [Element]) {
        guard !elements.isEmpty else { return }
        compact()
        storage.insert(contentsOf: elements.map { Optional($0) }, at: 0)
    }

    package mutating func removeFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head > 64, head * 2 > storage.count { compact() }
        return element
    }

    /// Removes and returns the newest `count` elements, oldest first.
    package mutating func removeLast(_ count: Int) -> [Element] {
        let taken = min(count, self.count)
        let tail = storage.suffix(taken).compactMap { $0 }
        storage.removeLast(taken)
        return tail
    }

    /// Replaces the oldest element (which must exist).
    package mutating func replaceFirst(_ element: Element) {
        storage[head] = element
    }

    private mutating func compact() {
        storage.removeFirst(head)
        head = 0
    }
}

extension FIFO: Sendable where Element: Sendable {}
