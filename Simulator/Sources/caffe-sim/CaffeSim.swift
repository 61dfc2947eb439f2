import ArgumentParser
import CaffeCore
import CaffeSimulator
import Foundation
import ZeroMQ

/// `caffe-sim`: the Caffe simulator. Parses arguments and hands over to `CaffeSimulator`.
@main
struct CaffeSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caffe-sim",
        abstract: "Generate, replay and load-test Caffe order traffic; measure the project's performance.",
        version: CaffeVersion.current,
        subcommands: [
            Demo.self, Generate.self, JournalCommand.self, Replay.self, Record.self, Load.self, Complications.self,
            Bench.self, Chaos.self, RelayCommand.self, DiffCommand.self,
        ]
    )
}

/// `caffe-sim chaos`: the reliability suite against real worker processes.
struct Chaos: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Kill, stop, starve and attack real caffe workers; print sent / delivered / lost / duplicated.",
        discussion: """
            Rows: \(ChaosSuite.rowNames.joined(separator: ", ")). Exit status 1 when any row missed its target: \
            an order lost with the acknowledged output, more than the documented bound with PUB and PUSH, \
            or the attack's own figure (in the note).
            """
    )

    @OptionGroup var output: OutputOptions

    @Option(help: "Orders per row.")
    var orders = 3000

    @Option(help: "Orders per second the source sends.")
    var rate = 1500.0

    @Option(help: "kill -9 cycles in the kill rows.")
    var kills = 10

    @Option(help: "Rows to run, comma-separated (default: all).")
    var rows: String?

    @Option(help: "Consumer registrations in the phantom-consumers row.")
    var registrations = 20_000

    @Option(help: "Random messages in the output-garbage row.")
    var garbage = 10_000

    @Option(help: "Seconds the locale flood lasts.")
    var floodSeconds = 30.0

    @Option(help: "Orders per second the locale flood sends (0: as fast as the worker takes them).")
    var floodRate = 0.0

    @Option(help: "One-event sources in the source-flood row.")
    var sources = 200_000

    @Option(
        name: .customLong("set"),
        help: "A worker setting for every row, key=value (repeatable): --set input.pipelines=2."
    )
    var settings: [String] = []

    @OptionGroup var config: ConfigurationOptions

    @OptionGroup var caffe: CaffeExecutableOptions

    func run() throws {
        let executable = try caffe.executable()
        var configuration = ChaosSuite.Configuration(
            executable: executable,
            configurationDirectory: config.directory
        )
        configuration.orders = orders
        configuration.rate = rate
        configuration.kills = kills
        configuration.rows = rows.map { $0.split(separator: ",").map(String.init) } ?? []
        configuration.registrations = registrations
        configuration.garbage = garbage
        configuration.floodSeconds = floodSeconds
        configuration.floodRate = floodRate
        configuration.sources = sources
        configuration.workerSettings = settings
        let results = try ChaosSuite(configuration: configuration).run { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        try output.report(results, summary: ChaosSuite.table(results))
        if results.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }
}

