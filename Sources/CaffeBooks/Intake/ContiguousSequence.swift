/// The sequence numbers seen from one source, as the highest contiguous one (every number up to it
/// seen; sources number from 1) and the ones seen beyond it. Marking numbers out of order is fine;
/// the contiguous mark moves as soon as the hole below it is filled.
public struct ContiguousSequence: Hashable, Sendable {
    /// Every sequence up to this one has been seen (0: none yet).
    public private(set) var contiguous: UInt64
    /// Seen above `contiguous + 1`, waiting for the numbers below them.
    public private(set) var ahead: Set<UInt64> = []
    /// Ranges given up on above `contiguous + 1`, kept whole however long they are.
    public private(set) var aheadRanges: [ClosedRange<UInt64>] = []

    public init(contiguous: UInt64 = 0) {
        self.contiguous = contiguous
    }

    /// Whether nothing is held beyond the contiguous mark.
    public var isContiguous: Bool { ahead.isEmpty && aheadRanges.isEmpty }

    /// Whether `sequence` has been seen.
    public func contains(_ sequence: UInt64) -> Bool {
        sequence <= contiguous || ahead.contains(sequence) || aheadRanges.contains { $0.contains(sequence) }
    }

    /// Marks `sequence` seen; `false` if it already was.
    @discardableResult
    public mutating func insert(_ sequence: UInt64) -> Bool {
        guard !contains(sequence) else { return false }
        if sequence == contiguous + 1 {
            contiguous = sequence
            advance()
        } else {
            ahead.insert(sequence)
        }
        return true
    }

    /// Marks every sequence in `range` seen (an unrecoverable gap, given up on), in constant
    /// space however long the range.
    public mutating func insert(_ range: ClosedRange<UInt64>) {
        guard range.upperBound > contiguous else { return }
        let lower = max(range.lowerBound, contiguous + 1)
        if lower == contiguous + 1 {
            contiguous = range.upperBound
            ahead = ahead.filter { $0 > contiguous }
            aheadRanges.removeAll { $0.upperBound <= contiguous }
            advance()
        } else {
            aheadRanges.append(lower...range.upperBound)
        }
    }

    /// Moves `contiguous` over whatever now joins it, and drops what it passed.
    private mutating func advance() {
        var jumped = false
        while true {
            if ahead.remove(contiguous + 1) != nil {
                contiguous += 1
            } else if let index = aheadRanges.firstIndex(where: { $0.lowerBound <= contiguous + 1 }) {
                contiguous = max(contiguous, aheadRanges.remove(at: index).upperBound)
                jumped = true
            } else {
                break
            }
        }
        // Only a range can carry the mark past numbers still held ahead; the common in-order
        // step never scans.
        guard jumped else { return }
        ahead = ahead.filter { $0 > contiguous }
        aheadRanges.removeAll { $0.upperBound <= contiguous }
    }

    /// The numbers not seen below the highest one seen, as ranges in order.
    public var missing: [ClosedRange<UInt64>] {
        let covered = coveredAhead
        guard let top = covered.last?.upperBound else { return [] }
        return Self.holes(in: (contiguous + 1)...top, covered: covered)
    }

    /// The numbers in `range` not seen, as ranges in order (numbers above everything seen count
    /// as not seen).
    public func missing(in range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
        guard range.upperBound > contiguous else { return [] }
        let lower = max(range.lowerBound, contiguous + 1)
        return Self.holes(in: lower...range.upperBound, covered: coveredAhead)
    }

    /// What is seen above the contiguous mark, as sorted ranges.
    private var coveredAhead: [ClosedRange<UInt64>] {
        (ahead.map { $0...$0 } + aheadRanges).sorted { $0.lowerBound < $1.lowerBound }
    }

    /// The parts of `range` outside `covered` (sorted by lower bound).
    private static func holes(in range: ClosedRange<UInt64>, covered: [ClosedRange<UInt64>]) -> [ClosedRange<UInt64>] {
        var holes: [ClosedRange<UInt64>] = []
        var next = range.lowerBound
        for piece in covered where piece.upperBound >= next {
            if piece.lowerBound > range.upperBound { break }
            if piece.lowerBound > next { holes.append(next...(piece.lowerBound - 1)) }
            guard piece.upperBound < range.upperBound else { return holes }
            next = max(next, piece.upperBound + 1)
        }
        holes.append(next...range.upperBound)
        return holes
    }
}
