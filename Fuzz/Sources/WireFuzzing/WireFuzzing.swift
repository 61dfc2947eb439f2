import CaffeProtocol
import FuzzSupport
import SwiftProtobuf

/// The protocol's messages over plain byte frames: the fuzzers link no transport.
public typealias EventFrames = EventMessage<ByteFrame>
public typealias RequestFrames = RequestMessage<ByteFrame>
public typealias ResponseFrames = ResponseMessage<ByteFrame>

/// What the two wire fuzzers share: the input layout, the limits, and taking an event the way
/// the worker does.
///
/// An input is ``FuzzInput/encode(options:frames:)``'s layout: one options byte, then frames.
/// Bit 0 of the options chooses ``tightLimits`` over ``CaffeProtocolLimits/standard``, so the
/// size checks are reached with inputs of libFuzzer's size.
public enum WireFuzzing {
    /// Limits small enough for fuzzer inputs to exceed each of them.
    public static let tightLimits = CaffeProtocolLimits(
        maxTopicBytes: 16,
        maxHeaderBytes: 96,
        maxBodyBytes: 384,
        maxRoutingFrames: 2,
        messageDepthLimit: 4
    )

    /// The input's limits and frames.
    public static func read(_ input: FuzzInput) -> (limits: CaffeProtocolLimits, frames: [ByteFrame]) {
        var input = input
        let options = input.byte()
        return (options & 1 == 0 ? .standard : tightLimits, messages(input.frames()))
    }

    /// Frames holding `frames`' bytes.
    public static func messages(_ frames: [[UInt8]]) -> [ByteFrame] {
        frames.map(ByteFrame.init)
    }

    /// Takes `frames` as the worker's intake does (`ParsedInput`, internal to CaffeWorker): a
    /// message over the limits has only its header read; anything else is parsed as an event,
    /// whose body is then decoded as the type its header names. Returns the event, if it is one.
    @discardableResult
    public static func takeEvent(_ frames: [ByteFrame], limits: CaffeProtocolLimits) -> EventFrames? {
        let total = frames.reduce(0) { $0 + $1.count }
        if total > limits.maxBodyBytes + limits.maxHeaderBytes + limits.maxTopicBytes
            || (frames.count == 3 && frames[2].count > limits.maxBodyBytes)
        {
            if frames.count >= 2, frames[1].count <= limits.maxHeaderBytes {
                _ = try? EventFrames.header(parsing: frames, limits: limits)
            }
            return nil
        }
        guard let event = try? EventFrames(parsing: frames, limits: limits) else { return nil }
        // The header alone (what the worker reads of an oversized event) is the same header.
        guard let header = try? EventFrames.header(parsing: frames, limits: limits), header == event.header else {
            FuzzDriver.fail("EventFrames.header(parsing:) disagrees with EventFrames(parsing:)")
        }
        checkRoundTrip(event.header)
        decodeBody(of: event)
        return event
    }

    /// The bodies events carry, by the name their header gives (`body_type`).
    public static let eventBodyTypes: [String: any SwiftProtobuf.Message.Type] = Dictionary(
        uniqueKeysWithValues: [
            Caffe_V1_OrderEvent.self, Caffe_V1_ComplicationRequest.self, Caffe_V1_Heartbeat.self,
            Caffe_V1_Confirmation.self, Caffe_V1_Receipt.self, Caffe_V1_ComplicationPayload.self,
            Caffe_V1_DeadLetter.self,
        ].map { ($0.protoMessageName, $0) }
    )

    /// Decodes the body as the type the header names; for a type that is none of them, checks
    /// that asking for an order is refused for the header's sake, not the body's.
    static func decodeBody(of event: EventFrames) {
        if let type = eventBodyTypes[event.header.bodyType] {
            check { try event.decodeBody(as: type) }
            return
        }
        do {
            _ = try event.decodeBody(as: Caffe_V1_OrderEvent.self)
            FuzzDriver.fail("a body decoded as an OrderEvent under body_type '\(event.header.bodyType)'")
        } catch {
            guard error.code == .unexpectedBodyType else {
                FuzzDriver.fail("a body of another type was refused with \(error.code), not unexpected-body-type")
            }
        }
        // The worker's static decoder does not look at the header.
        check { try EventFrames.decodeBody(Caffe_V1_OrderEvent.self, frame: event.bodyFrame, limits: event.limits) }
    }

    /// Runs a body decoder; what it decodes is validated (when the type has required fields, as
    /// the worker validates it) and must round-trip.
    public static func check(decoding decode: () throws -> any SwiftProtobuf.Message) {
        guard let body = try? decode() else { return }
        if let validatable = body as? any CaffeValidatable { _ = try? validatable.validate() }
        checkRoundTrip(body)
    }

    /// A decoded message encodes to bytes that decode to the same message (unknown fields kept).
    public static func checkRoundTrip<Message: SwiftProtobuf.Message>(_ message: Message) {
        do {
            let bytes: [UInt8] = try message.serializedBytes()
            let again = try Message(serializedBytes: bytes)
            guard again.isEqualTo(message: message) else {
                FuzzDriver.fail("\(Message.protoMessageName) changed in a round trip")
            }
        } catch {
            FuzzDriver.fail("a decoded \(Message.protoMessageName) did not round-trip: \(error)")
        }
    }
}
