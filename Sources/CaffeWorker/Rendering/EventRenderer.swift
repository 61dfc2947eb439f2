import CaffeBooks
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Dispatch
import Foundation
import SwiftProtobuf
import ZeroMQ

/// Turns one input event into its output events, or into a dead letter: the rendering stage.
///
/// One per thread (it holds that thread's ``RenderSession``), switched to a reloaded core between
/// two events. Never throws: every failure becomes a ``Caffe_V1_DeadLetter`` carrying the original
/// bytes and the event's reference, so its sequence is completed like any other.
struct EventRenderer {
    let cores: CoreBox
    let limits: CaffeProtocolLimits
    /// Which renderer this is, for the locale cache gauge (each thread's cache is its own).
    let id: Int
    private let localeCacheBytes: Int
    private(set) var session: RenderSession
    private var generation: Int
    /// The cache's counts when last reported.
    private var reported = LocaleCacheStatistics()

    init(
        cores: CoreBox,
        limits: CaffeProtocolLimits,
        id: Int = 0,
        localeCacheBytes: Int = RenderSession.defaultLocaleCacheBytes,
        prepare: [String]? = nil,
        warmUp: Bool = true
    ) {
        self.cores = cores
        self.limits = limits
        self.id = id
        self.localeCacheBytes = localeCacheBytes
        prepared = prepare
        warms = warmUp
        let (core, generation) = cores.current
        session = core.makeSession(localeCacheBytes: localeCacheBytes)
        if let prepare {
            session.prepare(locales: core.preparedLocales + prepare)
            if warmUp { self.warmUp = SessionWarmUp(core: core, locales: core.preparedLocales + prepare) }
        }
        self.generation = generation
    }

    /// What is left to warm in this session (``SessionWarmUp``): orders rendered and thrown away
    /// so that the first real orders of the prepared locales find everything compiled.
    private var warmUp: SessionWarmUp?
    /// Whether sessions are warmed (`render.warm_up`).
    private let warms: Bool

    /// Whether warm-up orders remain.
    var isWarmingUp: Bool { (warmUp?.remaining ?? 0) > 0 }

    /// Renders one warm-up order, if any remain.
    mutating func warmUpStep() {
        guard let item = warmUp?.next() else { return }
        session.warmUp(with: item)
    }

    /// Locales compiled with every new session besides the core's (`nil`: none, not even those).
    private let prepared: [String]?

    /// Takes up a reloaded core, if there is one; true when the session changed. The new session
    /// compiles the prepared locales before it renders.
    @discardableResult
    mutating func refresh() -> Bool {
        guard cores.generation != generation else { return false }
        let core: RenderingCore
        (core, generation) = cores.current
        session = core.makeSession(localeCacheBytes: localeCacheBytes)
        if let prepared {
            session.prepare(locales: core.preparedLocales + prepared)
            if warms { warmUp = SessionWarmUp(core: core, locales: core.preparedLocales + prepared) }
        }
        reported = LocaleCacheStatistics()
        return true
    }

    /// The outputs for `event`, or its dead letter, with the words agreement left as written.
    /// `newLocales`: what to do when the event's locale is not compiled (``NewLocalePolicy``); a
    /// deferred event comes back with ``RenderedEvent/Summary/deferred(locale:)``.
    mutating func render(_ event: InputEvent, newLocales: NewLocalePolicy = .compile) -> RenderedEvent {
        session.newLocales = newLocales
        let started = event.span == nil ? 0 : WallClock.nanoseconds()
        var rendered = renderEvent(event)
        if let span = event.span {
            span.renderStartedAt = started
            span.renderEndedAt = WallClock.nanoseconds()
            switch rendered.summary {
            case .rendered(_, let locale, _, _):
                span.outcome = "rendered"
                span.locale = locale
            case .deadLetter(let reason): span.outcome = "dead_letter:" + reason
            case .parked, .deferred: span.outcome = "parked"
            }
            rendered.span = span
        }
        rendered.notices = session.takeAgreementNotices()
        if event.header.hasSentAt {
            rendered.sentAt = event.header.sentAt.seconds &* 1_000_000_000 &+ Int64(event.header.sentAt.nanos)
        }
        let statistics = session.localeStatistics
        if statistics != reported {
            rendered.localeCache = LocaleCacheReport(
                renderer: id,
                compilations: statistics.compilations &- reported.compilations,
                evictions: statistics.evictions &- reported.evictions,
                bytes: statistics.bytes,
                bound: statistics.bound
            )
            reported = statistics
        }
        return rendered
    }

