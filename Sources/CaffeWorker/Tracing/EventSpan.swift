import CaffeProtocol
import Foundation
import Logging

/// What the worker records of one traced event (its header carried a sampled `traceparent` and
/// `tracing.otlp_endpoint` is set): the trace it joins, the span id its outputs name as their
/// parent, and when each stage began and ended (wall clock, nanoseconds since 1970).
///
/// Exported as four spans: `caffe.event` (admission to the output taking the last output; its
/// parent the source's span) and under it `intake` (admitted, waiting to be rendered), `render`
/// and `publish` (rendered, waiting for the output).
///
/// A reference, so that an event carries one word for it whether traced or not (the events move
/// through the pipeline's queues by value). It travels with its event, one thread at a time (the
/// pipeline, a render thread, the pipeline, the exporter), which is what `@unchecked Sendable`
/// promises.
final class EventSpan: @unchecked Sendable {
    /// The context the event came with.
    let parent: TraceParent
    /// The id of the worker's `caffe.event` span: the parent id its outputs carry.
    let spanID: UInt64
    let source: String
    let sequence: UInt64
    let orderID: String
    let bodyType: String
    let admittedAt: Int64
    var renderStartedAt: Int64 = 0
    var renderEndedAt: Int64 = 0
    var publishedAt: Int64 = 0
    /// `rendered`, or `dead_letter:<reason>`.
    var outcome: String = ""
    /// The localization used, for a rendered event.
    var locale: String = ""

    init(
        parent: TraceParent,
        spanID: UInt64,
        source: String,
        sequence: UInt64,
        orderID: String,
        bodyType: String,
        admittedAt: Int64
    ) {
        self.parent = parent
        self.spanID = spanID
        self.source = source
        self.sequence = sequence
        self.orderID = orderID
        self.bodyType = bodyType
        self.admittedAt = admittedAt
    }

    /// The outputs' context: the same trace, this span as the parent.
    var outgoing: TraceParent { parent.child(spanID: spanID) }
}

/// Span ids for one thread: SplitMix64 seeded once from the system's generator, so a span costs no
/// system call; ids are unique within a trace in practice (64 random-looking bits), never zero.
struct SpanIDGenerator {
    private var state: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var value = state
        value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
        value ^= value >> 31
        return value == 0 ? 1 : value
    }
}

extension Caffe_V1_EventHeader {
    /// The event's trace context, when its metadata carries a valid `traceparent`.
    var traceParent: TraceParent? {
        metadata.isEmpty ? nil : TraceParent(metadata[TraceParent.metadataKey])
    }
}

extension Logger.Metadata {
    /// Adds `trace_id` and `span_id` (OpenTelemetry's log fields) for a line about a traced
    /// event: `span_id` is the span its outputs name as parent — the worker's when spans are
    /// exported, else the source's.
    mutating func addTrace(_ trace: TraceParent?) {
        guard let trace else { return }
        self["trace_id"] = "\(trace.traceID)"
        self["span_id"] = "\(trace.parentIDString)"
    }
}
