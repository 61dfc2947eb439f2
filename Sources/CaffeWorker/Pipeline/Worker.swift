import CaffeCore
import CaffeProtocol
import Foundation
import Logging
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// Why the worker could not start.
public struct WorkerError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The running service: intake → render pool → publisher, plus the RPC endpoint, on their own
/// threads, joined by `inproc://` PUSH/PULL pipes whose high-water marks bound the queues (a full
/// render queue stops intake from reading; a slow PUSH consumer stops the publisher).
///
/// - Intake (`Worker+Intake.swift`): receives events (SUB or PULL), tells duplicates and gaps apart
///   (``IntakeTracker``), asks sources to replay gaps (``GapRecovery``), and hands new events on.
/// - Render threads (`Worker+Render.swift`, one per core by default), each with its own
///   ``RenderSession``: render events and RPC requests, or turn an event into a dead letter.
/// - Publisher (`Worker+Publish.swift`): sends every output (PUB or PUSH), marks the input done,
///   and checkpoints each source's contiguous done sequence periodically and at shutdown.
/// - RPC (`Worker+RPC.swift`): a ROUTER answering health and stats itself and passing render
///   requests to the render threads, replies matched by request id.
public final class Worker: Sendable {
    public let configuration: WorkerConfiguration
    public let metrics: WorkerMetrics
    public let logger: Logger
    let context: ZMQContext
    let resumed: Checkpoint
    let checkpointURL: URL?
    let security: WorkerSecurity?

    /// The core the render threads use; replaced whole by ``reload()``.
    private let core: Mutex<RenderingCore>
    /// Bumped by each successful reload; render threads compare it between messages.
    let coreGeneration = Atomic<Int>(0)

    let running = Atomic<Bool>(true)
    let started = Atomic<Bool>(false)
    let intakeFinished = Atomic<Bool>(false)
    let rpcIntakeFinished = Atomic<Bool>(false)
    let renderersRunning = Atomic<Int>(0)
    /// Set when draining took too long: blocked sends give up, unsent work is not checkpointed.
    let givingUp = Atomic<Bool>(false)
    let pendingGaps = Atomic<Int>(0)
    private let finished = DispatchGroup()
    private let httpEndpoint = Mutex<HTTPEndpoint?>(nil)
    private let gaugeLock = Mutex<Void>(())
    /// The endpoints actually bound (`tcp://…:0` resolved), by role.
    private let bound = Mutex<[String: [String]]>([:])
    private let id = UUID().uuidString

    var renderPipe: String { "inproc://caffe-render-\(id)" }
    var publishPipe: String { "inproc://caffe-publish-\(id)" }
    var rpcWorkPipe: String { "inproc://caffe-rpc-work-\(id)" }
    var rpcDonePipe: String { "inproc://caffe-rpc-done-\(id)" }

    /// Prepares a worker; reads the checkpoint (a missing file is a first start) and, with CURVE
    /// configured, starts the ZAP authenticator.
    public init(
        configuration: WorkerConfiguration,
        core: RenderingCore,
        logger: Logger,
        metrics: WorkerMetrics = WorkerMetrics()
    ) throws(WorkerError) {
        self.configuration = configuration
        self.core = Mutex(core)
        self.logger = logger
        self.metrics = metrics
        checkpointURL =
            configuration.checkpoint.path.isEmpty ? nil : URL(fileURLWithPath: configuration.checkpoint.path)
        do {
            resumed = try checkpointURL.map(Checkpoint.read) ?? Checkpoint()
            context = try ZMQContext()
            security = try configuration.curve.isEnabled ? WorkerSecurity(configuration.curve, context: context) : nil
        } catch {
            throw WorkerError("\(error)")
        }
    }

    /// The endpoints bound for `role` ("input", "output", "rpc", "metrics"), with wildcard ports resolved.
    public func boundEndpoints(_ role: String) -> [String] { bound.withLock { $0[role] ?? [] } }

    /// Whether the worker takes new work: started and not draining.
    public var isServing: Bool { started.load(ordering: .relaxed) && running.load(ordering: .relaxed) }

    /// Starts every thread; returns once all sockets are bound and connected.
    ///
    /// - Throws: ``WorkerError`` naming the endpoint that could not be bound or connected.
    public func start() throws(WorkerError) {
        do {
            try startThreads()
        } catch {
            // Whatever did start must be able to end: no more intake, RPC or renderers to wait for.
            intakeFinished.store(true, ordering: .sequentiallyConsistent)
            rpcIntakeFinished.store(true, ordering: .sequentiallyConsistent)
            throw error
        }
    }

