import CaffeBooks
import CaffeProtocol
import CaffeTransport
import Logging
import SwiftProtobuf
import ZeroMQ

/// `caffe.v1.Admin/Redrive`: a dead letter's original event handed back to the event pipeline
/// (marked redriven), refused while the worker drains, when the pipeline's redrive queue is full,
/// or when the letter kept no event that reads.
final class RedriveHandler: RPCHandler {
    let method = CaffeMethod.redrive
    private let redrives: RedriveQueue?
    private let status: WorkerStatus
    private let limits: CaffeProtocolLimits
    private let logger: Logger

    /// `redrives`: the pipeline's queue; `nil` when there is no pipeline to take them.
    init(redrives: RedriveQueue?, status: WorkerStatus, limits: CaffeProtocolLimits, logger: Logger) {
        self.redrives = redrives
        self.status = status
        self.limits = limits
        self.logger = logger
    }

    func handle(_ request: RequestFrames, replies: inout RPCReplies) -> RPCDecision {
        guard status.isServing, let redrives else {
            replies.answer(request, RPCStatus(code: .unavailable, message: "the worker is draining; try another"))
            return .answered
        }
        let event: InputEvent
        switch Self.redriven(request, limits: limits) {
        case .success(let redriven): event = redriven
        case .failure(let refusal):
            replies.answer(request, refusal.status)
            return .answered
        }
        guard redrives.offer(event) else {
            replies.answer(
                request,
                RPCStatus(code: .resourceExhausted, message: "\(redrives.capacity) redrives already queued")
            )
            return .answered
        }
        logger.notice(
            "dead letter redriven",
            metadata: ["source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)"]
        )
        replies.answer(request, .ok)
        return .answered
    }
}

extension RedriveHandler {
    /// The event a `Redrive` request's dead letter carries, marked redriven; refused when the
    /// letter kept no event (a gap, an oversized message) or its event does not read.
    static func redriven(_ request: RequestFrames, limits: CaffeProtocolLimits) -> Result<InputEvent, RedriveRefusal> {
        let letter: Caffe_V1_DeadLetter
        do {
            letter = try request.decodeBody(as: Caffe_V1_DeadLetter.self)
        } catch {
            return .failure(RedriveRefusal(status: error.rpcStatus))
        }
        guard !letter.originalHeader.isEmpty, !letter.originalBody.isEmpty,
            let topic = try? ZMQMessage(Array(letter.topic.utf8)),
            let header = try? ZMQMessage(Array(letter.originalHeader)),
            let body = try? ZMQMessage(Array(letter.originalBody))
        else {
            return .failure(
                RedriveRefusal(
                    status: RPCStatus(
                        code: .invalidArgument,
                        message: "the dead letter keeps no event to render (a gap's, or an oversized message's)"
                    )
                )
            )
        }
        guard case .event(var event) = ParsedInput([topic, header, body], limits: limits),
            event.header.bodyType != Caffe_V1_Heartbeat.protoMessageName
        else {
            return .failure(
                RedriveRefusal(
                    status: RPCStatus(
                        code: .invalidArgument,
                        message: "the dead letter's event does not read as an event"
                    )
                )
            )
        }
        event.header.metadata[redrivenMetadataKey] = "true"
        if let bytes = try? event.header.serializedBytes() as [UInt8], let frame = try? ZMQMessage(bytes) {
            event.headerFrame = frame
        }
        return .success(event)
    }

    /// Why a redrive was refused.
    struct RedriveRefusal: Error {
        var status: RPCStatus
    }
}
