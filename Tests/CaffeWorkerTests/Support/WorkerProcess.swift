// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import SwiftProtobuf
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeWorker

/// The tests' worker: a ``TestWorker`` (WorkerTestKit) on the built-in configuration.
typealias WorkerProcess = TestWorker

extension TestWorker {
    /// A worker on the built-in configuration in `folder`, with `settings` added.
    convenience init(folder: URL, settings: [String], environment: [String: String] = [:]) throws {
        try self.init(
            configuration: ConfigurationDirectory.builtIn,
            folder: folder,
            settings: settings,
            environment: environment
        )
    }

    /// A worker that PULLs from `ipc://<folder>/in` (which the test binds) and PUSHes its outputs to
    /// `collector`, with `settings` added; and that input endpoint.
    static func pullPush(
        folder: URL,
        collector: WorkerRecoveryTests.Collector,
        settings: [String] = []
    ) throws -> (worker: TestWorker, input: String) {
        let input = "ipc://\(folder.path)/in"
        let worker = try TestWorker(
            folder: folder,
            settings: [
                "input.kind=pull", "input.endpoints=>\(input)", "output.kind=push",
                "output.endpoints=>\(collector.endpoint)",
            ] + settings
        )
        return (worker, input)
    }
}

/// A real `caffe proxy` process with `/metrics` on a free port: what it said first (its endpoints
/// and metrics URL) and that address.
final class ProxyProcess {
    let child: ChildProcess
    let said: String
    let metricsAddress: String

    /// Starts `caffe proxy` with `arguments` and `--metrics-address 127.0.0.1:0`, and waits for
    /// its first line.
    init(_ arguments: [String]) throws {
        let executable = try #require(ExecutableRunner.locate("caffe"), "build with swift build --build-tests")
        child = ChildProcess(
            executable: executable,
            arguments: ["proxy"] + arguments + ["--metrics-address", "127.0.0.1:0"],
            log: FileManager.default.temporaryDirectory.appendingPathComponent("caffe-proxy-\(UUID().uuidString)")
        )
        try child.start()
        // "caffe proxy (queue): … -> …, metrics http://127.0.0.1:PORT/metrics"
        _ = child.waitForLog("/metrics\n", timeout: .seconds(15))
        said = child.logText
        metricsAddress = String(try #require(said.firstMatch(of: /http:\/\/([0-9.]+:[0-9]+)\/metrics/)).output.1)
    }

    var isRunning: Bool { child.isRunning }

    /// SIGTERM, and waits.
    func stop() {
        child.stop()
        try? FileManager.default.removeItem(at: child.log)
    }
}

/// A GET on loopback: status code and body.
func httpGet(_ address: String, _ path: String) throws -> (status: Int, body: String) {
    let target = try #require(HostAndPort(address))
    return try #require(HTTPProbe.get(target, path), "nothing answers at \(address)")
}

/// A test's gRPC-style client: a DEALER sending requests and collecting replies by request id.
struct RPCClient {
    let socket: ZMQSocket

    init(context: ZMQContext, endpoint: String, configure: (ZMQSocket) throws -> Void = { _ in }) throws {
        socket = try context.socket(.dealer)
        try configure(socket)
        try socket.connect(endpoint)
    }

    func send(
        _ method: String,
        id: String,
        body: some SwiftProtobuf.Message,
        deadline: Date? = Date().addingTimeInterval(10)
    ) throws {
        let deadline = deadline.map { Google_Protobuf_Timestamp(date: $0) }
        try socket.send(
            multipart: try RequestFrames.encode(method: method, requestID: id, deadline: deadline, body: body)
        )
    }

    /// Replies by request id, until `count` arrived or `timeout` passed without one.
    func replies(_ count: Int, timeout: ZMQTimeout = .seconds(10)) throws -> [String: ResponseFrames] {
        var replies: [String: ResponseFrames] = [:]
        while replies.count < count, let frames = try socket.receiveMultipart(timeout: timeout) {
            let reply = try ResponseFrames(parsing: frames)
            replies[reply.header.requestID] = reply
        }
        return replies
    }
}
