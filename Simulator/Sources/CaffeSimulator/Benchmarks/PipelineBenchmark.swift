import CaffeCore
import Foundation
import ZeroMQ

/// The whole pipeline under `caffe-sim load` on this machine: the highest rate a `caffe worker`
/// sustains with nothing lost or duplicated, its latency and resident memory over a long run at
/// half that rate, and the same search, on the same stream, for the Python peers under
/// `Benchmarks/python` (pyzmq + PyICU, pyzmq + Babel) doing the same job.
///
/// Each probe starts its subject afresh, runs an open-loop constant-rate load for
/// ``Configuration/stepSeconds`` and stops the subject, so no backlog carries from one probe into
/// the next. A rate is *sustained* when every order came back exactly once with both outputs, the
/// load was sent at 98 % or more of its target, and the p99 latency stayed under
/// ``Configuration/maxP99Milliseconds`` (a queue growing by 1 % of the rate over a 10-second
/// probe adds 100 ms). The search doubles the rate until a probe fails, then bisects.
public struct PipelineBenchmark {
    public struct Configuration: Sendable {
        /// The `caffe` executable.
        public var executable: URL
        /// The folder holding `worker.yaml`, `menu.json` and `Localizations/`.
        public var configurationDirectory: URL
        /// The folder holding the Python peers (`peer.py`, `setup.sh`).
        public var peersDirectory: URL
        /// The peers to measure beside the worker.
        public var peers: [PeerBackend] = PeerBackend.allCases
        /// Processes each peer runs.
        public var peerProcesses = 2
        /// Render threads in the worker; 0: one per core.
        public var renderThreads = 0
        /// Seconds of load in each probe, warm-up included.
        public var stepSeconds = 10.0
        /// Seconds at the start of each run left out of the latency figures.
        public var warmupSeconds = 2.0
        /// The first rate tried.
        public var startRate = 2000.0
        /// No rate above this is tried.
        public var maxRate = 400_000.0
        /// The search stops when the failing rate is within this fraction of the sustained one.
        public var resolution = 0.05
        /// The p99 latency a sustained probe stays under.
        public var maxP99Milliseconds = 100.0
        /// Seconds of the run at half the worker's sustained rate (latency and memory).
        public var soakSeconds = 600.0
        public var seed: UInt64 = 1

        public init(executable: URL, configurationDirectory: URL, peersDirectory: URL) {
            self.executable = executable
            self.configurationDirectory = configurationDirectory
            self.peersDirectory = peersDirectory
        }
    }

    /// A Python peer's formatting library.
    public enum PeerBackend: String, Sendable, CaseIterable, Codable {
        case pyicu, babel
    }

    /// One probe of the search.
    public struct Probe: Codable, Sendable {
        public var subject: String
        public var targetRate: Double
        public var achievedRate: Double
        public var lost: Int
        public var duplicates: Int
        public var deadLettered: Int
        public var p99Milliseconds: Double
        public var sustained: Bool

        enum CodingKeys: String, CodingKey {
            case subject, lost, duplicates, sustained
            case targetRate = "target_rate"
            case achievedRate = "achieved_rate"
            case deadLettered = "dead_lettered"
            case p99Milliseconds = "p99_ms"
        }
    }

    public struct Report: Codable, Sendable {
        public var maxSustainedOrdersPerSecond: Double
        public var halfRate: Double
        public var p50MillisecondsAtHalf: Double
        public var p99MillisecondsAtHalf: Double
        public var p999MillisecondsAtHalf: Double
        /// Lost and duplicated orders in the run at half rate.
        public var lost: Int
        public var duplicates: Int
        public var peerPyICUOrdersPerSecond: Double?
        public var peerBabelOrdersPerSecond: Double?
        public var ratioVsPyICU: Double?
        public var rssMegabytesStart: Double
        /// Resident memory a minute into the run (allocator arenas and caches at their working
        /// size), when the run lasts that long: the end figure is compared with it.
        public var rssMegabytesAfterOneMinute: Double?
        public var rssMegabytesEnd: Double
        public var rssMegabytesMax: Double
        public var soakSeconds: Double
        public var stepSeconds: Double
        public var renderThreads: Int
        public var peerProcesses: Int
        public var probes: [Probe]

