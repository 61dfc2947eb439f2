import CaffeBooks
import CaffeProtocol
import ZeroMQ

/// The pipeline's stages and how work passes between them, one turn at a time: intake
/// (``IntakeStage``), rendering (``RenderStage``), the output (``OutputStage``), recovery
/// (``RecoveryStage``) and telemetry (``PipelineTelemetry``) around the books
/// (``SourceBooks``), which decide. Stages return what they decided; only this type carries a
/// decision from one stage to another, so each stage is tested with plain values and the whole
/// is driven by a socket loop (``PipelineLoop``) or by a test (``EmbeddedPipeline``) alike.
/// Time comes in as an argument to every turn: nothing here reads a clock that decides.
struct PipelineStages {
    /// Intake, gap recovery, what is done, the checkpoint: decisions, no I/O.
    var books: SourceBooks
    var intake: IntakeStage
    var render: RenderStage
    var output: OutputStage
    var recovery: RecoveryStage
    var telemetry: PipelineTelemetry
    let checkpoints: CheckpointWriter
    let input: any InputPort
    /// `render.queue`: events taken in and not yet handed to the output, at most.
    let queueCapacity: Int

    /// Events taken in and not yet handed to the output.
    var queued: Int { render.count + output.count }
    var isIdle: Bool { render.isEmpty && output.isEmpty }
    /// Whether there is room to read more input.
    var acceptsInput: Bool { queued < queueCapacity }

    /// One turn at `now`: everything ready is done, nothing is waited for. `cpu` is this thread's
    /// CPU time, for placement; `draining` reads no more input.
    mutating func turn(
        at now: ContinuousClock.Instant,
        draining: Bool,
        cpu: @autoclosure () -> Duration? = nil
    ) throws(ZMQError) {
        render.tick(at: now, cpu: cpu())
        if render.refresh() { render.prepend(recovery.unpark(telemetry: &telemetry)) }
        try takeResults(at: now)
        try flush(at: now)
        complete(try output.service(at: now, counts: &telemetry.counts), at: now)
        try serviceReplay(at: now)
        if !draining { try readInput(at: now) }
        for result in recovery.redriven(telemetry: &telemetry) { finish(result, at: now) }
        try renderPending(at: now)
        carryOut(books.expireIdle(at: now), at: now)
        carryOut(books.checkpointIfDue(at: now), at: now)
    }

    // MARK: Intake

    /// Reads what the input has, while there is room.
    mutating func readInput(at now: ContinuousClock.Instant) throws(ZMQError) {
        var budget = 256
        while budget > 0, acceptsInput, let frames = try input.nextMessage() {
            budget -= 1
            telemetry.count { $0.received += 1 }
            let outcome = intake.take(frames, at: now, books: &books, telemetry: &telemetry)
            carryOut(outcome.actions, at: now)
            pass(outcome.next, at: now)
        }
    }

    private mutating func pass(_ next: IntakeStage.Next?, at now: ContinuousClock.Instant) {
        switch next {
        case .render(let event): render.append(event)
        case .deadLetter(let letter): finish(letter, at: now)
        case nil: break
        }
    }

    // MARK: Rendering

    /// Renders what waits (at most 16 events a turn here), offering each result to the output at
    /// once; in delegate mode it hands everything to the helpers.
    mutating func renderPending(at now: ContinuousClock.Instant) throws(ZMQError) {
        render.delegate()
        var steps = 0
        while steps < 16, let step = render.step(at: now, telemetry: &telemetry) {
            steps += 1
            if case .rendered(let event) = step { finish(event, at: now) }
            try flush(at: now)
            try takeResults(at: now)
        }
    }

    /// Collects what the helpers rendered and offers it to the output.
    mutating func takeResults(at now: ContinuousClock.Instant) throws(ZMQError) {
        let batch = render.takeResults()
        guard !batch.isEmpty else { return }
        for event in batch { finish(event, at: now) }
        try flush(at: now)
    }

    /// What happens to an input's outcome (rendered, dead-lettered, parked): it is counted and
    /// logged, then queued for the output, or parked until a reload.
    mutating func finish(_ event: RenderedEvent, at now: ContinuousClock.Instant) {
        render.note(event)
        telemetry.record(event, at: now)
        if let input = event.parked, case .parked(let reason) = event.summary {
            if let letter = recovery.park(input, reason: reason) { finish(letter, at: now) }
        } else {
            output.append(event)
        }
    }

