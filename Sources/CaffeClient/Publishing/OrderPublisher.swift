import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import ZeroMQ

/// One order source (docs/WIRE.md "Sources and sequences"): numbers its events 1, 2, 3… without
/// gaps (order events and complication requests share the sequence), names its run with a
/// `source_epoch`, records every event into its ``ReplayServer``'s journal before sending it and
/// announces the server in each header, and sends a heartbeat when it has been quiet for a second
/// (``tick(now:)``), so a worker learns of lost last events.
///
/// ```swift
/// let replay = try ReplayServer(context: context, endpoint: "tcp://127.0.0.1:*")
/// replay.start()
/// let publisher = try OrderPublisher(endpoint: "@tcp://127.0.0.1:5560", sourceID: "pos-1", replay: replay, context: context)
/// try await publisher.waitForSubscribers(count: 1, timeout: .seconds(10))
/// let sequence = try await publisher.publish(order)   // 1
/// try await publisher.tick()                           // a heartbeat after a quiet second
/// ```
///
/// Workers whose input is SUB take an XPUB (``Kind/pub``, which sees subscriptions and can wait
/// for them); PULL input or a queue proxy a PUSH (``Kind/push``). Not `Sendable`: a publisher
/// belongs to one task, as its socket belongs to one thread at a time.
public final class OrderPublisher {
    /// The socket kind: `pub` for SUB input, `push` for PULL input or a queue proxy.
    public enum Kind: String, Sendable {
        case pub, push
    }

    /// The metadata key a source announces its replay endpoint under.
    public static let replayEndpointKey = "replay_endpoint"

    /// This source's id.
    public let sourceID: String
    /// This run of the source (`EventHeader.source_epoch`; 0: one numbering for ever).
    public let sourceEpoch: UInt64
    /// The last sequence sent (0: none yet).
    public private(set) var lastSequence: UInt64
    /// The address the socket is attached to (a bound wildcard port resolved).
    public let address: String
    /// The socket kind.
    public let kind: Kind
    /// The replay server recording and serving this source's events, if any.
    public let replay: ReplayServer?
    /// Metadata put into every header (`replay_endpoint` included when there is a server).
    public let metadata: [String: String]
    /// How long the source may be quiet before ``tick(now:)`` sends a heartbeat.
    public var heartbeatInterval: Duration = .seconds(1)

    private let socket: ZMQSocket
    private var lastSent = ContinuousClock.now
    private var subscriptions: [[UInt8]: Int] = [:]

    /// A source `sourceID` publishing on `endpoint` (`@…` or a bare address binds, `>…` connects).
    ///
    /// A source numbering from 1 starts a new run: its epoch is the time in microseconds unless
    /// `sourceEpoch` says otherwise, so a restarted source is not taken for a repeat of its last
    /// run. One that persists its numbering passes `firstSequence` (its last sequence + 1) and the
    /// epoch it sent before (0 by default when `firstSequence` is given).
    public init(
        endpoint: String,
        sourceID: String,
        kind: Kind = .pub,
        firstSequence: UInt64 = 1,
        sourceEpoch: UInt64? = nil,
        replay: ReplayServer? = nil,
        metadata: [String: String] = [:],
        highWaterMark: Int32 = 10_000,
        context: ZMQContext
    ) throws(CaffeClientError) {
        guard !sourceID.isEmpty else { throw .invalidEvent("a source needs a source_id") }
        guard firstSequence >= 1 else { throw .invalidEvent("sequences start at 1") }
        guard let parsed = CaffeEndpoint(parsing: endpoint, defaultMode: .bind) else { throw .badEndpoint(endpoint) }
        self.sourceID = sourceID
        self.kind = kind
        self.replay = replay
        self.sourceEpoch =
            sourceEpoch ?? (firstSequence == 1 ? UInt64(Date().timeIntervalSince1970 * 1_000_000) : 0)
        lastSequence = firstSequence - 1
        var metadata = metadata
        if let replay { metadata[Self.replayEndpointKey] = replay.advertisedEndpoint }
        self.metadata = metadata
        do {
            socket = try context.socket(kind == .pub ? .xpub : .push)
            try socket.set(.sendHighWaterMark, to: highWaterMark)
            // Every subscription and unsubscription, not only a topic's first and last, so the count
            // of workers stays true as they come and go.
            if kind == .pub {
                try socket.set(.xpubVerbose, to: true)
                try socket.set(.xpubVerboser, to: true)
            }
            address = try socket.attach(parsed)
        } catch {
            throw .transport(error)
        }
    }

