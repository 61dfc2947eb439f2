// Shared by the worker's books (order ids, responsive replay endpoints) and the client's output
// de-duplication; `package`, not part of the protocol's public API. Inlinable, so the worker's
// per-order duplicate check is specialised in its own module as it was when the type lived there.

/// The most recent `capacity` members, for duplicate checks with bounded memory.
package struct RecentSet<Member: Hashable & Sendable>: Sendable {
    @usableFromInline var members: Set<Member> = []
    @usableFromInline var order: [Member] = []
    @usableFromInline var next = 0
    package let capacity: Int

    @inlinable
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    @inlinable
    package func contains(_ member: Member) -> Bool { members.contains(member) }

    /// Remembers `member` (forgetting the oldest when full); whether it was new.
    @inlinable @discardableResult
    package mutating func insert(_ member: Member) -> Bool {
        guard members.insert(member).inserted else { return false }
        if order.count < capacity {
            order.append(member)
        } else {
            members.remove(order[next])
            order[next] = member
            next = (next + 1) % capacity
        }
        return true
    }
}
