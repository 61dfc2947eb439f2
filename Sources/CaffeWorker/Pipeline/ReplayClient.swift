import CaffeBooks
import CaffeProtocol
import CaffeTransport
import Logging
import SwiftProtobuf
import ZeroMQ

/// The worker's side of gap recovery on the wire: it sends `caffe.v1.Replay/Fetch` requests to
/// sources' replay endpoints over ``ReplayConnections`` and turns their replies into events,
/// matched to what was asked. What to ask for, and what a reply means for the gap, is the
/// pipeline's (``Intake``); this type only talks.
struct ReplayClient {
    /// The DEALERs, one per endpoint in use, which the pipeline polls.
    private(set) var connections: ReplayConnections
    /// Requests awaiting a reply, by request id: what was asked, and where.
    private var asked: [String: Intake.ReplayRequest] = [:]

    private let context: ZMQContext
    private let security: WorkerSecurity?
    private let timeout: Duration
    private let limits: CaffeProtocolLimits
    private let logger: Logger

    init(
        context: ZMQContext,
        security: WorkerSecurity?,
        capacity: Int,
        idleTimeout: Duration,
        timeout: Duration,
        limits: CaffeProtocolLimits,
        logger: Logger
    ) {
        connections = ReplayConnections(capacity: capacity, idleTimeout: idleTimeout)
        self.context = context
        self.security = security
        self.timeout = timeout
        self.limits = limits
        self.logger = logger
    }

    /// What became of a request.
    enum Sending: Equatable {
        /// On its way (`connected`: over a connection opened for it).
        case sent(connected: Bool)
        /// No connection free for it now: try again later.
        case postponed
        /// The endpoint's queue is full, or sending failed: it is retried when due again.
        case notSent
        /// The endpoint cannot be used at all (libzmq refuses it).
        case unusable(String)
    }

    /// Sends `routed` with the place `standing` entitles its endpoint to.
    mutating func send(
        _ routed: Intake.ReplayRequest,
        standing: ReplayStanding,
        at now: ContinuousClock.Instant
    ) -> Sending {
        let request = routed.request
        let socket: ZMQSocket?
        let context = context
        let security = security
        let opened = connections.version
        do {
            socket = try connections.socket(for: routed.endpoint, id: request.id, standing: standing, at: now) {
                () throws(ZMQError) -> ZMQSocket in
                let socket = try context.socket(.dealer)
                try socket.set(.sendHighWaterMark, to: 100)
                try socket.set(.linger, to: .milliseconds(0))
                try security?.secure(socket, asServer: false)
                try socket.connect(routed.endpoint)
                return socket
            }
        } catch {
            logger.error(
                "cannot connect to replay endpoint",
                metadata: ["endpoint": "\(routed.endpoint)", "error": "\(error)"]
            )
            return .unusable("the replay endpoint '\(routed.endpoint)' is unusable: \(error)")
        }
        guard let socket else { return .postponed }
        var body = Caffe_V1_ReplayRequest()
        // The books' key names the run; the source knows itself by its id.
        body.sourceID = SourceStream.split(request.source).source
        body.fromSequence = request.range.lowerBound
        body.toSequence = request.range.upperBound
        do {
            let frames = try RequestFrames.encode(
                method: CaffeMethod.replayFetch,
                requestID: request.id,
                timeout: timeout,
                body: body
            )
            guard try socket.send(multipart: frames, timeout: .zero)
            else {
                logger.warning("replay request not sent: endpoint busy", metadata: ["endpoint": "\(routed.endpoint)"])
                return .notSent
            }
        } catch {
            logger.error("replay request failed", metadata: ["endpoint": "\(routed.endpoint)", "error": "\(error)"])
            return .notSent
        }
        asked[request.id] = routed
        logger.info(
            "replay requested",
            metadata: [
                "source": "\(request.source)", "from": "\(request.range.lowerBound)",
                "to": "\(request.range.upperBound)", "attempt": "\(request.attempt)",
                "endpoint": "\(routed.endpoint)",
            ]
        )
        return .sent(connected: connections.version != opened)
    }

    /// A reply, matched to the request it answers.
    struct Reply {
        var request: GapRecovery.Request
        var endpoint: String
        var answer: Answer

