// Caffe — CaffeWorker tests.
import CaffeProtocol
import Testing

@testable import CaffeWorker

/// The intake stage with plain values: what each header becomes, and the gaps it reveals.
@Suite("Intake stage")
struct IntakeStageTests {
    static func header(_ source: String, _ sequence: UInt64, order: String? = nil) -> Caffe_V1_EventHeader {
        var header = Caffe_V1_EventHeader()
        header.bodyType = Caffe_V1_OrderEvent.protoMessageName
        header.sourceID = source
        header.sequence = sequence
        header.orderID = order ?? "\(source)-\(sequence)"
        return header
    }

    @Test("a far-ahead sequence is refused and leaves the source's real events alone")
    func farAhead() {
        let now = ContinuousClock.now
        var intake = Intake(policy: .init(maxSequenceJump: 100))
        for sequence in UInt64(1)...3 {
            #expect(intake.admit(Self.header("s", sequence), at: now).decision == .render(late: false))
        }
        let jump = intake.admit(Self.header("s", 1000), at: now)
        #expect(
            jump.decision
                == .reject(
                    "sequence 1000 jumps 997 past the highest seen from 's' (3); input.max_sequence_jump allows 100"
                )
        )
        #expect(jump.gaps.isEmpty && intake.pendingGaps == 0)
        // 2^62 is refused whatever the jump limit.
        var unlimited = Intake(policy: .init(maxSequenceJump: 0))
        #expect(
            unlimited.admit(Self.header("s", 1 << 62 + 1), at: now).decision
                == .reject("sequence 4611686018427387905 is beyond the highest accepted, 4611686018427387904")
        )
        // The source's next events are rendered, not taken for duplicates.
        for sequence in UInt64(4)...6 {
            #expect(intake.admit(Self.header("s", sequence), at: now).decision == .render(late: false))
        }
    }

    @Test("a range given up is left behind; events arriving late inside it are rendered once")
    func lateEvents() {
        let start = ContinuousClock.now
        var intake = Intake(policy: .init(recovery: .init(backoff: .zero)))
        _ = intake.admit(Self.header("s", 1), at: start)
        let gap = intake.admit(Self.header("s", 10), at: start)
        #expect(gap.gaps == [2...9])
        // No replay endpoint: given up at the first due time.
        let (requests, abandoned) = intake.due(at: start)
        #expect(requests.isEmpty && abandoned.map(\.range) == [2...9])
        #expect(intake.admit(Self.header("s", 5), at: start).decision == .render(late: true))
        #expect(intake.admit(Self.header("s", 5), at: start).decision == .duplicate)
        #expect(intake.admit(Self.header("s", 6), at: start).decision == .render(late: true))
        #expect(intake.tracker.givenUp == ["s": [2...4, 7...9]])
        // After a restart from a checkpoint that lists them, still late.
        var resumed = Intake(
            policy: .init(),
            resumingFrom: Checkpoint(sources: ["s": 10], givenUp: intake.tracker.givenUp)
        )
        #expect(resumed.admit(Self.header("s", 8), at: start).decision == .render(late: true))
        #expect(resumed.admit(Self.header("s", 10), at: start).decision == .duplicate)
    }

    @Test("headers without a source or a sequence are refused")
    func requiredFields() {
        var intake = Intake(policy: .init())
        #expect(intake.admit(Self.header("", 1), at: .now).decision == .reject("the event header has no source_id"))
        #expect(
            intake.admit(Self.header("s", 0), at: .now).decision
                == .reject("the event header has no sequence (sources number their events from 1)")
        )
    }

    @Test("a heartbeat reveals the missing end of a stream; a heartbeat with a sequence of its own is refused")
    func heartbeats() throws {
        var intake = Intake(policy: .init())
        for sequence in UInt64(1)...3 { _ = intake.admit(Self.header("s", sequence), at: .now) }
        var beat = Caffe_V1_EventHeader()
        beat.bodyType = Caffe_V1_Heartbeat.protoMessageName
        beat.sourceID = "s"
        #expect(try intake.heartbeat(beat, lastSequence: 6, at: .now).get() == [4...6])
        #expect(try intake.heartbeat(beat, lastSequence: 6, at: .now).get() == [])
        #expect(intake.pendingGaps == 1)
        beat.sequence = 7
        #expect(throws: Intake.HeartbeatRefusal.self) { try intake.heartbeat(beat, lastSequence: 7, at: .now).get() }
    }

    @Test("announced replay endpoints are remembered for a bounded number of sources")
    func announcedEndpoints() {
        var intake = Intake(policy: .init(maxAnnouncedSources: 2))
        for source in ["a", "b", "c"] {
            var header = Self.header(source, 1)
            header.metadata["replay_endpoint"] = "tcp://\(source):1"
            _ = intake.admit(header, at: .now)
        }
        #expect(intake.replayEndpoint(for: "a") == nil)
        #expect(intake.replayEndpoint(for: "c") == "tcp://c:1")
    }
}
