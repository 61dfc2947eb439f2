import CaffeCore
import Foundation
import Synchronization
import WorkerTestKit
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
        /// The p99 latency a probe stays under to count as sustained by the lenient criterion.
        public var maxP99Milliseconds = 100.0
        /// The p99 latency of the strict criterion (with ≥ 99 % of the target rate achieved).
        public var strictP99Milliseconds = 5.0
        /// The paced rates at which CPU per order is measured.
        public var cpuRates: [Double] = [1000, 4250, 10_000]
        /// Seconds of load at each paced rate (the first ``warmupSeconds`` and the last second
        /// are left out of the CPU window).
        public var cpuSeconds = 10.0
        /// The `caffe-sim` executable, for the relay floor (`caffe-sim relay`).
        public var simulatorExecutable: URL?
        /// The worker's output: `push` (as the relay and the peers) or `acked`.
        public var workerOutput = "push"
        /// Where to write the soak's HTML report (with the worker's CPU and memory), if anywhere.
        public var soakReport: URL?
        /// Only the CPU figures: no search, no peers, no soak.
        public var cpuOnly = false
        /// Seconds of the run at half the worker's sustained rate (latency and memory).
        public var soakSeconds = 600.0
        public var seed: UInt64 = 1
        /// The markets of every load (``MarketDirectory/mix(_:)``); `nil`: ``PipelineBenchmark/parityLocales``,
        /// the markets the Python peers render byte for byte alike.
        public var locales: String? = nil

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
        /// Sustained by the strict criterion (≥ 99 % achieved, p99 under 5 ms).
        public var sustainedStrict: Bool
        public var p999Milliseconds: Double = 0
        public var maxMilliseconds: Double = 0
        /// The second (from the start of the probe) holding the largest latency, and that latency.
        public var worstSecond: Int?
        public var worstSecondMaxMilliseconds: Double?
        /// Whether this probe repeats one that failed the strict criterion at the same rate (a
        /// rate counts as sustained only when its first probe passed: the repeat says whether the
        /// failure was a pause or the rate).
        public var isRepeat = false

        enum CodingKeys: String, CodingKey {
            case subject, lost, duplicates, sustained
            case isRepeat = "repeat"
            case p999Milliseconds = "p999_ms"
            case maxMilliseconds = "max_ms"
            case worstSecond = "worst_second"
            case worstSecondMaxMilliseconds = "worst_second_max_ms"
            case sustainedStrict = "sustained_p99_5ms"
            case targetRate = "target_rate"
            case achievedRate = "achieved_rate"
            case deadLettered = "dead_lettered"
            case p99Milliseconds = "p99_ms"
        }
    }

    public struct Report: Codable, Sendable {
        public var maxSustainedOrdersPerSecond: Double = 0
        public var halfRate: Double = 0
        public var p50MillisecondsAtHalf: Double = 0
        public var p99MillisecondsAtHalf: Double = 0
        public var p999MillisecondsAtHalf: Double = 0
        /// The largest latency of the run at half rate, and `caffe-sim relay`'s at the same rate
        /// for as long in the same sitting, with its p99.9 (the floor the tail is judged against).
        public var maxMillisecondsAtHalf: Double = 0
        public var relayP999MillisecondsAtHalf: Double?
        public var relayMaxMillisecondsAtHalf: Double?
        /// Seconds of the half-rate run whose largest latency exceeded 5 ms, the worker's and the
        /// relay's.
        public var secondsOver5MillisecondsAtHalf: Int = 0
        public var relaySecondsOver5MillisecondsAtHalf: Int?
        /// Peers that could not keep a paced rate while their CPU was measured: what they achieved
        /// and lost (the run goes on without that figure).
        public var peerNotes: [String] = []
        /// Lost and duplicated orders in the run at half rate.
        public var lost: Int = 0
        public var duplicates: Int = 0
        public var peerPyICUOrdersPerSecond: Double?
        public var peerBabelOrdersPerSecond: Double?
        public var ratioVsPyICU: Double?
        /// The highest rate with 0 lost, 0 duplicates, ≥ 99 % achieved and p99 under 5 ms.
        public var maxSustainedStrictOrdersPerSecond: Double = 0
        public var peerPyICUStrictOrdersPerSecond: Double?
        public var peerBabelStrictOrdersPerSecond: Double?
        public var strictRatioVsPyICU: Double?
        /// CPU µs per order at each paced rate (keys: the rate), read from `/proc`.
        public var workerCPU: [String: Double]
        public var relayFloorCPU: [String: Double]
        public var renderCPU: [String: Double]
        public var generatorCPU: [String: Double]
        public var peerPyICUCPU: [String: Double]?
        public var peerBabelCPU: [String: Double]?
        /// The floor + the render cost + 15 µs: what the worker's CPU per order should stay under.
        public var cpuBudget: [String: Double]
        public var workerOutput: String
        public var rssMegabytesStart: Double = 0
        /// Resident memory a minute into the run (allocator arenas and caches at their working
        /// size), when the run lasts that long: the end figure is compared with it.
        public var rssMegabytesAfterOneMinute: Double?
        public var rssMegabytesEnd: Double = 0
        public var rssMegabytesMax: Double = 0
        public var soakSeconds: Double = 0
        public var stepSeconds: Double
        public var renderThreads: Int
        public var peerProcesses: Int
        public var probes: [Probe] = []

        enum CodingKeys: String, CodingKey {
            case lost, duplicates, probes
            case maxSustainedOrdersPerSecond = "max_sustained_orders_per_s"
            case halfRate = "half_rate"
            case p50MillisecondsAtHalf = "p50_ms_at_half"
            case p99MillisecondsAtHalf = "p99_ms_at_half"
            case p999MillisecondsAtHalf = "p999_ms_at_half"
            case maxMillisecondsAtHalf = "max_ms_at_half"
            case relayP999MillisecondsAtHalf = "relay_p999_ms_at_half"
            case relayMaxMillisecondsAtHalf = "relay_max_ms_at_half"
            case secondsOver5MillisecondsAtHalf = "seconds_over_5ms_at_half"
            case relaySecondsOver5MillisecondsAtHalf = "relay_seconds_over_5ms_at_half"
            case peerNotes = "peer_notes"
            case peerPyICUOrdersPerSecond = "peer_pyicu_orders_per_s"
            case peerBabelOrdersPerSecond = "peer_babel_orders_per_s"
            case ratioVsPyICU = "ratio_vs_pyicu"
            case maxSustainedStrictOrdersPerSecond = "max_sustained_p99_5ms_orders_per_s"
            case peerPyICUStrictOrdersPerSecond = "peer_pyicu_max_sustained_p99_5ms_orders_per_s"
            case peerBabelStrictOrdersPerSecond = "peer_babel_max_sustained_p99_5ms_orders_per_s"
            case strictRatioVsPyICU = "ratio_p99_5ms_vs_pyicu"
            case workerCPU = "worker_cpu_us_per_order"
            case relayFloorCPU = "relay_floor_cpu_us_per_order"
            case renderCPU = "render_cpu_us_per_order"
            case generatorCPU = "generator_cpu_us_per_order"
            case peerPyICUCPU = "peer_pyicu_cpu_us_per_order"
            case peerBabelCPU = "peer_babel_cpu_us_per_order"
            case cpuBudget = "cpu_budget_us_per_order"
            case workerOutput = "worker_output"
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
        let worker = workerSubject(endpoints, folder: folder)
        var probes: [Probe] = []

        // CPU per order at paced rates: the relay floor, the in-process render, the worker.
        progress("CPU per order at \(configuration.cpuRates.map { "\(Int($0))/s" }.joined(separator: ", "))")
        let relay = try relaySubject(endpoints, folder: folder)
        var relayCPU: [String: Double] = [:]
        var workerCPU: [String: Double] = [:]
        var generatorCPU: [String: Double] = [:]
        var renderCPU: [String: Double] = [:]
        let core = try RenderingCore(configurationDirectory: configuration.configurationDirectory)
        let markets = try markets()
        var generator = try OrderGenerator(
            menu: menu,
            configuration: .init(seed: configuration.seed, markets: markets)
        )
        let sample = generator.next(1000)
        for rate in configuration.cpuRates {
            let key = Self.key(rate)
            let floor = try cpuPerOrder(of: relay, rate: rate, menu: menu, context: context)
            relayCPU[key] = floor.subject
            renderCPU[key] = try PacedRenderCost.microseconds(
                core: core,
                orders: sample,
                rate: rate,
                seconds: min(configuration.cpuSeconds, 5)
            )
            let measured = try cpuPerOrder(of: worker, rate: rate, menu: menu, context: context)
            workerCPU[key] = measured.subject
            generatorCPU[key] = measured.generator
            progress(
                String(
                    format: "  %6.0f/s: worker %.1f µs/order, relay floor %.1f, render %.1f, generator %.1f",
                    rate,
                    measured.subject,
                    floor.subject,
                    renderCPU[key] ?? 0,
                    measured.generator
                )
            )
        }

        var budget: [String: Double] = [:]
        for (key, floor) in relayCPU { budget[key] = floor + (renderCPU[key] ?? 0) + 15 }
        // What every report has; the search, the peers and the soak add the rest.
        var report = Report(
            workerCPU: workerCPU,
            relayFloorCPU: relayCPU,
            renderCPU: renderCPU,
            generatorCPU: generatorCPU,
            cpuBudget: budget,
            workerOutput: configuration.workerOutput,
            stepSeconds: configuration.stepSeconds,
            renderThreads: configuration.renderThreads > 0
                ? configuration.renderThreads : ProcessInfo.processInfo.activeProcessorCount,
            peerProcesses: configuration.peerProcesses
        )
        if configuration.cpuOnly { return report }
        progress("searching the worker's sustained rate (\(Int(configuration.stepSeconds)) s probes)")
        var workerProbes = ProbeCache()
        let workerStrict = try sustainedRate(
            of: worker,
            strict: true,
            from: configuration.startRate,
            cache: &workerProbes,
            menu: menu,
            context: context,
            probes: &probes,
            progress
        )
        let workerRate = try sustainedRate(
            of: worker,
            strict: false,
            from: max(workerStrict, configuration.startRate),
            cache: &workerProbes,
            menu: menu,
            context: context,
            probes: &probes,
            progress
        )
        guard workerRate > 0 else {
            throw Failure(
                description: "the worker did not sustain even \(Int(configuration.startRate)) orders/s "
                    + "(the probes are above); try a lower --start-rate"
            )
        }

        var peerRates: [PeerBackend: (strict: Double, lenient: Double)] = [:]
        var peerNotes: [String] = []
        var peerCPU: [PeerBackend: [String: Double]] = [:]
        if !configuration.peers.isEmpty {
            let python = try preparePeers(progress)
            for backend in configuration.peers {
                progress("measuring the \(backend.rawValue) peer")
                let subject = peerSubject(backend, endpoints, python: python, folder: folder)
                var cpu: [String: Double] = [:]
                for rate in configuration.cpuRates {
                    do {
                        cpu[Self.key(rate)] = try cpuPerOrder(of: subject, rate: rate, menu: menu, context: context)
                            .subject
                    } catch let missed as PacedRateMissed {
                        peerNotes.append("\(backend.rawValue): \(missed)")
                        progress("  \(backend.rawValue): \(missed); no CPU figure at this rate")
                    }
                }
                peerCPU[backend] = cpu
                var cache = ProbeCache()
                let strict = try sustainedRate(
                    of: subject,
                    strict: true,
                    from: min(configuration.startRate, 1000),
                    cache: &cache,
                    menu: menu,
                    context: context,
                    probes: &probes,
                    progress
                )
                let lenient = try sustainedRate(
                    of: subject,
                    strict: false,
                    from: max(strict, min(configuration.startRate, 1000)),
                    cache: &cache,
                    menu: menu,
                    context: context,
                    probes: &probes,
                    progress
                )
                peerRates[backend] = (strict, lenient)
            }
        }

        // Latency and memory at half the strict rate (half the lenient one if none was strict).
        let half = ((workerStrict > 0 ? workerStrict : workerRate) / 2).rounded()
        progress("running the worker at \(Int(half)) orders/s for \(Int(configuration.soakSeconds)) s")
        var memory: [Double] = []
        let soak = try worker.withRunning { process in
            memory.append(process.residentMegabytes)
            return try load(
                rate: half,
                seconds: configuration.soakSeconds,
                worker,
                menu: menu,
                context: context,
                watch: process.processIdentifier
            ) { line in
                let rss = process.residentMegabytes
                memory.append(rss)
                progress(line + String(format: "  rss %.1f MB", rss))
            }
        }
        if let url = configuration.soakReport { try Data(soak.html.utf8).write(to: url) }
        progress("running caffe-sim relay at \(Int(half)) orders/s for \(Int(configuration.soakSeconds)) s (the floor)")
        let relaySoak = try relay.withRunning { _ in
            try load(rate: half, seconds: configuration.soakSeconds, relay, menu: menu, context: context) {
                progress($0)
            }
        }
        func secondsOver5(_ report: LoadReport) -> Int { report.overTime.filter { $0.maxMilliseconds > 5 }.count }
        // The first figure after warm-up is the start: lazily built caches are then in place.
        let settledIndex = min(memory.count - 1, Int(configuration.warmupSeconds.rounded(.up)) + 1)
        let pyicu = peerRates[.pyicu]
        report.maxSustainedOrdersPerSecond = workerRate
        report.halfRate = half
        report.p50MillisecondsAtHalf = soak.p50Milliseconds
        report.p99MillisecondsAtHalf = soak.p99Milliseconds
        report.p999MillisecondsAtHalf = soak.p999Milliseconds
        report.lost = soak.lost
        report.duplicates = soak.duplicates
        report.peerPyICUOrdersPerSecond = pyicu?.lenient
        report.peerBabelOrdersPerSecond = peerRates[.babel]?.lenient
        report.ratioVsPyICU = pyicu.flatMap { $0.lenient > 0 ? workerRate / $0.lenient : nil }
        report.maxSustainedStrictOrdersPerSecond = workerStrict
        report.peerPyICUStrictOrdersPerSecond = pyicu?.strict
        report.peerBabelStrictOrdersPerSecond = peerRates[.babel]?.strict
        report.strictRatioVsPyICU = pyicu.flatMap { $0.strict > 0 ? workerStrict / $0.strict : nil }
        report.peerPyICUCPU = peerCPU[.pyicu]
        report.peerBabelCPU = peerCPU[.babel]
        report.rssMegabytesStart = memory.isEmpty ? 0 : memory[max(0, settledIndex)]
        // memory[0] is taken before the load, then one sample a second.
        report.rssMegabytesAfterOneMinute = memory.count > 61 ? memory[60] : nil
        report.rssMegabytesEnd = memory.last ?? 0
        report.rssMegabytesMax = memory.max() ?? 0
        report.soakSeconds = configuration.soakSeconds
        report.probes = probes
        report.maxMillisecondsAtHalf = soak.maxMilliseconds
        report.relayP999MillisecondsAtHalf = relaySoak.p999Milliseconds
        report.relayMaxMillisecondsAtHalf = relaySoak.maxMilliseconds
        report.secondsOver5MillisecondsAtHalf = secondsOver5(soak)
        report.relaySecondsOver5MillisecondsAtHalf = secondsOver5(relaySoak)
        report.peerNotes = peerNotes
        return report
    }

    /// The markets every subject renders byte for byte alike (`Benchmarks/python/check_parity.py`
    /// holds the peers to it): the Swift core agrees French and German phrases, which the Python
    /// peers have no grammar for, so fr-FR and de-DE are left out of the comparison.
    public static let parityLocales = "en-US,es-ES,es-MX,ja-JP,ar-EG"

    /// The markets of every load: ``Configuration/locales``, or ``parityLocales``.
    func markets() throws -> [(market: Market, weight: Int)] {
        try MarketDirectory.load(configurationDirectory: configuration.configurationDirectory)
            .mix(configuration.locales ?? Self.parityLocales)
    }

    /// A paced rate as a JSON key: `"4250"`.
    static func key(_ rate: Double) -> String { String(Int(rate)) }

    // MARK: - CPU per order

    /// CPU µs per order of `subject` (its whole process tree) and of this process (the
    /// generator) over a paced run at `rate`, leaving out the warm-up and the last second.
    private func cpuPerOrder(
        of subject: Subject,
        rate: Double,
        menu: Menu,
        context: ZMQContext
    ) throws -> (subject: Double, generator: Double) {
        let window = (
            start: configuration.warmupSeconds, end: max(configuration.warmupSeconds + 1, configuration.cpuSeconds - 1)
        )
        return try subject.withRunning { process in
            let samples = Mutex<[(subject: Double, generator: Double)]>([])
            let pid = process.processIdentifier
            let sampler = Thread {
                let start = ContinuousClock.now
                for offset in [window.start, window.end] {
                    let wait = ContinuousClock.now.duration(to: start + .seconds(offset))
                    if wait > .zero { Thread.sleep(forTimeInterval: Self.seconds(wait)) }
                    let figure = (ProcessCPU.seconds(ofTree: pid), ProcessCPU.ownSeconds)
                    samples.withLock { $0.append(figure) }
                }
            }
            sampler.start()
            let report = try load(rate: rate, seconds: configuration.cpuSeconds, subject, menu: menu, context: context)
            { _ in }
            while samples.withLock({ $0.count }) < 2 { Thread.sleep(forTimeInterval: 0.05) }
            let taken = samples.withLock { $0 }
            guard report.lost == 0 else {
                throw PacedRateMissed(
                    subject: subject.name,
                    rate: rate,
                    achieved: report.achievedRate,
                    lost: report.lost
                )
            }
            let orders = rate * (window.end - window.start)
            return (
                (taken[1].subject - taken[0].subject) / orders * 1e6,
                (taken[1].generator - taken[0].generator) / orders * 1e6
            )
        }
    }

    /// A subject that lost orders at a paced rate while its CPU was measured.
    struct PacedRateMissed: Error, CustomStringConvertible {
        var subject: String
        var rate: Double
        var achieved: Double
        var lost: Int
        var description: String {
            String(
                format: "%@ could not keep %.0f/s while its CPU was measured: achieved %.0f/s, lost %d",
                subject,
                rate,
                achieved,
                lost
            )
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    // MARK: - Search

    /// Probes already run for one subject, by rate.
    struct ProbeCache {
        var results: [Double: Probe] = [:]
    }

    /// The highest rate `subject` sustains by the strict or the lenient criterion: doubles from
    /// `start` until a probe fails, then bisects to ``Configuration/resolution``. Zero when even
    /// the start rate fails. Probes are cached by rate, so the second search reuses the first's.
    private func sustainedRate(
        of subject: Subject,
        strict: Bool,
        from start: Double,
        cache: inout ProbeCache,
        menu: Menu,
        context: ZMQContext,
        probes: inout [Probe],
        _ progress: (String) -> Void
    ) throws -> Double {
        func probe(_ rate: Double) throws -> Bool {
            if let known = cache.results[rate] { return strict ? known.sustainedStrict : known.sustained }
            let result = try run(rate, isRepeat: false)
            cache.results[rate] = result
            let failedOnLatencyAlone =
                result.lost == 0 && result.duplicates == 0 && result.deadLettered == 0
                && result.achievedRate >= 0.99 * rate && result.p99Milliseconds >= configuration.strictP99Milliseconds
            if strict, failedOnLatencyAlone {
                // Failed on latency alone: once more, so the reader sees a pause from a limit.
                _ = try run(rate, isRepeat: true)
            }
            return strict ? result.sustainedStrict : result.sustained
        }
        func run(_ rate: Double, isRepeat: Bool) throws -> Probe {
            let report = try subject.withRunning { _ in
                try load(rate: rate, seconds: configuration.stepSeconds, subject, menu: menu, context: context) { _ in }
            }
            let clean =
                report.lost == 0 && report.duplicates == 0 && report.deadLettered == 0 && report.unexpected == 0
                && report.unsent == 0
            let worst = report.overTime.max { $0.maxMilliseconds < $1.maxMilliseconds }
            let result = Probe(
                subject: subject.name,
                targetRate: rate,
                achievedRate: report.achievedRate,
                lost: report.lost,
                duplicates: report.duplicates,
                deadLettered: report.deadLettered,
                p99Milliseconds: report.p99Milliseconds,
                sustained: clean && report.achievedRate >= 0.98 * rate
                    && report.p99Milliseconds < configuration.maxP99Milliseconds,
                sustainedStrict: clean && report.achievedRate >= 0.99 * rate
                    && report.p99Milliseconds < configuration.strictP99Milliseconds,
                p999Milliseconds: report.p999Milliseconds,
                maxMilliseconds: report.maxMilliseconds,
                worstSecond: worst?.second,
                worstSecondMaxMilliseconds: worst?.maxMilliseconds,
                isRepeat: isRepeat
            )
            probes.append(result)
            progress(
                String(
                    format:
                        "  %@ %6.0f/s%@: achieved %6.0f/s, lost %d, duplicates %d, p99 %.2f ms, worst second %@ -> %@",
                    subject.name,
                    rate,
                    isRepeat ? " (repeat)" : "",
                    report.achievedRate,
                    report.lost,
                    report.duplicates,
                    report.p99Milliseconds,
                    worst.map { String(format: "%d (max %.1f ms)", $0.second, $0.maxMilliseconds) } ?? "-",
                    result.sustainedStrict ? "sustained (p99 < 5 ms)" : result.sustained ? "sustained" : "not sustained"
                )
            )
            return result
        }
        return try Self.search(
            from: start,
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

    /// One open-loop constant-rate run against `subject`.
    private func load(
        rate: Double,
        seconds: Double,
        _ subject: Subject,
        menu: Menu,
        context: ZMQContext,
        watch: Int32? = nil,
        progress: (String) -> Void
    ) throws -> LoadReport {
        var load = LoadRun.Configuration()
        load.watchProcess = watch
        load.profile = .constant(rate: rate)
        load.duration = seconds
        load.count = Int(rate * seconds) + 1
        load.warmup = configuration.warmupSeconds
        load.inputEndpoint = "@" + subject.endpoints.input
        load.inputKind = "push"
        load.outputEndpoint = "@" + subject.endpoints.output
        load.outputKind = subject.outputKind
        load.seed = configuration.seed
        load.replayEndpoint = ""
        load.markets = try markets()
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
                renderThreads: configuration.renderThreads,
                outputKind: configuration.workerOutput,
                prepareLocales: ((try? markets()) ?? []).map(\.market.locale)
            ),
            log: folder.appendingPathComponent("worker.log"),
            outputKind: configuration.workerOutput == "acked" ? "acked" : "pull"
        )
    }

    /// The floor: `caffe-sim relay` on the same sockets.
    private func relaySubject(_ endpoints: Endpoints, folder: URL) throws -> Subject {
        guard let executable = configuration.simulatorExecutable else {
            throw Failure(description: "the relay floor needs the caffe-sim executable")
        }
        return Subject(
            name: "relay",
            endpoints: endpoints,
            executable: executable,
            arguments: ["relay", "--input", endpoints.input, "--output", endpoints.output],
            log: folder.appendingPathComponent("relay.log")
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
        let setup = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path])
        let printed = setup.standardOutput
        let python = configuration.peersDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/python-peers/bin/python")
        guard setup.status == 0, FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(
                description: "the Python peers' set-up failed (\(script.path) exited \(setup.status)): "
                    + String(setup.standardError.suffix(400))
            )
        }
        for line in (printed + setup.standardError).split(separator: "\n") { progress(String(line)) }
        return python
    }
}

