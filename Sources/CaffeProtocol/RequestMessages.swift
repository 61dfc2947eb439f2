import SwiftProtobuf

/// A gRPC-style request as a ROUTER receives it: `[routing id…][empty][RequestHeader][body]`.
///
/// A DEALER client sends `[empty][header][body]` (``encode(header:body:)``); each ROUTER on the way
/// prepends a routing id. The server answers with ``reply(status:body:metadata:)``, which puts the
/// same routing ids back in front so the reply finds its way to the client, matched there by
/// `request_id`, not by order.
public struct RequestMessage<Frame: WireFrame> {
    /// The routing ids, outermost first.
    public let routing: [Frame]
    /// The decoded header.
    public let header: Caffe_V1_RequestHeader
    /// The body, not yet decoded.
    public let bodyFrame: Frame
    /// The limits the request was parsed with.
    public let limits: CaffeProtocolLimits

    /// Splits and checks a request received on a ROUTER socket.
    public init(parsing frames: [Frame], limits: CaffeProtocolLimits = .standard) throws(CaffeProtocolError) {
        let (routing, payload) = try splitEnvelope(
            frames,
            limits: limits,
            shape: "a request is [routing id…][empty][header][body]"
        )
        header = try Caffe_V1_RequestHeader.decode(
            frame: payload[0],
            role: "request header",
            limit: limits.maxHeaderBytes,
            limits: limits
        )
        try header.validate()
        try checkBodySize(payload[1], role: "request body", limits: limits)
        self.routing = routing
        bodyFrame = payload[1]
        self.limits = limits
    }

    /// Decodes the body as `type`.
    public func decodeBody<Body: SwiftProtobuf.Message>(as type: Body.Type) throws(CaffeProtocolError) -> Body {
        try Body.decode(frame: bodyFrame, role: "request body", limit: limits.maxBodyBytes, limits: limits)
    }

    /// Whether the request's deadline has passed at `now`; requests without a deadline never expire.
    public func isExpired(at now: Google_Protobuf_Timestamp) -> Bool {
        guard header.hasDeadline else { return false }
        return (header.deadline.seconds, header.deadline.nanos) <= (now.seconds, now.nanos)
    }

    /// Whether the request has expired: its absolute `deadline` is at or before `now`, or its
    /// relative `timeout`, counted from `arrival`, has run out by `instant`. Requests with
    /// neither never expire.
    public func isExpired(
        now: Google_Protobuf_Timestamp,
        arrival: ContinuousClock.Instant,
        instant: ContinuousClock.Instant
    ) -> Bool {
        if isExpired(at: now) { return true }
        guard header.hasTimeout else { return false }
        let timeout = Duration.seconds(header.timeout.seconds) + .nanoseconds(Int64(header.timeout.nanos))
        return instant - arrival >= timeout
    }

    /// The frames of a reply carrying `body`, routed back to the request's sender.
    public func reply(
        status: RPCStatus,
        body: some SwiftProtobuf.Message,
        metadata: [String: String] = [:]
    ) throws(CaffeProtocolError) -> [Frame] {
        try reply(status: status, bodyFrame: body.frame(), metadata: metadata)
    }

    /// The frames of a reply whose body is already encoded (a cached answer).
    public func reply(
        status: RPCStatus,
        encodedBody: [UInt8],
        metadata: [String: String] = [:]
    ) throws(CaffeProtocolError) -> [Frame] {
        try reply(status: status, bodyFrame: makeFrame(encodedBody), metadata: metadata)
    }

    /// The frames of a reply without a body (an error status, or a method that returns nothing).
    public func reply(status: RPCStatus, metadata: [String: String] = [:]) throws(CaffeProtocolError) -> [Frame] {
        try reply(status: status, bodyFrame: Frame(), metadata: metadata)
    }

    private func reply(
        status: RPCStatus,
        bodyFrame: Frame,
        metadata: [String: String]
    ) throws(CaffeProtocolError) -> [Frame] {
        var response = Caffe_V1_ResponseHeader()
        response.requestID = header.requestID
        response.status = status.code
        response.message = status.message
        response.metadata = metadata
        var frames: [Frame] = []
        frames.reserveCapacity(routing.count + 3)
        for id in routing { frames.append(try makeFrame(copyOf: id)) }
        frames.append(Frame())
        frames.append(try response.frame())
        frames.append(bodyFrame)
        return frames
    }

    /// The frames a DEALER client sends: `[empty][header][body]`.
    public static func encode(
        header: Caffe_V1_RequestHeader,
        body: some SwiftProtobuf.Message
    ) throws(CaffeProtocolError) -> [Frame] {
        [Frame(), try header.frame(), try body.frame()]
    }

    /// The frames of a call of `method` (`CaffeMethod`), as docs/WIRE.md "Requests and replies"
    /// frames one: `[empty][RequestHeader{method, request_id, timeout, deadline, metadata}][body]`.
    public static func encode(
        method: String,
        requestID: String,
        timeout: Duration? = nil,
        deadline: Google_Protobuf_Timestamp? = nil,
        metadata: [String: String] = [:],
        body: some SwiftProtobuf.Message
    ) throws(CaffeProtocolError) -> [Frame] {
        let header = Caffe_V1_RequestHeader(
            method: method,
            requestID: requestID,
            timeout: timeout,
            deadline: deadline,
            metadata: metadata
        )
        return try encode(header: header, body: body)
    }
}

