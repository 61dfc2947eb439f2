import CaffeCore
import CaffeProtocol
import CaffeTransport
import Dispatch
import Foundation
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// Orders per second through a real `caffe worker` process on this machine: a simple publisher
/// PUSHes generated orders as fast as the worker takes them (its queues push back) and a
/// collector PULLs the confirmations and receipts; the figure is orders whose two outputs both
/// arrived, per second of the timed run. Beside it, the same orders rendered in this process on
/// one thread with no transport (from each body's bytes to its outputs' bytes, as the worker's
/// render stage does), and the same orders through `caffe-sim relay`, which receives and sends
/// the same frames on the same sockets and does nothing else: the transport's ceiling on this
/// machine, measured in the same run.
public struct WorkerBenchmark {
    public struct Configuration: Sendable {
        /// The `caffe` executable.
        public var executable: URL
        /// The folder holding `worker.yaml`, `menu.json` and `Localizations/`.
        public var configurationDirectory: URL
        public var orders: Int
        public var seed: UInt64
        /// Render threads in the worker; 0: one per core.
        public var renderThreads: Int
        /// Orders per second the sender keeps to; `nil`: as fast as the subject takes them.
        public var rate: Double?
        /// The `caffe-sim` executable, for the relay (`caffe-sim relay`); none: no relay figure.
        public var simulatorExecutable: URL?
        /// The `source_epoch` every order's header carries (0: none), to time a source that
        /// sends one (its books key is then a string of its own).
        public var sourceEpoch: UInt64 = 0
        /// Whether orders carry a W3C `traceparent` (sampled), and whether the worker exports
        /// their spans (to an OTLP collector in this process).
        public var tracing: Tracing = .off
        /// The markets of the generated orders (``MarketDirectory/mix(_:)``); `nil`: the default.
        public var locales: String? = nil
        /// Sources the orders come from in turn (`bench-0`, `bench-1`…, each numbered from 1);
        /// 1: the one source `bench`. Several pipelines (`input.pipelines`) share out sources.
        public var sources = 1
        /// More `key=value` settings for the worker (`input.pipelines=2`).
        public var workerSettings: [String] = []

        public init(
            executable: URL,
            configurationDirectory: URL,
            orders: Int = 50_000,
            seed: UInt64 = 1,
            renderThreads: Int = 0,
            rate: Double? = nil,
            simulatorExecutable: URL? = nil
        ) {
            self.rate = rate
            self.simulatorExecutable = simulatorExecutable
            self.executable = executable
            self.configurationDirectory = configurationDirectory
            self.orders = orders
            self.seed = seed
            self.renderThreads = renderThreads
        }
    }

    /// What the benchmark's orders and worker do about tracing.
    public enum Tracing: String, Sendable, CaseIterable {
        /// No trace context.
        case off
        /// Every order's header carries a sampled `traceparent`; the worker exports nothing.
        case propagated
        /// The same, and the worker exports each order's spans to an OTLP/HTTP collector here.
        case exported
    }

    public struct Report: Codable, Sendable {
        public var orders: Int
        public var seconds: Double
        public var ordersPerSecond: Double
        public var outputsPerSecond: Double
        public var inProcessOrdersPerSecond: Double
        public var ratioVsInProcess: Double
        public var renderThreads: Int
        public var deadLetters: Int
        /// Orders per second through the relay, on the same sockets with the same load.
        public var relayOrdersPerSecond: Double?
        /// CPU µs per timed order of each of the worker's threads, by thread name
        /// (`/proc/<pid>/task/*/schedstat` before and after the timed run).
        public var threadCPU: [String: Double] = [:]
        /// The pipeline thread's share: what every order passes through on one thread, and the
        /// rate that share alone would allow.
        public var serialPathCPU: Double?
        public var serialPathCeiling: Double?
        /// The thread the serial path is: `caffe-pipeline`, or `caffe-hub` with several pipelines.
        public var serialPathThread = "caffe-pipeline"
        /// Orders/s at which the busiest thread is busy all the time (the process's ceiling with a
        /// core per thread).
        public var processCeiling: Double?
        /// The paced rate, when the sender kept to one.
        public var pacedRate: Double?
        /// CPU µs per timed order of the whole worker, of the relay (the transport's floor, measured
        /// the same way in the same run), and of one render in this process (1 / its rate).
        public var workerCPU: Double?
        public var relayCPU: Double?
        public var renderCPU: Double?
        /// `off`, `propagated` or `exported`; with `exported`, the posts and bytes of spans the
        /// collector received.
        public var tracing: String = "off"
        public var spanPosts: Int?
        public var spanBytes: Int?