    private func startThreads() throws(WorkerError) {
        try startMetricsEndpoint()
        try launch("caffe-publish") { () throws(ZMQError) -> (() -> Void) in
            let pipe = try self.context.socket(.pull)
            _ = try pipe.bind(self.publishPipe)
            let output = try self.openOutput()
            return { self.publish(from: pipe, to: output) }
        }
        if configuration.rpc.endpoint != nil {
            try launch("caffe-rpc") { () throws(ZMQError) -> (() -> Void) in
                let sockets = try self.openRPC()
                return { self.serveRPC(sockets) }
            }
        } else {
            rpcIntakeFinished.store(true, ordering: .sequentiallyConsistent)
        }
        try launch("caffe-intake") { () throws(ZMQError) -> (() -> Void) in
            let render = try self.context.socket(.push)
            try render.set(.sendHighWaterMark, to: Int32(self.configuration.render.queue))
            _ = try render.bind(self.renderPipe)
            let letters = try self.context.socket(.push)
            try letters.connect(self.publishPipe)
            let input = try self.openInput()
            return { self.intake(from: input, to: render, deadLetters: letters) }
        }
        for index in 0..<configuration.renderThreadCount {
            renderersRunning.add(1, ordering: .sequentiallyConsistent)
            do {
                try launch("caffe-render-\(index)") { () throws(ZMQError) -> (() -> Void) in
                    let sockets = try self.openRenderSockets()
                    return { self.render(sockets) }
                }
            } catch {
                renderersRunning.add(-1, ordering: .sequentiallyConsistent)
                throw error
            }
        }
        started.store(true, ordering: .sequentiallyConsistent)
        logger.info(
            "worker serving",
            metadata: [
                "input":
                    "\(configuration.input.kind.rawValue) \(boundOrConnected("input", configuration.input.endpoints))",
                "output":
                    "\(configuration.output.kind.rawValue) \(boundOrConnected("output", configuration.output.endpoints))",
                "rpc": "\(configuration.rpc.endpoint.map { boundOrConnected("rpc", [$0]) } ?? "off")",
                "metrics": "\(boundEndpoints("metrics").first.map { "http://\($0)/metrics" } ?? "off")",
                "render_threads": "\(configuration.renderThreadCount)",
                "curve": "\(security == nil ? "off" : "on")",
                "resumed_sources": "\(resumed.sources.count)",
            ]
        )
    }

