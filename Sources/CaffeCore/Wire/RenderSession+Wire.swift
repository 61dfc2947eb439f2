import CaffeProtocol
import Foundation
import SwiftProtobuf

/// An order's identity as its body states it, for checking against the event's header before
/// anything is rendered. Read from the frame's bytes, or from a decoded message.
public struct OrderIdentity {
    private enum Text {
        case bytes(UnsafeRawBufferPointer)
        case string(String)

        /// `String` equality (canonical equivalence), deciding on the bytes when they are equal.
        func equals(_ other: String) -> Bool {
            switch self {
            case .bytes(let bytes):
                var other = other
                if other.withUTF8({ $0.elementsEqual(bytes) }) { return true }
                return String(decoding: bytes, as: UTF8.self) == other
            case .string(let text): return text == other
            }
        }

        var string: String {
            switch self {
            case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
            case .string(let text): text
            }
        }
    }

    private let source: Text
    private let order: Text
    /// The body's `sequence`.
    public let sequence: UInt64

    init(sourceID: UnsafeRawBufferPointer, sequence: UInt64, orderID: UnsafeRawBufferPointer) {
        source = .bytes(sourceID)
        order = .bytes(orderID)
        self.sequence = sequence
    }

    /// The identity of a decoded order.
    public init(_ order: Caffe_V1_OrderEvent) {
        source = .string(order.sourceID)
        self.order = .string(order.orderID)
        sequence = order.sequence
    }

    /// Whether the body's `source_id` is `text` (no string is made).
    public func hasSourceID(_ text: String) -> Bool { source.equals(text) }
    /// Whether the body's `order_id` is `text`.
    public func hasOrderID(_ text: String) -> Bool { order.equals(text) }
    /// The body's `source_id`, for messages.
    public var sourceID: String { source.string }
    /// The body's `order_id`, for messages.
    public var orderID: String { order.string }
}

/// An order refused before rendering because its body contradicts what carried it.
public struct OrderRejection: Error, CustomStringConvertible {
    public var description: String
}

/// An order's outputs as encoded `Confirmation` and `Receipt` messages. The bytes live in the
/// session's output buffer and stay valid until its next render.
public struct RenderedOrderBytes {
    public let confirmation: UnsafeRawBufferPointer
    public let receipt: UnsafeRawBufferPointer
    /// The localization the texts come from (both messages' `locale`).
    public let localization: String
    /// The order's `customer.locale` as sent (empty when it had none).
    public let customerLocale: String
    /// The order's store.
    public let storeID: String
}

extension RenderSession {
    /// Renders an order from its encoded `OrderEvent` to its encoded `Confirmation` and `Receipt`,
    /// byte for byte what ``render(_:)-(Caffe_V1_OrderEvent)`` then ``ProtobufWriter`` give.
    ///
    /// A plain order is read in place (``OrderEventView``) and written by the locale's compiled
    /// ``OrderProgram`` into a reused buffer: once warm, nothing is allocated. Anything else is
    /// decoded with SwiftProtobuf and rendered as messages, so every error is the message path's.
    ///
    /// ```swift
    /// let outputs = try frame.withUnsafeBytes { body in
    ///     try session.renderOrder(bytes: body) { identity in identity.hasOrderID(header.orderID) ? nil : "…" }
    /// }
    /// publish(outputs.confirmation, outputs.receipt)
    /// ```
    ///
    /// - Parameters:
    ///   - body: the `OrderEvent`'s bytes.
    ///   - limits: the sizes the message path's decoder enforces.
    ///   - check: called with the order's identity before anything is rendered; a non-`nil`
    ///     answer refuses the order with that detail.
    /// - Throws: ``CaffeProtocolError`` for a body that does not decode, ``OrderRejection`` when
    ///   `check` refuses it, ``RenderError`` for an order that cannot be rendered.
    public func renderOrder(
        bytes body: UnsafeRawBufferPointer,
        limits: CaffeProtocolLimits = .standard,
        check: (OrderIdentity) -> String? = { _ in nil }
    ) throws -> RenderedOrderBytes {
        let wire = self.wire
        if body.count <= limits.maxBodyBytes, let order = OrderEventView.read(body, lines: &wire.orderLines),
            let base = body.baseAddress
        {
            func bytes(_ slice: WireReader.Slice) -> UnsafeRawBufferPointer {
                UnsafeRawBufferPointer(start: base + Int(slice.offset), count: Int(slice.count))
            }
            let identity = OrderIdentity(
                sourceID: bytes(order.sourceID),
                sequence: order.sequence,
                orderID: bytes(order.orderID)
            )
            if let detail = check(identity) { throw OrderRejection(description: detail) }
            if let written = wire.writeOrder(order, body: body, session: self) {
                wire.statistics.wireRenders += 1
                return RenderedOrderBytes(
                    confirmation: wire.output.bytes(
                        from: written.confirmation.lowerBound,
                        to: written.confirmation.upperBound
                    ),
                    receipt: wire.output.bytes(from: written.receipt.lowerBound, to: written.receipt.upperBound),
                    localization: written.program.localization,
                    customerLocale: String(decoding: bytes(order.locale), as: UTF8.self),
                    storeID: written.store.id
                )
            }
        }
        return try renderOrderMessages(bytes: body, limits: limits, check: check)
    }