        enum CodingKeys: String, CodingKey {
            case orders, seconds
            case ordersPerSecond = "orders_per_s"
            case outputsPerSecond = "outputs_per_s"
            case inProcessOrdersPerSecond = "in_process_one_thread_orders_per_s"
            case ratioVsInProcess = "ratio_vs_in_process_one_thread"
            case renderThreads = "render_threads"
            case deadLetters = "dead_letters"
            case relayOrdersPerSecond = "relay_orders_per_s"
            case threadCPU = "thread_cpu_us_per_order"
            case serialPathCPU = "serial_path_cpu_us_per_order"
            case serialPathCeiling = "serial_path_ceiling_orders_per_s"
            case serialPathThread = "serial_path_thread"
            case processCeiling = "process_ceiling_orders_per_s"
            case pacedRate = "paced_orders_per_s"
            case workerCPU = "worker_cpu_us_per_order"
            case relayCPU = "relay_cpu_us_per_order"
            case renderCPU = "render_cpu_us_per_order"
            case tracing
            case spanPosts = "span_posts"
            case spanBytes = "span_bytes"
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// `caffe` arguments for a benchmarked worker: PULL from `input` and PUSH to `output` (both
    /// connected), no RPC or metrics endpoint, warnings only, the checkpoint at `checkpoint`.
    static func workerArguments(
        configurationDirectory: URL,
        input: String,
        output: String,
        checkpoint: URL,
        renderThreads: Int,
        outputKind: String = "push",
        prepareLocales: [String] = [],
        extraSettings: [String] = []
    ) -> [String] {
        var settings = [
            "input.kind=pull", "input.endpoints=>\(input)", "output.kind=\(outputKind)", "output.endpoints=>\(output)",
            "rpc.endpoint=", "metrics.address=", "checkpoint.path=\(checkpoint.path)", "log.level=warning",
            "render.threads=\(renderThreads)", "config_dir=\(configurationDirectory.path)",
        ]
        // The markets the load sends, as an operator lists theirs: warmed before the first order.
        if !prepareLocales.isEmpty {
            settings.append("render.prepare_locales=" + prepareLocales.joined(separator: ","))
        }
        settings += extraSettings
        return ["worker", "--config-file", configurationDirectory.appendingPathComponent("worker.yaml").path]
            + settings.flatMap { ["--set", $0] }
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        let core = try RenderingCore(configurationDirectory: configuration.configurationDirectory)
        let markets = try MarketDirectory.load(configurationDirectory: configuration.configurationDirectory)
            .mix(configuration.locales)
        var generator = try OrderGenerator(
            menu: core.menu,
            configuration: .init(seed: configuration.seed, sourceID: "bench", markets: markets)
        )
        let warmUp = 1000
        var orders = generator.next(warmUp + configuration.orders)
        if configuration.sources > 1 {
            for index in orders.indices {
                orders[index].sourceID = "bench-\(index % configuration.sources)"
                orders[index].sequence = UInt64(index / configuration.sources + 1)
            }
        }
        var traceIDs = SeededRandom(seed: configuration.seed)
        let encoded: [[[UInt8]]] = try orders.map { order in
            var header = EventFrames.header(for: order)
            header.sourceEpoch = configuration.sourceEpoch
            if configuration.tracing != .off,
                let context = TraceParent(
                    traceIDHigh: traceIDs.next(),
                    traceIDLow: traceIDs.next(),
                    parentID: traceIDs.next() | 1,
                    flags: 1
                )
            {
                header.metadata[TraceParent.metadataKey] = context.description
            }
            return [
                Array(CaffeTopic.order(store: order.storeID).utf8), try header.serializedBytes(),
                try order.serializedBytes(),
            ]
        }

        let context = try ZMQContext()
        defer { context.shutdown() }
        let source = try context.socket(.push)
        try source.set(.sendHighWaterMark, to: 10_000)
        let sourceEndpoint = try source.bind("tcp://127.0.0.1:*")
        let collector = try context.socket(.pull)
        try collector.set(.receiveHighWaterMark, to: 100_000)
        let collectorEndpoint = try collector.bind("tcp://127.0.0.1:*")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "caffe-bench-worker-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoints = Endpoints(input: sourceEndpoint, output: collectorEndpoint)
        let timing = TimedRun(
            source: source,
            collector: collector,
            encoded: encoded,
            warmUp: warmUp,
            rate: configuration.rate
        )

        let pace = configuration.rate.map { String(format: " at %.0f/s", $0) } ?? ""
        progress("timing \(configuration.orders) orders through the worker\(pace)")
        let spanCollector = configuration.tracing == .exported ? try HTTPReceiver(keepsBodies: false) : nil
        defer { spanCollector?.stop() }
        let tracingSettings =
            spanCollector.map { ["tracing.otlp_endpoint=http://127.0.0.1:\($0.port)/v1/traces"] } ?? []
        let worker = Subject(
            name: "caffe worker",
            endpoints: endpoints,
            executable: configuration.executable,
            arguments: Self.workerArguments(
                configurationDirectory: configuration.configurationDirectory,
                input: sourceEndpoint,
                output: collectorEndpoint,
                checkpoint: folder.appendingPathComponent("checkpoint"),
                renderThreads: configuration.renderThreads,
                extraSettings: tracingSettings + configuration.workerSettings
            ),
            log: folder.appendingPathComponent("worker.log")
        )
        var threadCPU: [String: Double] = [:]
        let (seconds, deadLetters) = try worker.withRunning { running in
            let pid = running.processIdentifier
            let before = ProcessCPU.threadSeconds(of: pid)
            let result = try timing.run(through: worker.name)
            let after = ProcessCPU.threadSeconds(of: pid)
            for (name, total) in after {
                threadCPU[name] = ((total - (before[name] ?? 0)) / Double(configuration.orders) * 1e7).rounded() / 10
            }
            return result
        }
        var relaySeconds: Double?
        var relayCPU: Double?
        if let simulator = configuration.simulatorExecutable {
            progress("timing the same orders through caffe-sim relay (no work)\(pace)")
            let relay = Subject(
                name: "caffe-sim relay",
                endpoints: endpoints,
                executable: simulator,
                arguments: ["relay", "--input", sourceEndpoint, "--output", collectorEndpoint],
                log: folder.appendingPathComponent("relay.log")
            )
            relaySeconds = try relay.withRunning { running in
                let pid = running.processIdentifier
                let before = ProcessCPU.threadSeconds(of: pid).values.reduce(0, +)
                let seconds = try timing.run(through: relay.name).seconds
                let after = ProcessCPU.threadSeconds(of: pid).values.reduce(0, +)
                relayCPU = ((after - before) / Double(configuration.orders) * 1e7).rounded() / 10
                return seconds
            }
        }

        progress("timing the same orders in this process, one thread")
        // As the worker's render stage does: each body's bytes to its outputs' bytes.
        let session = core.makeSession()
        let sample = encoded[warmUp...].prefix(20_000).map { $0[2] }
        for body in sample.prefix(1000) { _ = try body.withUnsafeBytes { try session.renderOrder(bytes: $0) } }
        let inProcessStart = ContinuousClock.now
        for body in sample { _ = try body.withUnsafeBytes { try session.renderOrder(bytes: $0) } }
        let inProcess = ContinuousClock.now - inProcessStart
        let inProcessSeconds = PipelineBenchmark.seconds(inProcess)
        let rate = Double(configuration.orders) / seconds
        let baseline = Double(sample.count) / inProcessSeconds
        var report = Report(
            orders: configuration.orders,
            seconds: seconds,
            ordersPerSecond: rate,
            outputsPerSecond: 2 * rate,
            inProcessOrdersPerSecond: baseline,
            ratioVsInProcess: rate / baseline,
            renderThreads: configuration.renderThreads > 0
                ? configuration.renderThreads : ProcessInfo.processInfo.activeProcessorCount,
            deadLetters: deadLetters,
            relayOrdersPerSecond: relaySeconds.map { Double(configuration.orders) / $0 }
        )
        report.threadCPU = threadCPU
        report.pacedRate = configuration.rate
        report.workerCPU = threadCPU.isEmpty ? nil : (threadCPU.values.reduce(0, +) * 10).rounded() / 10
        report.relayCPU = relayCPU
        report.renderCPU = (1e7 / baseline).rounded() / 10
        // With several pipelines the one serial thread is the hub; each pipeline has its share.
        report.serialPathThread = threadCPU["caffe-hub"] != nil ? "caffe-hub" : "caffe-pipeline"
        report.serialPathCPU = threadCPU[report.serialPathThread]
        report.serialPathCeiling = report.serialPathCPU.flatMap { $0 > 0 ? (1e6 / $0).rounded() : nil }
        // The rate at which the busiest thread would be busy all the time, cores permitting.
        report.processCeiling = threadCPU.values.max().flatMap { $0 > 0 ? (1e6 / $0).rounded() : nil }
        report.tracing = configuration.tracing.rawValue
        if let spanCollector {
            report.spanPosts = spanCollector.requests.withLock { $0.count }
            report.spanBytes = spanCollector.bodyBytes.load(ordering: .relaxed)
        }
        return report
    }