        enum CodingKeys: String, CodingKey {
            case lost, duplicates, probes
            case maxSustainedOrdersPerSecond = "max_sustained_orders_per_s"
            case halfRate = "half_rate"
            case p50MillisecondsAtHalf = "p50_ms_at_half"
            case p99MillisecondsAtHalf = "p99_ms_at_half"
            case p999MillisecondsAtHalf = "p999_ms_at_half"
            case peerPyICUOrdersPerSecond = "peer_pyicu_orders_per_s"
            case peerBabelOrdersPerSecond = "peer_babel_orders_per_s"
            case ratioVsPyICU = "ratio_vs_pyicu"
            case rssMegabytesStart = "rss_mb_start"
            case rssMegabytesAfterOneMinute = "rss_mb_1min"
            case rssMegabytesEnd = "rss_mb_end"
            case rssMegabytesMax = "rss_mb_max"
            case soakSeconds = "soak_seconds"
            case stepSeconds = "step_seconds"
            case renderThreads = "render_threads"
            case peerProcesses = "peer_processes"
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        let menu = try Menu(contentsOf: configuration.configurationDirectory.appendingPathComponent("menu.json"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "caffe-bench-pipeline-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try ZMQContext()
        defer { context.shutdown() }
        let endpoints = try Endpoints(context: context)

        var probes: [Probe] = []
        let worker = workerSubject(endpoints, folder: folder)
        progress("searching the worker's sustained rate (\(Int(configuration.stepSeconds)) s probes)")
        let workerRate = try sustainedRate(of: worker, menu: menu, context: context, probes: &probes, progress)
        guard workerRate > 0 else {
            throw Failure(
                description: "the worker did not sustain even \(Int(configuration.startRate)) orders/s "
                    + "(the probes are above); try a lower --start-rate"
            )
        }

        var peerRates: [PeerBackend: Double] = [:]
        if !configuration.peers.isEmpty {
            let python = try preparePeers(progress)
            for backend in configuration.peers {
                progress("searching the \(backend.rawValue) peer's sustained rate")
                let subject = peerSubject(backend, endpoints, python: python, folder: folder)
                peerRates[backend] = try sustainedRate(
                    of: subject,
                    menu: menu,
                    context: context,
                    probes: &probes,
                    progress
                )
            }
        }

        let half = (workerRate / 2).rounded()
        progress("running the worker at \(Int(half)) orders/s for \(Int(configuration.soakSeconds)) s")
        var memory: [Double] = []
        let soak = try worker.withRunning { process in
            memory.append(process.residentMegabytes)
            return try load(rate: half, seconds: configuration.soakSeconds, endpoints, menu: menu, context: context) {
                line in
                let rss = process.residentMegabytes
                memory.append(rss)
                progress(line + String(format: "  rss %.1f MB", rss))
            }
        }
        // The first figure after warm-up is the start: lazily built caches are then in place.
        let settledIndex = min(memory.count - 1, Int(configuration.warmupSeconds.rounded(.up)) + 1)
        let pyicu = peerRates[.pyicu]
        return Report(
            maxSustainedOrdersPerSecond: workerRate,
            halfRate: half,
            p50MillisecondsAtHalf: soak.p50Milliseconds,
            p99MillisecondsAtHalf: soak.p99Milliseconds,
            p999MillisecondsAtHalf: soak.p999Milliseconds,
            lost: soak.lost,
            duplicates: soak.duplicates,
            peerPyICUOrdersPerSecond: pyicu,
            peerBabelOrdersPerSecond: peerRates[.babel],
            ratioVsPyICU: pyicu.flatMap { $0 > 0 ? workerRate / $0 : nil },
            rssMegabytesStart: memory.isEmpty ? 0 : memory[max(0, settledIndex)],
            // memory[0] is taken before the load, then one sample a second.
            rssMegabytesAfterOneMinute: memory.count > 61 ? memory[60] : nil,
            rssMegabytesEnd: memory.last ?? 0,
            rssMegabytesMax: memory.max() ?? 0,
            soakSeconds: configuration.soakSeconds,
            stepSeconds: configuration.stepSeconds,
            renderThreads: configuration.renderThreads > 0
                ? configuration.renderThreads : ProcessInfo.processInfo.activeProcessorCount,
            peerProcesses: configuration.peerProcesses,
            probes: probes
        )
    }

    // MARK: - Search

    /// Doubles the rate until a probe fails, then bisects until the failing rate is within
    /// ``Configuration/resolution`` of the sustained one. Zero when even the start rate fails.
    private func sustainedRate(
        of subject: Subject,
        menu: Menu,
        context: ZMQContext,
        probes: inout [Probe],
        _ progress: (String) -> Void
    ) throws -> Double {
        func probe(_ rate: Double) throws -> Bool {
            let report = try subject.withRunning { _ in
                try load(
                    rate: rate,
                    seconds: configuration.stepSeconds,
                    subject.endpoints,
                    menu: menu,
                    context: context
                ) {
                    _ in
                }
            }
            let result = Probe(
                subject: subject.name,
                targetRate: rate,
                achievedRate: report.achievedRate,
                lost: report.lost,
                duplicates: report.duplicates,
                deadLettered: report.deadLettered,
                p99Milliseconds: report.p99Milliseconds,
                sustained: report.lost == 0 && report.duplicates == 0 && report.deadLettered == 0
                    && report.unexpected == 0 && report.unsent == 0 && report.achievedRate >= 0.98 * rate
                    && report.p99Milliseconds < configuration.maxP99Milliseconds
            )
            probes.append(result)
            progress(
                String(
                    format: "  %@ %6.0f/s: achieved %6.0f/s, lost %d, duplicates %d, p99 %.1f ms -> %@",
                    subject.name,
                    rate,
                    report.achievedRate,
                    report.lost,
                    report.duplicates,
                    report.p99Milliseconds,
                    result.sustained ? "sustained" : "not sustained"
                )
            )
            return result.sustained
        }
        return try Self.search(
            from: configuration.startRate,
            below: configuration.maxRate,
            resolution: configuration.resolution,
            probe: probe
        )
    }

    /// The highest rate `probe` accepts: doubles from `start` until a rate fails (or reaches
    /// `ceiling`), then bisects until the failing rate is within `resolution` of the accepted one.
    /// Zero when `start` already fails.
    public static func search(
        from start: Double,
        below ceiling: Double,
        resolution: Double,
        probe: (Double) throws -> Bool
    ) rethrows -> Double {
        var good = 0.0
        var bad = ceiling
        var rate = start
        while rate < bad {
            if try probe(rate) {
                good = rate
                rate *= 2
            } else {
                bad = rate
            }
        }
        guard good > 0 else { return 0 }
        while (bad - good) / good > resolution {
            let middle = ((good + bad) / 2).rounded()
            if try probe(middle) { good = middle } else { bad = middle }
        }
        return good
    }

    /// One open-loop constant-rate run against whatever listens on the subject's endpoints.
    private func load(
        rate: Double,
        seconds: Double,
        _ endpoints: Endpoints,
        menu: Menu,
        context: ZMQContext,
        progress: (String) -> Void
    ) throws -> LoadReport {
        var load = LoadRun.Configuration()
        load.profile = .constant(rate: rate)
        load.duration = seconds
        load.count = Int(rate * seconds) + 1
        load.warmup = configuration.warmupSeconds
        load.inputEndpoint = "@" + endpoints.input
        load.inputKind = "push"
        load.outputEndpoint = "@" + endpoints.output
        load.outputKind = "pull"
        load.seed = configuration.seed
        load.replayEndpoint = ""
        return try LoadRun(configuration: load, menu: menu).run(context: context, progress: progress)
    }

    // MARK: - Subjects

    private func workerSubject(_ endpoints: Endpoints, folder: URL) -> Subject {
        Subject(
            name: "worker",
            endpoints: endpoints,
            executable: configuration.executable,
            arguments: WorkerBenchmark.workerArguments(
                configurationDirectory: configuration.configurationDirectory,
                input: endpoints.input,
                output: endpoints.output,
                checkpoint: folder.appendingPathComponent("checkpoint"),
                renderThreads: configuration.renderThreads
            ),
            log: folder.appendingPathComponent("worker.log")
        )
    }

    private func peerSubject(_ backend: PeerBackend, _ endpoints: Endpoints, python: URL, folder: URL) -> Subject {
        Subject(
            name: backend.rawValue,
            endpoints: endpoints,
            executable: python,
            arguments: [
                configuration.peersDirectory.appendingPathComponent("peer.py").path, "--backend", backend.rawValue,
                "--processes", "\(configuration.peerProcesses)", "--input", endpoints.input, "--output",
                endpoints.output, "--config", configuration.configurationDirectory.path,
            ],
            log: folder.appendingPathComponent("peer-\(backend.rawValue).log")
        )
    }

    /// Runs the peers' `setup.sh` (quick when already done) and returns the interpreter of the
    /// virtual environment it keeps in the package's `.build/python-peers`.
    private func preparePeers(_ progress: (String) -> Void) throws -> URL {
        let script = configuration.peersDirectory.appendingPathComponent("setup.sh")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw Failure(description: "no Python peers at \(configuration.peersDirectory.path) (setup.sh missing)")
        }
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/bin/bash")
        setup.arguments = [script.path]
        let output = Pipe()
        setup.standardOutput = output
        try setup.runWithSignalsUnblocked()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        setup.waitUntilExit()
        let python = configuration.peersDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/python-peers/bin/python")
        guard setup.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(
                description: "the Python peers' set-up failed (\(script.path) exited \(setup.terminationStatus))"
            )
        }
        for line in printed.split(separator: "\n") { progress(String(line)) }
        return python
    }
}

/// Two free loopback endpoints: the load binds them, the subject connects.
struct Endpoints {
    var input: String
    var output: String

