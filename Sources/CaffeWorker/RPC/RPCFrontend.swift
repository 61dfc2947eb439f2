import CaffeBooks
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import Logging
import ServiceLifecycle
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// The gRPC-style request endpoint: a ROUTER answering `grpc.health.v1.Health/Check` and
/// `caffe.v1.Admin/Stats` at once and rendering `caffe.v1.Renderer/RenderOrder` and
/// `…/RenderComplication` on its own thread, replies matched by request id.
///
/// - Every message with a routing id gets a reply: a request that cannot be read is answered
///   INVALID_ARGUMENT, with its request id when the header still yields one.
/// - Statuses, in the order they are decided: unknown method UNIMPLEMENTED; deadline passed (the
///   absolute `deadline`, or the relative `timeout` counted from arrival) DEADLINE_EXCEEDED,
///   checked on arrival and again before rendering; draining UNAVAILABLE; more than `rpc.queue`
///   render requests waiting RESOURCE_EXHAUSTED; then the render's own status.
/// - Replies never wait: a client whose queue is full or who has gone loses its reply (counted),
///   so a client that sends and never reads costs only itself.
final class RPCFrontend: Service {
    struct Settings: Sendable {
        var limits: CaffeProtocolLimits
        var queue: Int
        var renderThreads: Int
        var localeCacheBytes = RenderSession.defaultLocaleCacheBytes
        /// `rpc.redrive_rate`.
        var redriveRate = WorkerConfiguration.RPC().redriveRate
        /// `rpc.admin_allowed_keys`: the CURVE keys that may call `caffe.v1.Admin/*` (empty: any).
        var adminAllowedKeys: Set<String> = []
    }

    private let socket: Handoff<ZMQSocket>
    private let watch: Handoff<SocketWatch?>
    private let settings: Settings
    private let cores: CoreBox
    private let status: WorkerStatus
    private let metrics: WorkerMetrics
    private let logger: Logger
    private let stop: ThreadStop
    private var control: ZMQWakeup { stop.wakeup }
    /// Where redrive requests go: the event pipeline.
    private let redrives: RedriveQueue?

    init(
        socket: Handoff<ZMQSocket>,
        watch: Handoff<SocketWatch?>,
        settings: Settings,
        cores: CoreBox,
        status: WorkerStatus,
        metrics: WorkerMetrics,
        logger: Logger,
        redrives: RedriveQueue? = nil
    ) throws(ZMQError) {
        self.redrives = redrives
        self.socket = socket
        self.watch = watch
        self.settings = settings
        self.cores = cores
        self.status = status
        self.metrics = metrics
        self.logger = logger
        stop = try ThreadStop()
    }

    func run() async throws {
        await runThreadService(named: "caffe-rpc", stop: stop) { self.serve() }
    }

    /// The methods served, each with its handler: adding one is a handler type and a line here.
    private func handlers() -> RPCRouter {
        var router = RPCRouter()
        router.register(RenderOrderHandler())
        router.register(RenderComplicationHandler())
        router.register(StatsHandler(metrics: metrics, status: status, renderThreads: settings.renderThreads))
        router.register(
            RedriveHandler(
                redrives: redrives,
                status: status,
                limits: settings.limits,
                perSecond: settings.redriveRate,
                logger: logger
            )
        )
        router.register(HealthHandler(status: status, services: router.services))
        return router
    }

    /// A render request waiting for its turn, and the handler that renders it.
    private struct Waiting {
        var request: RequestFrames
        var arrival: ContinuousClock.Instant
        var handler: any RenderingRPCHandler
    }

