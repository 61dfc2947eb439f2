/// Sequences of one source that an input completes once its outputs are delivered: one for an
/// event, a whole range for a gap given up on.
public struct SequenceRef: Hashable, Sendable {
    public var source: String
    public var sequences: ClosedRange<UInt64>

    @inlinable public init(source: String, sequence: UInt64) {
        self.source = source
        sequences = sequence...sequence
    }

    @inlinable public init(source: String, sequences: ClosedRange<UInt64>) {
        self.source = source
        self.sequences = sequences
    }
}
