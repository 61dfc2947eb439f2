import CaffeProtocol
import CaffeTransport
import SwiftProtobuf

/// `caffe.v1.Admin/Stats`: every counter and the gauges, from counts at most 10 ms old. Fresher
/// ones are asked of the other threads and the request is kept until they come (at most 50 ms),
/// without holding up other requests.
final class StatsHandler: RPCHandler {
    let method = CaffeMethod.stats
    /// How old an answer may be and still be given again.
    static let reuse = Duration.milliseconds(10)
    /// How long a request waits for the other threads' counts.
    static let wait = Duration.milliseconds(50)

    private let metrics: WorkerMetrics
    private let status: WorkerStatus
    private let renderThreads: Int
    private var last: (at: ContinuousClock.Instant, encoded: [UInt8])?
    private var waiting: [RequestFrames] = []
    private var generation: UInt64 = 0
    private var deadline = ContinuousClock.now

    init(metrics: WorkerMetrics, status: WorkerStatus, renderThreads: Int) {
        self.metrics = metrics
        self.status = status
        self.renderThreads = renderThreads
    }

    func handle(_ request: RequestFrames, replies: inout RPCReplies) -> RPCDecision {
        if let last, ContinuousClock.now - last.at < Self.reuse {
            replies.answer(request, encodedBody: last.encoded, metadata: versionMetadata)
            return .answered
        }
        if waiting.isEmpty {
            generation = metrics.requestFreshCounts()
            deadline = .now + Self.wait
        }
        waiting.append(request)
        return .kept
    }

    var keptCount: Int { waiting.count }
    var keptWake: Duration { waiting.isEmpty ? .seconds(1) : .milliseconds(1) }

    /// Answers the requests kept, once the counts are fresh or the wait is over.
    func answerKept(replies: inout RPCReplies) {
        guard !waiting.isEmpty, metrics.hasFreshCounts(generation) || ContinuousClock.now >= deadline else { return }
        replies.counts.publish(force: true)
        let encoded = encodedResponse()
        last = (ContinuousClock.now, encoded)
        for request in waiting { replies.answer(request, encodedBody: encoded, metadata: versionMetadata) }
        waiting.removeAll()
    }

    private func encodedResponse() -> [UInt8] {
        let total = metrics.counts
        var response = Caffe_V1_StatsResponse()
        response.counters = total.snapshot
        response.gauges = [
            "queue_depth_render": Double(total.renderQueue), "queue_depth_rpc": Double(total.rpcQueue),
            "gaps_pending": Double(total.pendingGaps), "consumers": Double(total.consumers),
            "unacknowledged": Double(total.unacknowledged),
            "render_threads": Double(renderThreads), "serving": status.isServing ? 1 : 0,
            "healthy": status.isHealthy ? 1 : 0, "sources_active": Double(total.activeSources),
            "sources_dormant": Double(total.dormantSources), "parked": Double(total.parkedNow),
            "locale_cache_bytes": Double(total.localeCacheBytes), "lag_events": Double(total.totalLag),
            "ready": status.notReadyBecause == nil ? 1 : 0,
        ]
        return (try? response.serializedBytes()) ?? []
    }
}
