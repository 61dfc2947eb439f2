import CaffeProtocol
import CaffeTransport
import SwiftProtobuf
import ZeroMQ

/// Calls a worker's methods over its RPC endpoint (`rpc.endpoint`) from a DEALER, one call at a
/// time, as docs/WIRE.md "Requests and replies" frames them: a request id per call, the remaining
/// time as the request's `timeout`, replies matched by id (a late reply to an earlier call is
/// dropped), and the Lazy Pirate pattern against a worker that restarts or loses a request: no
/// answer within an attempt's share of the time, the socket is closed and opened again and the
/// call sent again (every method is safe to repeat except `Redrive`, which is tried once).
///
/// ```swift
/// let client = try RPCClient(endpoint: ">tcp://127.0.0.1:5562")
/// let status = try await client.health()            // .serving
/// let stats = try await client.stats()              // counters and gauges
/// print(client.lastReplyMetadata["caffe-version"]!) // the worker's release
/// ```
///
/// Not `Sendable`: a client belongs to one task, as its socket belongs to one thread at a time.
public final class RPCClient {
    /// Time and retries for each call.
    public struct Options: Sendable {
        /// The whole call's time, every attempt included.
        public var timeout: Duration = .seconds(5)
        /// Attempts at most for a method that is safe to repeat.
        public var attempts = 3
        /// Statuses worth another attempt: the worker was busy or draining.
        public var retryable: Set<Caffe_V1_StatusCode> = [.unavailable, .resourceExhausted]
        /// The keys for a worker that runs CURVE; `nil`: a plain connection.
        public var curve: CurveCredentials?

        public init() {}
    }

    /// The endpoint the client connects to.
    public let endpoint: CaffeEndpoint
    /// Time and retries.
    public var options: Options
    /// The metadata of the last reply received (`caffe-version` and `caffe-schema` after a Health
    /// or Stats call).
    public private(set) var lastReplyMetadata: [String: String] = [:]

    private let context: ZMQContext
    private var socket: ZMQSocket?
    private var counter: UInt64 = 0
    private let prefix = String(UInt64.random(in: 0...UInt64.max), radix: 36)

    /// A client of `endpoint` (`tcp://host:port`, `>tcp://…`; `@` is refused: a client connects),
    /// in `context` (by default one of its own).
    public init(endpoint text: String, options: Options = Options(), context: ZMQContext? = nil)
        throws(CaffeClientError)
    {
        guard let endpoint = CaffeEndpoint(parsing: text, defaultMode: .connect), endpoint.mode == .connect else {
            throw .badEndpoint(text)
        }
        self.endpoint = endpoint
        self.options = options
        if let context {
            self.context = context
        } else {
            do {
                self.context = try ZMQContext()
            } catch {
                throw .transport(error)
            }
        }
    }

    deinit { socket?.close(linger: .zero) }

    /// Waits until the socket has connected (a worker is listening), at most `timeout`.
    public func waitUntilConnected(timeout: Duration) throws(CaffeClientError) {
        do {
            if let socket { socket.close(linger: .zero) }
            let fresh = try context.socket(.dealer)
            try options.curve?.secure(fresh)
            let monitor = try ZMQSocketMonitor(fresh, events: .connected)
            defer { monitor.stop() }
            try fresh.connect(endpoint.address)
            socket = fresh
            guard try monitor.wait(for: .connected, timeout: ZMQTimeout(timeout)) != nil else {
                throw CaffeClientError.notConnected(endpoint: endpoint.address, after: timeout)
            }
        } catch let error as CaffeClientError {
            throw error
        } catch {
            throw .transport(error as? ZMQError ?? ZMQError(code: 0, operation: "connect", message: "\(error)"))
        }
    }

    /// Calls `method` with `request` and decodes the reply's body as `Response`.
    public func call<Response: SwiftProtobuf.Message>(
        _ method: String,
        _ request: some SwiftProtobuf.Message,
        as response: Response.Type,
        repeatable: Bool = true
    ) async throws(CaffeClientError) -> Response {
        let reply = try await exchange(method, request, repeatable: repeatable)
        do {
            return try reply.decodeBody(as: Response.self)
        } catch {
            throw .malformedReply(error)
        }
    }

