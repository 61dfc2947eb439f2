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

    /// A render request waiting for its turn.
    private struct Waiting {
        var request: RequestFrames
        var arrival: ContinuousClock.Instant
    }

    private func serve() {
        let frontend = socket.value
        var counts = ThreadCounts("rpc", in: metrics)
        var renderer = EventRenderer(cores: cores, limits: settings.limits, localeCacheBytes: settings.localeCacheBytes)
        var waiting = FIFO<Waiting>()
        var stats: (at: ContinuousClock.Instant, encoded: [UInt8])?
        var pendingStats: [RequestFrames] = []
        var statsGeneration: UInt64 = 0
        var statsDeadline = ContinuousClock.now

        /// Answers the Stats requests waiting, once the counts are fresh or the wait is over.
        func answerStatsIfReady() {
            guard !pendingStats.isEmpty,
                metrics.hasFreshCounts(statsGeneration) || ContinuousClock.now >= statsDeadline
            else { return }
            counts.publish(force: true)
            let total = metrics.counts
            var response = Caffe_V1_StatsResponse()
            response.counters = total.snapshot
            response.gauges = [
                "queue_depth_render": Double(total.renderQueue), "queue_depth_rpc": Double(total.rpcQueue),
                "gaps_pending": Double(total.pendingGaps), "consumers": Double(total.consumers),
                "unacknowledged": Double(total.unacknowledged),
                "render_threads": Double(settings.renderThreads), "serving": status.isServing ? 1 : 0,
                "healthy": status.isHealthy ? 1 : 0, "sources_active": Double(total.activeSources),
                "sources_dormant": Double(total.dormantSources), "parked": Double(total.parkedNow),
                "locale_cache_bytes": Double(total.localeCacheBytes), "lag_events": Double(total.totalLag),
                "ready": status.notReadyBecause == nil ? 1 : 0,
            ]
            let encoded: [UInt8] = (try? response.serializedBytes()) ?? []
            stats = (ContinuousClock.now, encoded)
            for request in pendingStats {
                send(try? request.reply(status: .ok, encodedBody: encoded), method: request.header.method, code: .ok)
            }
            pendingStats.removeAll()
        }
        var poller = ZMQPoller()
        poller.register(frontend, for: .readable)
        let controlItem = poller.register(fileDescriptor: control.fileDescriptor, for: .readable)
        let watchItem = watch.value.map { poller.register($0.socket, for: .readable) }

        func send(_ reply: [ZMQMessage]?, method: String, code: Caffe_V1_StatusCode) {
            counts.count { $0.rpc[LabelPair(WorkerMetrics.methodLabel(method), code.grpcName), default: 0] += 1 }
            guard let reply else { return }
            let delivered = (try? frontend.send(multipart: reply, timeout: .zero)) ?? false
            if !delivered { counts.count { $0.rpcRepliesDropped += 1 } }
        }

        func answer(_ request: RequestFrames, _ status: RPCStatus, _ body: (any SwiftProtobuf.Message)? = nil) {
            let reply: [ZMQMessage]? =
                if let body { try? request.reply(status: status, body: body) } else {
                    try? request.reply(status: status)
                }
            send(reply, method: request.header.method, code: status.code)
        }

        func expired(_ request: RequestFrames, arrival: ContinuousClock.Instant) -> Bool {
            request.isExpired(now: Google_Protobuf_Timestamp(date: Date()), arrival: arrival, instant: .now)
        }

        func take(_ frames: [ZMQMessage]) {
            let arrival = ContinuousClock.now
            let request: RequestFrames
            do {
                request = try RequestFrames(parsing: frames, limits: settings.limits)
            } catch {
                logger.warning("unreadable request", metadata: ["error": "\(error)"])
                let status = RPCStatus(code: .invalidArgument, message: "unreadable request: \(error.message)")
                send(RequestFrames.errorReply(to: frames, status: status), method: "", code: status.code)
                return
            }
            let method = request.header.method
            let known = [
                CaffeMethod.healthCheck, CaffeMethod.stats, CaffeMethod.renderOrder, CaffeMethod.renderComplication,
                CaffeMethod.redrive,
            ]
            guard known.contains(method) else {
                return answer(
                    request,
                    RPCStatus(code: .unimplemented, message: "method '\(method)' is not served here")
                )
            }
            guard !expired(request, arrival: arrival) else {
                return answer(
                    request,
                    RPCStatus(code: .deadlineExceeded, message: "the deadline had passed on arrival")
                )
            }
            switch method {
            case CaffeMethod.healthCheck:
                let service: String
                do {
                    service = try request.decodeBody(as: Grpc_Health_V1_HealthCheckRequest.self).service
                } catch {
                    return answer(request, error.rpcStatus)
                }
                guard ["", "caffe.v1.Renderer", "caffe.v1.Admin", "grpc.health.v1.Health"].contains(service) else {
                    return answer(request, RPCStatus(code: .notFound, message: "unknown service '\(service)'"))
                }
                var response = Grpc_Health_V1_HealthCheckResponse()
                response.status = status.isHealthy ? .serving : .notServing
                answer(request, .ok, response)
            case CaffeMethod.stats:
                // Answered from counts at most 10 ms old; fresher ones are asked of the other
                // threads and the request waits for them (at most 50 ms) without holding up others.
                if let cached = stats, ContinuousClock.now - cached.at < .milliseconds(10) {
                    return send(try? request.reply(status: .ok, encodedBody: cached.encoded), method: method, code: .ok)
                }
                if pendingStats.isEmpty {
                    statsGeneration = metrics.requestFreshCounts()
                    statsDeadline = .now + .milliseconds(50)
                }
                pendingStats.append(request)
            case CaffeMethod.redrive:
                guard status.isServing, let redrives else {
                    return answer(
                        request,
                        RPCStatus(code: .unavailable, message: "the worker is draining; try another")
                    )
                }
                let event: InputEvent
                switch Self.redriven(request, limits: settings.limits) {
                case .success(let redriven): event = redriven
                case .failure(let refusal): return answer(request, refusal.status)
                }
                guard redrives.offer(event) else {
                    return answer(
                        request,
                        RPCStatus(code: .resourceExhausted, message: "\(redrives.capacity) redrives already queued")
                    )
                }
                logger.notice(
                    "dead letter redriven",
                    metadata: ["source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)"]
                )
                answer(request, .ok)
            default:
                guard status.isServing else {
                    return answer(
                        request,
                        RPCStatus(code: .unavailable, message: "the worker is draining; try another")
                    )
                }
                guard waiting.count < settings.queue else {
                    return answer(
                        request,
                        RPCStatus(code: .resourceExhausted, message: "\(settings.queue) requests already queued")
                    )
                }
                waiting.append(Waiting(request: request, arrival: arrival))
            }
        }

        while !stop.isRequested || !waiting.isEmpty || !pendingStats.isEmpty {
            // Read everything waiting (cheap), then render a few, so floods are answered at once.
            var read = 0
            while read < 1024, let frames = try? frontend.tryReceiveMultipart() {
                read += 1
                take(frames)
            }
            answerStatsIfReady()
            var rendered = 0
            while rendered < 8, let next = waiting.removeFirst() {
                rendered += 1
                if expired(next.request, arrival: next.arrival) {
                    answer(
                        next.request,
                        RPCStatus(code: .deadlineExceeded, message: "the deadline passed while the request was queued")
                    )
                    continue
                }
                renderer.refresh()
                let (reply, code) = RequestRenderer.reply(to: next.request, session: renderer.session)
                send(reply, method: next.request.header.method, code: code)
            }
            if counts.counts.rpcQueue != waiting.count { counts.count { $0.rpcQueue = waiting.count } }
            guard waiting.isEmpty, read < 1024 else {
                counts.publish()
                continue
            }
            counts.publish(force: true)
            if stop.isRequested, pendingStats.isEmpty { break }
            _ = try? poller.poll(timeout: pendingStats.isEmpty ? .seconds(1) : .milliseconds(1))
            if poller.isReadable(controlItem) { control.drain() }
            if let watchItem, let watch = watch.value, poller.isReadable(watchItem) {
                let events = watch.drain()
                counts.count { $0.handshakeFailures += events.handshakeFailures }
            }
        }
        counts.publish(force: true)
        watch.value?.stop()
        frontend.close(linger: .milliseconds(0))
    }
}

