import CaffeProtocol
import Foundation
import SwiftProtobuf
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

        enum CodingKeys: String, CodingKey {
            case sent, seconds
            case expectedSeconds = "expected_seconds"
            case maxLateMilliseconds = "max_late_ms"
        }
    }

    public let plan: ReplayPlan
    public let entries: [Journal.Entry]
    /// Metadata added to every event header (the replay endpoint, when one is served).
    public var metadata: [String: String] = [:]

    public init(plan: ReplayPlan, entries: [Journal.Entry]) {
        self.plan = plan
        self.entries = entries
    }

    /// Sends every step on `socket`. Every step's frames are made before the run (the loop only
    /// waits and sends), and `server`, when given, answers replay requests from the same frames.
    public func play(
        on socket: ZMQSocket,
        server: ReplayServer? = nil,
        clock: ContinuousClock = ContinuousClock()
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
        let start = clock.now
        var late = Duration.zero
        for (index, step) in plan.steps.enumerated() {
            let due = start + step.offset
            let now = clock.now
            if due > now {
                Thread.sleep(forTimeInterval: Double((due - now).wholeMicroseconds) / 1e6)
            } else {
                late = Swift.max(late, now - due)
            }
            let frames = prepared[index]
            for (position, frame) in frames.enumerated() {
                try socket.send(frame, more: position < frames.count - 1)
            }
        }
        return Report(
            sent: plan.steps.count,
            seconds: Double((clock.now - start).wholeMicroseconds) / 1e6,
            expectedSeconds: Double(plan.expectedDuration.wholeMicroseconds) / 1e6,
            maxLateMilliseconds: Double(late.wholeMicroseconds) / 1e3
        )
    }
}

extension Duration {
    /// The duration in whole microseconds.
    var wholeMicroseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
}