    /// Stops intake and makes health NOT_SERVING; the threads then drain what is in flight, write
    /// the checkpoint and end.
    public func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
    }

    /// Waits until every thread has ended (after ``stop()``), at most `timeout`. When draining
    /// takes longer, blocked sends are abandoned (their inputs stay out of the checkpoint, so a
    /// restarted worker gets them replayed) and `false` is returned once the threads have ended.
    @discardableResult
    public func wait(timeout: Duration? = nil) -> Bool {
        var drained = true
        if let timeout {
            let deadline = DispatchTime.now() + .milliseconds(Int(timeout.wholeMilliseconds))
            if finished.wait(timeout: deadline) == .timedOut {
                drained = false
                logger.error(
                    "drain timed out; abandoning unsent work (it stays out of the checkpoint)",
                    metadata: ["timeout_ms": "\(timeout.wholeMilliseconds)"]
                )
                givingUp.store(true, ordering: .sequentiallyConsistent)
            }
        }
        finished.wait()
        httpEndpoint.withLock { $0?.stop() }
        security?.stop()
        context.shutdown()
        logger.info("worker stopped", metadata: metrics.snapshot.mapValues { "\($0)" })
        return drained
    }

    // MARK: Reload

    /// Reloads the catalog and menu from the configured paths. Render threads switch between two
    /// messages, so nothing in flight is dropped; a catalog or menu that does not load is rejected
    /// and the loaded one kept.
    ///
    /// - Throws: ``WorkerError`` describing why the new files were rejected.
    public func reload() throws(WorkerError) {
        let fresh: RenderingCore
        do {
            fresh = try WorkerSetup.core(for: configuration)
        } catch {
            metrics.counter("reloads", [("result", "rejected")]).add()
            logger.error("reload rejected; keeping the loaded catalog and menu", metadata: ["error": "\(error)"])
            throw WorkerError("reload rejected: \(error)")
        }
        core.withLock { $0 = fresh }
        coreGeneration.add(1, ordering: .sequentiallyConsistent)
        metrics.counter("reloads", [("result", "loaded")]).add()
        logger.notice("catalog and menu reloaded")
    }

    /// The current core and its generation.
    var currentCore: (core: RenderingCore, generation: Int) {
        core.withLock { ($0, coreGeneration.load(ordering: .sequentiallyConsistent)) }
    }

    // MARK: Operations endpoint

    private func startMetricsEndpoint() throws(WorkerError) {
        guard !configuration.metrics.address.isEmpty else { return }
        guard let address = HostAndPort(configuration.metrics.address) else {
            throw WorkerError("metrics.address '\(configuration.metrics.address)' is not host:port")
        }
        let endpoint = try HTTPEndpoint(address: address) { [weak self] path in
            guard let self else { return .text(503, "stopping\n") }
            switch path {
            case "/metrics":
                self.refreshGauges()
                return HTTPEndpoint.Response(
                    status: 200,
                    contentType: "text/plain; version=0.0.4; charset=utf-8",
                    body: self.metrics.exposition()
                )
            case "/healthz":
                return self.isServing ? .text(200, "SERVING\n") : .text(503, "NOT_SERVING\n")
            default:
                return .text(404, "not found; try /metrics or /healthz\n")
            }
        }
        httpEndpoint.withLock { $0 = endpoint }
        bound.withLock { $0["metrics", default: []].append(endpoint.address.description) }
    }

    /// Brings gauges and externally kept counts up to date (before a scrape or a Stats answer).
    func refreshGauges() {
        if let security {
            // The HTTP and RPC threads may both refresh: one at a time, or failures count twice.
            gaugeLock.withLock { _ in
                let refused = UInt64(security.refused)
                let counted = metrics.handshakeFailures.count
                if refused > counted { metrics.handshakeFailures.add(refused - counted) }
            }
        }
        metrics.refreshGauges(pendingGaps: pendingGaps.load(ordering: .relaxed), serving: isServing)
    }

    // MARK: Threads

    /// Runs `setUp` on a new thread, waits for it to report, then lets the thread run what it returned.
    private func launch(
        _ name: String,
        _ setUp: @escaping @Sendable () throws(ZMQError) -> (() -> Void)
    ) throws(WorkerError) {
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<ZMQError?>(nil)
        finished.enter()
        let thread = Thread {
            defer { self.finished.leave() }
            let body: () -> Void
            do throws(ZMQError) {
                body = try setUp()
            } catch {
                failure.withLock { $0 = error }
                ready.signal()
                return
            }
            ready.signal()
            body()
        }
        thread.name = name
        thread.start()
        ready.wait()
        if let error = failure.withLock({ $0 }) {
            stop()
            throw WorkerError("\(name): \(error)")
        }
    }

    // MARK: Sockets

    var limits: CaffeProtocolLimits {
        var limits = CaffeProtocolLimits.standard
        limits.maxBodyBytes = configuration.input.maxMessageBytes
        return limits
    }

    private func openInput() throws(ZMQError) -> ZMQSocket {
        let input = configuration.input
        let socket = try context.socket(input.kind == .sub ? .sub : .pull)
        try socket.set(.receiveHighWaterMark, to: Int32(input.highWaterMark))
        try socket.set(.maxMessageSize, to: Int64(input.maxMessageBytes))
        if input.kind == .sub {
            for topic in input.topics { try socket.subscribe(topic) }
        }
        try attach(socket, input.endpoints, role: "input")
        return socket
    }

    private func openOutput() throws(ZMQError) -> ZMQSocket {
        let output = configuration.output
        let socket = try context.socket(output.kind == .pub ? .pub : .push)
        try socket.set(.sendHighWaterMark, to: Int32(output.highWaterMark))
        // PUSH queues only to connected consumers: with none, sending waits (and a drain can time
        // out) instead of filling a queue that dies with the process after the checkpoint moved.
        if output.kind == .push { try socket.set(.immediate, to: true) }
        try attach(socket, output.endpoints, role: "output")
        return socket
    }

    /// Binds or connects `socket` to each endpoint, as a CURVE server or client when CURVE is on.
    func attach(_ socket: ZMQSocket, _ endpoints: [WorkerEndpoint], role: String) throws(ZMQError) {
        if let security {
            try security.secure(socket, asServer: endpoints.contains { $0.mode == .bind })
        }
        for endpoint in endpoints {
            switch endpoint.mode {
            case .bind:
                let actual = try socket.bind(endpoint.address)
                bound.withLock { $0[role, default: []].append(actual) }
            case .connect:
                try socket.connect(endpoint.address)
            }
        }
    }

    private func boundOrConnected(_ role: String, _ endpoints: [WorkerEndpoint]) -> String {
        let actual = boundEndpoints(role)
        let connected = endpoints.filter { $0.mode == .connect }.map(\.description)
        return (actual.map { "@" + $0 } + connected).joined(separator: ",")
    }

    /// A frame holding a copy of `bytes`.
    static func frame(_ bytes: [UInt8]) -> ZMQMessage {
        guard !bytes.isEmpty, let message = try? ZMQMessage(count: bytes.count) else { return ZMQMessage() }
        message.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { target.copyMemory(from: $0) }
        }
        return message
    }

    /// Sends a multipart message, waiting as long as the peer needs (that wait is the
    /// backpressure) until the worker gives up on draining; a failure is logged, never ignored.
    @discardableResult
    func send(_ frames: [ZMQMessage], on socket: ZMQSocket, what: String) -> Bool {
        do {
            while !givingUp.load(ordering: .relaxed) {
                if try socket.send(multipart: frames, timeout: .milliseconds(100)) { return true }
            }
            logger.warning("not sent: draining timed out", metadata: ["what": "\(what)"])
        } catch {
            logger.error("send failed", metadata: ["what": "\(what)", "error": "\(error)"])
        }
        return false
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
