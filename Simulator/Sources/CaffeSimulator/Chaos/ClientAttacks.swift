import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import WorkerTestKit
import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

/// Clients that cost a worker without doing anything useful: 200 TCP connections to the metrics
/// port that never send a request, and a DEALER that floods `caffe.v1.Admin/Stats` and never
/// reads. Measures what a well-behaved client sees meanwhile: `/healthz` latency, and its own RPC
/// p99 before and during the flood.
struct ClientAttacks {
    let context: ZMQContext
    let rpc: String
    let metrics: HostAndPort

    init(context: ZMQContext, rpc: String, log: String) throws {
        guard let match = log.matches(of: /http:\/\/([0-9.]+:[0-9]+)\/metrics/).last,
            let address = HostAndPort(String(match.output.1))
        else { throw ChaosError("the worker did not log its metrics address") }
        self.context = context
        self.rpc = rpc
        metrics = address
    }

    /// p99 seconds: `/healthz` under idle connections, RPC quiet, RPC beside the flood.
    func run() throws -> (healthz: Double, quiet: Double, flooded: Double) {
        var idle: [Int32] = []
        defer { for descriptor in idle { close(descriptor) } }
        for _ in 0..<200 { idle.append(connectIdle()) }
        var probes: [Double] = []
        for _ in 0..<100 {
            let start = ContinuousClock.now
            guard HTTPProbe.get(metrics, "/healthz")?.status == 200 else { throw ChaosError("/healthz did not answer") }
            probes.append(seconds(ContinuousClock.now - start))
        }
        let polite = try context.socket(.dealer)
        defer { polite.close(linger: .milliseconds(0)) }
        try polite.connect(rpc)
        let quiet = try rpcP99(polite, label: "quiet")
        let greedy = try context.socket(.dealer)
        try greedy.set(.receiveHighWaterMark, to: 1)
        try greedy.set(.sendHighWaterMark, to: 100_000)
        try greedy.connect(rpc)
        for index in 0..<20_000 {
            try greedy.send(
                multipart: try RequestFrames.encode(
                    method: CaffeMethod.stats,
                    requestID: "g\(index)",
                    body: Caffe_V1_StatsRequest()
                )
            )
        }
        let flooded = try rpcP99(polite, label: "flooded")
        greedy.close(linger: .milliseconds(0))
        return (percentile99(probes), quiet, flooded)
    }

    private func rpcP99(_ socket: ZMQSocket, label: String) throws -> Double {
        var times: [Double] = []
        for index in 0..<300 {
            let start = ContinuousClock.now
            try socket.send(
                multipart: try RequestFrames.encode(
                    method: CaffeMethod.healthCheck,
                    requestID: "\(label)-\(index)",
                    body: Grpc_Health_V1_HealthCheckRequest()
                )
            )
            guard try socket.receiveMultipart(timeout: .seconds(5)) != nil else {
                throw ChaosError("a polite request got no answer within 5 s")
            }
            times.append(seconds(ContinuousClock.now - start))
        }
        return percentile99(times)
    }

    private func connectIdle() -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = metrics.port.bigEndian
        inet_pton(AF_INET, metrics.host, &target.sin_addr)
        _ = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return descriptor
    }

    private func percentile99(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
