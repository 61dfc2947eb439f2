// Caffe — CaffeBooks tests.
import CaffeProtocol
import Testing

@testable import CaffeBooks

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
        #expect(try intake.heartbeat(beat, lastSequence: 6, at: .now).get().gaps == [4...6])
        #expect(try intake.heartbeat(beat, lastSequence: 6, at: .now).get().gaps == [])
        #expect(intake.pendingGaps == 1)
        beat.sequence = 7
        #expect(throws: Intake.HeartbeatRefusal.self) { try intake.heartbeat(beat, lastSequence: 7, at: .now).get() }
        // A quiet source's tail is short: a heartbeat claiming 20,000 more is refused.
        beat.sequence = 0
        let far = intake.heartbeat(beat, lastSequence: 20_006, at: .now)
        let refusal = #expect(throws: Intake.HeartbeatRefusal.self) { try far.get() }
        #expect(refusal?.detail.hasSuffix("input.max_heartbeat_jump allows 10000") == true)
    }

    @Test("a heartbeat from a source that never sent an event is refused and reveals nothing")
    func heartbeatFromStranger() {
        var intake = Intake(policy: .init())
        var beat = Caffe_V1_EventHeader()
        beat.bodyType = Caffe_V1_Heartbeat.protoMessageName
        beat.sourceID = "forged"
        let result = intake.heartbeat(beat, lastSequence: 999_999, at: .now)
        #expect(throws: Intake.HeartbeatRefusal.self) { try result.get() }
        #expect(intake.pendingGaps == 0 && !intake.tracker.knows("forged"))
        // A source resumed from a checkpoint is known: its heartbeat counts.
        var resumed = Intake(policy: .init(), resumingFrom: Checkpoint(sources: ["forged": 3]))
        #expect((try? resumed.heartbeat(beat, lastSequence: 5, at: .now).get().gaps) == [4...5])
    }

    @Test("a source's first announced replay endpoint is pinned; others are refused unless allowed or proven")
    func pinnedEndpoints() throws {
        func event(_ source: String, _ sequence: UInt64, endpoint: String) -> Caffe_V1_EventHeader {
            var header = Self.header(source, sequence)
            header.metadata["replay_endpoint"] = endpoint
            return header
        }
        var intake = Intake(policy: .init())
        #expect(intake.admit(event("pos-9", 1, endpoint: "tcp://real:1"), at: .now).announcement?.outcome == .pinned)
        let forged = intake.admit(event("pos-9", 2, endpoint: "tcp://mallory:1"), at: .now)
        #expect(forged.announcement?.outcome == .refused(kept: "tcp://real:1"))
        var beat = Caffe_V1_EventHeader()
        beat.bodyType = Caffe_V1_Heartbeat.protoMessageName
        beat.sourceID = "pos-9"
        beat.metadata["replay_endpoint"] = "tcp://mallory:2"
        let heartbeat = try intake.heartbeat(beat, lastSequence: 4, at: .now).get()
        #expect(heartbeat.announcement?.outcome == .refused(kept: "tcp://real:1"))
        #expect(intake.replayEndpoint(for: "pos-9") == "tcp://real:1")
        // Configured endpoints win and are never announced over.
        var configured = Intake(policy: .init(configuredEndpoints: ["pos-9": "tcp://config:1"]))
        #expect(configured.admit(event("pos-9", 1, endpoint: "tcp://mallory:1"), at: .now).announcement == nil)
        #expect(configured.replayEndpoint(for: "pos-9") == "tcp://config:1")
        // Allowed by configuration, or by the CURVE identity that pinned it.
        var open = Intake(policy: .init(allowEndpointChange: true))
        _ = open.admit(event("a", 1, endpoint: "tcp://one:1"), at: .now)
        #expect(
            open.admit(event("a", 2, endpoint: "tcp://two:1"), at: .now).announcement?.outcome
                == .changed(from: "tcp://one:1")
        )
        var curve = Intake(policy: .init())
        _ = curve.admit(event("b", 1, endpoint: "tcp://one:1"), identity: "KEY-B", at: .now)
        #expect(
            curve.admit(event("b", 2, endpoint: "tcp://evil:1"), identity: "KEY-X", at: .now).announcement?.outcome
                == .refused(kept: "tcp://one:1")
        )
        #expect(
            curve.admit(event("b", 3, endpoint: "tcp://two:1"), identity: "KEY-B", at: .now).announcement?.outcome
                == .changed(from: "tcp://one:1")
        )
        // Pins go to the checkpoint and come back from it.
        let changes = curve.takeCheckpointChanges()
        #expect(changes.pins == ["b": IntakeTracker.Pin(endpoint: "tcp://two:1", identity: "KEY-B")])
        let resumed = Intake(policy: .init(), resumingFrom: Checkpoint(pins: changes.pins))
        #expect(resumed.replayEndpoint(for: "b") == "tcp://two:1")
    }

    @Test("order ids are remembered per source: another source cannot make an order vanish")
    func orderIDsPerSource() {
        var intake = Intake(policy: .init())
        #expect(
            intake.admit(Self.header("squatter", 1, order: "shop-1-A-0002"), at: .now).decision == .render(late: false)
        )
        #expect(
            intake.admit(Self.header("shop-1", 1, order: "shop-1-A-0001"), at: .now).decision == .render(late: false)
        )
        #expect(
            intake.admit(Self.header("shop-1", 2, order: "shop-1-A-0002"), at: .now).decision == .render(late: false)
        )
        // The source's own retry under a new sequence is still one.
        #expect(intake.admit(Self.header("shop-1", 3, order: "shop-1-A-0002"), at: .now).decision == .retry)
    }

    @Test("an idle settled source becomes dormant, keeps its mark, pin and given-up ranges, and comes back")
    func dormancy() {
        let start = ContinuousClock.now
        var intake = Intake(policy: .init(recovery: .init(backoff: .zero), idleTime: .seconds(4)), now: start)
        var first = Self.header("s", 1)
        first.metadata["replay_endpoint"] = "tcp://s:1"
        _ = intake.admit(first, at: start)
        _ = intake.admit(Self.header("s", 2), at: start)
        _ = intake.admit(Self.header("busy", 1), at: start)
        _ = intake.admit(Self.header("busy", 3), at: start)  // 2 missing: not settled
        #expect(intake.idleSources(at: start + .seconds(3), limit: 10).isEmpty)
        let idle = intake.idleSources(at: start + .seconds(5), limit: 10)
        #expect(idle == [IntakeTracker.IdleSource(source: "s", highest: 2)])
        intake.makeDormant("s")
        #expect(intake.tracker.counts == (active: 1, dormant: 1))
        #expect(intake.replayEndpoint(for: "s") == "tcp://s:1")
        #expect(intake.admit(Self.header("s", 2), at: start + .seconds(6)).decision == .duplicate)
        #expect(intake.takeRevived().map(\.mark) == [2])
        #expect(intake.admit(Self.header("s", 3), at: start + .seconds(6)).decision == .render(late: false))
        #expect(intake.tracker.counts == (active: 2, dormant: 0))
    }

    @Test("the ledger hands over only the marks that moved, and keeps a forgotten source's last move")
    func ledgerChanges() {
        var ledger = CheckpointLedger()
        ledger.revive("a", mark: 10)
        ledger.complete(SequenceRef(source: "a", sequence: 12))
        #expect(ledger.takeChanges().isEmpty && !ledger.isDone("a", through: 12))
        ledger.complete(SequenceRef(source: "a", sequence: 11))
        #expect(ledger.isDone("a", through: 12))
        ledger.forget("a")
        #expect(ledger.takeChanges() == ["a": 12])
        #expect(ledger.takeChanges().isEmpty)
    }
}