    /// The timed part of a run on the benchmark's sockets, with the subject already running:
    /// warm-up, then every timed order sent from another thread while this one collects both
    /// outputs of each.
    private struct TimedRun {
        let source: ZMQSocket
        let collector: ZMQSocket
        let encoded: [[[UInt8]]]
        let warmUp: Int
        let rate: Double?

        /// Seconds for the timed orders through the subject called `name`, and the dead letters
        /// among the outputs.
        func run(through name: String) throws -> (seconds: Double, deadLetters: Int) {
            var deadLetters = 0
            func collect(_ outputs: Int) throws {
                var received = 0
                while received < outputs {
                    guard let frames = try collector.receiveMultipart(timeout: .seconds(30)) else {
                        throw Failure(description: "\(name) stopped answering after \(received) of \(outputs) outputs")
                    }
                    if frames.first?.string == CaffeTopic.deadLetter { deadLetters += 1 }
                    received += 1
                }
            }
            for frames in encoded[..<warmUp] { try source.send(multipart: frames) }
            try collect(2 * warmUp)
            let timed = Array(encoded[warmUp...])
            let sender = SocketBox(source)
            let started = ContinuousClock.now
            let rate = rate
            let thread = Thread {
                // Paced: each half millisecond's orders at once, then sleep until the next's are due.
                let burst = rate.map { max(1, Int($0 / 2000)) } ?? Int.max
                for (index, frames) in timed.enumerated() {
                    if let rate, index % burst == 0 {
                        let due = started + .nanoseconds(Int64(Double(index) / rate * 1e9))
                        let wait = due - ContinuousClock.now
                        if wait > .zero { Thread.sleep(forTimeInterval: PipelineBenchmark.seconds(wait)) }
                    }
                    try? sender.socket.send(multipart: frames)
                }
            }
            thread.start()
            try collect(2 * timed.count)
            return (PipelineBenchmark.seconds(ContinuousClock.now - started), deadLetters)
        }
    }

