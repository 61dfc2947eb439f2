import CaffeBooks
import CaffeCore
import CaffeProtocol
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import ZeroMQ

/// The worker, as a service: it binds and connects every socket (so a bad endpoint fails the
/// start with its name), then runs its stages as child services in a `ServiceGroup`:
///
/// - ``EventPipeline``: intake → render → output on one thread, checkpointing what is delivered;
/// - ``RenderPool``: helper render threads the pipeline hands batches to when events pile up;
/// - ``RPCFrontend``: health, stats and render requests on the ROUTER;
/// - ``CheckpointWriter``: writes checkpoints off the pipeline's thread;
/// - ``HTTPEndpoint``: `/metrics` and `/healthz`.
///
/// Graceful shutdown (from the parent group: SIGTERM in `caffe worker`) turns health
/// NOT_SERVING at once, then stops the stages in reverse order: the pipeline drains first (the
/// RPC endpoint answers UNAVAILABLE meanwhile), then the helpers, the RPC endpoint, the
/// checkpoint writer and the operations endpoint. If the drain takes longer than
/// `shutdown.drain_timeout_ms`, the group cancels it: what was not delivered stays out of the
/// checkpoint and ``isDrained`` is false.
///
/// ```swift
/// let worker = try Worker(configuration: configuration, core: core, logger: logger)
/// let group = ServiceGroup(services: [worker], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
public final class Worker: Service {
    /// The configuration it runs with (a reload changes the catalog and menu, not this).
    public let configuration: WorkerConfiguration
    /// Its counters, as `/metrics` and Stats show them.
    public let metrics: WorkerMetrics
    /// Where it logs.
    public let logger: Logger
    let cores: CoreBox
    let status = WorkerStatus()
    private let context: ZMQContext
    /// Whether the context is the worker's own (shut down when it stops).
    private let ownsContext: Bool
    /// The checkpoint read at start, until the stages take it (a million sources' marks are not
    /// kept twice), and how many sources it had.
    private let resumed: Mutex<Checkpoint?>
    private let resumedSources: Int
    private let security: WorkerSecurity?
    private let reloads: MetricShard
    private let bound = Mutex<[String: [String]]>([:])
    /// One reload at a time (SIGHUP and the file watcher may ask together): a slow load of the
    /// older files must not land after a quicker load of the newer ones.
    private let reloading = Mutex<Void>(())
    private let drained = Atomic<Bool>(false)
    private let ready = Mutex<[CheckedContinuation<Void, Never>]?>([])

