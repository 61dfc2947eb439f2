/// Reads what a load run needs from an output event, in place and without allocating: the kind
/// (the topic up to its first dot) and, from the `EventHeader`, whether `source_id` is the run's
/// own and the `sequence`. A full protobuf decode per output would cost the generator more than
/// the books it feeds.
public enum OutputScanner {
    /// The output kinds a run counts, by the topic's first part.
    public enum Kind: UInt8, Sendable, CaseIterable {
        case confirmation, receipt, complication, deadLetter, other

        /// The kind of a topic (its bytes up to the first dot).
        public init(topic: UnsafeRawBufferPointer) {
            func starts(_ prefix: StaticString) -> Bool {
                guard topic.count >= prefix.utf8CodeUnitCount, let base = topic.baseAddress else { return false }
                return memcmp(base, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
            }
            if starts("confirmation.") {
                self = .confirmation
            } else if starts("receipt.") {
                self = .receipt
            } else if starts("complication.") {
                self = .complication
            } else if starts("dead-letter") {
                self = .deadLetter
            } else {
                self = .other
            }
        }

        /// The name the books and reports use.
        public var name: String {
            switch self {
            case .confirmation: "confirmation"
            case .receipt: "receipt"
            case .complication: "complication"
            case .deadLetter: "dead-letter"
            case .other: "other"
            }
        }
    }

    /// The header's sequence when its `source_id` is `source`; `nil` for another source's events
    /// or a header that is not protobuf.
    public static func sequence(inHeader header: UnsafeRawBufferPointer, source: [UInt8]) -> UInt64? {
        guard let base = header.baseAddress else { return nil }
        var index = 0
        var sourceMatches = false
        var sequence: UInt64?
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < header.count, shift < 70 {
                let byte = header[index]
                index += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }
        while index < header.count {
            guard let key = varint() else { return nil }
            let field = key >> 3
            switch key & 7 {
            case 0:
                guard let value = varint() else { return nil }
                if field == 3 { sequence = value }
            case 2:
                guard let length = varint(), length <= UInt64(header.count - index) else { return nil }
                let count = Int(length)
                if field == 2 {
                    sourceMatches =
                        count == source.count
                        && source.withUnsafeBytes { bytes in
                            bytes.baseAddress.map { memcmp($0, base + index, count) == 0 } ?? (count == 0)
                        }
                }
                index += count
            case 1: index += 8
            case 5: index += 4
            default: return nil
            }
        }
        return sourceMatches ? sequence : nil
    }
}

#if canImport(Glibc)
import Glibc
#endif