    public static func summary(_ report: Report) -> String {
        var text = String(
            format: """
                through caffe worker (%d render threads, PUSH -> worker -> PULL over tcp loopback):
                  %.0f orders/s (%.0f outputs/s), %d orders in %.2f s, %d dead letters
                in this process, one thread, no transport: %.0f orders/s (worker / in-process: %.2f)
                """,
            report.renderThreads,
            report.ordersPerSecond,
            report.outputsPerSecond,
            report.orders,
            report.seconds,
            report.deadLetters,
            report.inProcessOrdersPerSecond,
            report.ratioVsInProcess
        )
        if let relay = report.relayOrdersPerSecond {
            text += String(
                format:
                    "\nthrough caffe-sim relay (same sockets and load, no work): %.0f orders/s (worker / relay: %.2f)",
                relay,
                report.ordersPerSecond / relay
            )
        }
        if !report.threadCPU.isEmpty {
            let threads = report.threadCPU.sorted { $0.value > $1.value }.map {
                String(format: "%@ %.1f", $0.key, $0.value)
            }
            text += "\nworker CPU µs per order by thread: " + threads.joined(separator: ", ")
        }
        if let worker = report.workerCPU, let relay = report.relayCPU, let render = report.renderCPU {
            text += String(
                format:
                    "\nCPU µs per order%@: worker %.1f, relay (floor) %.1f, one render in process %.1f; worker − floor − render %.1f",
                report.pacedRate.map { String(format: " at %.0f/s", $0) } ?? "",
                worker,
                relay,
                render,
                worker - relay - render
            )
        }
        if let serial = report.serialPathCPU, let ceiling = report.serialPathCeiling {
            text += String(
                format: "\nserial path (%@): %.1f µs per order, a ceiling of %.0f orders/s",
                report.serialPathThread,
                serial,
                ceiling
            )
        }
        if let ceiling = report.processCeiling {
            text += String(format: "; the busiest thread's ceiling %.0f orders/s", ceiling)
        }
        if report.tracing != "off" {
            text += "\ntracing: \(report.tracing) (every order carries a sampled traceparent)"
            if let posts = report.spanPosts, let bytes = report.spanBytes {
                text += "; the collector received \(posts) posts, \(bytes) bytes of spans"
            }
        }
        return text
    }
}
