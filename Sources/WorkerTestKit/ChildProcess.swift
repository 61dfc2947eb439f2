import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A process started by the tests or the simulator — the one launcher they share.
///
/// - Its standard error (and standard output with `outputToLog`) is appended to `log`, kept
///   across restarts, so a test reads everything a worker said before and after a kill.
/// - It starts with no signal blocked (``Foundation/Process/runWithSignalsUnblocked()``).
/// - ``stop(_:timeout:)`` sends a signal, then SIGKILL after the timeout, and waits at most as
///   long again, then gives up (`nil`): Foundation sees an exit only when every process holding
///   its watch socket is gone, so a killed parent whose children linger neither hangs nor traps
///   the caller.
/// - Exit statuses are kept in order, a signal's as its negative number.
///
/// ```swift
/// let worker = ChildProcess(
///     executable: caffe,
///     arguments: WorkerCommandLine.arguments(configurationDirectory: config, settings: ["render.threads=2"]),
///     log: folder.appendingPathComponent("worker.log")
/// )
/// try worker.start()
/// guard worker.waitForLog("worker serving", timeout: .seconds(15)) else { … }
/// worker.stop(SIGKILL)
/// ```
public final class ChildProcess: @unchecked Sendable {
    /// The program started.
    public let executable: URL
    /// Its arguments, without the program.
    public let arguments: [String]
    /// The environment; `nil`: the parent's.
    public let environment: [String: String]?
    /// The folder it runs in; `nil`: the parent's.
    public let workingDirectory: URL?
    /// The file standard error (and output, with `outputToLog`) is appended to.
    public let log: URL
    /// Whether standard output goes to the log too (otherwise it is discarded).
    public let outputToLog: Bool
    private var process: Process?
    /// Exit statuses of the runs that ended, in order (a signal's negative).
    public private(set) var exits: [Int32] = []

    /// A process to be started by ``start()``; nothing runs yet.
    public init(
        executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        workingDirectory: URL? = nil,
        log: URL,
        outputToLog: Bool = false
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.log = log
        self.outputToLog = outputToLog
    }

    /// Starts the process (again, after it ended).
    public func start() throws {
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.standardError = handle
        process.standardOutput = outputToLog ? handle : FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        self.process = process
    }

    /// Waits until the log holds `text` `count` times (across restarts); `false` when the process
    /// ended or `timeout` passed first.
    public func waitForLog(_ text: String, count: Int = 1, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while occurrences(of: text) < count {
            guard isRunning, ContinuousClock.now < deadline else { return occurrences(of: text) >= count }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// How many times the log holds `text`.
    public func occurrences(of text: String) -> Int { logText.components(separatedBy: text).count - 1 }

    /// Sends `signal`, SIGKILL after `timeout`, and waits; the exit status, or `nil` when it was
    /// not running or Foundation never saw it end (a killed process whose children hold on).
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM, timeout: TimeInterval = 30) -> Int32? {
        guard let process, process.isRunning else { return nil }
        kill(process.processIdentifier, signal)
        if !waitForExit(process, seconds: timeout) {
            kill(process.processIdentifier, SIGKILL)
            // Reading the status of a process Foundation still counts as running traps.
            guard waitForExit(process, seconds: timeout) else { return nil }
        }
        let status = Self.status(process)
        exits.append(status)
        self.process = nil
        return status
    }

    /// A finished process's exit status, a signal's as its negative number.
    private static func status(_ process: Process) -> Int32 {
        process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
    }

    /// Sends `signal` and returns at once.
    public func signal(_ signal: Int32) {
        if let process, process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Whether the last start is still running.
    public var isRunning: Bool { process?.isRunning ?? false }
    /// The running process's id.
    public var processIdentifier: Int32? { process?.processIdentifier }
    /// The status of the last run, once it has ended on its own (`nil` while running).
    public var terminationStatus: Int32? {
        guard let process else { return exits.last }
        return process.isRunning ? nil : Self.status(process)
    }

    /// Everything logged so far.
    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Resident memory from `/proc/<pid>/status`, in MiB; 0 once the process has gone.
    public var residentMegabytes: Double {
        guard let pid = processIdentifier,
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }

    private func waitForExit(_ process: Process, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return !process.isRunning
    }

    deinit {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = waitForExit(process, seconds: 10)
        }
    }
}

extension ChildProcess {
    /// The executable `name` built next to the running test bundle (`swift build --build-tests`
    /// puts products and the test bundle in one folder), or `nil` when it is not there.
    public static func locate(_ name: String) -> URL? {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate.standardizedFileURL
            }
        }
        return nil
    }

    /// What a process run to its end left behind (`status`: a signal's as its negative number).
    public struct Result: Sendable {
        /// The exit status; a signal's as its negative number.
        public var status: Int32
        /// Everything written to standard output.
        public var standardOutput: String
        /// Everything written to standard error.
        public var standardError: String
    }

    /// Runs `executable` with `arguments` to its end, `input` on standard input, in
    /// `workingDirectory` with `environment` (each `nil`: the parent's). Output goes through
    /// temporary files, so no pipe can fill up and block the child.
    public static func run(
        _ executable: URL,
        _ arguments: [String],
        input: String = "",
        workingDirectory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("stdin")
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try Data(input.utf8).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let inputHandle = try FileHandle(forReadingFrom: inputURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        if let environment { process.environment = environment }
        process.standardInput = inputHandle
        process.standardOutput = output
        process.standardError = error
        try process.runWithSignalsUnblocked()
        process.waitUntilExit()
        try inputHandle.close()
        try output.close()
        try error.close()
        return Result(
            status: status(process),
            standardOutput: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
        )
    }
}

/// `caffe worker`'s command line, built in one place: the configuration folder's `worker.yaml`,
/// `config_dir` pointing at that folder, then each setting as `--set key=value`.
public enum WorkerCommandLine {
    /// `worker --config-file <folder>/worker.yaml --set config_dir=<folder>` and `--set` per setting.
    public static func arguments(configurationDirectory: URL, settings: [String]) -> [String] {
        ["worker", "--config-file", configurationDirectory.appendingPathComponent("worker.yaml").path]
            + (["config_dir=\(configurationDirectory.path)"] + settings).flatMap { ["--set", $0] }
    }
}