        enum Answer {
            /// The source refused, or its reply had no readable body.
            case refused(RPCStatus)
            /// The events it sent inside the requested range (each with its frames, marked
            /// `replayed`), and the sequences it says it no longer has.
            case served(events: [(event: InputEvent, frames: [ZMQMessage])], unavailable: [UInt64])
        }
    }

    /// The replies that arrived, each matched to its request; an unreadable or unasked-for
    /// reply, and events outside the request, are logged and dropped.
    mutating func receive() throws(ZMQError) -> [Reply] {
        var replies: [Reply] = []
        for endpoint in Array(connections.connections.keys) {
            guard let socket = connections.connections[endpoint]?.socket else { continue }
            while let frames = try socket.tryReceiveMultipart() {
                if let reply = match(frames, from: endpoint) { replies.append(reply) }
            }
        }
        return replies
    }

    /// Forgets request `id` (its gap was given up), freeing its place on the connection.
    mutating func forget(_ id: String) {
        if let routed = asked.removeValue(forKey: id) { connections.settled(routed.endpoint, id: id) }
    }

    /// Closes the connections idle for longer than their timeout.
    mutating func closeIdle(at now: ContinuousClock.Instant) {
        connections.closeIdle(at: now)
    }

    /// Closes every connection.
    mutating func closeAll() {
        connections.closeAll()
    }

    private mutating func match(_ frames: [ZMQMessage], from endpoint: String) -> Reply? {
        let reply: ResponseFrames
        do {
            reply = try ResponseFrames(parsing: frames, limits: limits)
        } catch {
            logger.warning("unreadable replay reply", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
            return nil
        }
        guard let routed = asked.removeValue(forKey: reply.header.requestID) else { return nil }
        let request = routed.request
        connections.settled(endpoint, id: request.id)
        connections.answered(endpoint)
        guard reply.status.code == .ok, let response = try? reply.decodeBody(as: Caffe_V1_ReplayResponse.self) else {
            logger.warning(
                "replay refused",
                metadata: ["endpoint": "\(endpoint)", "status": "\(reply.status)", "request": "\(request.id)"]
            )
            return Reply(request: request, endpoint: endpoint, answer: .refused(reply.status))
        }
        var events: [(event: InputEvent, frames: [ZMQMessage])] = []
        let (source, epoch) = SourceStream.split(request.source)
        for order in response.events {
            guard order.sourceID == source, request.range.contains(order.sequence) else {
                logger.warning(
                    "replay sent an event outside the request",
                    metadata: ["source": "\(order.sourceID)", "sequence": "\(order.sequence)"]
                )
                continue
            }
            var header = EventFrames.header(for: order)
            header.sourceEpoch = epoch
            header.metadata["replayed"] = "true"
            let frames: [ZMQMessage]
            do {
                frames = try EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: header,
                    body: order
                )
            } catch {
                // An id that breaks the identifier rule, say: the gap stays open and ends as a dead letter.
                logger.warning(
                    "replay sent an event that cannot be taken",
                    metadata: [
                        "source": "\(SourceStream.describe(request.source))", "sequence": "\(order.sequence)",
                        "error": "\(error)",
                    ]
                )
                continue
            }
            events.append(
                (InputEvent(topic: frames[0], headerFrame: frames[1], body: frames[2], header: header), frames)
            )
        }
        for replayed in response.frames {
            guard let frames = Self.frames(of: replayed),
                case .event(var event) = ParsedInput(frames, limits: limits),
                event.header.streamKey == request.source, request.range.contains(event.header.sequence)
            else {
                logger.warning(
                    "replay sent an unusable or unasked-for event",
                    metadata: ["source": "\(request.source)"]
                )
                continue
            }
            event.header.metadata["replayed"] = "true"
            if let bytes = try? event.header.serializedBytes() as [UInt8], let header = try? ZMQMessage(bytes) {
                event.headerFrame = header
            }
            events.append((event, frames))
        }
        return Reply(
            request: request,
            endpoint: endpoint,
            answer: .served(events: events, unavailable: response.unavailable)
        )
    }

    /// The three frames of a replayed event.
    static func frames(of event: Caffe_V1_ReplayedEvent) -> [ZMQMessage]? {
        guard let topic = try? ZMQMessage(event.topic), let header = try? ZMQMessage(event.header),
            let body = try? ZMQMessage(event.body)
        else { return nil }
        return [topic, header, body]
    }
}
