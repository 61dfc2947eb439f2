import CaffeClient
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import WorkerTestKit
import ZeroMQ

/// Sends a ``ReplayPlan`` on a socket, each record at its offset from the start (anchored: no
/// drift), its frames made before the run; a ``ReplayServer`` answers gaps from the same frames.
public struct JournalPlayer {
    public struct Report: Codable, Sendable {
        public var sent: Int
        public var seconds: Double
        public var expectedSeconds: Double
        /// The latest a send left after its planned time, in milliseconds.
        public var maxLateMilliseconds: Double
        /// Replay requests the server answered, and the events it handed out in them.
        public var replayRequests: Int
        public var replayedEvents: Int
        /// Seconds spent after the last record, heartbeating and serving.
        public var lingerSeconds: Double
        /// Lingering until caught up: true when the replay endpoint went quiet with heartbeats
        /// going out (the worker asked for nothing more), false when the limit came first; nil
        /// when nothing could tell (no replay endpoint, no heartbeats, or a fixed linger).
        public var caughtUp: Bool?
        /// Subscriptions seen on the PUB (nil for PUSH, which does not see them).
        public var subscriptions: Int?

        enum CodingKeys: String, CodingKey {
            case sent, seconds, subscriptions
            case expectedSeconds = "expected_seconds"
            case maxLateMilliseconds = "max_late_ms"
            case replayRequests = "replay_requests"
            case replayedEvents = "replayed_events"
            case lingerSeconds = "linger_s"
            case caughtUp = "caught_up"
        }
    }

    /// How long to stay after the last record.
    public enum Linger: Sendable, Equatable {
        /// Exactly this long.
        case fixed(Duration)
        /// Until the worker has caught up — heartbeats went out and the replay endpoint then
        /// stayed quiet for `quiet` — or `limit` passed.
        case untilCaughtUp(quiet: Duration, limit: Duration)
    }

    /// Where a run stands, for a progress line.
    public struct Progress: Sendable {
        public var sent: Int
        public var total: Int
        public var seconds: Double
        public var replayRequests: Int
        /// After the last record: lingering.
        public var lingering: Bool
    }

    public let plan: ReplayPlan
    public let entries: [Journal.Entry]
    /// Metadata added to every event header (the replay endpoint, when one is served).
    public var metadata: [String: String] = [:]
    /// When set, a `caffe.v1.Heartbeat` per source (its last sequence sent, topic `order.`) goes
    /// out whenever nothing was sent for this long, and after the last record: a worker that
    /// lost the end of the stream learns of it (docs/WIRE.md, "Heartbeats").
    public var heartbeatInterval: Duration?
    /// How long to stay after the last record: heartbeats go on and the replay server keeps
    /// answering, so a worker that lost the end can still fetch it.
    public var linger: Linger = .fixed(.zero)

    public init(plan: ReplayPlan, entries: [Journal.Entry]) {
        self.plan = plan
        self.entries = entries
    }

    /// Sends every step on `socket`. Every step's frames are made before the run (the loop only
    /// waits and sends), and `server`, when given, answers replay requests from the same frames.
    /// An XPUB `socket` has its subscriptions counted. `progress` is called about once a second.
    public func play(
        on socket: ZMQSocket,
        server: ReplayServer? = nil,
        clock: ContinuousClock = ContinuousClock(),
        progress: (Progress) -> Void = { _ in }
    ) throws -> Report {
        let prepared = try plan.steps.map { try plan.frames(for: $0, in: entries, metadata: metadata).frames }
        if let server {
            var events: [String: [UInt64: Caffe_V1_ReplayedEvent]] = [:]
            for frames in prepared {
                guard frames.count == 3, let header = try? Caffe_V1_EventHeader(serializedBytes: frames[1]),
                    header.sequence > 0
                else { continue }
                var event = Caffe_V1_ReplayedEvent()
                event.topic = String(decoding: frames[0], as: UTF8.self)
                event.header = Data(frames[1])
                event.body = Data(frames[2])
                events[header.sourceID, default: [:]][header.sequence] = event
            }
            server.serve(prepared: events)
        }
        let countsSubscriptions = socket.type == .xpub
        var subscriptions = 0
        let start = clock.now
        var late = Duration.zero
        var beats = Heartbeats(interval: heartbeatInterval, metadata: metadata, since: start)
        var nextProgress = start + .seconds(1)
        func report(_ sent: Int, lingering: Bool) {
            let now = clock.now
            guard now >= nextProgress else { return }
            nextProgress = now + .seconds(1)
            if countsSubscriptions { subscriptions += Self.drainSubscriptions(socket) }
            progress(
                Progress(
                    sent: sent,
                    total: prepared.count,
                    seconds: Double((now - start).wholeMicroseconds) / 1e6,
                    replayRequests: server?.requestsServed ?? 0,
                    lingering: lingering
                )
            )
        }
        for (index, step) in plan.steps.enumerated() {
            let due = start + step.offset
            try beats.wait(until: due, on: socket, clock: clock)
            let now = clock.now
            if due < now { late = Swift.max(late, now - due) }
            let frames = prepared[index]
            for (position, frame) in frames.enumerated() {
                try socket.send(frame, more: position < frames.count - 1)
            }
            beats.sent(frames, at: clock.now)
            report(index + 1, lingering: false)
        }
        let finished = clock.now
        try beats.beat(on: socket, at: finished)
        var caughtUp: Bool?
        switch linger {
        case .fixed(let duration):
            try beats.wait(until: finished + duration, on: socket, clock: clock)
        case .untilCaughtUp(let quiet, let limit):
            guard let server, heartbeatInterval != nil else { break }
            var served = server.requestsServed
            var lastRequest = finished
            while true {
                try beats.wait(until: clock.now + .milliseconds(50), on: socket, clock: clock)
                let now = clock.now
                if server.requestsServed != served {
                    served = server.requestsServed
                    lastRequest = now
                }
                if now - lastRequest >= quiet, now - finished >= quiet {
                    caughtUp = true
                    break
                }
                if now - finished >= limit {
                    caughtUp = false
                    break
                }
                report(prepared.count, lingering: true)
            }
        }
        if countsSubscriptions { subscriptions += Self.drainSubscriptions(socket) }
        // Both counts from one moment: a request answered between two reads would set them apart.
        let served = server?.servedCounts ?? (requests: 0, events: 0)
        return Report(
            sent: plan.steps.count,
            seconds: Double((finished - start).wholeMicroseconds) / 1e6,
            expectedSeconds: Double(plan.expectedDuration.wholeMicroseconds) / 1e6,
            maxLateMilliseconds: Double(late.wholeMicroseconds) / 1e3,
            replayRequests: served.requests,
            replayedEvents: served.events,
            lingerSeconds: Double((clock.now - finished).wholeMicroseconds) / 1e6,
            caughtUp: caughtUp,
            subscriptions: countsSubscriptions ? subscriptions : nil
        )
    }

