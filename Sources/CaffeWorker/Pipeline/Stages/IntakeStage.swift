import CaffeBooks
import CaffeProtocol
import CaffeTransport
import Foundation
import Logging
import SwiftProtobuf
import ZeroMQ

/// Where input leaves the pipeline's input: decoded, checked against the shard it belongs to,
/// judged by the books (order, gaps, duplicates, heartbeats), and turned into either an event to
/// render or a dead letter — built here, where it is decided. No I/O: the loop reads the frames
/// and carries out what comes back.
struct IntakeStage {
    /// What one input came to: the books' actions (carried out first) and, at most, one thing
    /// to pass on.
    struct Outcome {
        var actions: [SourceBooks.Action] = []
        var next: Next?
    }

    /// What an input is passed on as.
    enum Next {
        /// Admitted: render it.
        case render(InputEvent)
        /// Refused: this dead letter goes to the output.
        case deadLetter(RenderedEvent)
    }

    private let limits: CaffeProtocolLimits
    private let shard: ShardAssignment?
    /// Whether sampled events get a span of the worker's (`tracing.otlp_endpoint` set).
    private let tracesEvents: Bool
    /// Whether clients are named by their CURVE key (the ZAP handler's `User-Id`).
    private let namesClients: Bool
    /// Stream keys made once per run of a source, and each source's latest epoch.
    private var streamKeys = StreamKeys()
    /// The ids of the worker's spans of traced events.
    private var spanIDs = SpanIDGenerator()

    init(limits: CaffeProtocolLimits, shard: ShardAssignment?, tracesEvents: Bool, namesClients: Bool) {
        self.limits = limits
        self.shard = shard
        self.tracesEvents = tracesEvents
        self.namesClients = namesClients
    }

    /// Judges one input message.
    mutating func take(
        _ frames: [ZMQMessage],
        at now: ContinuousClock.Instant,
        books: inout SourceBooks,
        telemetry: inout PipelineTelemetry
    ) -> Outcome {
        let identity = namesClients ? frames.first?.metadata("User-Id") ?? "" : ""
        switch ParsedInput(frames, limits: limits, keys: &streamKeys, shard: shard) {
        case .notOwned(let source):
            // Its owner renders it: counted and logged, not dead-lettered.
            if let shard { telemetry.notOwned(source, shard: shard, at: now) }
            return Outcome()
        case .malformed(let detail):
            return Outcome(next: .deadLetter(.deadLetter(.malformed, detail, frames: frames, header: nil)))
        case .invalid(let detail, let header):
            var outcome = refuse(header, at: now, books: &books, telemetry: &telemetry)
            if case .deadLetter(let ref) = outcome.refusal {
                var letter = RenderedEvent.deadLetter(.invalid, detail, frames: frames, header: header)
                letter.ref = ref
                outcome.taken.next = .deadLetter(letter)
            }
            return outcome.taken
        case .oversized(let header, let bytes, let body, let topic):
            telemetry.count { $0.oversized += 1 }
            telemetry.logger.warning(
                "oversized message refused",
                metadata: ["bytes": "\(bytes)", "source": "\(header?.sourceID ?? "")", "topic": "\(topic)"]
            )
            var outcome = refuse(header, at: now, books: &books, telemetry: &telemetry)
            if case .deadLetter(let ref) = outcome.refusal {
                outcome.taken.next = .deadLetter(
                    .oversized(bytes: bytes, body: body, limits: limits, topic: topic, header: header, ref: ref)
                )
            }
            return outcome.taken
        case .event(let event):
            if event.header.bodyType == Caffe_V1_Heartbeat.protoMessageName {
                return heartbeat(
                    event,
                    frames: frames,
                    identity: identity,
                    at: now,
                    books: &books,
                    telemetry: &telemetry
                )
            }
            noteRestart(at: now, books: &books, telemetry: &telemetry)
            let (decision, actions) = books.admit(event.header, key: event.streamKey, identity: identity, at: now)
            return Outcome(
                actions: actions,
                next: decided(decision, for: event, frames: frames, at: now, telemetry: &telemetry)
            )
        }
    }

    /// What becomes of an event the books decided on (live, or replayed by its source).
    mutating func decided(
        _ decision: Intake.Decision,
        for event: InputEvent,
        frames: [ZMQMessage],
        at now: ContinuousClock.Instant,
        telemetry: inout PipelineTelemetry
    ) -> Next? {
        switch decision {
        case .render(let late):
            if late {
                telemetry.count { $0.late += 1 }
                telemetry.logger.notice(
                    "late event inside a range given up; rendering it",
                    metadata: ["source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)"]
                )
            }
            return .render(traced(event))
        case .duplicate, .retry:
            // A retry's sequence is done already (the books marked it).
            telemetry.duplicate(event.header, retry: decision == .retry, at: now)
            return nil
        case .reject(let detail):
            telemetry.logger.warning(
                "event refused",
                metadata: [
                    "source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)", "reason": "\(detail)",
                ]
            )
            return .deadLetter(.deadLetter(.invalid, detail, frames: frames, header: event.header))
        }
    }

    /// An input refused for its content whose header could still be read is tracked like any
    /// event, so its sequence is not a gap and its dead letter completes it; a duplicate (nothing
    /// to send) is counted.
    private mutating func refuse(
        _ header: Caffe_V1_EventHeader?,
        at now: ContinuousClock.Instant,
        books: inout SourceBooks,
        telemetry: inout PipelineTelemetry
    ) -> (taken: Outcome, refusal: SourceBooks.Refusal) {
        let (refusal, actions) = books.refuse(header, at: now)
        if refusal == .duplicate { telemetry.count { $0.duplicates += 1 } }
        return (Outcome(actions: actions), refusal)
    }

