/// A first-in, first-out queue over an array with a moving head: appends and removals from the
/// front are amortised O(1) and allocate only when the storage grows.
/// Public and inlinable, unlike the rest of CaffeBooks (`package`): a generic type used from another
/// module is specialized there only from a public inlinable body (`@inlinable package` is not
/// serialized), and unspecialized it cost the pipeline thread ~1.5 µs per order in metadata lookups.
public struct FIFO<Element> {
    @usableFromInline var storage: [Element?] = []
    @usableFromInline var head = 0

    @inlinable public init() {}

    @inlinable public var count: Int { storage.count - head }
    @inlinable public var isEmpty: Bool { head == storage.count }

    /// The oldest element.
    @inlinable public var first: Element? { isEmpty ? nil : storage[head] }

    @inlinable public mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Puts `elements` in front of everything queued, in their order.
    @inlinable public mutating func prepend(contentsOf elements: [Element]) {
        guard !elements.isEmpty else { return }
        compact()
        storage.insert(contentsOf: elements.map { Optional($0) }, at: 0)
    }

    @inlinable public mutating func removeFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head > 64, head * 2 > storage.count { compact() }
        return element
    }

    /// Removes and returns the newest `count` elements, oldest first.
    @inlinable public mutating func removeLast(_ count: Int) -> [Element] {
        let taken = min(count, self.count)
        let tail = storage.suffix(taken).compactMap { $0 }
        storage.removeLast(taken)
        return tail
    }

    /// Replaces the oldest element (which must exist).
    @inlinable public mutating func replaceFirst(_ element: Element) {
        storage[head] = element
    }

    @usableFromInline mutating func compact() {
        storage.removeFirst(head)
        head = 0
    }
}

extension FIFO: Sendable where Element: Sendable {}
