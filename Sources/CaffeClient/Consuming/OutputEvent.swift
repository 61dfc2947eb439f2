import CaffeProtocol
import CaffeTransport
import SwiftProtobuf
import ZeroMQ

/// An output of a worker, as a consumer receives it: `[topic][EventHeader][body]`, the body decoded
/// by its `body_type`.
public struct OutputEvent: Sendable {
    /// The body, by the header's `body_type`.
    public enum Body: Sendable {
        case confirmation(Caffe_V1_Confirmation)
        case receipt(Caffe_V1_Receipt)
        case complication(Caffe_V1_ComplicationPayload)
        case deadLetter(Caffe_V1_DeadLetter)
        /// A body type this client does not know (a newer worker's): its name and bytes, kept.
        case unknown(bodyType: String, bytes: [UInt8])
    }

    /// The topic it was published under: `confirmation.es-MX`, `receipt.store-mx-cdmx`…
    public let topic: String
    /// Its header: `body_type`, and the `source_id`, `sequence` and `order_id` of the input.
    public let header: Caffe_V1_EventHeader
    /// The decoded body.
    public let body: Body

    /// Reads the frames of an output event.
    public init(frames: [ZMQMessage]) throws(CaffeClientError) {
        do {
            let event = try EventFrames(parsing: frames)
            topic = event.topic
            header = event.header
            switch event.header.bodyType {
            case Caffe_V1_Confirmation.protoMessageName:
                body = .confirmation(try event.decodeBody(as: Caffe_V1_Confirmation.self))
            case Caffe_V1_Receipt.protoMessageName: body = .receipt(try event.decodeBody(as: Caffe_V1_Receipt.self))
            case Caffe_V1_ComplicationPayload.protoMessageName:
                body = .complication(try event.decodeBody(as: Caffe_V1_ComplicationPayload.self))
            case Caffe_V1_DeadLetter.protoMessageName:
                body = .deadLetter(try event.decodeBody(as: Caffe_V1_DeadLetter.self))
            default: body = .unknown(bodyType: event.header.bodyType, bytes: event.bodyFrame.bytes)
            }
        } catch {
            throw .malformedOutput(error)
        }
    }

    /// What identifies this output across redeliveries (docs/WIRE.md "De-duplication"); `nil` for
    /// a dead letter of an input with no readable source and sequence, which is never a repeat.
    public var key: OutputKey? { OutputKey(self) }
}

/// What identifies an output across redeliveries and across workers rendering one stream
/// (docs/WIRE.md "De-duplication"): confirmations and receipts by `(body_type, source_id,
/// order_id)` — order ids are the source's, and the same id from another source is another order —
/// complication payloads and dead letters by `(body_type, source_id, source_epoch, sequence)`, the
/// source's run, so a restarted source's new run is not taken for its last; an
/// `UNRECOVERABLE_GAP` letter names its range's first sequence, the same each time the range is
/// reported. A dead letter of an input without a readable source and sequence (an unreadable
/// message, a refused heartbeat) has no key: each is its own. The same keys as
/// `caffe_client.output_key` in the Python client.
public struct OutputKey: Hashable, Sendable, CustomStringConvertible {
    /// The output's `body_type`.
    public let bodyType: String
    /// The input's source.
    public let sourceID: String
    /// The order's id (confirmations and receipts), or empty.
    public let orderID: String
    /// The input's run and sequence (complication payloads and dead letters), or 0.
    public let sourceEpoch: UInt64
    public let sequence: UInt64

    /// The key of `event`, `nil` when it has none (see the type's comment).
    public init?(_ event: OutputEvent) {
        self.init(header: event.header)
    }

    /// The key of the output whose header is `header`, `nil` when it has none.
    public init?(header: Caffe_V1_EventHeader) {
        bodyType = header.bodyType
        sourceID = header.sourceID
        if !header.orderID.isEmpty && header.bodyType != Caffe_V1_DeadLetter.protoMessageName {
            orderID = header.orderID
            sourceEpoch = 0
            sequence = 0
        } else {
            guard !header.sourceID.isEmpty, header.sequence != 0 else { return nil }
            orderID = ""
            sourceEpoch = header.sourceEpoch
            sequence = header.sequence
        }
    }

    public var description: String {
        guard orderID.isEmpty else { return "\(bodyType) \(sourceID)/\(orderID)" }
        return sourceEpoch == 0
            ? "\(bodyType) \(sourceID)#\(sequence)" : "\(bodyType) \(sourceID) (epoch \(sourceEpoch))#\(sequence)"
    }
}

/// Remembers the `capacity` most recent output keys and says whether an output is new: delivery is
/// at least once, so every consumer de-duplicates.
public struct OutputDeduplicator: Sendable {
    /// How many keys are remembered (the oldest forgotten first).
    public let capacity: Int
    /// Outputs seen before and reported as repeats so far.
    public private(set) var repeats = 0
    private var seen: RecentSet<OutputKey>

    /// Remembers at most `capacity` keys (at least 1).
    public init(capacity: Int = 1_000_000) {
        seen = RecentSet(capacity: capacity)
        self.capacity = seen.capacity
    }

    /// Whether `key` is seen for the first time (remembering it); `false` for a repeat. An output
    /// without a key is always first.
    public mutating func isFirst(_ key: OutputKey?) -> Bool {
        guard let key else { return true }
        guard seen.insert(key) else {
            repeats += 1
            return false
        }
        return true
    }
}
