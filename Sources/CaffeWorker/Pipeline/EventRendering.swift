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

    /// What became of one input: its output frames (`[topic][header][body]`, repeated), whether it
    /// was rendered (else the frames are a dead letter), and its reference when its header was readable.
    struct Result {
        var frames: [ZMQMessage]
        /// `nil` when rendered; otherwise the dead letter's reason, as metrics label it.
        var deadLetterReason: String?
        var ref: Caffe_V1_EventRef?
        /// What was rendered ("order", "complication") and in which localization, for the latency histogram.
        var kind = ""
        var locale = ""
        /// Each output's kind ("confirmation", "receipt", "complication") and localization.
        var outputs: [(kind: String, locale: String)] = []
    }

    /// The outputs for `frames`, an input event.
    func outputs(for frames: [ZMQMessage], limits: CaffeProtocolLimits) -> Result {
        let event: EventFrames
        do {
            event = try EventFrames(parsing: frames, limits: limits)
        } catch {
            return Result(
                frames: Self.deadLetter(.malformed, "\(error)", frames: frames, ref: nil),
                deadLetterReason: Caffe_V1_DeadLetterReason.malformed.metricName
            )
        }
        let ref = Caffe_V1_EventRef.with {
            $0.sourceID = event.header.sourceID
            $0.sequence = event.header.sequence
            $0.orderID = event.header.orderID
        }
        func dead(_ reason: Caffe_V1_DeadLetterReason, _ detail: String) -> Result {
            Result(
                frames: Self.deadLetter(reason, detail, frames: frames, ref: ref),
                deadLetterReason: reason.metricName,
                ref: ref
            )
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
                let used = rendered.confirmation.locale
                return Result(
                    frames: output,
                    ref: ref,
                    kind: "order",
                    locale: used,
                    outputs: [("confirmation", used), ("receipt", rendered.receipt.locale)]
                )
            case Caffe_V1_ComplicationRequest.protoMessageName:
                let request = try event.decodeBody(as: Caffe_V1_ComplicationRequest.self)
                let payload = try session.complication(request)
                let output = try EventFrames.encode(
                    topic: CaffeTopic.complication(user: request.userID),
                    header: event.header,
                    body: payload
                )
                return Result(
                    frames: output,
                    ref: ref,
                    kind: "complication",
                    locale: payload.locale,
                    outputs: [("complication", payload.locale)]
                )
            default:
                return dead(
                    .invalid,
                    "body_type '\(event.header.bodyType)' is neither an order event nor a complication request"
                )
            }
        } catch let error as CaffeProtocolError {
            let reason: Caffe_V1_DeadLetterReason = error.code == .malformed ? .malformed : .invalid
            return dead(reason, error.description)
        } catch let error as RenderError {
            return dead(error.deadLetterReason, error.description)
        } catch {
            return dead(.renderFailed, "\(error)")
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
        // does, the topic still goes out with the letter's detail as its body.
        return (try? EventFrames.encode(topic: CaffeTopic.deadLetter, header: header, body: letter))
            ?? [Worker.frame(Array(CaffeTopic.deadLetter.utf8)), ZMQMessage(), Worker.frame(Array(detail.utf8))]
    }
}

extension RenderError {
    /// The dead-letter reason for an event that failed this way.
    var deadLetterReason: Caffe_V1_DeadLetterReason {
        switch code {
        case .unknownItem, .unknownSize, .unknownStore, .missingPrice: .unknownItem
        case .renderFailed: .renderFailed
        default: .invalid
        }
    }
}

extension Caffe_V1_DeadLetterReason {
    /// The reason as the `caffe_worker_dead_letters_total` label names it.
    var metricName: String {
        switch self {
        case .malformed: "malformed"
        case .invalid: "invalid"
        case .unknownItem: "unknown_item"
        case .renderFailed: "render_failed"
        case .unrecoverableGap: "unrecoverable_gap"
        case .unspecified, .UNRECOGNIZED: "unspecified"
        }
    }
}
