import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a test worker could not be used.
public struct TestWorkerError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// A real `caffe worker` process for tests: its own folder (checkpoint, `ipc://` RPC endpoint,
/// log), a configuration folder's `worker.yaml` with whatever `--set` overrides a test adds,
/// metrics on a free port, checkpoints every 50 ms, two render threads.
///
/// ```swift
/// try withTestWorker(configuration: config, settings: ["input.kind=pull", …]) { worker, metrics in
///     // orders in, outputs out; `metrics` is the /metrics address
/// }
/// ```
public final class TestWorker {
    /// The worker's own folder (checkpoint, RPC socket, log).
    public let folder: URL
    /// Where it writes its checkpoint.
    public let checkpoint: URL
    /// Its RPC endpoint (`ipc://` in its folder).
    public let rpcEndpoint: String
    /// The process, started by the launcher the tests and the simulator share.
    public let child: ChildProcess

    /// Starts `caffe` (found next to the test bundle) as a worker on `configuration`.
    public init(
        configuration: URL,
        folder: URL,
        settings: [String],
        environment: [String: String] = [:]
    ) throws {
        self.folder = folder
        checkpoint = folder.appendingPathComponent("worker.checkpoint")
        rpcEndpoint = "ipc://\(folder.path)/rpc"
        let defaults = [
            "checkpoint.path=\(checkpoint.path)", "render.threads=2", "metrics.address=127.0.0.1:0",
            "rpc.endpoint=@\(rpcEndpoint)", "checkpoint.interval_ms=50",
        ]
        guard let executable = ChildProcess.locate("caffe") else {
            throw TestWorkerError("no caffe executable next to the tests: build with swift build --build-tests")
        }
        child = ChildProcess(
            executable: executable,
            arguments: WorkerCommandLine.arguments(
                configurationDirectory: configuration,
                settings: defaults + settings
            ),
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            log: folder.appendingPathComponent("stderr-\(UUID().uuidString.prefix(8))")
        )
        try launch()
    }

    /// Starts the process (again, after it ended), logging to the same file.
    public func launch() throws { try child.start() }

    /// What it wrote to standard error, across restarts.
    public var log: URL { child.log }

    /// Everything the worker logged so far (across restarts).
    public var stderr: String { child.logText }

    /// The running worker's process id (0 when none is running).
    public var processIdentifier: Int32 { child.processIdentifier ?? 0 }

    /// Waits for the `starts`-th `worker serving` line and returns the metrics address it names.
    @discardableResult
    public func waitUntilServing(starts: Int = 1) throws -> String {
        if child.waitForLog("worker serving", count: starts, timeout: .seconds(30)),
            let match = stderr.matches(of: /http:\/\/([0-9.]+:[0-9]+)\/metrics/).last
        {
            return String(match.output.1)
        }
        throw TestWorkerError("the worker did not start: \(stderr)")
    }

    /// Sends SIGTERM and waits; returns the exit status (a signal's negative).
    public func terminate() -> Int32 { child.stop(SIGTERM, timeout: 60) ?? child.terminationStatus ?? 0 }

    /// SIGKILL: no drain, no final checkpoint.
    public func kill() { child.stop(SIGKILL) }

    /// Sends `number` and returns at once.
    public func signal(_ number: Int32) { child.signal(number) }
}

/// A temporary folder, removed when released.
public final class TemporaryFolder {
    /// The folder.
    public let url: URL

    /// A new folder in the temporary directory, its name starting with `name`.
    public init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` with a worker started on `configuration` in a fresh folder and serving (its
/// metrics address given), then stops it with SIGTERM and returns `body`'s result; the worker is
/// killed if `body` throws.
public func withTestWorker<Result>(
    configuration: URL,
    settings: [String],
    _ body: (TestWorker, _ metricsAddress: String) throws -> Result
) throws -> Result {
    let folder = try TemporaryFolder("test-worker")
    let worker = try TestWorker(configuration: configuration, folder: folder.url, settings: settings)
    let result: Result
    do {
        result = try body(worker, try worker.waitUntilServing())
    } catch {
        worker.kill()
        throw error
    }
    let status = worker.terminate()
    guard status == 0 else { throw TestWorkerError("the worker exited \(status): \(worker.stderr.suffix(800))") }
    return result
}
