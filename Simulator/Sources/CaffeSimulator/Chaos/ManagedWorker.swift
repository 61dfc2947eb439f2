import Foundation
import WorkerTestKit

#if canImport(Glibc)
import Glibc
#endif

/// A `caffe worker` process the chaos suite starts, kills and starts again, always with the same
/// settings and checkpoint, logging to one file across restarts (a ``ChildProcess``).
public final class ManagedWorker: @unchecked Sendable {
    public let child: ChildProcess

    public init(executable: URL, configurationDirectory: URL, settings: [String], log: URL) {
        child = ChildProcess(
            executable: executable,
            arguments: WorkerCommandLine.arguments(configurationDirectory: configurationDirectory, settings: settings),
            log: log
        )
    }

    /// Starts the worker and waits until it logs that it serves (at most 15 s).
    public func start() throws {
        let servingBefore = child.occurrences(of: "worker serving")
        try child.start()
        guard child.waitForLog("worker serving", count: servingBefore + 1, timeout: .seconds(15)) else {
            throw ChaosError("the worker did not start: \(String(logText.suffix(800)))")
        }
    }

    /// Sends `signal` (SIGKILL: kill -9) and waits for the exit.
    @discardableResult
    public func stop(_ signal: Int32, timeout: TimeInterval = 30) -> Int32? { child.stop(signal, timeout: timeout) }

    /// Exit statuses of the runs that ended, in order.
    public var exits: [Int32] { child.exits }
    public var isRunning: Bool { child.isRunning }
    public var processIdentifier: Int32? { child.processIdentifier }
    public var log: URL { child.log }
    public var arguments: [String] { child.arguments }

    /// Everything logged so far.
    public var logText: String { child.logText }
}

/// A chaos run that could not be carried out.
public struct ChaosError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
