import Foundation
import ZeroMQ

/// `/metrics`, `/healthz` and `/readyz` for `caffe proxy`, served on a thread of its own until
/// ``stop()``: the proxy's message and byte counts per side and direction, whether it answers,
/// `caffe_build_info` and the `process_*` families.
public final class ProxyOperations: Sendable {
    /// The address listened on (port 0 resolved).
    public let address: HostAndPort
    private let endpoint: HTTPEndpoint
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on `address` (`host:port`); `statistics` asks the proxy for its counts (nil when it
    /// does not answer, which makes it unhealthy).
    public init(
        address text: String,
        kind: String,
        statistics: @escaping @Sendable () -> ZMQProxyStatistics?
    ) throws(WorkerError) {
        guard let address = HostAndPort(text) else { throw WorkerError("--metrics-address '\(text)' is not host:port") }
        endpoint = try HTTPEndpoint(address: address) { path in
            switch path {
            case "/metrics":
                HTTPEndpoint.Response(
                    status: 200,
                    contentType: "text/plain; version=0.0.4; charset=utf-8",
                    body: Self.exposition(kind: kind, statistics: statistics())
                )
            case "/healthz", "/readyz":
                statistics() == nil ? .text(503, "NOT_SERVING: the proxy does not answer\n") : .text(200, "SERVING\n")
            default:
                .text(404, "not found; try /metrics, /healthz or /readyz\n")
            }
        }
        self.address = endpoint.address
        let endpoint = endpoint
        let finished = finished
        let thread = Thread {
            endpoint.serveUntilStopped()
            finished.signal()
        }
        thread.name = "caffe-proxy-http"
        thread.start()
    }

    /// Stops serving and waits for the thread.
    public func stop() {
        endpoint.requestStop()
        finished.wait()
    }

    /// The proxy's metrics in the Prometheus text format.
    static func exposition(kind: String, statistics: ZMQProxyStatistics?) -> [UInt8] {
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
        ProcessMetrics.writeBuildInfo("caffe", to: &text)
        ProcessMetrics.current()?.write(to: &text)
        return text.bytes
    }
}