    init(context: ZMQContext) throws {
        func free() throws -> String {
            let socket = try context.socket(.pull)
            defer { socket.close(linger: .milliseconds(0)) }
            return try socket.bind("tcp://127.0.0.1:*")
        }
        input = try free()
        output = try free()
    }
}

/// A process that PULLs orders from the load's input endpoint and PUSHes their outputs to its
/// output endpoint: the worker, or a Python peer.
struct Subject {
    var name: String
    var endpoints: Endpoints
    var executable: URL
    var arguments: [String]
    var log: URL

    /// Starts the subject, gives it a moment to connect, runs `body`, and stops it (SIGTERM, then
    /// SIGKILL after 10 s).
    func withRunning<Result>(_ body: (RunningProcess) throws -> Result) throws -> Result {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.runWithSignalsUnblocked()
        let running = RunningProcess(process: process)
        defer { running.stop() }
        Thread.sleep(forTimeInterval: 1)
        guard process.isRunning else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw PipelineBenchmark.Failure(
                description: "\(name) exited at start (status \(process.terminationStatus)): \(text.suffix(600))"
            )
        }
        return try body(running)
    }
}

/// A started subject process.
struct RunningProcess {
    let process: Process

    /// Resident memory from `/proc/<pid>/status`, in MiB; 0 once the process has gone.
    var residentMegabytes: Double {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }

    /// SIGTERM, SIGKILL after 10 s. Waits at most 10 s more: Foundation sees an exit only when
    /// every process holding its watch socket is gone, so a killed parent whose children linger
    /// would otherwise hang the benchmark.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        if !waitForExit(seconds: 10) {
            kill(process.processIdentifier, SIGKILL)
            _ = waitForExit(seconds: 10)
        }
    }

    private func waitForExit(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
    }
}

extension PipelineBenchmark {
    public static func summary(_ report: Report) -> String {
        func rate(_ value: Double?) -> String { value.map { String(format: "%.0f orders/s", $0) } ?? "not measured" }
        return """
            caffe worker (\(report.renderThreads) render threads), PUSH -> worker -> PULL, with caffe-sim load on the same machine:
              max sustained      \(rate(report.maxSustainedOrdersPerSecond))  (0 lost, 0 duplicates, p99 within bound, \(Int(report.stepSeconds)) s probes)
              at half (\(Int(report.halfRate))/s for \(Int(report.soakSeconds)) s): \(String(format: "p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms", report.p50MillisecondsAtHalf, report.p99MillisecondsAtHalf, report.p999MillisecondsAtHalf)), lost \(report.lost), duplicates \(report.duplicates)
              resident memory    \(String(format: "%.1f MB after warm-up, ", report.rssMegabytesStart))\(report.rssMegabytesAfterOneMinute.map { String(format: "%.1f MB after 1 min, ", $0) } ?? "")\(String(format: "%.1f MB at the end, %.1f MB at most", report.rssMegabytesEnd, report.rssMegabytesMax))
            Python peers (\(report.peerProcesses) processes each), same stream, same search:
              pyzmq + PyICU      \(rate(report.peerPyICUOrdersPerSecond))
              pyzmq + Babel      \(rate(report.peerBabelOrdersPerSecond))
              worker / PyICU     \(report.ratioVsPyICU.map { String(format: "%.2f×", $0) } ?? "-")  (target ≥ 2×)
            """
    }
}