    deinit { socket.close(linger: .seconds(5)) }

    // MARK: Publishing

    /// Numbers `order` (its `source_id` and `sequence` are set here; values already set must be
    /// this source's and the next number) and publishes it on `order.<store_id>`, with `metadata`
    /// added to the header's. Returns its sequence.
    @discardableResult
    public func publish(_ order: Caffe_V1_OrderEvent, metadata: [String: String] = [:]) async throws(CaffeClientError)
        -> UInt64
    {
        let sequence = lastSequence + 1
        guard order.sourceID.isEmpty || order.sourceID == sourceID else {
            throw .invalidEvent("order \(order.orderID) names source '\(order.sourceID)', not '\(sourceID)'")
        }
        guard order.sequence == 0 || order.sequence == sequence else {
            throw .invalidEvent("order \(order.orderID) has sequence \(order.sequence); the next is \(sequence)")
        }
        guard !order.orderID.isEmpty else { throw .invalidEvent("an order needs an order_id") }
        var order = order
        order.sourceID = sourceID
        order.sequence = sequence
        try await send(CaffeTopic.order(store: order.storeID), order, orderID: order.orderID, metadata: metadata)
        return sequence
    }

    /// Publishes `request` on `complication-request.<user_id>` under the source's next sequence.
    @discardableResult
    public func publish(_ request: Caffe_V1_ComplicationRequest, metadata: [String: String] = [:])
        async throws(CaffeClientError) -> UInt64
    {
        try await send(CaffeTopic.complicationRequest(user: request.userID), request, orderID: "", metadata: metadata)
        return lastSequence
    }

    /// Publishes a body already encoded (a recorded event, or one made unreadable on purpose)
    /// under `topic`, its header naming `bodyType` and `orderID`, with the next sequence.
    @discardableResult
    public func publish(
        encodedBody body: [UInt8],
        bodyType: String,
        topic: String,
        orderID: String = "",
        metadata: [String: String] = [:]
    ) async throws(CaffeClientError) -> UInt64 {
        var header = header(sequence: lastSequence + 1, orderID: orderID, metadata: metadata)
        header.bodyType = bodyType
        let frames: [ZMQMessage]
        do {
            frames = try [
                ZMQMessage(Array(topic.utf8)), ZMQMessage(header.serializedBytes() as [UInt8]), ZMQMessage(body),
            ]
        } catch {
            throw .invalidEvent("\(error)")
        }
        try await deliver(frames, sequence: header.sequence)
        return lastSequence
    }

    /// Tells workers the last sequence sent (`caffe.v1.Heartbeat` on `order.`, sequence 0), so
    /// the loss of a stream's last events is noticed without waiting for its next event.
    public func heartbeat() async throws(CaffeClientError) {
        var beat = Caffe_V1_Heartbeat()
        beat.lastSequence = lastSequence
        let frames: [ZMQMessage]
        do {
            frames = try EventFrames.encode(topic: CaffeTopic.heartbeat, header: header(sequence: 0), body: beat)
        } catch {
            throw .invalidEvent("\(error)")
        }
        try await deliver(frames, sequence: nil)
    }

