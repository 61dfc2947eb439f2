/// Which inputs are done, per source: an input is done once every output of it is delivered
/// (what "delivered" means is the output channel's), a duplicate retried under a new sequence is
/// done at once, and a gap given up is done once its dead letter is delivered. The checkpoint
/// records each source's highest contiguous done sequence.
struct CheckpointLedger: Sendable {
    private var done: [String: ContiguousSequence]
    /// Whether something moved since the last ``takeChanged()``.
    private(set) var isChanged = false

    init(resumingFrom marks: [String: UInt64]) {
        done = marks.mapValues { ContiguousSequence(contiguous: $0) }
    }

    /// Marks `ref`'s sequences done.
    mutating func complete(_ ref: SequenceRef) {
        let before = done[ref.source]?.contiguous
        if ref.sequences.count == 1 {
            done[ref.source, default: ContiguousSequence()].insert(ref.sequences.lowerBound)
        } else {
            done[ref.source, default: ContiguousSequence()].insert(ref.sequences)
        }
        if done[ref.source]?.contiguous != before { isChanged = true }
    }

    /// Each source's highest contiguous done sequence.
    var marks: [String: UInt64] { done.mapValues(\.contiguous) }

    /// Clears ``isChanged``, returning what it was.
    mutating func takeChanged() -> Bool {
        defer { isChanged = false }
        return isChanged
    }
}