    private func renderEvent(_ event: InputEvent) -> RenderedEvent {
        let started = DispatchTime.now().uptimeNanoseconds
        let header = event.header
        let ref = event.ref
        func dead(_ reason: Caffe_V1_DeadLetterReason, _ detail: String) -> RenderedEvent {
            RenderedEvent.deadLetter(reason, detail, event: event)
        }
        do {
            switch header.bodyType {
            case Caffe_V1_OrderEvent.protoMessageName:
                // From the body's bytes to the outputs' bytes; the header is checked against the
                // body before anything is rendered.
                let rendered = try event.body.withUnsafeBytes { body in
                    try session.renderOrder(bytes: body, limits: limits) { Self.disagreement(header, $0) }
                }
                let locale = Self.topicLocale(rendered.customerLocale, used: rendered.localization)
                let outputs = [
                    try Self.output(
                        CaffeTopic.confirmation(locale: locale),
                        header,
                        Caffe_V1_Confirmation.protoMessageName,
                        rendered.confirmation
                    ),
                    try Self.output(
                        CaffeTopic.receipt(store: rendered.storeID),
                        header,
                        Caffe_V1_Receipt.protoMessageName,
                        rendered.receipt
                    ),
                ]
                let used = rendered.localization
                return RenderedEvent(
                    ref: ref,
                    outputs: outputs,
                    summary: .rendered(
                        kind: "order",
                        locale: used,
                        outputs: [LabelPair("confirmation", used), LabelPair("receipt", used)],
                        nanoseconds: DispatchTime.now().uptimeNanoseconds - started
                    )
                )
            case Caffe_V1_ComplicationRequest.protoMessageName:
                let rendered = try event.body.withUnsafeBytes { body in
                    try session.renderComplication(bytes: body, limits: limits)
                }
                return RenderedEvent(
                    ref: ref,
                    outputs: [
                        try Self.output(
                            CaffeTopic.complication(user: rendered.userID),
                            header,
                            Caffe_V1_ComplicationPayload.protoMessageName,
                            rendered.payload
                        )
                    ],
                    summary: .rendered(
                        kind: "complication",
                        locale: rendered.locale,
                        outputs: [LabelPair("complication", rendered.locale)],
                        nanoseconds: DispatchTime.now().uptimeNanoseconds - started
                    )
                )
            default:
                return dead(
                    .invalid,
                    "body_type '\(header.bodyType)' is not one of \(Caffe_V1_OrderEvent.protoMessageName), "
                        + "\(Caffe_V1_ComplicationRequest.protoMessageName), \(Caffe_V1_Heartbeat.protoMessageName)"
                )
            }
        } catch let error as CaffeProtocolError {
            return dead(error.code == .malformed ? .malformed : .invalid, error.description)
        } catch let rejection as OrderRejection {
            return dead(.invalid, rejection.description)
        } catch let error as RenderError where error.code == .localeNotReady {
            // Not compiled here and not to be now: the caller renders it elsewhere.
            return RenderedEvent(ref: ref, outputs: [], summary: .deferred(locale: error.message), parked: event)
        } catch let error as RenderError where error.isConfigurationFault {
            // The catalog's fault, not the order's: it waits for a catalog that renders it.
            return RenderedEvent(ref: ref, outputs: [], summary: .parked(error.description), parked: event)
        } catch let error as RenderError {
            return dead(error.deadLetterReason, error.description)
        } catch {
            return dead(.renderFailed, "\(error)")
        }
    }

    /// The locale in a confirmation's topic: the customer's as sent when it is a plausible tag
    /// (letters, digits, `-` and `_`, at most 35 bytes, BCP 47's practical limit), else the
    /// localization actually used: a topic built from anything a client sends could exceed what
    /// receivers accept.
    static func topicLocale(_ requested: String, used: String) -> String {
        let plausible =
            !requested.isEmpty && requested.utf8.count <= 35
            && requested.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                    || byte == 0x2d || byte == 0x5f
            }
        return plausible ? requested : used
    }

    /// Why an order's body contradicts its header, if it does: both name the event, and an event
    /// published under one name and rendered under another would corrupt the books of both.
    static func disagreement(_ header: Caffe_V1_EventHeader, _ order: OrderIdentity) -> String? {
        if !order.hasSourceID(header.sourceID) {
            return "the header's source_id '\(header.sourceID)' differs from the body's '\(order.sourceID)'"
        }
        if order.sequence != header.sequence {
            return "the header's sequence \(header.sequence) differs from the body's \(order.sequence)"
        }
        if !order.hasOrderID(header.orderID) {
            return "the header's order_id '\(header.orderID)' differs from the body's '\(order.orderID)'"
        }
        return nil
    }

    /// One output event from an encoded body; its header is the input's, with the body's type.
    static func output(
        _ topic: String,
        _ header: Caffe_V1_EventHeader,
        _ bodyType: String,
        _ body: UnsafeRawBufferPointer
    ) throws(CaffeProtocolError) -> OutputMessage {
        let frames = try EventFrames.encode(topic: topic, header: header, bodyType: bodyType, body: body)
        return OutputMessage(topic: frames[0], header: frames[1], body: frames[2])
    }
}

extension ZMQMessage {
    /// A frame holding `bytes`, or an empty frame if libzmq cannot allocate one.
    static func copying(_ bytes: [UInt8]) -> ZMQMessage {
        (try? ZMQMessage(bytes)) ?? ZMQMessage()
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
        case .oversized: "oversized"
        case .unspecified, .UNRECOGNIZED: "unspecified"
        }
    }
}