extension RPCFrontend {
    /// The event a `Redrive` request's dead letter carries, marked redriven; refused when the
    /// letter kept no event (a gap, an oversized message) or its event does not read.
    static func redriven(_ request: RequestFrames, limits: CaffeProtocolLimits) -> Result<InputEvent, RedriveRefusal> {
        let letter: Caffe_V1_DeadLetter
        do {
            letter = try request.decodeBody(as: Caffe_V1_DeadLetter.self)
        } catch {
            return .failure(RedriveRefusal(status: error.rpcStatus))
        }
        guard !letter.originalHeader.isEmpty, !letter.originalBody.isEmpty,
            let topic = try? ZMQMessage(Array(letter.topic.utf8)),
            let header = try? ZMQMessage(Array(letter.originalHeader)),
            let body = try? ZMQMessage(Array(letter.originalBody))
        else {
            return .failure(
                RedriveRefusal(
                    status: RPCStatus(
                        code: .invalidArgument,
                        message: "the dead letter keeps no event to render (a gap's, or an oversized message's)"
                    )
                )
            )
        }
        guard case .event(var event) = ParsedInput([topic, header, body], limits: limits),
            event.header.bodyType != Caffe_V1_Heartbeat.protoMessageName
        else {
            return .failure(
                RedriveRefusal(
                    status: RPCStatus(
                        code: .invalidArgument,
                        message: "the dead letter's event does not read as an event"
                    )
                )
            )
        }
        event.header.metadata[redrivenMetadataKey] = "true"
        if let bytes = try? event.header.serializedBytes() as [UInt8], let frame = try? ZMQMessage(bytes) {
            event.headerFrame = frame
        }
        return .success(event)
    }

