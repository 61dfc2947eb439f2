import CaffeBooks
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Logging
import SwiftProtobuf
import ZeroMQ

/// `caffe.v1.Admin/Redrive`: a dead letter's original event rendered again (marked redriven) and
/// its outputs handed to the event pipeline to publish.
///
/// The render happens here, on the RPC thread, with its session and bounded locale cache — an
/// operator's redrive of an unseen locale compiles it here, never on the pipeline thread every
/// order passes through. Redrives are taken at `rpc.redrive_rate` a second (a burst of as many)
/// and queue with the other renders (`rpc.queue`); beyond either, RESOURCE_EXHAUSTED. Refused
/// while the worker drains, when the pipeline's queue of rendered redrives is full, or when the
/// letter kept no event that reads. The log says each redrive, a few a second at most.
final class RedriveHandler: RenderingRPCHandler {
    let method = CaffeMethod.redrive
    private let redrives: RedriveQueue?
    private let status: WorkerStatus
    private let limits: CaffeProtocolLimits
    private let logger: Logger
    private var rate: LogBudget
    private var logged = LogBudget(perSecond: 2, burst: 10)
    private let now: @Sendable () -> ContinuousClock.Instant

    /// `redrives`: the pipeline's queue; `nil` when there is no pipeline to take them.
    /// `perSecond`: `rpc.redrive_rate`. `now`: the clock the rate is counted by.
    init(
        redrives: RedriveQueue?,
        status: WorkerStatus,
        limits: CaffeProtocolLimits,
        perSecond: Int = WorkerConfiguration.RPC().redriveRate,
        logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.redrives = redrives
        self.status = status
        self.limits = limits
        self.logger = logger
        self.now = now
        rate = LogBudget(perSecond: Double(perSecond), burst: Double(perSecond))
    }

    func handle(_ request: RequestFrames, replies: inout RPCReplies) -> RPCDecision {
        guard status.isServing, redrives != nil else {
            replies.answer(request, RPCStatus(code: .unavailable, message: "the worker is draining; try another"))
            return .answered
        }
        guard rate.admit(at: now()) != nil else {
            replies.answer(
                request,
                RPCStatus(
                    code: .resourceExhausted,
                    message: "more than \(Int(rate.perSecond)) redrives a second (rpc.redrive_rate); try again later"
                )
            )
            return .answered
        }
        // The letter is read when its turn to render comes (a bad one is refused then).
        return .render
    }

    func render(_ request: RequestFrames, renderer: inout EventRenderer) -> RPCReply {
        guard let redrives else { return RPCReply(request, RPCStatus(code: .unavailable, message: "no pipeline")) }
        let event: InputEvent
        switch Self.redriven(request, limits: limits) {
        case .success(let redriven): event = redriven
        case .failure(let refusal): return RPCReply(request, refusal.status)
        }
        guard !redrives.isFull else {
            return RPCReply(
                request,
                RPCStatus(code: .resourceExhausted, message: "\(redrives.capacity) redrives already queued")
            )
        }
        var result = renderer.render(event, newLocales: .compile)
        if case .parked(let reason) = result.summary {
            result = RenderedEvent.deadLetter(.renderFailed, reason, event: event)
        }
        // Outside the sequence books: a redrive completes nothing. This thread's cache is not the
        // pipeline's to report.
        result.ref = nil
        result.localeCache = nil
        guard redrives.offer(result) else {
            return RPCReply(
                request,
                RPCStatus(code: .resourceExhausted, message: "\(redrives.capacity) redrives already queued")
            )
        }
        if let heldBack = logged.admit(at: .now) {
            var metadata: Logger.Metadata = [
                "source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)",
            ]
            if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
            logger.notice("dead letter redriven", metadata: metadata)
        }
        return RPCReply(request, .ok)
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
