import CaffeBooks
import CaffeProtocol
import CaffeTransport
import ZeroMQ

/// Where rendered events wait for the output to take them, each source in turn, and what the
/// output says was delivered: the event latency (from the source's `sent_at` to the output
/// taking the last output) and the end of a traced event's span are recorded here.
struct OutputStage {
    /// How outputs leave (``OutputChannel``: PUB, PUSH, acknowledged, or in memory).
    let channel: any OutputChannel
    /// Where the spans of traced events go; `nil`: none are recorded.
    private let spans: SpanExporter?
    /// Rendered, waiting for the output to take them.
    private var outbound = FairQueue<RenderedEvent>()

    init(channel: any OutputChannel, spans: SpanExporter?) {
        self.channel = channel
        self.spans = spans
    }

    /// Events waiting for the output.
    var count: Int { outbound.count }
    var isEmpty: Bool { outbound.isEmpty }
    /// Whether everything offered is delivered.
    var isSettled: Bool { channel.isSettled }
    /// Whether the loop may sleep with events waiting: only while the output has something to
    /// wake it for.
    var mustRetry: Bool { !outbound.isEmpty && channel.interest.isEmpty }

    /// Queues `event` behind its source's others.
    mutating func append(_ event: RenderedEvent) {
        outbound.append(event, key: event.ref?.source ?? "")
    }

    /// Offers what waits to the output, each source in turn, until it takes no more: a source whose
    /// outputs the output refuses (its share is full) is passed over for now. Returns the inputs
    /// now delivered.
    mutating func flush(at now: ContinuousClock.Instant, counts: inout ThreadCounts) throws(ZMQError) -> [SequenceRef] {
        var refused: [(key: String, element: RenderedEvent)] = []
        var refusedInARow = 0
        let spans = spans
        let channel = channel
        while refusedInARow < max(1, outbound.keyCount), var head = outbound.removeFirst() {
            let accepted = try counts.counting { counts throws(ZMQError) in
                let taken = try channel.offer(&head, at: now, counts: &counts)
                if taken, head.sentAt != 0, let kind = head.latencyKind {
                    let latency = max(0, WallClock.nanoseconds() - head.sentAt)
                    counts.eventLatency[kind, default: LatencyHistogram()].record(nanoseconds: UInt64(latency))
                }
                if taken, let span = head.span, let spans {
                    span.publishedAt = WallClock.nanoseconds()
                    spans.record(span)
                }
                return taken
            }
            if accepted {
                refusedInARow = 0
            } else {
                refused.append((head.ref?.source ?? "", head))
                refusedInARow += 1
            }
        }
        if !refused.isEmpty { outbound.prepend(contentsOf: refused) }
        return channel.takeCompleted()
    }

    /// Reads what the output's socket has for the worker (subscriptions, acknowledgements) and
    /// sends what became possible; returns the inputs now delivered.
    func service(at now: ContinuousClock.Instant, counts: inout ThreadCounts) throws(ZMQError) -> [SequenceRef] {
        let channel = channel
        try counts.counting { counts throws(ZMQError) in try channel.service(at: now, counts: &counts) }
        return channel.takeCompleted()
    }

    /// Inputs delivered since the last call.
    func takeCompleted() -> [SequenceRef] { channel.takeCompleted() }
}
