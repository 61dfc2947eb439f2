/// Which inputs are done, per active source: an input is done once every output of it is
/// delivered (what "delivered" means is the output channel's), a duplicate retried under a new
/// sequence is done at once, and a gap given up is done once its dead letter is delivered. The
/// checkpoint records each source's highest contiguous done sequence.
///
/// It holds only the sources intake holds active: a source is brought back with its mark
/// (``revive(_:mark:)``) when intake revives it, and forgotten when intake makes it dormant.
/// Marks that moved are handed to the checkpoint writer as a change (``takeChanges()``), so a
/// checkpoint costs the sources that moved, not every source.
package struct CheckpointLedger: Sendable {
    private var done: [String: ContiguousSequence] = [:]
    private var moved: Set<String> = []
    /// Marks of sources forgotten before their last move was taken.
    private var forgottenMarks: [String: UInt64] = [:]

    package init() {}

    /// Whether a mark moved since the last ``takeChanges()``.
    package var isChanged: Bool { !moved.isEmpty || !forgottenMarks.isEmpty }

    /// Marks `ref`'s sequences done.
    package mutating func complete(_ ref: SequenceRef) {
        let before = done[ref.source]?.contiguous
        if ref.sequences.count == 1 {
            done[ref.source, default: ContiguousSequence()].insert(ref.sequences.lowerBound)
        } else {
            done[ref.source, default: ContiguousSequence()].insert(ref.sequences)
        }
        if done[ref.source]?.contiguous != before { moved.insert(ref.source) }
    }

    /// Brings `source` back from dormancy with everything up to `mark` done.
    package mutating func revive(_ source: String, mark: UInt64) {
        guard done[source] == nil else { return }
        done[source] = ContiguousSequence(contiguous: mark)
    }

    /// Whether every sequence of `source` up to `highest` is done.
    package func isDone(_ source: String, through highest: UInt64) -> Bool {
        guard let books = done[source] else { return highest == 0 }
        return books.contiguous >= highest && books.isContiguous
    }

    /// Forgets a source intake made dormant (its mark is in the checkpoint).
    package mutating func forget(_ source: String) {
        guard let books = done.removeValue(forKey: source) else { return }
        if moved.remove(source) != nil { forgottenMarks[source] = books.contiguous }
    }

    /// `source`'s highest contiguous done sequence, if it is active.
    package func mark(of source: String) -> UInt64? { done[source]?.contiguous }

    /// The marks that moved since the last call.
    package mutating func takeChanges() -> [String: UInt64] {
        guard !moved.isEmpty || !forgottenMarks.isEmpty else { return [:] }
        var marks = forgottenMarks
        forgottenMarks.removeAll()
        marks.reserveCapacity(moved.count)
        for source in moved {
            if let mark = done[source]?.contiguous { marks[source] = mark }
        }
        moved.removeAll(keepingCapacity: true)
        return marks
    }
}
