import ArgumentParser
import CaffeClient
import CaffeProtocol
import CaffeTransport
import Foundation
import ZeroMQ

/// `caffe health`: `grpc.health.v1.Health/Check` against a worker's RPC endpoint, exiting the way
/// grpc-ecosystem's `grpc_health_probe` does, so Kubernetes exec probes and scripts read it alike.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Check a worker's health over its RPC endpoint (grpc_health_probe's exit codes).",
        discussion: """
            Exit status: 0 SERVING; 1 an argument it cannot use (unknown options exit 64, as in \
            every caffe command); 2 no connection within --connect-timeout; 3 the call failed (no \
            answer within --rpc-timeout, or an error status such as NOT_FOUND for an unknown \
            service); 4 answered, but not SERVING. Services: "" (the worker), caffe.v1.Renderer, \
            caffe.v1.Admin, grpc.health.v1.Health. For readiness (inputs connected, checkpoint \
            writable) use the metrics address's /readyz.
            """
    )

    @Option(help: "The worker's RPC endpoint (rpc.endpoint) as a client connects to it; a leading > is accepted.")
    var rpc = "tcp://127.0.0.1:5562"

    @Option(help: "The service to check; empty: the worker as a whole.")
    var service = ""

    @Option(help: "Seconds to wait for the connection.")
    var connectTimeout = 1.0

    @Option(help: "Seconds to wait for the answer.")
    var rpcTimeout = 1.0

    func run() async throws {
        var options = RPCClient.Options()
        options.timeout = .milliseconds(Int64(rpcTimeout * 1000))
        options.attempts = 1
        let client: RPCClient
        do {
            client = try RPCClient(endpoint: rpc, options: options)
        } catch {
            Self.fail(1, "--rpc must be tcp://host:port or ipc://path (a leading > is accepted): \(error)")
        }
        guard connectTimeout > 0, rpcTimeout > 0 else { Self.fail(1, "the timeouts must be positive") }
        do {
            try client.waitUntilConnected(timeout: .milliseconds(Int64(connectTimeout * 1000)))
        } catch {
            Self.fail(2, "timeout: failed to connect to \(client.endpoint.address) within \(connectTimeout) s")
        }
        let status: Grpc_Health_V1_HealthCheckResponse.ServingStatus
        do {
            status = try await client.health(service: service)
        } catch {
            if case .noAnswer = error { Self.fail(3, "timeout: health rpc did not complete within \(rpcTimeout) s") }
            Self.fail(3, "error: health rpc failed: \(error)")
        }
        guard status == .serving else {
            Self.fail(4, "service unhealthy (responded with \(Self.name(status)))")
        }
        print("status: SERVING")
    }

    /// The status as grpc_health_probe prints it.
    static func name(_ status: Grpc_Health_V1_HealthCheckResponse.ServingStatus) -> String {
        switch status {
        case .serving: "SERVING"
        case .notServing: "NOT_SERVING"
        case .serviceUnknown: "SERVICE_UNKNOWN"
        default: "UNKNOWN"
        }
    }

    /// Prints `message` on standard error and exits with `status`.
    static func fail(_ status: Int32, _ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(status)
    }
}
