import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `caffe worker` process the chaos suite starts, kills and starts again, always with the same
/// settings and checkpoint, logging to one file across restarts.
public final class ManagedWorker: @unchecked Sendable {
    public let executable: URL
    public let arguments: [String]
    public let log: URL
    private var process: Process?
    /// Exit statuses of the runs that ended, in order.
    public private(set) var exits: [Int32] = []

    public init(executable: URL, configurationDirectory: URL, settings: [String], log: URL) {
        self.executable = executable
        self.log = log
        arguments =
            ["worker", "--config-file", configurationDirectory.appendingPathComponent("worker.yaml").path]
            + (["config_dir=\(configurationDirectory.path)"] + settings).flatMap { ["--set", $0] }
    }

    /// Starts the worker and waits until it logs that it serves (at most 15 s).
    public func start() throws {
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        let servingBefore = servingCount
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        self.process = process
        let deadline = Date().addingTimeInterval(15)
        while servingCount == servingBefore {
            guard process.isRunning, Date() < deadline else {
                throw ChaosError("the worker did not start: \(String(logText.suffix(800)))")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Sends `signal` (SIGKILL: kill -9) and waits for the exit.
    @discardableResult
    public func stop(_ signal: Int32, timeout: TimeInterval = 30) -> Int32? {
        guard let process, process.isRunning else { return nil }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let status =
            process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        exits.append(status)
        self.process = nil
        return status
    }

    public var isRunning: Bool { process?.isRunning ?? false }
    public var processIdentifier: Int32? { process?.processIdentifier }

    /// Everything logged so far.
    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    private var servingCount: Int { logText.components(separatedBy: "worker serving").count - 1 }
}

/// A chaos run that could not be carried out.
public struct ChaosError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