    /// A heartbeat: the books learn the source's last sequence (a gap behind it is found now).
    private mutating func heartbeat(
        _ event: InputEvent,
        frames: [ZMQMessage],
        identity: String,
        at now: ContinuousClock.Instant,
        books: inout SourceBooks,
        telemetry: inout PipelineTelemetry
    ) -> Outcome {
        telemetry.count { $0.heartbeats += 1 }
        let last: UInt64
        do {
            last = try EventFrames.decodeBody(Caffe_V1_Heartbeat.self, frame: event.body, limits: limits).lastSequence
        } catch {
            return Outcome(
                next: .deadLetter(.deadLetter(.malformed, error.description, frames: frames, header: event.header))
            )
        }
        switch books.heartbeat(event.header, lastSequence: last, identity: identity, at: now) {
        case .success(let actions):
            return Outcome(actions: actions)
        case .failure(let refusal):
            return Outcome(
                next: .deadLetter(.deadLetter(.invalid, refusal.detail, frames: frames, header: event.header))
            )
        }
    }

    /// Says when a source restarted: its events came under a new, larger `source_epoch`, so its
    /// numbering starts again in books of its own (docs/WIRE.md, "Sources and sequences").
    private mutating func noteRestart(
        at now: ContinuousClock.Instant,
        books: inout SourceBooks,
        telemetry: inout PipelineTelemetry
    ) {
        guard let restart = streamKeys.takeRestart() else { return }
        // The previous run retires once everything it took in is done.
        if restart.previous != 0 {
            books.superseded(
                SourceStream.key(source: restart.source, epoch: restart.previous),
                by: restart.epoch,
                at: now
            )
        }
        telemetry.restarted(source: restart.source, epoch: restart.epoch, previous: restart.previous, at: now)
    }

    /// With spans exported, an event whose `traceparent` asks for sampling gets the worker's
    /// span: its outputs name that span as their parent (W3C Trace Context §3.5, "update
    /// parent-id"). Without, the event goes on as it came and its outputs carry its context as is.
    private mutating func traced(_ event: InputEvent) -> InputEvent {
        guard tracesEvents, let parent = event.header.traceParent, parent.isSampled else { return event }
        var event = event
        let span = EventSpan(
            parent: parent,
            spanID: spanIDs.next(),
            source: event.header.sourceID,
            sequence: event.header.sequence,
            orderID: event.header.orderID,
            bodyType: event.header.bodyType,
            admittedAt: WallClock.nanoseconds()
        )
        event.header.metadata[TraceParent.metadataKey] = span.outgoing.description
        event.span = span
        return event
    }
}

extension Intake.Policy {
    /// What intake and gap recovery read from the configuration.
    init(_ configuration: WorkerConfiguration) {
        let replay = configuration.replay
        self.init(
            maxSequenceJump: UInt64(configuration.input.maxSequenceJump),
            recovery: GapRecovery.Policy(
                timeout: replay.timeout,
                attempts: replay.attempts,
                backoff: replay.backoff,
                batch: UInt64(replay.batch)
            ),
            configuredEndpoints: replay.endpoints,
            allowEndpointChange: replay.allowEndpointChange,
            idleTime: configuration.input.sourceIdle,
            maxHeartbeatJump: UInt64(configuration.input.maxHeartbeatJump)
        )
    }
}

// Intake's dead letters.
extension RenderedEvent {
    /// The dead letter for an input with no sequence to trust (unreadable, or refused by intake):
    /// the original frames as they came, whatever is readable of its header kept.
    static func deadLetter(
        _ reason: Caffe_V1_DeadLetterReason,
        _ detail: String,
        frames: [ZMQMessage],
        header: Caffe_V1_EventHeader?
    ) -> RenderedEvent {
        var letter = Caffe_V1_DeadLetter()
        if frames.count == 3 {
            letter.topic = frames[0].string
            letter.originalHeader = frames[1].data
            letter.originalBody = frames[2].data
        } else {
            letter.originalBody = Data(frames.flatMap(\.bytes))
        }
        return deadLetter(reason, detail, letter: letter, header: header ?? Caffe_V1_EventHeader(), ref: nil)
    }

    /// The dead letter for an oversized input: its header (when readable) identifies it and, when
    /// intake tracked its sequence, completes it; the bytes themselves are not kept.
    /// `body`: the body frame alone is over `input.max_message_bytes` (`bytes` is its size); else
    /// the message in all frames is over the three limits together (`bytes` is all of it).
    static func oversized(
        bytes: Int,
        body: Bool,
        limits: CaffeProtocolLimits,
        topic: String,
        header: Caffe_V1_EventHeader?,
        ref: SequenceRef?
    ) -> RenderedEvent {
        var letter = Caffe_V1_DeadLetter()
        letter.topic = topic
        let all = limits.maxBodyBytes + limits.maxHeaderBytes + limits.maxTopicBytes
        let detail =
            body
            ? "the body has \(bytes) bytes; input.max_message_bytes accepts \(limits.maxBodyBytes) (its bytes are not kept)"
            : "the message has \(bytes) bytes in all frames; the body (input.max_message_bytes), header and topic "
                + "limits accept \(all) together (its bytes are not kept)"
        return deadLetter(.oversized, detail, letter: letter, header: header ?? Caffe_V1_EventHeader(), ref: ref)
    }

}
