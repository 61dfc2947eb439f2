/// Sequences of one source that an input completes once its outputs are delivered: one for an
/// event, a whole range for a gap given up on.
package struct SequenceRef: Hashable, Sendable {
    package var source: String
    package var sequences: ClosedRange<UInt64>

    package init(source: String, sequence: UInt64) {
        self.source = source
        sequences = sequence...sequence
    }

    package init(source: String, sequences: ClosedRange<UInt64>) {
        self.source = source
        self.sequences = sequences
    }
}