extension Caffe_V1_RequestHeader {
    /// A request's header: the method, the id its reply will carry, and how long the caller waits
    /// (the relative `timeout`, or an absolute `deadline`; neither: the request never expires).
    /// A `timeout` of zero or less is not sent (the worker would answer it DEADLINE_EXCEEDED at
    /// once); to send one, set the field yourself.
    public init(
        method: String,
        requestID: String,
        timeout: Duration? = nil,
        deadline: Google_Protobuf_Timestamp? = nil,
        metadata: [String: String] = [:]
    ) {
        self.init()
        self.method = method
        self.requestID = requestID
        if let deadline { self.deadline = deadline }
        if let timeout, timeout > .zero {
            let (seconds, attoseconds) = timeout.components
            self.timeout = Google_Protobuf_Duration(seconds: seconds, nanos: Int32(attoseconds / 1_000_000_000))
        }
        self.metadata = metadata
    }
}

extension RequestMessage {
    /// A reply to frames that are not a readable request, so the sender is not left waiting. The
    /// routing ids are found by shape: before the delimiter where a well-formed request has it
    /// (third frame from the end), or where a request missing its body has it (second from the
    /// end); otherwise only the first frame, the id the ROUTER itself prepended (a client that
    /// sent no delimiter). The reply carries the request id when the header frame still yields
    /// one (empty otherwise). `nil` when there is no routing id.
    public static func errorReply(to frames: [Frame], status: RPCStatus) -> [Frame]? {
        guard let first = frames.first, !first.isEmpty else { return nil }
        let routing: [Frame]
        let headerIndex: Int
        if frames.count >= 4, frames[frames.count - 3].isEmpty {
            routing = Array(frames[..<(frames.count - 3)])
            headerIndex = frames.count - 2
        } else if frames.count >= 3, frames[frames.count - 2].isEmpty {
            routing = Array(frames[..<(frames.count - 2)])
            headerIndex = frames.count - 1
        } else {
            routing = [first]
            headerIndex = 1
        }
        var requestID = ""
        if headerIndex < frames.count, frames[headerIndex].count <= CaffeProtocolLimits.standard.maxHeaderBytes,
            let header = try? Caffe_V1_RequestHeader(serializedBytes: frames[headerIndex].withUnsafeBytes { Array($0) })
        {
            requestID = header.requestID
        }
        var response = Caffe_V1_ResponseHeader()
        response.requestID = requestID
        response.status = status.code
        response.message = status.message
        guard let header: Frame = try? response.frame() else { return nil }
        var reply: [Frame] = []
        for id in routing {
            guard let copy: Frame = try? makeFrame(copyOf: id) else { return nil }
            reply.append(copy)
        }
        return reply + [Frame(), header, Frame()]
    }
}

/// A reply as a DEALER client receives it: `[empty][ResponseHeader][body]`.
public struct ResponseMessage<Frame: WireFrame> {
    /// The decoded header: request id and status.
    public let header: Caffe_V1_ResponseHeader
    /// The body, not yet decoded; empty when the status is not OK.
    public let bodyFrame: Frame
    /// The limits the reply was parsed with.
    public let limits: CaffeProtocolLimits

    /// Splits and checks a reply received on a DEALER socket.
    public init(parsing frames: [Frame], limits: CaffeProtocolLimits = .standard) throws(CaffeProtocolError) {
        let (routing, payload) = try splitEnvelope(frames, limits: limits, shape: "a reply is [empty][header][body]")
        guard routing.isEmpty else {
            throw CaffeProtocolError(
                code: .wrongFrameCount,
                message: "a reply is [empty][header][body], got \(frames.count) frames"
            )
        }
        header = try Caffe_V1_ResponseHeader.decode(
            frame: payload[0],
            role: "response header",
            limit: limits.maxHeaderBytes,
            limits: limits
        )
        try checkBodySize(payload[1], role: "response body", limits: limits)
        bodyFrame = payload[1]
        self.limits = limits
    }

    /// The reply's status.
    public var status: RPCStatus { RPCStatus(code: header.status, message: header.message) }

    /// Decodes the body as `type`.
    public func decodeBody<Body: SwiftProtobuf.Message>(as type: Body.Type) throws(CaffeProtocolError) -> Body {
        try Body.decode(frame: bodyFrame, role: "response body", limit: limits.maxBodyBytes, limits: limits)
    }
}

/// Splits `[routing…][empty][header][body]`: the delimiter is the third frame from the end.
///
/// Positional rather than "the first empty frame", because a body may legitimately be empty while
/// routing ids never are.
private func splitEnvelope<Frame: WireFrame>(
    _ frames: [Frame],
    limits: CaffeProtocolLimits,
    shape: String
) throws(CaffeProtocolError) -> (routing: [Frame], payload: [Frame]) {
    guard frames.count >= 3 else {
        throw CaffeProtocolError(code: .wrongFrameCount, message: "\(shape), got \(frames.count) frames")
    }
    let delimiter = frames.count - 3
    guard frames[delimiter].isEmpty else {
        throw CaffeProtocolError(
            code: .missingDelimiter,
            message: "\(shape), but frame \(delimiter) of \(frames.count) is not the empty delimiter"
        )
    }
    guard delimiter <= limits.maxRoutingFrames else {
        throw CaffeProtocolError(
            code: .wrongFrameCount,
            message: "\(delimiter) routing frames exceed the limit of \(limits.maxRoutingFrames)"
        )
    }
    return (Array(frames[..<delimiter]), Array(frames[(delimiter + 1)...]))
}

/// Rejects a body frame over the limit before anything is decoded.
private func checkBodySize<Frame: WireFrame>(
    _ frame: Frame,
    role: String,
    limits: CaffeProtocolLimits
) throws(CaffeProtocolError) {
    guard frame.count <= limits.maxBodyBytes else {
        throw CaffeProtocolError(
            code: .frameTooLarge,
            message: "\(role) frame of \(frame.count) bytes exceeds the limit of \(limits.maxBodyBytes)"
        )
    }
}