    /// Sends a heartbeat if nothing was sent for ``heartbeatInterval``; call it from the source's
    /// loop. Returns whether it sent one.
    @discardableResult
    public func tick(now: ContinuousClock.Instant = .now) async throws(CaffeClientError) -> Bool {
        readSubscriptions()
        guard now - lastSent >= heartbeatInterval else { return false }
        try await heartbeat()
        return true
    }

    // MARK: Subscriptions

    /// Subscriptions seen so far that cover `topic` (each connected worker counts once per
    /// matching prefix; behind a forwarder, the forwarder counts once). Always 0 for a PUSH.
    public func subscribers(topic: String = "order.") -> Int {
        readSubscriptions()
        let wanted = Array(topic.utf8)
        return subscriptions.reduce(0) { $0 + (wanted.starts(with: $1.key) ? $1.value : 0) }
    }

    /// Waits until `count` subscriptions cover `topic` (at once for a PUSH); returns how many do,
    /// or throws ``CaffeClientError/notConnected(endpoint:after:)`` when fewer came within `timeout`.
    @discardableResult
    public func waitForSubscribers(count: Int = 1, topic: String = "order.", timeout: Duration)
        async throws(CaffeClientError) -> Int
    {
        guard kind == .pub else { return count }
        let until = ContinuousClock.now + timeout
        while true {
            let have = subscribers(topic: topic)
            if have >= count { return have }
            guard ContinuousClock.now < until else { throw .notConnected(endpoint: address, after: timeout) }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                throw .notConnected(endpoint: address, after: timeout)
            }
        }
    }

    /// Closes the socket, giving what is queued `linger` to leave.
    public func close(linger: Duration = .seconds(5)) {
        socket.close(linger: ZMQTimeout(linger))
    }

    // MARK: Sending

    private func header(sequence: UInt64, orderID: String = "", metadata extra: [String: String] = [:])
        -> Caffe_V1_EventHeader
    {
        var header = Caffe_V1_EventHeader()
        header.sourceID = sourceID
        header.sequence = sequence
        header.orderID = orderID
        header.sourceEpoch = sourceEpoch
        header.metadata = metadata.merging(extra) { $1 }
        header.sentAt = Google_Protobuf_Timestamp(date: Date())
        return header
    }

    private func send(_ topic: String, _ body: some SwiftProtobuf.Message, orderID: String, metadata: [String: String])
        async throws(CaffeClientError)
    {
        let sequence = lastSequence + 1
        let frames: [ZMQMessage]
        do {
            frames = try EventFrames.encode(
                topic: topic,
                header: header(sequence: sequence, orderID: orderID, metadata: metadata),
                body: body
            )
        } catch {
            throw .invalidEvent("\(error)")
        }
        try await deliver(frames, sequence: sequence)
    }

    /// Records a numbered event for replay (before it leaves: a worker may ask for it as soon as
    /// it sees the next one), then sends it.
    private func deliver(_ frames: [ZMQMessage], sequence: UInt64?) async throws(CaffeClientError) {
        if let sequence {
            replay?.journal.record(source: sourceID, sequence: sequence, frames: frames)
            lastSequence = sequence
        }
        do {
            try await socket.send(multipart: frames)
        } catch {
            throw .transport(error as? ZMQError ?? ZMQError(code: 0, operation: "send", message: "\(error)"))
        }
        lastSent = .now
        readSubscriptions()
    }

    /// Reads the XPUB's subscription messages: `1` + prefix subscribes, `0` + prefix unsubscribes.
    private func readSubscriptions() {
        guard kind == .pub else { return }
        while let message = try? socket.receive(timeout: .zero) {
            let bytes = message.bytes
            guard let first = bytes.first else { continue }
            let prefix = Array(bytes.dropFirst())
            if first == 1 {
                subscriptions[prefix, default: 0] += 1
            } else if first == 0, let held = subscriptions[prefix], held > 0 {
                subscriptions[prefix] = held - 1
            }
        }
    }
}
