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

/// A real `caffe worker` process with the built-in configuration, its own folder (checkpoint,
/// `ipc://` RPC endpoint, log) and whatever `--set` overrides a test adds; metrics on a free port.
final class WorkerProcess {
    let folder: URL
    let checkpoint: URL
    let rpcEndpoint: String
    /// The process, started by the launcher the tests and the simulator share.
    let child: ChildProcess

    init(folder: URL, settings: [String], environment: [String: String] = [:]) throws {
        self.folder = folder
        checkpoint = folder.appendingPathComponent("worker.checkpoint")
        rpcEndpoint = "ipc://\(folder.path)/rpc"
        let defaults = [
            "checkpoint.path=\(checkpoint.path)", "render.threads=2", "metrics.address=127.0.0.1:0",
            "rpc.endpoint=@\(rpcEndpoint)", "checkpoint.interval_ms=50",
        ]
        let executable = try #require(ExecutableRunner.locate("caffe"), "build with swift build --build-tests")
        child = ChildProcess(
            executable: executable,
            arguments: WorkerCommandLine.arguments(
                configurationDirectory: ConfigurationDirectory.builtIn,
                settings: defaults + settings
            ),
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            log: folder.appendingPathComponent("stderr-\(UUID().uuidString.prefix(8))")
        )
        try launch()
    }

    /// A worker that PULLs from `ipc://<folder>/in` (which the test binds) and PUSHes its outputs to
    /// `collector`, with `settings` added; and that input endpoint.
    static func pullPush(
        folder: URL,
        collector: WorkerRecoveryTests.Collector,
        settings: [String] = []
    ) throws -> (worker: WorkerProcess, input: String) {
        let input = "ipc://\(folder.path)/in"
        let worker = try WorkerProcess(
            folder: folder,
            settings: [
                "input.kind=pull", "input.endpoints=>\(input)", "output.kind=push",
                "output.endpoints=>\(collector.endpoint)",
            ] + settings
        )
        return (worker, input)
    }

    /// Starts the process (again, after it ended), logging to the same file.
    func launch() throws { try child.start() }

    var log: URL { child.log }

    /// Everything the worker logged so far (across restarts).
    var stderr: String { child.logText }

    var processIdentifier: Int32 { child.processIdentifier ?? 0 }

    /// Waits for the `worker serving` line and returns the metrics address it names.
    @discardableResult
    func waitUntilServing(starts: Int = 1) throws -> String {
        if child.waitForLog("worker serving", count: starts, timeout: .seconds(30)),
            let match = stderr.matches(of: /http:\/\/([0-9.]+:[0-9]+)\/metrics/).last
        {
            return String(match.output.1)
        }
        Issue.record("the worker did not start: \(stderr)")
        throw CancellationError()
    }

    /// Sends SIGTERM and waits; returns the exit status (a signal's negative).
    func terminate() -> Int32 { child.stop(SIGTERM, timeout: 60) ?? child.terminationStatus ?? 0 }

    /// SIGKILL: no drain, no final checkpoint.
    func kill() { child.stop(SIGKILL) }

    func signal(_ number: Int32) { child.signal(number) }
}

/// A temporary folder removed at the end of the test.
final class TemporaryFolder {
    let url: URL
    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
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
        var header = Caffe_V1_RequestHeader()
        header.method = method
        header.requestID = id
        if let deadline { header.deadline = .init(date: deadline) }
        try socket.send(multipart: try RequestFrames.encode(header: header, body: body))
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
