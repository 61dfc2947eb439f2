import CaffeProtocol
import Foundation
import ZeroMQ

/// Sends a ``ReplayPlan`` on a socket, each record at its offset from the start (anchored: no
/// drift), remembering every order it sends in a ``ReplayServer`` when one is given.
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

    /// Sends every step on `socket`; orders go into `server` first, so a gap can be filled.
    public func play(
        on socket: ZMQSocket,
        server: ReplayServer? = nil,
        clock: ContinuousClock = ContinuousClock()
    ) throws -> Report {
        let start = clock.now
        var late = Duration.zero
        for step in plan.steps {
            let due = start + step.offset
            let now = clock.now
            if due > now {
                Thread.sleep(forTimeInterval: Double((due - now).wholeMicroseconds) / 1e6)
            } else {
                late = Swift.max(late, now - due)
            }
            let (frames, order) = try plan.frames(for: step, in: entries, metadata: metadata)
            if let order { server?.remember(order) }
            try socket.send(multipart: frames)
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
