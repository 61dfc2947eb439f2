/// The sequence numbers seen from one source, as the highest contiguous one (every number up to it
/// seen; sources number from 1) and the ones seen beyond it. Marking numbers out of order is fine;
/// the contiguous mark moves as soon as the hole below it is filled.
public struct ContiguousSequence: Hashable, Sendable {
    /// Every sequence up to this one has been seen (0: none yet).
    public private(set) var contiguous: UInt64
    /// Seen above `contiguous + 1`, waiting for the numbers below them.
    public private(set) var ahead: Set<UInt64> = []

    public init(contiguous: UInt64 = 0) {
        self.contiguous = contiguous
    }

    /// Whether `sequence` has been seen.
    public func contains(_ sequence: UInt64) -> Bool {
        sequence <= contiguous || ahead.contains(sequence)
    }

    /// Marks `sequence` seen; `false` if it already was.
    @discardableResult
    public mutating func insert(_ sequence: UInt64) -> Bool {
        guard !contains(sequence) else { return false }
        if sequence == contiguous + 1 {
            contiguous = sequence
            while ahead.remove(contiguous + 1) != nil { contiguous += 1 }
        } else {
            ahead.insert(sequence)
        }
        return true
    }

    /// Marks every sequence in `range` seen (an unrecoverable gap, given up on).
    public mutating func insert(_ range: ClosedRange<UInt64>) {
        if range.lowerBound <= contiguous + 1, range.upperBound > contiguous {
            contiguous = range.upperBound
            ahead = ahead.filter { $0 > contiguous }
            while ahead.remove(contiguous + 1) != nil { contiguous += 1 }
        } else {
            for sequence in range where !contains(sequence) { insert(sequence) }
        }
    }

    /// The numbers not seen below the highest one seen, as ranges in order.
    public var missing: [ClosedRange<UInt64>] {
        var ranges: [ClosedRange<UInt64>] = []
        var next = contiguous + 1
        for sequence in ahead.sorted() {
            if sequence > next { ranges.append(next...(sequence - 1)) }
            next = sequence + 1
        }
        return ranges
    }
}
