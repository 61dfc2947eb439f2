import CaffeCore
import CaffeProtocol
import CaffeTransport
import Logging
import SwiftProtobuf
import ZeroMQ

/// One method the worker's RPC endpoint serves, registered with an ``RPCRouter`` (the way
/// grpc-swift registers a handler per method). Handlers live on the RPC thread only; adding a
/// method is a handler type and one line in `RPCFrontend.handlers()`.
///
/// ```swift
/// final class EchoHandler: RPCHandler {
///     let method = "caffe.v1.Admin/Echo"
///     func handle(_ request: RequestFrames, replies: inout RPCReplies) -> RPCDecision {
///         replies.answer(request, .ok)
///         return .answered
///     }
/// }
/// ```
protocol RPCHandler: AnyObject {
    /// The method, as `package.Service/Method`.
    var method: String { get }

    /// Takes a request for ``method`` whose deadline had not passed on arrival: answers it
    /// through `replies`, keeps it to answer later, or asks for it to be rendered.
    func handle(_ request: RequestFrames, replies: inout RPCReplies) -> RPCDecision

    /// Requests kept (``RPCDecision/kept``) and not answered yet.
    var keptCount: Int { get }

    /// Answers what it kept, if it can now; called on every turn of the endpoint's loop.
    func answerKept(replies: inout RPCReplies)

    /// How long the loop may sleep while requests are kept here.
    var keptWake: Duration { get }
}

extension RPCHandler {
    var keptCount: Int { 0 }
    func answerKept(replies: inout RPCReplies) {}
    var keptWake: Duration { .seconds(1) }
}

/// A method whose requests are rendered: queued (at most `rpc.queue`, refused while the worker
/// drains), then rendered in turn on the RPC thread with its renderer.
protocol RenderingRPCHandler: RPCHandler {
    /// The reply to `request`, rendered with `renderer` (the RPC thread's), and its status for
    /// the metrics.
    func render(_ request: RequestFrames, renderer: inout EventRenderer) -> RPCReply
}

/// What a handler did with a request.
enum RPCDecision: Equatable {
    /// Answered through the ``RPCReplies`` it was given.
    case answered
    /// Kept, to be answered by ``RPCHandler/answerKept(replies:)``.
    case kept
    /// To be queued and rendered (a ``RenderingRPCHandler``'s requests).
    case render
}

/// A reply built and not yet sent: its frames (`nil` when it could not be encoded) and status.
struct RPCReply {
    var frames: [ZMQMessage]?
    var code: Caffe_V1_StatusCode

    /// The reply to `request` with `status`, when given `body`, and `metadata` in its header.
    init(
        _ request: RequestFrames,
        _ status: RPCStatus,
        _ body: (any SwiftProtobuf.Message)? = nil,
        metadata: [String: String] = [:]
    ) {
        if let body {
            frames = try? request.reply(status: status, body: body, metadata: metadata)
        } else {
            frames = try? request.reply(status: status, metadata: metadata)
        }
        code = status.code
    }
}

/// How handlers answer: each reply goes out at once and never waits (a client whose queue is
/// full, or who has gone, loses it, counted as dropped), every answer is counted by method and
/// status, and a reply that fails for another reason is logged (a few a second at most).
struct RPCReplies {
    var counts: ThreadCounts
    /// The methods served, for the metrics' `method` label: anything else is `other`, so
    /// clients cannot grow the label set.
    let methods: Set<String>
    private let deliver: ([ZMQMessage]) throws(ZMQError) -> Bool
    private let logger: Logger
    private var failures = LogBudget(perSecond: 1, burst: 5)

    /// Replies sent through `deliver` (a ROUTER's non-blocking send; `false`: would block).
    init(
        counts: ThreadCounts,
        methods: Set<String>,
        logger: Logger,
        deliver: @escaping ([ZMQMessage]) throws(ZMQError) -> Bool
    ) {
        self.counts = counts
        self.methods = methods
        self.logger = logger
        self.deliver = deliver
    }

    /// Answers `request` with `status`, when given `body`, and `metadata` in the reply's header.
    mutating func answer(
        _ request: RequestFrames,
        _ status: RPCStatus,
        _ body: (any SwiftProtobuf.Message)? = nil,
        metadata: [String: String] = [:]
    ) {
        send(RPCReply(request, status, body, metadata: metadata), method: request.header.method)
    }

    /// Answers `request` OK with a body encoded before (a cached answer).
    mutating func answer(_ request: RequestFrames, encodedBody: [UInt8], metadata: [String: String] = [:]) {
        send(
            RPCReply(
                frames: try? request.reply(status: .ok, encodedBody: encodedBody, metadata: metadata),
                code: .ok
            ),
            method: request.header.method
        )
    }

    /// Sends `reply` for `method` (nothing is sent when it has no frames: no one to answer).
    mutating func send(_ reply: RPCReply, method: String) {
        let label = methods.contains(method) ? method : "other"
        counts.count { $0.rpc[LabelPair(label, reply.code.grpcName), default: 0] += 1 }
        guard let frames = reply.frames else { return }
        do {
            if try !deliver(frames) { counts.count { $0.rpcRepliesDropped += 1 } }
        } catch {
            counts.count { $0.rpcRepliesDropped += 1 }
            // A client that has gone (EHOSTUNREACH with ROUTER_MANDATORY) is expected; any other
            // failure is the socket's and is said.
            guard !error.isHostUnreachable, let held = failures.admit(at: .now) else { return }
            logger.warning(
                "RPC reply not sent",
                metadata: ["method": "\(method)", "error": "\(error)", "held_back": "\(held)"]
            )
        }
    }
}

extension RPCReply {
    init(frames: [ZMQMessage]?, code: Caffe_V1_StatusCode) {
        self.frames = frames
        self.code = code
    }
}

/// The methods served and their handlers, registered once when the endpoint starts.
struct RPCRouter {
    private(set) var handlers: [any RPCHandler] = []
    private var byMethod: [String: any RPCHandler] = [:]

    /// Adds `handler` for its method; a method is registered once.
    mutating func register(_ handler: any RPCHandler) {
        precondition(byMethod[handler.method] == nil, "\(handler.method) is registered twice")
        handlers.append(handler)
        byMethod[handler.method] = handler
    }

    /// The handler of `method`, if it is served.
    func handler(for method: String) -> (any RPCHandler)? { byMethod[method] }

    /// Every method served.
    var methods: Set<String> { Set(byMethod.keys) }

    /// The services served (the part of each method before `/`), as health checks name them.
    var services: Set<String> { Set(byMethod.keys.map { String($0.prefix { $0 != "/" }) }) }

    /// Requests kept by handlers and not answered yet.
    var keptCount: Int { handlers.reduce(0) { $0 + $1.keptCount } }
}

/// What Health and Stats replies say of the worker in their header: its release and the schema's
/// version (``CaffeSchema``).
let versionMetadata = [
    CaffeSchema.workerVersionMetadataKey: CaffeVersion.current,
    CaffeSchema.metadataKey: CaffeSchema.version,
]