    /// `grpc.health.v1.Health/Check`: SERVING or NOT_SERVING (`service` "" is the whole worker).
    public func health(service: String = "") async throws(CaffeClientError)
        -> Grpc_Health_V1_HealthCheckResponse.ServingStatus
    {
        var request = Grpc_Health_V1_HealthCheckRequest()
        request.service = service
        return try await call(CaffeMethod.healthCheck, request, as: Grpc_Health_V1_HealthCheckResponse.self).status
    }

    /// `caffe.v1.Admin/Stats`: the worker's counters and gauges.
    public func stats() async throws(CaffeClientError) -> Caffe_V1_StatsResponse {
        try await call(CaffeMethod.stats, Caffe_V1_StatsRequest(), as: Caffe_V1_StatsResponse.self)
    }

    /// `caffe.v1.Renderer/RenderOrder`: an order's confirmation and receipt, nothing published.
    public func renderOrder(_ order: Caffe_V1_OrderEvent) async throws(CaffeClientError)
        -> Caffe_V1_RenderOrderResponse
    {
        try await call(CaffeMethod.renderOrder, order, as: Caffe_V1_RenderOrderResponse.self)
    }

    /// `caffe.v1.Renderer/RenderComplication`.
    public func renderComplication(_ request: Caffe_V1_ComplicationRequest) async throws(CaffeClientError)
        -> Caffe_V1_ComplicationPayload
    {
        try await call(CaffeMethod.renderComplication, request, as: Caffe_V1_ComplicationPayload.self)
    }

    /// `caffe.v1.Admin/Redrive`: renders a dead letter's event again and publishes its outputs.
    /// Tried once: a second attempt would publish them twice.
    public func redrive(_ letter: Caffe_V1_DeadLetter) async throws(CaffeClientError) {
        _ = try await exchange(CaffeMethod.redrive, letter, repeatable: false)
    }

    // MARK: The exchange

    private func exchange(
        _ method: String,
        _ request: some SwiftProtobuf.Message,
        repeatable: Bool
    ) async throws(CaffeClientError) -> ResponseFrames {
        counter += 1
        let requestID = "\(prefix)-\(counter)"
        let started = ContinuousClock.now
        let attempts = repeatable ? max(1, options.attempts) : 1
        var last: CaffeClientError = .noAnswer(after: options.timeout, attempts: attempts)
        for attempt in 0..<attempts {
            let left = options.timeout - (ContinuousClock.now - started)
            guard left > .zero else { break }
            let share = left / (attempts - attempt)
            do {
                let socket = try connected()
                let frames = try RequestFrames.encode(method: method, requestID: requestID, timeout: left, body: request)
                try await socket.send(multipart: frames)
                guard let reply = try await awaitReply(requestID, on: socket, within: share) else {
                    // Lazy Pirate: the socket may hold a lost request or a late reply; start afresh.
                    self.socket?.close(linger: .zero)
                    self.socket = nil
                    last = .noAnswer(after: ContinuousClock.now - started, attempts: attempt + 1)
                    continue
                }
                lastReplyMetadata = reply.header.metadata
                let status = reply.status
                guard status.code != .ok else { return reply }
                last = .status(status, metadata: reply.header.metadata)
                guard options.retryable.contains(status.code) else { throw last }
            } catch let error as CaffeClientError {
                throw error
            } catch let error as CaffeProtocolError {
                throw .malformedReply(error)
            } catch let error as ZMQError {
                throw .transport(error)
            } catch {
                throw .transport(ZMQError(code: 0, operation: method, message: "\(error)"))
            }
        }
        throw last
    }

    private func connected() throws -> ZMQSocket {
        if let socket { return socket }
        let fresh = try context.socket(.dealer)
        try options.curve?.secure(fresh)
        try fresh.connect(endpoint.address)
        socket = fresh
        return fresh
    }

    /// The reply to `requestID`, or `nil` when none came within `wait` (other replies dropped).
    private func awaitReply(_ requestID: String, on socket: ZMQSocket, within wait: Duration) async throws
        -> ResponseFrames?
    {
        let until = ContinuousClock.now + wait
        while true {
            let left = until - ContinuousClock.now
            guard left > .zero, let frames = try await socket.receiveMultipart(timeout: left) else { return nil }
            guard let reply = try? ResponseFrames(parsing: frames) else { continue }
            if reply.header.requestID == requestID { return reply }
        }
    }
}