/// Two free loopback endpoints: the load binds them, the subject connects.
struct Endpoints {
    var input: String
    var output: String

    init(input: String, output: String) {
        self.input = input
        self.output = output
    }

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
    /// How the load reads the subject's outputs: `pull`, or `acked` for the acknowledged output.
    var outputKind = "pull"

    /// Starts the subject, gives it a moment to connect, runs `body`, and stops it (SIGTERM, then
    /// SIGKILL after 10 s).
    func withRunning<Result>(_ body: (RunningProcess) throws -> Result) throws -> Result {
        try? FileManager.default.removeItem(at: log)
        let child = ChildProcess(executable: executable, arguments: arguments, log: log, outputToLog: true)
        try child.start()
        defer { child.stop(SIGTERM, timeout: 10) }
        Thread.sleep(forTimeInterval: 1)
        guard child.isRunning else {
            throw PipelineBenchmark.Failure(
                description:
                    "\(name) exited at start (status \(child.terminationStatus ?? 0)): \(child.logText.suffix(600))"
            )
        }
        return try body(RunningProcess(child: child))
    }
}

/// A started subject process.
struct RunningProcess {
    let child: ChildProcess

    var processIdentifier: Int32 { child.processIdentifier ?? 0 }

    /// Resident memory from `/proc/<pid>/status`, in MiB; 0 once the process has gone.
    var residentMegabytes: Double { child.residentMegabytes }
}

