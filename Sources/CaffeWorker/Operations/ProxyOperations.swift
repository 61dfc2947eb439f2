import CaffeProtocol
import Foundation
import ServiceLifecycle
import ZeroMQ

/// `/metrics`, `/healthz` and `/readyz` for `caffe proxy`: the proxy's message and byte counts per
/// side and direction, whether it answers, `caffe_build_info` and the `process_*` families. A
/// `Service`: `init` listens, ``run()`` serves on a thread of its own until the task is cancelled
/// or the service group shuts down gracefully.
public final class ProxyOperations: Service, Sendable {
    /// The address listened on (port 0 resolved).
    public let address: HostAndPort
    private let endpoint: HTTPEndpoint

    /// Listens on `address` (`host:port`); `statistics` asks the proxy for its counts (nil when it
    /// does not answer, which makes it unhealthy).
    public convenience init(
        address text: String,
        kind: String,
        statistics: @escaping @Sendable () -> ZMQProxyStatistics?
    ) throws(WorkerError) {
        try self.init(address: text, kind: kind) { Report(statistics: statistics(), routing: nil) }
    }

    /// Serves a partitioning router's counts: its traffic as a proxy's, and where events went.
    public convenience init(address text: String, router: ShardRouter) throws(WorkerError) {
        try self.init(address: text, kind: "partition") {
            guard let counts = router.counts() else { return Report(statistics: nil, routing: nil) }
            return Report(statistics: counts.proxyStatistics, routing: counts)
        }
    }

    /// What one scrape shows: `statistics` nil when the proxy does not answer.
    struct Report {
        var statistics: ZMQProxyStatistics?
        var routing: ShardRouter.Counts?
    }

    private init(address text: String, kind: String, report: @escaping @Sendable () -> Report) throws(WorkerError) {
        guard let address = HostAndPort(text) else {
            throw WorkerError(.configuration, "'\(text)' is not host:port", key: "--metrics-address")
        }
        endpoint = try HTTPEndpoint(address: address, key: "--metrics-address") { path in
            switch path {
            case "/metrics":
                HTTPEndpoint.Response(
                    status: 200,
                    contentType: "text/plain; version=0.0.4; charset=utf-8",
                    body: Self.exposition(kind: kind, report: report())
                )
            case "/healthz", "/readyz":
                Self.health(report())
            default:
                .text(404, "not found; try /metrics, /healthz or /readyz\n")
            }
        }
        self.address = endpoint.address
    }

    /// Serves until the task is cancelled or the service group shuts down gracefully.
    public func run() async throws { try await endpoint.run() }

    /// `/healthz` and `/readyz`: 503 when the proxy does not answer; 200 otherwise, saying
    /// `DEGRADED` while it refuses subscriptions (it still routes: taking it out of service would
    /// hand the flooder the fleet).
    static func health(_ report: Report) -> HTTPEndpoint.Response {
        guard report.statistics != nil else { return .text(503, "NOT_SERVING: the proxy does not answer\n") }
        if let routing = report.routing, routing.isShedding {
            return .text(
                200,
                "DEGRADED: refusing subscriptions past the caps (\(routing.refusedSubscriptions) so far); "
                    + "events are still routed\n"
            )
        }
        return .text(200, "SERVING\n")
    }

    /// The proxy's metrics in the Prometheus text format.
    static func exposition(kind: String, report: Report) -> [UInt8] {
        let statistics = report.statistics
        var text = PrometheusText()
        text.family("caffe_proxy_up", type: "gauge", help: "1 while the proxy answers; its kind as a label.")
        text.sample("caffe_proxy_up", [("kind", kind)], value: statistics == nil ? 0.0 : 1.0)
        if let statistics {
            let sides = [("frontend", statistics.frontend), ("backend", statistics.backend)]
            text.family("caffe_proxy_messages_total", type: "counter", help: "Messages, by side and direction.")
            for (name, side) in sides {
                text.sample(
                    "caffe_proxy_messages_total",
                    [("side", name), ("direction", "in")],
                    value: side.messagesIn
                )
                text.sample(
                    "caffe_proxy_messages_total",
                    [("side", name), ("direction", "out")],
                    value: side.messagesOut
                )
            }
            text.family("caffe_proxy_bytes_total", type: "counter", help: "Bytes, by side and direction.")
            for (name, side) in sides {
                text.sample("caffe_proxy_bytes_total", [("side", name), ("direction", "in")], value: side.bytesIn)
                text.sample("caffe_proxy_bytes_total", [("side", name), ("direction", "out")], value: side.bytesOut)
            }
        }
        if let routing = report.routing {
            writeRouting(routing, to: &text)
        }
        ProcessMetrics.writeBuildInfo("caffe", to: &text)
        ProcessMetrics.current()?.write(to: &text)
        return text.bytes
    }

    /// A partitioning router's families: events per shard, those sent while the shard had no
    /// subscription, unroutable ones, and the subscriptions it knows.
    private static func writeRouting(_ routing: ShardRouter.Counts, to text: inout PrometheusText) {
        let shards = routing.routed.indices.map { ("shard", "\($0)") }
        text.family("caffe_proxy_routed_total", type: "counter", help: "Events sent to each shard.")
        for (index, label) in shards.enumerated() {
            text.sample("caffe_proxy_routed_total", [label], value: routing.routed[index])
        }
        text.family(
            "caffe_proxy_routed_unsubscribed_total",
            type: "counter",
            help: "Events sent to a shard that had no subscription (dropped; its owner asks the source later)."
        )
        for (index, label) in shards.enumerated() {
            text.sample("caffe_proxy_routed_unsubscribed_total", [label], value: routing.unsubscribed[index])
        }
        text.family(
            "caffe_proxy_unroutable_total",
            type: "counter",
            help: "Messages whose event header could not be read, sent to shard 0 (which dead-letters them)."
        )
        text.sample("caffe_proxy_unroutable_total", [], value: routing.unroutable)
        text.family(
            "caffe_proxy_foreign_subscriptions_total",
            type: "counter",
            help: "Subscriptions naming another number of shards than this proxy routes among."
        )
        text.sample("caffe_proxy_foreign_subscriptions_total", [], value: routing.foreignSubscriptions)
        text.family(
            "caffe_proxy_subscriptions_refused_total",
            type: "counter",
            help: "Subscriptions refused past the topics a shard (or no shard) may hold: not tracked, not passed on."
        )
        text.sample("caffe_proxy_subscriptions_refused_total", [], value: routing.refusedSubscriptions)
        text.family("caffe_proxy_shedding", type: "gauge", help: "1 while subscriptions were refused in the last 10 s.")
        text.sample("caffe_proxy_shedding", [], value: routing.isShedding ? 1.0 : 0.0)
        text.family(
            "caffe_proxy_subscribed_topics",
            type: "gauge",
            help: "Topics subscribed to now, by shard; shard=\"none\": without a shard prefix (they receive nothing)."
        )
        for (index, label) in shards.enumerated() {
            text.sample("caffe_proxy_subscribed_topics", [label], value: Double(routing.subscribedTopics[index]))
        }
        text.sample("caffe_proxy_subscribed_topics", [("shard", "none")], value: Double(routing.unprefixedTopics))
    }
}