    // MARK: Output

    /// Offers what is rendered to the output and completes what it delivered.
    mutating func flush(at now: ContinuousClock.Instant) throws(ZMQError) {
        complete(try output.flush(at: now, counts: &telemetry.counts), at: now)
    }

    mutating func complete(_ refs: [SequenceRef], at now: ContinuousClock.Instant) {
        carryOut(books.delivered(refs), at: now)
    }

    // MARK: Recovery

    /// Takes the replay replies that arrived and sends the requests that are due.
    mutating func serviceReplay(at now: ContinuousClock.Instant) throws(ZMQError) {
        for reply in try recovery.replies() {
            let (actions, events) = recovery.take(reply, at: now, books: &books, telemetry: &telemetry)
            carryOut(actions, at: now)
            for (decision, event, frames) in events {
                pass(intake.decided(decision, for: event, frames: frames, at: now, telemetry: &telemetry), at: now)
            }
        }
        carryOut(books.due(at: now), at: now)
        recovery.closeIdle(at: now)
    }

    // MARK: The books' actions

    /// Carries out what the books decided: counts, logs, replay requests, dead letters,
    /// checkpoints.
    mutating func carryOut(_ actions: [SourceBooks.Action], at now: ContinuousClock.Instant) {
        for action in actions {
            switch action {
            case .gapFound(let source, let range):
                telemetry.gapFound(source, range)
            case .announced(let source, let announcement):
                telemetry.announced(announcement, source: source)
            case .fetch(let routed, let standing):
                let more = recovery.fetch(routed, standing: standing, at: now, books: &books, telemetry: &telemetry)
                carryOut(more, at: now)
            case .giveUp(let gap):
                finish(recovery.giveUp(gap, telemetry: &telemetry), at: now)
            case .revived:
                telemetry.count { $0.sourcesRevived += 1 }
            case .expired:
                telemetry.count { $0.sourcesExpired += 1 }
            case .retired:
                telemetry.count { $0.sourcesRetired += 1 }
            case .checkpoint(let change):
                checkpoints.post(change)
            }
        }
    }

    // MARK: Gauges and the end

    /// Sets the queue, gap, source and lag gauges.
    mutating func updateGauges(at now: ContinuousClock.Instant) {
        let sources = books.intake.tracker.counts
        telemetry.update(
            PipelineTelemetry.Gauges(
                queued: queued,
                pendingGaps: books.pendingGaps,
                activeSources: sources.active,
                dormantSources: sources.dormant,
                parked: recovery.parkedCount
            )
        )
        telemetry.updateLag(from: books, at: now)
    }

    /// The earliest time a turn has something to do although nothing arrives.
    var nextDeadline: ContinuousClock.Instant? {
        func earlier(_ a: ContinuousClock.Instant?, _ b: ContinuousClock.Instant?) -> ContinuousClock.Instant? {
            guard let a else { return b }
            guard let b else { return a }
            return min(a, b)
        }
        var deadline = earlier(books.nextDue, output.channel.nextDeadline)
        deadline = earlier(deadline, recovery.replay.connections.nextIdleCheck)
        deadline = earlier(deadline, books.intake.tracker.nextIdleCheck)
        deadline = earlier(deadline, books.nextCheckpointDue)
        return earlier(deadline, telemetry.counts.nextPublish)
    }

    /// Completes what the output delivered last and writes the final checkpoint; `false` when it
    /// could not be written.
    mutating func writeFinalCheckpoint(at now: ContinuousClock.Instant) -> Bool {
        complete(output.takeCompleted(), at: now)
        return checkpoints.writeFinal(books.finalChange())
    }
}

/// Where the pipeline's input comes from: the input socket, or frames a test hands in.
protocol InputPort: AnyObject {
    /// The next message, without waiting; `nil` when none is there.
    func nextMessage() throws(ZMQError) -> [ZMQMessage]?
}

extension ZMQSocket: InputPort {
    func nextMessage() throws(ZMQError) -> [ZMQMessage]? { try tryReceiveMultipart() }
}