extension PipelineBenchmark {
    public static func summary(_ report: Report) -> String {
        func rate(_ value: Double?) -> String { value.map { String(format: "%.0f orders/s", $0) } ?? "not measured" }
        func ratio(_ value: Double?) -> String { value.map { String(format: "%.2f×", $0) } ?? "-" }
        let rates = report.workerCPU.keys.sorted { (Double($0) ?? 0) < (Double($1) ?? 0) }
        let cpuLines = rates.map { key in
            func figure(_ table: [String: Double]?) -> String {
                table?[key].map { String(format: "%7.1f", $0) } ?? "      -"
            }
            return "  \(key.padding(toLength: 7, withPad: " ", startingAt: 0))/s  worker \(figure(report.workerCPU))  "
                + "relay floor \(figure(report.relayFloorCPU))  render \(figure(report.renderCPU))  "
                + "budget \(figure(report.cpuBudget))  generator \(figure(report.generatorCPU))  "
                + "pyicu \(figure(report.peerPyICUCPU))  babel \(figure(report.peerBabelCPU))"
        }
        let header = """
            caffe worker (\(report.renderThreads) render threads), PUSH -> worker -> \(report.workerOutput == "acked" ? "DEALER (acknowledged)" : "PULL"), with caffe-sim load on the same machine:
            CPU µs per order at paced rates (from /proc; budget = relay floor + render + 15):
            \(cpuLines.joined(separator: "\n"))
            """
        // --cpu-only: no search, soak or peers ran; printing their zeros would read as figures.
        if report.probes.isEmpty, report.soakSeconds == 0 {
            return header + "\n  (--cpu-only: no rate search, soak or peers were run)"
        }
        return header + """

              max sustained, p99 < 5 ms     \(rate(report.maxSustainedStrictOrdersPerSecond))  (0 lost, 0 duplicates, ≥ 99 % achieved, \(Int(report.stepSeconds)) s probes)
              max sustained, p99 < 100 ms   \(rate(report.maxSustainedOrdersPerSecond))
              at \(Int(report.halfRate))/s for \(Int(report.soakSeconds)) s: \(String(format: "p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms", report.p50MillisecondsAtHalf, report.p99MillisecondsAtHalf, report.p999MillisecondsAtHalf, report.maxMillisecondsAtHalf)), \(report.secondsOver5MillisecondsAtHalf) s with a latency over 5 ms, lost \(report.lost), duplicates \(report.duplicates)
              relay, same rate     \(report.relayP999MillisecondsAtHalf.map { String(format: "p99.9 %.2f ms", $0) } ?? "-"), \(report.relayMaxMillisecondsAtHalf.map { String(format: "max %.2f ms", $0) } ?? "-"), \(report.relaySecondsOver5MillisecondsAtHalf.map { "\($0) s" } ?? "-") with a latency over 5 ms
              resident memory    \(String(format: "%.1f MB after warm-up, ", report.rssMegabytesStart))\(report.rssMegabytesAfterOneMinute.map { String(format: "%.1f MB after 1 min, ", $0) } ?? "")\(String(format: "%.1f MB at the end, %.1f MB at most", report.rssMegabytesEnd, report.rssMegabytesMax))
            Python peers (\(report.peerProcesses) processes each), same stream, same searches:
              pyzmq + PyICU      \(rate(report.peerPyICUStrictOrdersPerSecond)) with p99 < 5 ms, \(rate(report.peerPyICUOrdersPerSecond)) with p99 < 100 ms
              pyzmq + Babel      \(rate(report.peerBabelStrictOrdersPerSecond)) with p99 < 5 ms, \(rate(report.peerBabelOrdersPerSecond)) with p99 < 100 ms
              worker / PyICU     \(ratio(report.strictRatioVsPyICU)) (p99 < 5 ms), \(ratio(report.ratioVsPyICU)) (p99 < 100 ms)
            """ + report.peerNotes.map { "\n  note: " + $0 }.joined()
    }
}
