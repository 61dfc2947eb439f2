import CaffeBooks
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import ZeroMQ

// Dead letters are built where they are decided: intake's for what it refuses
// (``IntakeStage``), recovery's for a gap given up (``RecoveryStage``), the renderer's for an
// event its catalog cannot render. What they share is here: the envelope every dead letter
// travels in, and the letter of a well-formed event that keeps its bytes.
extension RenderedEvent {
    /// The dead letter for a well-formed event, keeping its bytes and its reference.
    static func deadLetter(
        _ reason: Caffe_V1_DeadLetterReason,
        _ detail: String,
        event: InputEvent
    ) -> RenderedEvent {
        var letter = Caffe_V1_DeadLetter()
        letter.topic = event.topic.string
        letter.originalHeader = event.headerFrame.data
        letter.originalBody = event.body.data
        var rendered = deadLetter(reason, detail, letter: letter, header: event.header, ref: event.ref)
        // A traced event dead-lettered without a render (past render.max_parked) still ends its
        // span: its dead letter names it as parent.
        if let span = event.span {
            if span.renderStartedAt == 0 {
                span.renderStartedAt = WallClock.nanoseconds()
                span.renderEndedAt = span.renderStartedAt
            }
            span.outcome = "dead_letter:" + reason.metricName
            rendered.span = span
        }
        return rendered
    }

    /// A dead letter on the `dead_letter` topic: `letter` with its reason, detail and reference
    /// filled in, the output header naming the input (ids that break the identifier rule left
    /// out), and the note the pipeline logs.
    static func deadLetter(
        _ reason: Caffe_V1_DeadLetterReason,
        _ detail: String,
        letter: Caffe_V1_DeadLetter,
        header: Caffe_V1_EventHeader,
        ref: SequenceRef?
    ) -> RenderedEvent {
        var letter = letter
        letter.reason = reason
        letter.detail = detail
        letter.ref.sourceID = Identifier.problem(header.sourceID) == nil ? header.sourceID : ""
        letter.ref.sequence = header.sequence
        letter.ref.orderID = Identifier.problem(header.orderID) == nil ? header.orderID : ""
        letter.receivedAt = Google_Protobuf_Timestamp(date: Date())
        // An id that breaks the identifier rule is not repeated in the output's header (a
        // consumer's decoder refuses it too): the letter's original header keeps its bytes.
        var outputHeader = Caffe_V1_EventHeader()
        outputHeader.sourceID = Identifier.problem(header.sourceID) == nil ? header.sourceID : ""
        // The run it belongs to: a gap of a restarted source's earlier run is not its new run's.
        outputHeader.sourceEpoch = header.sourceEpoch
        outputHeader.sequence = header.sequence
        outputHeader.orderID = Identifier.problem(header.orderID) == nil ? header.orderID : ""
        outputHeader.metadata = header.metadata
        if header.hasSentAt { outputHeader.sentAt = header.sentAt }
        let output: OutputMessage
        do {
            let frames = try EventFrames.encode(topic: CaffeTopic.deadLetter, header: outputHeader, body: letter)
            output = OutputMessage(topic: frames[0], header: frames[1], body: frames[2])
        } catch {
            // Encoding our own message cannot fail short of running out of memory; if it does,
            // the topic still goes out with the detail as its body.
            output = OutputMessage(
                topic: ZMQMessage.copying(Array(CaffeTopic.deadLetter.utf8)),
                header: ZMQMessage(),
                body: ZMQMessage.copying(Array(detail.utf8))
            )
        }
        var rendered = RenderedEvent(ref: ref, outputs: [output], summary: .deadLetter(reason: reason.metricName))
        rendered.letter = DeadLetterNote(
            reason: reason.metricName,
            source: header.sourceID,
            sequence: header.sequence,
            orderID: header.orderID,
            detail: detail,
            excerpt: DeadLetterNote.excerpt(of: letter.originalBody),
            trace: header.traceParent
        )
        return rendered
    }
}