    /// The message path: decode, check, render, encode.
    private func renderOrderMessages(
        bytes body: UnsafeRawBufferPointer,
        limits: CaffeProtocolLimits,
        check: (OrderIdentity) -> String?
    ) throws -> RenderedOrderBytes {
        let order = try Caffe_V1_OrderEvent(eventBody: body, limits: limits)
        if let detail = check(OrderIdentity(order)) { throw OrderRejection(description: detail) }
        let rendered = try render(order)
        let wire = self.wire
        wire.statistics.messageRenders += 1
        wire.output.removeAll()
        rendered.confirmation.singlePassBytes(capacity: 1024).withUnsafeBytes { wire.output.append($0) }
        let receiptStart = wire.output.count
        rendered.receipt.singlePassBytes(capacity: 1024).withUnsafeBytes { wire.output.append($0) }
        return RenderedOrderBytes(
            confirmation: wire.output.bytes(from: 0, to: receiptStart),
            receipt: wire.output.bytes(from: receiptStart),
            localization: rendered.confirmation.locale,
            customerLocale: order.customer.locale,
            storeID: order.storeID
        )
    }

    /// What this session's wire path has done so far.
    public var wireStatistics: WireStatistics { wire.statistics }
}

/// A complication payload encoded, in the session's output buffer until its next render.
public struct RenderedComplicationBytes {
    public let payload: UnsafeRawBufferPointer
    /// The payload's `locale` (the request's, its hour cycle added).
    public let locale: String
    /// The request's `user_id`, whose topic the payload goes to.
    public let userID: String
}

extension RenderSession {
    /// Renders a complication request from its encoded `ComplicationRequest` to its encoded
    /// `ComplicationPayload`, byte for byte what ``complication(_:)`` then ``ProtobufWriter`` give:
    /// read in place and written by compiled date formats when the request is plain, decoded and
    /// rendered as messages otherwise.
    ///
    /// - Throws: ``CaffeProtocolError`` for a body that does not decode, ``RenderError`` for a
    ///   request that cannot be rendered.
    public func renderComplication(
        bytes body: UnsafeRawBufferPointer,
        limits: CaffeProtocolLimits = .standard
    ) throws -> RenderedComplicationBytes {
        let wire = self.wire
        if body.count <= limits.maxBodyBytes,
            let request = ComplicationRequestView.read(body, families: &wire.families), let base = body.baseAddress,
            // The user id becomes a topic: one that breaks the id rule takes the message path, which refuses it.
            Identifier.problem(utf8: request.userID.buffer(in: base)) == nil,
            Identifier.problem(utf8: request.requestID.buffer(in: base)) == nil,
            let written = wire.writeComplication(request, body: body, session: self)
        {
            wire.statistics.wireRenders += 1
            let user = UnsafeRawBufferPointer(request.userID.buffer(in: base))
            return RenderedComplicationBytes(
                payload: wire.output.bytes(from: written.payload.lowerBound, to: written.payload.upperBound),
                locale: written.locale,
                userID: String(decoding: user, as: UTF8.self)
            )
        }
        let request = try Caffe_V1_ComplicationRequest(eventBody: body, limits: limits)
        let payload = try complication(request)
        wire.statistics.messageRenders += 1
        wire.output.removeAll()
        payload.singlePassBytes(capacity: 1024).withUnsafeBytes { wire.output.append($0) }
        return RenderedComplicationBytes(
            payload: wire.output.bytes(from: 0),
            locale: payload.locale,
            userID: request.userID
        )
    }

    /// The formats this session's programs use that did not compile and stay with ICU, as
    /// "locale kind pattern" (for the benchmark to say so).
    public var wireFallbacks: [String] { wire.fallbacks }
}