    /// Reads what an XPUB has queued without waiting; returns the subscriptions among it.
    static func drainSubscriptions(_ socket: ZMQSocket) -> Int {
        var count = 0
        while let frame = try? socket.receive(timeout: .zero) {
            if frame.bytes.first == 1 { count += 1 }
        }
        return count
    }
}

/// The player's heartbeats: the last sequence sent per source, and when the last frames left.
private struct Heartbeats {
    let interval: Duration?
    let metadata: [String: String]
    var lastSend: ContinuousClock.Instant
    /// Source id → the highest sequence sent, in the order sources first appeared.
    var last: [(source: String, sequence: UInt64)] = []
    /// The bare order prefix: every worker subscribed to orders gets it, and it names no store.
    static let topic = "order."

    init(interval: Duration?, metadata: [String: String], since start: ContinuousClock.Instant) {
        self.interval = interval.flatMap { $0 > .zero ? $0 : nil }
        self.metadata = metadata
        lastSend = start
    }

    /// Notes an event sent (its header read only when heartbeats are on).
    mutating func sent(_ frames: [[UInt8]], at now: ContinuousClock.Instant) {
        lastSend = now
        guard interval != nil, frames.count == 3,
            let header = try? Caffe_V1_EventHeader(serializedBytes: frames[1]), !header.sourceID.isEmpty
        else { return }
        if let index = last.firstIndex(where: { $0.source == header.sourceID }) {
            last[index].sequence = Swift.max(last[index].sequence, header.sequence)
        } else {
            last.append((header.sourceID, header.sequence))
        }
    }

    /// Sleeps until `due`, sending a heartbeat whenever nothing was sent for the interval.
    mutating func wait(until due: ContinuousClock.Instant, on socket: ZMQSocket, clock: ContinuousClock) throws {
        while true {
            let now = clock.now
            guard due > now else { return }
            guard let interval else {
                Thread.sleep(forTimeInterval: Double((due - now).wholeMicroseconds) / 1e6)
                return
            }
            let beat = lastSend + interval
            guard beat < due else {
                Thread.sleep(forTimeInterval: Double((due - now).wholeMicroseconds) / 1e6)
                return
            }
            if beat > now { Thread.sleep(forTimeInterval: Double((beat - now).wholeMicroseconds) / 1e6) }
            try self.beat(on: socket, at: clock.now)
        }
    }

    /// One heartbeat per source now (nothing when heartbeats are off or nothing was sent).
    mutating func beat(on socket: ZMQSocket, at now: ContinuousClock.Instant) throws {
        guard interval != nil else { return }
        for (source, sequence) in last {
            var header = Caffe_V1_EventHeader()
            header.sourceID = source
            header.metadata = metadata
            header.sentAt = Google_Protobuf_Timestamp(date: Date())
            var body = Caffe_V1_Heartbeat()
            body.lastSequence = sequence
            try socket.send(multipart: try EventFrames.encode(topic: Self.topic, header: header, body: body))
        }
        lastSend = now
    }
}

extension Duration {
    /// The duration in whole microseconds.
    var wholeMicroseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
}