    /// Why a redrive was refused.
    struct RedriveRefusal: Error {
        var status: RPCStatus
    }
}

/// Whether the worker takes new work (true once started, false from the start of a drain), and
/// whether it is healthy: serving, with its checkpoint being written. Health checks
/// (`grpc.health.v1`, `/healthz`) report ``isHealthy``; a worker that cannot write its
/// checkpoint still renders, but would render again after a restart everything since its last
/// checkpoint, so it asks to be looked at.
final class WorkerStatus: Sendable {
    private let serving = Atomic<Bool>(false)
    private let checkpointHealthy = Atomic<Bool>(true)
    private let inputsConnected = Atomic<Bool>(false)

    var isServing: Bool { serving.load(ordering: .acquiring) }
    var isCheckpointHealthy: Bool { checkpointHealthy.load(ordering: .acquiring) }
    var isHealthy: Bool { isServing && isCheckpointHealthy }
    /// Every endpoint the input connects to has a connection (bound endpoints need none).
    var areInputsConnected: Bool { inputsConnected.load(ordering: .acquiring) }

    /// What keeps the worker from being ready for traffic, or nil when it is: serving (the
    /// catalog and menu loaded, the stages started), the checkpoint writable, the inputs
    /// connected.
    var notReadyBecause: String? {
        if !isServing { return "not serving (starting or stopping)" }
        if !isCheckpointHealthy { return "the checkpoint cannot be written" }
        if !areInputsConnected { return "an input endpoint it connects to has no connection" }
        return nil
    }

    func set(serving value: Bool) { serving.store(value, ordering: .releasing) }
    func set(checkpointHealthy value: Bool) { checkpointHealthy.store(value, ordering: .releasing) }
    func set(inputsConnected value: Bool) { inputsConnected.store(value, ordering: .releasing) }
}
