import SwiftProtobuf

/// An event as it travels over PUB/SUB or PUSH/PULL: `[topic][EventHeader][body]`.
///
/// Parsing checks sizes and decodes only the header, so a receiver can detect sequence gaps,
/// route, or dead-letter a bad body (keeping its original bytes) before decoding it.
///
/// ```swift
/// let frames = try EventFrames.encode(topic: CaffeTopic.order(store: "sf-1"), header: header, body: order)
/// try publisher.send(multipart: frames)
/// …
/// let event = try EventFrames(parsing: try subscriber.receiveMultipart())
/// let order = try event.decodeBody(as: Caffe_V1_OrderEvent.self)
/// ```
///
/// `EventFrames` is this type over libzmq's frames (`CaffeTransport`); over plain bytes it is
/// `EventMessage<ByteFrame>`.
public struct EventMessage<Frame: WireFrame> {
    /// The topic frame (`order.sf-1`).
    public let topic: String
    /// The decoded header.
    public let header: Caffe_V1_EventHeader
    /// The raw header frame, kept for dead-letter records.
    public let headerFrame: Frame
    /// The body, not yet decoded.
    public let bodyFrame: Frame
    /// The limits the event was parsed with; ``decodeBody(as:)`` applies them too.
    public let limits: CaffeProtocolLimits

    /// Splits and checks a received event, decoding its header.
    ///
    /// - Throws: ``CaffeProtocolError`` for a wrong frame count, an oversized frame or a bad header.
    @inlinable
    public init(parsing frames: [Frame], limits: CaffeProtocolLimits = .standard) throws(CaffeProtocolError) {
        guard frames.count == 3 else {
            throw CaffeProtocolError(
                code: .wrongFrameCount,
                message: "an event has 3 frames (topic, header, body), got \(frames.count)"
            )
        }
        guard frames[0].count <= limits.maxTopicBytes else {
            throw CaffeProtocolError(
                code: .frameTooLarge,
                message: "topic frame of \(frames[0].count) bytes exceeds the limit of \(limits.maxTopicBytes)"
            )
        }
        guard frames[2].count <= limits.maxBodyBytes else {
            throw CaffeProtocolError(
                code: .frameTooLarge,
                message: "event body frame of \(frames[2].count) bytes exceeds the limit of \(limits.maxBodyBytes)"
            )
        }
        topic = frames[0].text
        header = try Self.decodeHeader(frames[1], limits: limits)
        try header.validate()
        headerFrame = frames[1]
        bodyFrame = frames[2]
        self.limits = limits
    }

    /// Decodes only the header frame of `frames` (at least two frames): identifies an event whose
    /// topic or body is unusable, such as one over the size limit.
    @inlinable
    public static func header(
        parsing frames: [Frame],
        limits: CaffeProtocolLimits = .standard
    ) throws(CaffeProtocolError) -> Caffe_V1_EventHeader {
        guard frames.count >= 2 else {
            throw CaffeProtocolError(code: .wrongFrameCount, message: "an event has a header frame second")
        }
        let header = try decodeHeader(frames[1], limits: limits)
        try header.validate()
        return header
    }

    /// The `source_id` of a header frame, no other field checked (empty when the header has
    /// none); `nil` when the frame is over the header limit or is not a `caffe.v1.EventHeader`.
    /// What a forwarder routes on: the worker decides ownership from the same field.
    @inlinable
    public static func sourceID(inHeaderFrame frame: Frame, limits: CaffeProtocolLimits = .standard) -> String? {
        guard frame.count <= limits.maxHeaderBytes else { return nil }
        return try? decodeHeader(frame, limits: limits).sourceID
    }

    /// Decodes a header frame in place: the plain shape by ``EventHeaderReader``, anything else
    /// by SwiftProtobuf (the same message either way).
    @inlinable
    static func decodeHeader(_ frame: Frame, limits: CaffeProtocolLimits) throws(CaffeProtocolError)
        -> Caffe_V1_EventHeader
    {
        try frame.withUnsafeBytes { bytes throws(CaffeProtocolError) in
            if bytes.count <= limits.maxHeaderBytes, let header = EventHeaderReader.read(bytes) { return header }
            return try Caffe_V1_EventHeader.decode(
                bytes: bytes,
                role: "event header",
                limit: limits.maxHeaderBytes,
                limits: limits
            )
        }
    }

