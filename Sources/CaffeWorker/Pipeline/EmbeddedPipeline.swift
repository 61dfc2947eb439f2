import CaffeBooks
import CaffeCore
import CaffeProtocol
import Foundation
import Logging
import ZeroMQ

/// The event pipeline without sockets or threads, the way NIO's `EmbeddedChannel` drives a
/// channel pipeline: input frames are handed in, published outputs are read back, and time moves
/// only when the caller moves it. The stages are the worker's own (``PipelineStages``), so a test
/// drives intake, rendering, gaps given up, parking, backpressure and the drain — deterministically,
/// on its own thread. Rendering stays on that thread (no helpers); the transport has tests of its
/// own.
final class EmbeddedPipeline {
    /// The time every turn is given; it moves only by ``advance(by:)``.
    private(set) var now: ContinuousClock.Instant
    private var stages: PipelineStages
    private let inbox = EmbeddedInput()
    private let outbox = EmbeddedOutput()
    private let cores: CoreBox
    /// The replay client's context: it opens a connection only when a gap names an endpoint.
    private let context: ZMQContext
    let metrics = WorkerMetrics()

    /// A pipeline set up as `configuration` says (its `render.threads` aside: one thread), rendering
    /// with `core`, resuming from `resumed`. The checkpoint is written to `checkpoint.path` when
    /// that is set, by ``drain()`` (the writer's own thread does not run).
    init(
        configuration: WorkerConfiguration,
        core: RenderingCore,
        resumed: Checkpoint = Checkpoint(),
        logger: Logger = Logger(label: "caffe.embedded")
    ) throws(ZMQError) {
        let path = configuration.checkpoint.path
        now = .now
        cores = CoreBox(core)
        let context = try ZMQContext()
        self.context = context
        stages = PipelineStages(
            configuration: configuration,
            parts: EventPipeline.Parts(
                context: context,
                security: nil,
                cores: cores,
                pool: nil,
                checkpoints: CheckpointWriter(
                    url: path.isEmpty ? nil : URL(fileURLWithPath: path),
                    resumed: resumed,
                    logger: logger,
                    shard: metrics.makeShard("checkpoint")
                ),
                logger: logger,
                metrics: metrics
            ),
            resumed: resumed,
            input: inbox,
            output: outbox,
            wakeup: nil
        )
    }

    deinit {
        stages.recovery.closeAll()
        context.shutdown()
    }

    // MARK: Driving

    /// Hands one input message in; it is read on the next turn.
    func send(_ frames: [ZMQMessage]) { inbox.messages.append(frames) }

    /// Turns the pipeline until nothing more can happen at ``now``; returns the turns taken.
    @discardableResult
    func run() throws(ZMQError) -> Int { try turns(draining: false) }

    /// Moves the clock by `duration` and runs.
    @discardableResult
    func advance(by duration: Duration) throws(ZMQError) -> Int {
        now += duration
        return try run()
    }

    /// Drains as a graceful shutdown does: no more input, everything taken in is rendered and
    /// published, the final checkpoint is written. `.abandoned` when the output refuses what
    /// waits (``outputAccepts`` off).
    func drain() throws(ZMQError) -> EventPipeline.Ending {
        try turns(draining: true)
        let written = stages.writeFinalCheckpoint(at: now)
        guard stages.isIdle else { return .abandoned }
        guard written else {
            return .failed(
                WorkerError(.checkpoint, "the final checkpoint could not be written", key: "checkpoint.path")
            )
        }
        return .drained
    }

    /// Turns until a turn leaves nothing that can proceed at ``now`` (at most 100,000 turns).
    @discardableResult
    private func turns(draining: Bool) throws(ZMQError) -> Int {
        var turns = 0
        repeat {
            try stages.turn(at: now, draining: draining)
            turns += 1
        } while turns < 100_000 && hasWork(draining: draining)
        stages.updateGauges(at: now)
        return turns
    }

    /// Replaces the rendering core, as a reload does; parked events are rendered again next turn.
    func reload(_ core: RenderingCore) { cores.replace(with: core) }

    private func hasWork(draining: Bool) -> Bool {
        (!draining && !inbox.messages.isEmpty && stages.acceptsInput) || stages.render.canProceed
            || (!stages.output.isEmpty && outbox.accepts)
    }

    // MARK: Observing

    /// Whether the output takes what it is offered; off, outputs wait (and intake stops reading
    /// once `render.queue` events wait), as with a full socket.
    var outputAccepts: Bool {
        get { outbox.accepts }
        set { outbox.accepts = newValue }
    }

    /// The outputs published since the last call, in order.
    func takePublished() -> [OutputMessage] {
        defer { outbox.published.removeAll() }
        return outbox.published
    }

    /// Input messages handed in and not read yet.
    var unread: Int { inbox.messages.count }
    /// Events taken in and not yet published.
    var queued: Int { stages.queued }
    /// Events parked until a reload.
    var parked: Int { stages.recovery.parkedCount }
    /// The pipeline thread's counts so far.
    var counts: WorkerCounts { stages.telemetry.counts.counts }
    /// The books, to read what is done and what is missing.
    var books: SourceBooks { stages.books }
}

/// Input messages in memory.
private final class EmbeddedInput: InputPort {
    var messages = FIFO<[ZMQMessage]>()

    func nextMessage() throws(ZMQError) -> [ZMQMessage]? { messages.removeFirst() }
}

/// An output in memory: it takes every output while ``accepts`` is on, and an input is
/// delivered once its outputs are taken (as on PUSH).
private final class EmbeddedOutput: OutputChannel {
    var published: [OutputMessage] = []
    var accepts = true
    private var completed: [SequenceRef] = []

    var interest: ZMQEvents { [] }
    var nextDeadline: ContinuousClock.Instant? { nil }
    var isSettled: Bool { true }

    func offer(_ event: inout RenderedEvent, at now: ContinuousClock.Instant, counts: inout WorkerCounts) -> Bool {
        guard accepts else { return false }
        published += event.outputs[event.nextOutput...]
        counts.published += UInt64(event.outputs.count - event.nextOutput)
        event.nextOutput = event.outputs.count
        if let ref = event.ref { completed.append(ref) }
        return true
    }

    func service(at now: ContinuousClock.Instant, counts: inout WorkerCounts) {}

    func takeCompleted() -> [SequenceRef] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }
}
