import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf
import ZeroMQ

/// Turns one input event into its output events, or into a dead letter: what a render thread does
/// with each message. Never throws: every failure becomes a ``Caffe_V1_DeadLetter`` carrying the
/// original bytes.
struct EventRendering {
    let session: RenderSession

    /// The output frames (`[topic][header][body]`, repeated) for `frames`, an input event.
    func outputs(for frames: [ZMQMessage], limits: CaffeProtocolLimits) -> (frames: [ZMQMessage], rendered: Bool) {
        let event: EventFrames
        do {
            event = try EventFrames(parsing: frames, limits: limits)
        } catch {
            return (Self.deadLetter(.malformed, "\(error)", frames: frames, ref: nil), false)
        }
        let ref = Caffe_V1_EventRef.with {
            $0.sourceID = event.header.sourceID
            $0.sequence = event.header.sequence
            $0.orderID = event.header.orderID
        }
        do {
            switch event.header.bodyType {
            case Caffe_V1_OrderEvent.protoMessageName:
                let order = try event.decodeBody(as: Caffe_V1_OrderEvent.self)
                let rendered = try session.render(order)
                let locale = order.customer.locale.isEmpty ? rendered.confirmation.locale : order.customer.locale
                var output = try EventFrames.encode(
                    topic: CaffeTopic.confirmation(locale: locale),
                    header: event.header,
                    body: rendered.confirmation
                )
                output += try EventFrames.encode(
                    topic: CaffeTopic.receipt(store: order.storeID),
                    header: event.header,
                    body: rendered.receipt
                )
                return (output, true)
            case Caffe_V1_ComplicationRequest.protoMessageName:
                let request = try event.decodeBody(as: Caffe_V1_ComplicationRequest.self)
                let payload = try session.complication(request)
                let output = try EventFrames.encode(
                    topic: CaffeTopic.complication(user: request.userID),
                    header: event.header,
                    body: payload
                )
                return (output, true)
            default:
                return (
                    Self.deadLetter(
                        .invalid,
                        "body_type '\(event.header.bodyType)' is neither an order event nor a complication request",
                        frames: frames,
                        ref: ref
                    ), false
                )
            }
        } catch let error as CaffeProtocolError {
            let reason: Caffe_V1_DeadLetterReason = error.code == .malformed ? .malformed : .invalid
            return (Self.deadLetter(reason, error.description, frames: frames, ref: ref), false)
        } catch let error as RenderError {
            let reason: Caffe_V1_DeadLetterReason =
                switch error.code {
                case .unknownItem, .unknownSize, .unknownStore, .missingPrice: .unknownItem
                case .renderFailed: .renderFailed
                default: .invalid
                }
            return (Self.deadLetter(reason, error.description, frames: frames, ref: ref), false)
        } catch {
            return (Self.deadLetter(.renderFailed, "\(error)", frames: frames, ref: ref), false)
        }
    }

    /// A dead-letter event for `frames`, keeping their bytes as they arrived.
    static func deadLetter(
        _ reason: Caffe_V1_DeadLetterReason,
        _ detail: String,
        frames: [ZMQMessage],
        ref: Caffe_V1_EventRef?
    ) -> [ZMQMessage] {
        var letter = Caffe_V1_DeadLetter()
        letter.reason = reason
        letter.detail = detail
        if frames.count == 3 {
            letter.topic = frames[0].string
            letter.originalHeader = frames[1].data
            letter.originalBody = frames[2].data
        } else {
            letter.originalBody = Data(frames.flatMap(\.bytes))
        }
        if let ref { letter.ref = ref }
        letter.receivedAt = Google_Protobuf_Timestamp(date: Date())
        var header = Caffe_V1_EventHeader()
        if let ref {
            header.sourceID = ref.sourceID
            header.sequence = ref.sequence
            header.orderID = ref.orderID
        }
        // Encoding our own message into frames cannot fail short of running out of memory; if it
        // does, the letter still goes out as its detail alone.
        return (try? EventFrames.encode(topic: CaffeTopic.deadLetter, header: header, body: letter))
            ?? [ZMQMessage(), ZMQMessage(), ZMQMessage()]
    }
}