    /// Decodes a body frame as `type` (the caller has matched the header's `body_type`).
    public static func decodeBody<Body: SwiftProtobuf.Message>(
        _ type: Body.Type,
        frame: Frame,
        limits: CaffeProtocolLimits = .standard
    ) throws(CaffeProtocolError) -> Body {
        try frame.withUnsafeBytes { bytes throws(CaffeProtocolError) in
            try decodeBody(type, bytes: bytes, limits: limits)
        }
    }

    /// Decodes a body given as bytes (a frame's, in place) as `type`.
    public static func decodeBody<Body: SwiftProtobuf.Message>(
        _ type: Body.Type,
        bytes: UnsafeRawBufferPointer,
        limits: CaffeProtocolLimits = .standard
    ) throws(CaffeProtocolError) -> Body {
        try Body(eventBody: bytes, limits: limits)
    }

    /// Decodes the body as `type`, checking that the header announced that type.
    public func decodeBody<Body: SwiftProtobuf.Message>(as type: Body.Type) throws(CaffeProtocolError) -> Body {
        guard header.bodyType == Body.protoMessageName else {
            throw CaffeProtocolError(
                code: .unexpectedBodyType,
                message: "expected a \(Body.protoMessageName) body, the header says '\(header.bodyType)'",
                field: "body_type"
            )
        }
        return try Body.decode(frame: bodyFrame, role: "event body", limit: limits.maxBodyBytes, limits: limits)
    }

    /// The frames of an event; sets the header's `body_type` from `body`.
    public static func encode(
        topic: String,
        header: Caffe_V1_EventHeader,
        body: some SwiftProtobuf.Message
    ) throws(CaffeProtocolError) -> [Frame] {
        var header = header
        header.bodyType = type(of: body).protoMessageName
        return [try makeFrame(text: topic), try header.frame(), try body.frame()]
    }

    /// The frames of an output event, its header and body written in one pass (see
    /// ``ProtobufWriter``); sets the header's `body_type` from `body`.
    public static func encode<Body: SwiftProtobuf.Message & SinglePassEncodable>(
        topic: String,
        header: Caffe_V1_EventHeader,
        body: Body
    ) throws(CaffeProtocolError) -> [Frame] {
        var header = header
        header.bodyType = Body.protoMessageName
        return [try makeFrame(text: topic), try header.frame(), try body.frame(capacity: 1024)]
    }

    /// The frames of an output event whose body is already encoded (`bodyType` names its message);
    /// sets the header's `body_type`. The bytes are copied into the frames.
    public static func encode(
        topic: String,
        header: Caffe_V1_EventHeader,
        bodyType: String,
        body: UnsafeRawBufferPointer
    ) throws(CaffeProtocolError) -> [Frame] {
        var header = header
        header.bodyType = bodyType
        return [try makeFrame(text: topic), try header.frame(), try makeFrame(body)]
    }

    /// The header for an order event, carrying its identity.
    public static func header(
        for order: Caffe_V1_OrderEvent,
        sentAt: Google_Protobuf_Timestamp? = nil
    ) -> Caffe_V1_EventHeader {
        Caffe_V1_EventHeader(for: order, sentAt: sentAt)
    }
}

extension Caffe_V1_EventHeader {
    /// The header for an order event, carrying its identity.
    public init(for order: Caffe_V1_OrderEvent, sentAt: Google_Protobuf_Timestamp? = nil) {
        self.init()
        bodyType = Caffe_V1_OrderEvent.protoMessageName
        sourceID = order.sourceID
        sequence = order.sequence
        orderID = order.orderID
        if let sentAt { self.sentAt = sentAt }
    }
}

extension SwiftProtobuf.Message {
    /// Decodes an event body given as bytes (a frame's, in place), within the body limit.
    public init(eventBody bytes: UnsafeRawBufferPointer, limits: CaffeProtocolLimits = .standard)
        throws(CaffeProtocolError)
    {
        self = try Self.decode(bytes: bytes, role: "event body", limit: limits.maxBodyBytes, limits: limits)
    }
}