/// `caffe-sim relay`: the no-work relay `bench pipeline` measures as the worker's floor.
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Relay events PULL -> PUSH doing nothing else (the floor bench pipeline measures).",
        shouldDisplay: false
    )

    @Option(help: "Where events come from (connected).")
    var input: String

    @Option(help: "Where outputs go (connected).")
    var output: String

    func run() throws {
        let context = try ZMQContext()
        try Relay.run(context: context, input: input, output: output)
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the pipeline working end to end on this machine, with the embedded defaults."
    )

    @Flag(name: .long, inversion: .prefixedNo, help: "Colour the output (default: when writing to a terminal).")
    var color: Bool = TerminalStyle.colorByDefault()

    @Option(name: .long, help: "Messages per size in the closing transport measurement.")
    var benchMessages: Int = 200_000

    @Option(
        name: .long,
        help: "The catalog folder to render from. Default: Localizations/ of $CAFFE_CONFIG, ./config, the built-in one."
    )
    var catalog: String?

    @Option(help: "The markets of the short load run, as caffe-sim load takes them (default: traffic.json's).")
    var locales: String?

    func run() async throws {
        let folder =
            catalog.map { URL(fileURLWithPath: $0) }
            ?? ConfigurationDirectory.resolve().appendingPathComponent("Localizations")
        var demo = PipelineDemo(
            style: TerminalStyle(enabled: color),
            catalog: FileManager.default.fileExists(atPath: folder.path) ? folder : nil,
            caffe: siblingExecutable("caffe"),
            benchMessages: benchMessages,
            locales: locales
        )
        try await demo.run()
    }
}

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a performance figure beside its baseline measured in the same run.",
        subcommands: [
            Transport.self, Catalog.self, RichTextCommand.self, Agreement.self, Core.self, WorkerCommand.self,
            Pipeline.self,
        ]
    )

    struct RichTextCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "richtext",
            abstract:
                "Markdown parsed from source beside a template compiled once: the receipt note and the agreement template."
        )

        @OptionGroup var output: OutputOptions
        @OptionGroup var options: CallBenchmarkOptions

        func run() throws {
            let benchmark = RichTextBenchmark(
                configuration: .init(iterations: options.iterations(default: 100_000), rounds: options.rounds)
            )
            let report = try benchmark.run(progress: output.progress)
            try output.report(report)
        }
    }

    struct Core: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "The formatting core on one core, beside a Foundation FormatStyle baseline and the ICU4C floor."
        )

        @OptionGroup var output: OutputOptions

        @Option(help: "Generated orders in the set.")
        var orders = 1000

        @Option(help: "Generated complication requests in the set.")
        var complications = 1000

        @Option(help: "Rounds; the median is reported.")
        var rounds = 5

        @OptionGroup var seed: SeedOptions

        @OptionGroup var config: ConfigurationOptions

        @Flag(help: "Time only the core, to profile it (perf record -g); baseline and floor figures are left out.")
        var coreOnly = false

        @OptionGroup var markets: MarketOptions

        func validate() throws {
            guard orders >= 1, complications >= 1, rounds >= 1 else {
                throw ValidationError("--orders, --complications and --rounds must be positive")
            }
        }

        func run() throws {
            _ = try markets.mix(in: config.directory)
            var configuration = CoreBenchmark.Configuration(
                configurationDirectory: config.directory,
                orders: orders,
                complications: complications,
                rounds: rounds,
                seed: seed.seed,
                coreOnly: coreOnly
            )
            configuration.locales = markets.locales
            let benchmark = CoreBenchmark(configuration: configuration)
            let report = try benchmark.run(progress: output.progress)
            try output.report(report)
        }
    }

    struct WorkerCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "worker",
            abstract:
                "Orders/s through a real caffe worker (PUSH -> worker -> PULL on loopback), beside the in-process core on one thread."
        )

        @OptionGroup var output: OutputOptions

        @Option(help: "Orders in the timed run.")
        var orders = 50_000

        @Option(help: "Render threads in the worker; 0: one per core.")
        var renderThreads = 0

        @Option(help: "Send at this many orders/s (CPU per order at a paced rate); none: as fast as taken.")
        var rate: Double?

        @OptionGroup var seed: SeedOptions

        @OptionGroup var config: ConfigurationOptions

        @OptionGroup var caffe: CaffeExecutableOptions

        @Option(help: "The source_epoch every order's header carries (0: none).")
        var sourceEpoch: UInt64 = 0

        @Option(
            help: """
                off; propagated (every order carries a sampled W3C traceparent); exported (the same, \
                and the worker sends each order's spans to an OTLP/HTTP collector in caffe-sim).
                """
        )
        var tracing: WorkerBenchmark.Tracing = .off

        @OptionGroup var markets: MarketOptions

        @Option(help: "Sources the orders come from in turn (several pipelines share sources out).")
        var sources = 1

        @Option(name: .customLong("set"), help: "A worker setting, key=value (repeatable): --set input.pipelines=2.")
        var settings: [String] = []

        func run() throws {
            if let rate, !(rate > 0) { throw ValidationError("--rate must be positive") }
            guard sources >= 1 else { throw ValidationError("--sources must be at least 1") }
            _ = try markets.mix(in: config.directory)
            let executable = try caffe.executable()
            var configuration = WorkerBenchmark.Configuration(
                executable: executable,
                configurationDirectory: config.directory,
                orders: orders,
                seed: seed.seed,
                renderThreads: renderThreads,
                rate: rate,
                simulatorExecutable: ownExecutable
            )
            configuration.sourceEpoch = sourceEpoch
            configuration.tracing = tracing
            configuration.locales = markets.locales
            configuration.sources = sources
            configuration.workerSettings = settings
            let benchmark = WorkerBenchmark(configuration: configuration)
            let report = try benchmark.run(progress: output.progress)
            try output.report(report)
        }
    }

    struct Pipeline: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The highest rate a caffe worker sustains under caffe-sim load, beside the Python peers.",
            discussion: """
                Starts and stops every process itself. Each probe runs a fresh subject under an
                open-loop constant-rate load; a rate is sustained with 0 lost, 0 duplicates, the
                target rate achieved and p99 under --max-p99-ms. Then the worker runs at half its
                sustained rate for --soak seconds: latency and resident memory. The peers (pyzmq +
                PyICU, pyzmq + Babel, in Benchmarks/python) are set up on first use.
                """
        )

        @OptionGroup var output: OutputOptions

        @Option(help: "Seconds of load in each probe of the search.")
        var step = 10.0

        @Option(help: "Seconds at half the sustained rate, for latency and memory.")
        var soak = 600.0

        @Option(help: "The p99 latency, in ms, a sustained probe stays under.")
        var maxP99Ms = 100.0

        @Option(help: "The first rate tried.")
        var startRate = 2000.0

        @Option(help: "Peers to measure beside the worker: pyicu,babel, or none.")
        var peers = "pyicu,babel"

        @Option(help: "Processes each Python peer runs.")
        var peerProcesses = 2

        @Option(help: "Render threads in the worker; 0: one per core.")
        var renderThreads = 0

        @OptionGroup var seed: SeedOptions

        @OptionGroup var config: ConfigurationOptions

        @Option(help: "The folder holding the Python peers.")
        var peersDirectory = "Benchmarks/python"

        @OptionGroup var caffe: CaffeExecutableOptions

        @Option(help: "Seconds of load at each paced rate of the CPU measurement.")
        var cpuSeconds = 10.0

        @Option(help: "The paced rates, comma-separated, at which CPU per order is measured.")
        var cpuRates = "1000,4250,10000"

        @Option(help: "The worker's output: push (as the relay and the peers) or acked.")
        var workerOutput = "push"

        @Option(
            help: """
                Markets and weights of every load, as caffe-sim load takes them. Default: \
                \(PipelineBenchmark.parityLocales), which the Python peers render byte for byte like the worker \
                (they have no French or German agreement).
                """
        )
        var locales: String?

        @Option(help: "Write the soak's HTML report (latency, rates, the worker's CPU and memory) here.")
        var soakReport: String?

        @Flag(help: "Only the CPU figures at the paced rates (no search, peers or soak).")
        var cpuOnly = false

        func validate() throws {
            guard ["push", "acked"].contains(workerOutput) else {
                throw ValidationError("--worker-output: push or acked")
            }
            guard cpuSeconds >= 4, !cpuRates.split(separator: ",").contains(where: { Double($0) == nil }) else {
                throw ValidationError("--cpu-seconds must be at least 4 and --cpu-rates numbers")
            }
            guard step > 0, startRate > 0, maxP99Ms > 0 else {
                throw ValidationError("--step, --start-rate and --max-p99-ms must be greater than 0")
            }
            guard soak >= 0 else { throw ValidationError("--soak must not be negative") }
            guard peerProcesses >= 1 else { throw ValidationError("--peer-processes must be at least 1") }
            guard renderThreads >= 0 else { throw ValidationError("--render-threads must not be negative") }
        }

        func run() throws {
            let executable = try caffe.executable()
            var backends: [PipelineBenchmark.PeerBackend] = []
            if peers != "none" {
                for name in peers.split(separator: ",") {
                    guard let backend = PipelineBenchmark.PeerBackend(rawValue: String(name)) else {
                        throw ValidationError("unknown peer '\(name)': pyicu, babel or none")
                    }
                    backends.append(backend)
                }
            }
            var configuration = PipelineBenchmark.Configuration(
                executable: executable,
                configurationDirectory: config.directory,
                peersDirectory: URL(fileURLWithPath: peersDirectory).standardizedFileURL
            )
            configuration.peers = backends
            configuration.peerProcesses = peerProcesses
            configuration.renderThreads = renderThreads
            configuration.stepSeconds = step
            configuration.soakSeconds = soak
            configuration.maxP99Milliseconds = maxP99Ms
            configuration.startRate = startRate
            configuration.seed = seed.seed
            configuration.cpuSeconds = cpuSeconds
            configuration.cpuRates = cpuRates.split(separator: ",").compactMap { Double($0) }
            configuration.workerOutput = workerOutput
            configuration.soakReport = soakReport.map { URL(fileURLWithPath: $0) }
            configuration.cpuOnly = cpuOnly
            configuration.simulatorExecutable = ownExecutable
            if let locales {
                _ = try MarketOptions.mix(locales, in: config.directory)
                configuration.locales = locales
            }
            let report = try PipelineBenchmark(configuration: configuration).run { line in
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
            try output.report(report)
        }
    }

    struct Agreement: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Grammar agreement on a compiled number + adjective + noun span, beside the same fill without it."
        )

        @OptionGroup var output: OutputOptions
        @OptionGroup var options: CallBenchmarkOptions

        func run() throws {
            let benchmark = AgreementBenchmark(
                configuration: .init(iterations: options.iterations(default: 200_000), rounds: options.rounds)
            )
            let report = try benchmark.run(progress: output.progress)
            try output.report(report)
        }
    }

    struct Catalog: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Catalog lookup + render of a plural, positional, three-argument entry, beside String(format:)."
        )

        @OptionGroup var output: OutputOptions
        @OptionGroup var options: CallBenchmarkOptions

        @Option(help: "The catalog folder. Default: Localizations/ of $CAFFE_CONFIG, ./config, the built-in one.")
        var catalog: String?

        @Option(help: "The locale to render for.")
        var locale = "es-MX"

        func run() throws {
            let benchmark = CatalogBenchmark(
                configuration: .init(
                    catalog: catalog.map { URL(fileURLWithPath: $0) }
                        ?? ConfigurationDirectory.resolve().appendingPathComponent("Localizations"),
                    locale: locale,
                    iterations: options.iterations(default: 200_000),
                    rounds: options.rounds
                )
            )
            let report = try benchmark.run(progress: output.progress)
            try output.report(report)
        }
    }

    struct Transport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "PUSH/PULL throughput over tcp loopback: the Swift binding beside the same loop in C."
        )

        @OptionGroup var output: OutputOptions

        @Option(help: "Messages per run.")
        var messages = 1_000_000

        @Option(help: "Runs per implementation and size; the median is reported.")
        var rounds = 3

        @Option(help: "Comma-separated message sizes in bytes.")
        var sizes = "256,1024"

        @Option(help: "How the binding receives: blocking (as the C loop does) or async (the async API in a task).")
        var receive: TransportBenchmark.ReceiveMode = .blocking

        func validate() throws {
            guard messages >= 2 else { throw ValidationError("--messages must be at least 2") }
            guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
            guard parsedSizes != nil else {
                throw ValidationError("--sizes takes byte counts from 1 to 65536, such as 256,1024")
            }
        }

        var parsedSizes: [Int]? {
            let values = sizes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 65536 }) else { return nil }
            return values.compactMap { $0 }
        }

        func run() async throws {
            let benchmark = TransportBenchmark(
                configuration: .init(
                    sizes: parsedSizes ?? [256, 1024],
                    messages: messages,
                    rounds: rounds,
                    receiveMode: receive
                )
            )
            let report = try await benchmark.run(progress: output.progress)
            try output.report(report)
        }
    }
}

extension TransportBenchmark.ReceiveMode: ExpressibleByArgument {}
extension WorkerBenchmark.Tracing: ExpressibleByArgument {}

/// The options of the benchmarks that time calls in rounds (catalog, richtext, agreement).
struct CallBenchmarkOptions: ParsableArguments {
    @Option(help: "Calls per round (default: 200,000; richtext: 100,000).")
    var iterations: Int?

    @Option(help: "Rounds; the median is reported.")
    var rounds = 5

    func validate() throws {
        guard iterations.map({ $0 >= 1 }) ?? true, rounds >= 1 else {
            throw ValidationError("--iterations and --rounds must be positive")
        }
    }

    /// The calls per round asked for, or the benchmark's own default.
    func iterations(default value: Int) -> Int { iterations ?? value }
}

/// The executable `name` built next to this one (`swift build` puts every product in one folder).
func siblingExecutable(_ name: String) -> URL? {
    let candidate = ownExecutable.deletingLastPathComponent().appendingPathComponent(name)
    return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
}

/// This program's own file, however it was started (from `PATH`, `argv[0]` is only `caffe-sim`):
/// `/proc/self/exe`, else `argv[0]`.
let ownExecutable: URL = {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return URL(fileURLWithPath: path)
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
}()