    /// Prepares a worker; reads the checkpoint (a missing file is a first start) and, with CURVE
    /// configured, starts the ZAP authenticator.
    ///
    /// - Parameter context: the ZeroMQ context to open sockets in; by default the worker's own.
    ///   Tests pass theirs to talk to the worker over `inproc://`.
    public init(
        configuration: WorkerConfiguration,
        core: RenderingCore,
        logger: Logger,
        metrics: WorkerMetrics = WorkerMetrics(),
        context: ZMQContext? = nil
    ) throws(WorkerError) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        cores = CoreBox(core)
        reloads = metrics.makeShard("reload")
        let checkpoint: Checkpoint
        do {
            let url = configuration.checkpoint.path.isEmpty ? nil : URL(fileURLWithPath: configuration.checkpoint.path)
            let reading = try url.map(Checkpoint.reading)
            checkpoint = reading?.checkpoint ?? Checkpoint()
            if let torn = reading?.tornLine {
                reloads.update { $0.checkpointTornLines += 1 }
                logger.warning(
                    "checkpoint journal: a torn last line skipped",
                    metadata: ["file": "\(torn.path)", "line": "\(torn.line)", "bytes": "\(torn.bytes)"]
                )
                // Cut off, so the next change is a line of its own.
                try Checkpoint.dropTornLine(torn)
            }
        } catch {
            throw WorkerError(.checkpoint, "cannot resume from it", key: "checkpoint.path", cause: error)
        }
        resumedSources = checkpoint.sources.count
        resumed = Mutex(checkpoint)
        do {
            self.context = try context ?? ZMQContext()
        } catch {
            throw WorkerError(.endpoint, "cannot make a ZeroMQ context", cause: error)
        }
        ownsContext = context == nil
        do {
            security =
                try configuration.curve.isEnabled ? WorkerSecurity(configuration.curve, context: self.context) : nil
        } catch {
            throw WorkerError(.security, "cannot start the ZAP authenticator", key: "curve", cause: error)
        }
    }

    /// The endpoints bound for `role` ("input", "output", "rpc", "metrics"), with wildcard ports resolved.
    public func boundEndpoints(_ role: String) -> [String] { bound.withLock { $0[role] ?? [] } }

    /// Whether the worker takes new work: started and not draining.
    public var isServing: Bool { status.isServing }

    /// Whether the last run ended with everything taken in delivered (false after a drain that
    /// timed out, or a failure).
    public var isDrained: Bool { drained.load(ordering: .acquiring) }

    /// Waits until the worker serves (its sockets are bound), or has ended.
    public func waitUntilServing() async {
        await withCheckedContinuation { continuation in
            let resumeNow = ready.withLock { waiters -> Bool in
                guard waiters != nil else { return true }
                waiters?.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func announceReady() {
        for waiter in ready.withLock({ waiters -> [CheckedContinuation<Void, Never>] in
            defer { waiters = nil }
            return waiters ?? []
        }) {
            waiter.resume()
        }
    }

    /// Opens every socket, runs the stages until graceful shutdown, and returns when all ended.
    ///
    /// - Throws: ``WorkerError`` naming the endpoint that could not be bound or connected, or the
    ///   stage that failed.
    public func run() async throws {
        defer {
            status.set(serving: false)
            announceReady()
            security?.stop()
            if ownsContext { context.shutdown() }
        }
        let stages = try openStages()
        // Services stop in the reverse order of this list: the pipeline first (it drains), the span
        // exporter last (spans still queued when the pipeline ends go out before the worker returns).
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: stages.spans ?? IdleService(), successTerminationBehavior: .ignore),
                    .init(service: stages.http ?? IdleService(), successTerminationBehavior: .ignore),
                    .init(service: stages.checkpoints),
                    .init(service: stages.rpc ?? IdleService(), successTerminationBehavior: .ignore),
                    .init(service: stages.pool),
                    .init(service: stages.pipeline),
                ],
                logger: logger
            ).withDrainLimit(configuration.shutdown.drainTimeout)
        )
        status.set(serving: true)
        logStart()
        announceReady()
        try await withGracefulShutdownHandler {
            try await group.run()
        } onGracefulShutdown: {
            self.status.set(serving: false)
            self.logger.notice("stopping: draining in-flight work")
        }
        let ending = stages.pipeline.result
        if case .drained = ending { drained.store(true, ordering: .releasing) }
        logger.info("worker stopped", metadata: metrics.snapshot.mapValues { "\($0)" })
    }

    // MARK: Reload

    /// Reloads the catalog and menu from the configured paths. Render threads switch between two
    /// messages, so nothing in flight is dropped; a catalog or menu that does not load is rejected
    /// and the loaded one kept.
    ///
    /// - Throws: ``WorkerError`` describing why the new files were rejected.
    public func reload() throws(WorkerError) {
        let failure: WorkerError? = reloading.withLock { _ in
            let fresh: RenderingCore
            do throws(CoreConfigurationError) {
                fresh = try WorkerSetup.core(for: configuration, logger: logger)
            } catch {
                reloads.update { $0.reloadsRejected += 1 }
                logger.error("reload rejected; keeping the loaded catalog and menu", metadata: ["error": "\(error)"])
                return WorkerError(.catalog, "reload rejected", key: error.key, cause: error)
            }
            cores.replace(with: fresh)
            reloads.update { $0.reloadsLoaded += 1 }
            logger.notice("catalog and menu reloaded")
            return nil
        }
        if let failure { throw failure }
    }

    // MARK: Stages

    private struct Stages {
        var pipeline: any PipelineService
        var pool: RenderPool
        var checkpoints: CheckpointWriter
        var rpc: RPCFrontend?
        var http: HTTPEndpoint?
        var spans: SpanExporter?
    }

    /// Makes every socket and stage; a failure closes what was opened.
    private func openStages() throws(WorkerError) -> Stages {
        let resumed = self.resumed.withLock { $0.take() } ?? Checkpoint()
        let pipelineCount = configuration.pipelineCount
        var opened: [ZMQSocket] = []
        var spans: SpanExporter?
        do {
            let http = try openMetricsEndpoint()
            let (input, inputWatch) = try openInput()
            opened.append(input)
            let kind = configuration.output.kind
            let outputSocket = try context.socket(kind.socketType)
            opened.append(outputSocket)
            try kind.configure(outputSocket, configuration.output)
            try attach(outputSocket, configuration.output.endpoints, role: "output")
            var monitors = [inputWatch]
            // The acknowledged output hears of consumers that left from the monitor; a CURVE
            // endpoint's refused handshakes are counted from it.
            var outputWatch: SocketWatch?
            if kind == .acked
                || (security != nil && configuration.output.endpoints.contains(where: { $0.mode == .bind }))
            {
                let watch = try SocketWatch(outputSocket, countsDisconnects: false)
                monitors.append(watch)
                outputWatch = watch
            }
            let redrives = try RedriveQueue()
            let rpc = try openRPC(&opened, redrives: redrives)
            let checkpointURL =
                configuration.checkpoint.path.isEmpty ? nil : URL(fileURLWithPath: configuration.checkpoint.path)
            let checkpoints = CheckpointWriter(
                url: checkpointURL,
                resumed: resumed,
                logger: logger,
                shard: metrics.makeShard("checkpoint"),
                status: status,
                failuresBeforeUnhealthy: configuration.checkpoint.failuresBeforeUnhealthy,
                pipelines: pipelineCount
            )
            // Every pipeline thread renders too: the helpers are the render threads beyond them.
            let pool = RenderPool(
                helpers: max(0, configuration.renderThreadCount - pipelineCount),
                cores: cores,
                limits: configuration.limits,
                localeCacheBytes: configuration.render.localeCacheBytes,
                prepareLocales: configuration.render.prepareLocales,
                warmUp: configuration.render.warmUp
            )
            spans = OTLPEndpoint(configuration.tracing.otlpEndpoint).map { endpoint in
                SpanExporter(
                    endpoint: endpoint,
                    serviceName: configuration.tracing.serviceName,
                    metrics: metrics,
                    logger: logger
                )
            }
            let sockets = EventPipeline.Sockets(
                input: input,
                outputSocket: outputSocket,
                output: kind.channel(outputSocket, configuration.output, logger: logger),
                monitors: monitors,
                outputWatch: outputWatch
            )
            let parts = EventPipeline.Parts(
                context: context,
                security: security,
                cores: cores,
                pool: pool,
                checkpoints: checkpoints,
                logger: logger,
                metrics: metrics,
                redrives: redrives,
                spans: spans
            )
            let pipeline: any PipelineService =
                pipelineCount == 1
                ? try EventPipeline(
                    sockets: Handoff(sockets),
                    configuration: configuration,
                    parts: parts,
                    resumed: resumed
                )
                : try PipelineGroup.open(
                    count: pipelineCount,
                    name: "caffe-\(UInt64.random(in: 0...UInt64.max))",
                    sockets: sockets,
                    configuration: configuration,
                    parts: parts,
                    resumed: resumed,
                    opened: &opened
                )
            return Stages(pipeline: pipeline, pool: pool, checkpoints: checkpoints, rpc: rpc, http: http, spans: spans)
        } catch {
            for socket in opened { socket.close(linger: .milliseconds(0)) }
            spans?.stop()
            throw error as? WorkerError ?? WorkerError(.endpoint, "cannot open the worker's sockets", cause: error)
        }
    }

    /// The input socket, attached, and its watch (made first, so it sees every connection).
    private func openInput() throws -> (ZMQSocket, SocketWatch) {
        let input = configuration.input
        let socket = try context.socket(input.kind.socketType)
        let watch = try SocketWatch(
            socket,
            countsDisconnects: true,
            connecting: input.endpoints.filter { $0.mode == .connect }.map(\.address),
            connectionChanged: { [status] in status.set(inputsConnected: $0) }
        )
        try socket.set(.receiveHighWaterMark, to: Int32(input.highWaterMark))
        // The application refuses what is over max_message_bytes and keeps the sender; libzmq
        // only drops connections that send far more than that.
        try socket.set(.maxMessageSize, to: Int64(max(input.maxMessageBytes, 256 << 20)))
        if input.kind == .sub {
            // A shard takes its topics as a partitioning proxy routes them (only its own) and as a
            // broadcasting forwarder sends them (foreign sources dropped and counted); prefixed
            // first, so the proxy knows the plain ones for a shard's.
            if let shard = input.shard {
                for topic in input.topics { try socket.subscribe(shard.topicPrefix + topic) }
            }
            for topic in input.topics { try socket.subscribe(topic) }
        }
        try attach(socket, input.endpoints, role: "input")
        return (socket, watch)
    }

    private func openRPC(_ opened: inout [ZMQSocket], redrives: RedriveQueue) throws -> RPCFrontend? {
        guard let endpoint = configuration.rpc.endpoint else { return nil }
        let frontend = try context.socket(.router)
        opened.append(frontend)
        try frontend.set(.maxMessageSize, to: Int64(max(configuration.input.maxMessageBytes, 256 << 20)))
        try frontend.set(.routerMandatory, to: true)
        try attach(frontend, [endpoint], role: "rpc")
        let watch =
            security != nil && endpoint.mode == .bind ? try SocketWatch(frontend, countsDisconnects: false) : nil
        return try RPCFrontend(
            socket: Handoff(frontend),
            watch: Handoff(watch),
            settings: RPCFrontend.Settings(
                limits: configuration.limits,
                queue: configuration.rpc.queue,
                renderThreads: configuration.renderThreadCount,
                localeCacheBytes: configuration.render.localeCacheBytes,
                redriveRate: configuration.rpc.redriveRate,
                adminAllowedKeys: Set(configuration.rpc.adminAllowedKeys)
            ),
            cores: cores,
            status: status,
            metrics: metrics,
            logger: logger,
            redrives: redrives
        )
    }

    private func openMetricsEndpoint() throws(WorkerError) -> HTTPEndpoint? {
        guard !configuration.metrics.address.isEmpty else { return nil }
        guard let address = HostAndPort(configuration.metrics.address) else {
            throw WorkerError(
                .configuration,
                "'\(configuration.metrics.address)' is not host:port",
                key: "metrics.address"
            )
        }
        let endpoint = try HTTPEndpoint(address: address) { [metrics, status] path in
            switch path {
            case "/metrics":
                HTTPEndpoint.Response(
                    status: 200,
                    contentType: "text/plain; version=0.0.4; charset=utf-8",
                    body: metrics.exposition(
                        serving: status.isServing,
                        healthy: status.isHealthy,
                        ready: status.notReadyBecause == nil
                    )
                )
            case "/healthz":
                status.isHealthy
                    ? .text(200, "SERVING\n")
                    : .text(503, status.isServing ? "NOT_SERVING: checkpoint failing\n" : "NOT_SERVING\n")
            case "/readyz":
                status.notReadyBecause.map { .text(503, "NOT_READY: \($0)\n") } ?? .text(200, "READY\n")
            default:
                .text(404, "not found; try /metrics, /healthz or /readyz\n")
            }
        }
        bound.withLock { $0["metrics", default: []].append(endpoint.address.description) }
        return endpoint
    }

    /// Binds or connects `socket` to each endpoint, as a CURVE server or client when CURVE is on.
    ///
    /// - Throws: ``WorkerError`` (`.endpoint` or `.security`) naming the role's key
    ///   (`input.endpoints`, `rpc.endpoint`…) and the endpoint, the ``ZMQError`` as its cause.
    private func attach(_ socket: ZMQSocket, _ endpoints: [WorkerEndpoint], role: String) throws(WorkerError) {
        let key = role == "rpc" ? "rpc.endpoint" : "\(role).endpoints"
        if let security {
            do {
                try security.secure(socket, asServer: endpoints.contains { $0.mode == .bind })
            } catch {
                throw WorkerError(.security, "cannot set CURVE on the \(role) socket", key: "curve", cause: error)
            }
        }
        for endpoint in endpoints {
            do {
                switch endpoint.mode {
                case .bind:
                    let actual = try socket.bind(endpoint.address)
                    bound.withLock { $0[role, default: []].append(actual) }
                case .connect:
                    try socket.connect(endpoint.address)
                }
            } catch {
                let verb = endpoint.mode == .bind ? "bind" : "connect"
                throw WorkerError(.endpoint, "cannot \(verb) \(endpoint.address)", key: key, cause: error)
            }
        }
    }

    private func logStart() {
        func describe(_ role: String, _ endpoints: [WorkerEndpoint]) -> String {
            let connected = endpoints.filter { $0.mode == .connect }.map(\.description)
            return (boundEndpoints(role).map { "@" + $0 } + connected).joined(separator: ",")
        }
        logger.notice(
            "worker serving",
            metadata: [
                "input": "\(configuration.input.kind.rawValue) \(describe("input", configuration.input.endpoints))",
                "output": "\(configuration.output.kind.rawValue) \(describe("output", configuration.output.endpoints))",
                "rpc": "\(configuration.rpc.endpoint.map { describe("rpc", [$0]) } ?? "off")",
                "metrics": "\(boundEndpoints("metrics").first.map { "http://\($0)/metrics" } ?? "off")",
                "render_threads": "\(configuration.renderThreadCount)",
                "pipelines": "\(configuration.pipelineCount)",
                "cores": "\(ProcessorCores.available)",
                "curve": "\(security == nil ? "off" : "on")",
                "resumed_sources": "\(resumedSources)",
            ]
        )
    }
}

extension WorkerConfiguration.Input.Kind {
    /// The libzmq socket type of this kind of input.
    var socketType: ZMQSocketType {
        switch self {
        case .sub: .sub
        case .pull: .pull
        }
    }
}

extension ServiceGroupConfiguration {
    /// This configuration with graceful shutdown limited to `limit` (then the group is cancelled).
    fileprivate func withDrainLimit(_ limit: Duration) -> ServiceGroupConfiguration {
        var configuration = self
        configuration.maximumGracefulShutdownDuration = limit
        return configuration
    }
}

/// A stage that is configured off: it only waits for shutdown (the worker's HTTP and RPC
/// endpoints, the span exporter, `caffe proxy`'s metrics).
public struct IdleService: Service {
    public init() {}

    public func run() async throws {
        try? await gracefulShutdown()
    }
}