    private func serve() {
        let frontend = socket.value
        let router = handlers()
        var replies = RPCReplies(
            counts: ThreadCounts("rpc", in: metrics),
            methods: router.methods,
            logger: logger,
            deliver: { frames throws(ZMQError) in try frontend.send(multipart: frames, timeout: .zero) }
        )
        var renderer = EventRenderer(cores: cores, limits: settings.limits, localeCacheBytes: settings.localeCacheBytes)
        var waiting = FIFO<Waiting>()
        var socketErrors = LogBudget(perSecond: 1, burst: 5)
        var poller = ZMQPoller()
        poller.register(frontend, for: .readable)
        let controlItem = poller.register(fileDescriptor: control.fileDescriptor, for: .readable)
        let watchItem = watch.value.map { poller.register($0.socket, for: .readable) }

        func expired(_ request: RequestFrames, arrival: ContinuousClock.Instant) -> Bool {
            request.isExpired(now: Google_Protobuf_Timestamp(date: Date()), arrival: arrival, instant: .now)
        }

        /// Says a socket failure (a few a second at most); whether the socket is gone for good.
        func socketFailed(_ error: ZMQError, _ operation: String) -> Bool {
            if let held = socketErrors.admit(at: .now) {
                logger.error(
                    "RPC endpoint: \(operation) failed",
                    metadata: ["error": "\(error)", "held_back": "\(held)"]
                )
            }
            return error.isContextTerminated
        }

        func take(_ frames: [ZMQMessage]) {
            let arrival = ContinuousClock.now
            let request: RequestFrames
            do {
                request = try RequestFrames(parsing: frames, limits: settings.limits)
            } catch {
                logger.warning("unreadable request", metadata: ["error": "\(error)"])
                let status = RPCStatus(code: .invalidArgument, message: "unreadable request: \(error.message)")
                replies.send(
                    RPCReply(frames: RequestFrames.errorReply(to: frames, status: status), code: status.code),
                    method: ""
                )
                return
            }
            let method = request.header.method
            guard let handler = router.handler(for: method) else {
                return replies.answer(
                    request,
                    RPCStatus(code: .unimplemented, message: "method '\(method)' is not served here")
                )
            }
            if !settings.adminAllowedKeys.isEmpty, method.hasPrefix(CaffeMethod.adminService + "/"),
                // The peer's frames carry the ZAP handler's User-Id (the routing id frame ROUTER
                // makes does not).
                !settings.adminAllowedKeys.contains(frames.last?.metadata("User-Id") ?? "")
            {
                return replies.answer(
                    request,
                    RPCStatus(
                        code: .permissionDenied,
                        message: "\(method) is for the keys in rpc.admin_allowed_keys; this client's is not one"
                    )
                )
            }
            guard !expired(request, arrival: arrival) else {
                return replies.answer(
                    request,
                    RPCStatus(code: .deadlineExceeded, message: "the deadline had passed on arrival")
                )
            }
            guard handler.handle(request, replies: &replies) == .render,
                let renders = handler as? any RenderingRPCHandler
            else { return }
            guard status.isServing else {
                return replies.answer(
                    request,
                    RPCStatus(code: .unavailable, message: "the worker is draining; try another")
                )
            }
            guard waiting.count < settings.queue else {
                return replies.answer(
                    request,
                    RPCStatus(code: .resourceExhausted, message: "\(settings.queue) requests already queued")
                )
            }
            waiting.append(Waiting(request: request, arrival: arrival, handler: renders))
        }

        var broken = false
        while !broken, !stop.isRequested || !waiting.isEmpty || router.keptCount > 0 {
            // Read everything waiting (cheap), then render a few, so floods are answered at once.
            var read = 0
            reading: while read < 1024 {
                do {
                    guard let frames = try frontend.tryReceiveMultipart() else { break reading }
                    read += 1
                    take(frames)
                } catch {
                    broken = socketFailed(error, "receive")
                    break reading
                }
            }
            for handler in router.handlers { handler.answerKept(replies: &replies) }
            var rendered = 0
            while rendered < 8, let next = waiting.removeFirst() {
                rendered += 1
                if expired(next.request, arrival: next.arrival) {
                    replies.answer(
                        next.request,
                        RPCStatus(code: .deadlineExceeded, message: "the deadline passed while the request was queued")
                    )
                    continue
                }
                renderer.refresh()
                replies.send(
                    next.handler.render(next.request, renderer: &renderer),
                    method: next.request.header.method
                )
            }
            if replies.counts.counts.rpcQueue != waiting.count { replies.counts.count { $0.rpcQueue = waiting.count } }
            guard waiting.isEmpty, read < 1024 else {
                replies.counts.publish()
                continue
            }
            replies.counts.publish(force: true)
            if stop.isRequested, router.keptCount == 0 { break }
            let wake = router.handlers.map(\.keptWake).min() ?? .seconds(1)
            do throws(ZMQError) {
                _ = try poller.poll(timeout: .milliseconds(Int32(wake / .milliseconds(1))))
            } catch {
                broken = socketFailed(error, "poll") || broken
            }
            if poller.isReadable(controlItem) { control.drain() }
            if let watchItem, let watch = watch.value, poller.isReadable(watchItem) {
                let events = watch.drain()
                replies.counts.count { $0.handshakeFailures += events.handshakeFailures }
            }
        }
        replies.counts.publish(force: true)
        watch.value?.stop()
        frontend.close(linger: .milliseconds(0))
    }
}
