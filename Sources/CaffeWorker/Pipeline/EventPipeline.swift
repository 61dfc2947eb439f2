import CaffeBooks
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import Logging
import ServiceLifecycle
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// The event pipeline: one thread takes events in (``Intake``), renders them (``EventRenderer``)
/// and hands their outputs to the output (``OutputChannel``), recording what is done
/// (``CheckpointLedger``) for the ``CheckpointWriter``. A ``RenderPool`` takes part of the
/// rendering when events pile up, so at moderate rates an event costs one wake-up, and all of it
/// once this thread is busy (``RenderPlacement``), so its serial work alone bounds the rate.
///
/// Bounded everywhere: events taken in and not yet handed to the output never exceed
/// `render.queue`; beyond it the input is not read and its high-water mark pushes back on the
/// sources. Graceful shutdown drains: no more input, everything taken in is rendered and
/// delivered (acknowledged, on the acknowledged output), the final checkpoint is written.
/// Cancellation (the drain took longer than `shutdown.drain_timeout_ms`) abandons what is left:
/// it stays out of the checkpoint, so a restarted worker gets it replayed.
final class EventPipeline: Service {
    /// The sockets the pipeline owns, made and attached by ``Worker``.
    struct Sockets {
        var input: ZMQSocket
        var output: any OutputChannel
        /// Handshake and disconnect events of the input and output, when watched.
        var monitors: [SocketWatch]
        /// The output's watch, among the monitors.
        var outputWatch: SocketWatch?
    }

    /// How the pipeline ended.
    enum Ending: Sendable {
        /// Everything taken in was delivered.
        case drained
        /// Shutdown could not wait: undelivered inputs stay out of the checkpoint.
        case abandoned
        /// A socket failed, or the final checkpoint could not be written.
        case failed(WorkerError)
    }

    private let sockets: Handoff<Sockets>
    private let settings: Settings
    private let context: ZMQContext
    private let security: WorkerSecurity?
    private let cores: CoreBox
    private let pool: RenderPool?
    private let checkpoints: CheckpointWriter
    /// The checkpoint read at start, until the loop's intake takes it.
    private let resumed: Mutex<Checkpoint?>
    private let logger: Logger
    private let metrics: WorkerMetrics
    private let stop: ThreadStop
    private var control: ZMQWakeup { stop.wakeup }
    private let ending = Mutex<Ending?>(nil)
    /// Dead letters to render again, from the RPC endpoint.
    let redrives: RedriveQueue?

    /// What the pipeline reads from the configuration.
    struct Settings: Sendable {
        var limits: CaffeProtocolLimits
        var queueCapacity: Int
        var checkpointInterval: Duration
        var intake: Intake.Policy
        var replayTimeout: Duration
        var replayConnections: Int
        var replayIdleTimeout: Duration
        var outputLinger: Duration
        /// Events kept for a reload at most (``PipelineState/park(_:reason:)``).
        var maxParked = 10_000
        /// Each render thread's compiled locales at most, in bytes.
        var localeCacheBytes = RenderSession.defaultLocaleCacheBytes
        /// Customer locales compiled before work is taken, besides the catalog's localizations.
        var prepareLocales: [String] = []
        var warmUp = true
        /// Render only the sources this shard owns (`input.shard`).
        var shard: ShardAssignment?
        /// Where the spans of traced events go (`tracing.otlp_endpoint`); `nil`: none are recorded.
        var spans: SpanExporter?
    }

    init(
        sockets: Handoff<Sockets>,
        settings: Settings,
        context: ZMQContext,
        security: WorkerSecurity?,
        cores: CoreBox,
        pool: RenderPool?,
        checkpoints: CheckpointWriter,
        resumed: Checkpoint,
        logger: Logger,
        metrics: WorkerMetrics,
        redrives: RedriveQueue? = nil
    ) throws(ZMQError) {
        self.redrives = redrives
        self.sockets = sockets
        self.settings = settings
        self.context = context
        self.security = security
        self.cores = cores
        self.pool = pool
        self.checkpoints = checkpoints
        self.resumed = Mutex(resumed)
        self.logger = logger
        self.metrics = metrics
        stop = try ThreadStop()
    }

    /// How the run ended (once it has).
    var result: Ending? { ending.withLock { $0 } }

    func run() async throws {
        let outcome = await runThreadService(named: "caffe-pipeline", stop: stop) { self.loop() }
        ending.withLock { $0 = outcome }
        if case .failed(let error) = outcome { throw error }
    }

    private func loop() -> Ending {
        var state = PipelineState(pipeline: self, sockets: sockets.value)
        return state.run()
    }

    // The pieces the loop's state reads.
    fileprivate var parts:
        (
            settings: Settings, context: ZMQContext, security: WorkerSecurity?, cores: CoreBox, pool: RenderPool?,
            checkpoints: CheckpointWriter, resumed: Checkpoint, logger: Logger, metrics: WorkerMetrics,
            control: ZMQWakeup
        )
    {
        (
            settings, context, security, cores, pool, checkpoints, resumed.withLock { $0.take() } ?? Checkpoint(),
            logger, metrics, control
        )
    }

    fileprivate var stopRequested: (drain: Bool, abandon: Bool) {
        let request = stop.request
        return (request != .none, request == .abandon)
    }
}

/// The pipeline thread's state: everything here belongs to that thread.
private struct PipelineState {
    let pipeline: EventPipeline
    let settings: EventPipeline.Settings
    let logger: Logger
    let metrics: WorkerMetrics
    let pool: RenderPool?
    let checkpoints: CheckpointWriter
    let control: ZMQWakeup
    let context: ZMQContext
    let security: WorkerSecurity?
    let input: ZMQSocket
    let output: any OutputChannel
    let monitors: [SocketWatch]
    /// The output socket's watch, whose ended connections the output hears of.
    let outputWatch: SocketWatch?
    let results: Mailbox<RenderedEvent>?

    /// Intake, gap recovery, what is done, the checkpoint: decisions, no I/O.
    var books: SourceBooks
    var renderer: EventRenderer
    var counts: ThreadCounts
    var labels = LabelCache()
    var replay: ReplayClient

    /// Admitted, waiting to be rendered: a queue per source, served in turn, so a source that
    /// floods waits behind itself.
    var pending = FairQueue<InputEvent>()
    /// Handed to the render pool, not back yet.
    var atPool = 0
    /// Rendered, waiting for the output to take them.
    var outbound = FairQueue<RenderedEvent>()
    /// Failed because of the configuration, waiting for a reload.
    var parked = FIFO<InputEvent>()
    /// Waiting for a helper to render them: their locale is not compiled on this thread.
    var slowLane = FIFO<InputEvent>()
    /// Locales this thread compiles after all, once common.
    var promotion = LocalePromotion()
    /// Whether this thread renders or leaves every render to the helpers.
    var placement: RenderPlacement
    /// Each renderer's locale cache (bytes, bound), for the gauge.
    var localeCaches: [Int: (bytes: Int, bound: Int)] = [:]
    var parkedSoFar: UInt64 = 0

    var polls: PollSet
    /// Dead letters and duplicates logged at most so often; the rest counted and said.
    var deadLetterLog = LogBudget()
    /// When the lag gauges are next computed.
    var nextLagScan = ContinuousClock.now
    var duplicateLog = LogBudget(perSecond: 1, burst: 5)
    var notOwnedLog = LogBudget(perSecond: 1, burst: 5)
    /// Source restarts (a new epoch): a source that sends a new epoch with every message would
    /// otherwise write a line per message (the counter counts them all).
    var restartLog = LogBudget(perSecond: 1, burst: 10)
    /// Stream keys made once per run of a source, and each source's latest epoch.
    var streamKeys = StreamKeys()
    /// The ids of the worker's spans of traced events.
    var spanIDs = SpanIDGenerator()

    init(pipeline: EventPipeline, sockets: EventPipeline.Sockets) {
        let parts = pipeline.parts
        self.pipeline = pipeline
        settings = parts.settings
        logger = parts.logger
        metrics = parts.metrics
        pool = parts.pool
        checkpoints = parts.checkpoints
        control = parts.control
        context = parts.context
        security = parts.security
        input = sockets.input
        output = sockets.output
        monitors = sockets.monitors
        outputWatch = sockets.outputWatch
        results = parts.pool.flatMap { $0.helpers > 0 ? try? Mailbox<RenderedEvent>() : nil }
        placement = RenderPlacement(helpers: results == nil ? 0 : parts.pool?.helpers ?? 0)
        books = SourceBooks(
            policy: settings.intake,
            resumingFrom: parts.resumed,
            checkpointInterval: settings.checkpointInterval
        )
        renderer = EventRenderer(
            cores: parts.cores,
            limits: settings.limits,
            id: 0,
            localeCacheBytes: settings.localeCacheBytes,
            prepare: settings.prepareLocales,
            warmUp: settings.warmUp
        )
        counts = ThreadCounts("pipeline", in: parts.metrics, wakeup: parts.control)
        replay = ReplayClient(
            context: parts.context,
            security: parts.security,
            capacity: settings.replayConnections,
            idleTimeout: settings.replayIdleTimeout,
            timeout: settings.replayTimeout,
            limits: settings.limits,
            logger: parts.logger
        )
        polls = PollSet(
            input: sockets.input,
            output: sockets.output,
            control: parts.control,
            results: results,
            monitors: sockets.monitors,
            replay: replay.connections,
            redrives: pipeline.redrives
        )
    }

    /// Events taken in and not yet handed to the output.
    var queued: Int { pending.count + slowLane.count + atPool + outbound.count }

    var isIdle: Bool { pending.isEmpty && slowLane.isEmpty && atPool == 0 && outbound.isEmpty }

    mutating func run() -> EventPipeline.Ending {
        var ending = EventPipeline.Ending.drained
        do {
            while true {
                let stop = pipeline.stopRequested
                if stop.abandon {
                    ending = .abandoned
                    break
                }
                let now = ContinuousClock.now
                placement.tick(at: now)
                if renderer.refresh() { unpark() }
                try takeResults(at: now)
                try flush(at: now)
                let output = output
                try counts.counting { counts throws(ZMQError) in try output.service(at: now, counts: &counts) }
                complete(output.takeCompleted(), at: now)
                try serviceReplay(at: now)
                if !stop.drain { try readInput(at: now) }
                redrive()
                try renderPending(at: now)
                expireIdleSources(at: now)
                checkpointIfDue(at: now)
                if stop.drain, isIdle, output.isSettled { break }
                updateGauges()
                updateLag(at: now)
                counts.publishIfRequested()
                counts.publish()
                try wait(draining: stop.drain)
                counts.publishIfRequested()
            }
        } catch {
            logger.error("event pipeline stopped", metadata: ["error": "\(error)"])
            ending = .failed(WorkerError(.stageFailed, "the event pipeline stopped", cause: error))
        }
        return finish(ending)
    }

    // MARK: Intake

    /// Reads what the input has, while there is room.
    mutating func readInput(at now: ContinuousClock.Instant) throws(ZMQError) {
        var budget = 256
        while budget > 0, queued < settings.queueCapacity, let frames = try input.tryReceiveMultipart() {
            budget -= 1
            counts.count { $0.received += 1 }
            take(frames, at: now)
        }
    }

    /// Judges one input message and queues what it becomes.
    mutating func take(_ frames: [ZMQMessage], at now: ContinuousClock.Instant) {
        // With CURVE, the ZAP handler names each client by its public key.
        let identity = security == nil ? "" : frames.first?.metadata("User-Id") ?? ""
        let limits = settings.limits
        switch ParsedInput(frames, limits: limits, keys: &streamKeys, shard: settings.shard) {
        case .notOwned(let source):
            notOwned(source)
        case .malformed(let detail):
            enqueue(EventRenderer.deadLetter(.malformed, detail, frames: frames, header: nil))
        case .invalid(let detail, let header):
            guard case .deadLetter(let ref) = refuse(header, at: now) else { return }
            var letter = EventRenderer.deadLetter(.invalid, detail, frames: frames, header: header)
            letter.ref = ref
            enqueue(letter)
        case .oversized(let header, let bytes, let topic):
            counts.count { $0.oversized += 1 }
            logger.warning(
                "oversized message refused",
                metadata: ["bytes": "\(bytes)", "source": "\(header?.sourceID ?? "")", "topic": "\(topic)"]
            )
            guard case .deadLetter(let ref) = refuse(header, at: now) else { return }
            enqueue(
                EventRenderer.oversized(
                    bytes: bytes,
                    limit: settings.limits.maxBodyBytes,
                    topic: topic,
                    header: header,
                    ref: ref
                )
            )
        case .event(let event):
            if event.header.bodyType == Caffe_V1_Heartbeat.protoMessageName {
                heartbeat(event, frames: frames, identity: identity, at: now)
            } else {
                admit(event, frames: frames, identity: identity, at: now)
            }
        }
    }

    /// An event of a source another shard owns: counted and logged (with a budget), not rendered,
    /// not dead-lettered — its owner renders it.
    mutating func notOwned(_ source: String) {
        counts.count { $0.notOwned += 1 }
        guard let shard = settings.shard, let heldBack = notOwnedLog.admit(at: .now) else { return }
        var metadata: Logger.Metadata = [
            "source": "\(source)", "shard": "\(shard)",
            "owner": "\(ShardAssignment.shard(of: source, among: shard.count))/\(shard.count)",
        ]
        if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
        logger.warning("event of another shard's source dropped", metadata: metadata)
    }

    /// What becomes of an input refused for its content whose header could still be read: it is
    /// tracked like any event, so its sequence is not a gap and its dead letter completes it; a
    /// duplicate (nothing to send) is counted.
    mutating func refuse(_ header: Caffe_V1_EventHeader?, at now: ContinuousClock.Instant) -> SourceBooks.Refusal {
        let (refusal, actions) = books.refuse(header, at: now)
        carryOut(actions, at: now)
        if refusal == .duplicate { counts.count { $0.duplicates += 1 } }
        return refusal
    }

    mutating func admit(
        _ event: InputEvent,
        frames: [ZMQMessage],
        identity: String = "",
        at now: ContinuousClock.Instant
    ) {
        noteRestart()
        let (decision, actions) = books.admit(event.header, key: event.streamKey, identity: identity, at: now)
        carryOut(actions, at: now)
        carryOut(decision, for: event, frames: frames)
    }

    /// Says when a source restarted: its events came under a new, larger `source_epoch`, so its
    /// numbering starts again in books of its own (docs/WIRE.md, "Sources and sequences").
    mutating func noteRestart() {
        guard let restart = streamKeys.takeRestart() else { return }
        counts.count { $0.sourceRestarts += 1 }
        // The previous run retires once everything it took in is done.
        if restart.previous != 0 {
            books.superseded(
                SourceStream.key(source: restart.source, epoch: restart.previous),
                by: restart.epoch,
                at: .now
            )
        }
        guard let heldBack = restartLog.admit(at: .now) else { return }
        var metadata: Logger.Metadata = [
            "source": "\(restart.source)", "epoch": "\(restart.epoch)", "previous_epoch": "\(restart.previous)",
        ]
        if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
        logger.notice("source restarted: a new source_epoch, its numbering starts again", metadata: metadata)
    }

    /// Carries out what intake decided for `event`.
    mutating func carryOut(_ decision: Intake.Decision, for event: InputEvent, frames: [ZMQMessage]) {
        switch decision {
        case .render(let late):
            if late {
                counts.count { $0.late += 1 }
                logger.notice(
                    "late event inside a range given up; rendering it",
                    metadata: ["source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)"]
                )
            }
            pending.append(traced(event), key: event.header.sourceID)
        case .duplicate, .retry:
            // A retry's sequence is done already (the books marked it).
            counts.count { $0.duplicates += 1 }
            logDuplicate(event.header, retry: decision == .retry)
        case .reject(let detail):
            logger.warning(
                "event refused",
                metadata: [
                    "source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)", "reason": "\(detail)",
                ]
            )
            enqueue(EventRenderer.deadLetter(.invalid, detail, frames: frames, header: event.header))
        }
    }

    /// With spans exported, an event whose `traceparent` asks for sampling gets the worker's
    /// span: its outputs name that span as their parent (W3C Trace Context §3.5, "update
    /// parent-id"). Without, the event goes on as it came and its outputs carry its context as is.
    mutating func traced(_ event: InputEvent) -> InputEvent {
        guard settings.spans != nil, let parent = event.header.traceParent, parent.isSampled else { return event }
        var event = event
        let span = EventSpan(
            parent: parent,
            spanID: spanIDs.next(),
            source: event.header.sourceID,
            sequence: event.header.sequence,
            orderID: event.header.orderID,
            bodyType: event.header.bodyType,
            admittedAt: WallClock.nanoseconds()
        )
        event.header.metadata[TraceParent.metadataKey] = span.outgoing.description
        event.span = span
        return event
    }

    mutating func heartbeat(
        _ event: InputEvent,
        frames: [ZMQMessage],
        identity: String,
        at now: ContinuousClock.Instant
    ) {
        counts.count { $0.heartbeats += 1 }
        let last: UInt64
        do {
            last = try EventFrames.decodeBody(Caffe_V1_Heartbeat.self, frame: event.body, limits: settings.limits)
                .lastSequence
        } catch {
            enqueue(EventRenderer.deadLetter(.malformed, error.description, frames: frames, header: event.header))
            return
        }
        switch books.heartbeat(event.header, lastSequence: last, identity: identity, at: now) {
        case .success(let actions):
            carryOut(actions, at: now)
        case .failure(let refusal):
            enqueue(EventRenderer.deadLetter(.invalid, refusal.detail, frames: frames, header: event.header))
        }
    }

    /// Carries out what the books decided: counts, logs, requests, dead letters, checkpoints.
    mutating func carryOut(_ actions: [SourceBooks.Action], at now: ContinuousClock.Instant) {
        for action in actions {
            switch action {
            case .gapFound(let source, let range):
                counts.count {
                    $0.gaps += 1
                    WorkerCounts.add(UInt64(range.count), to: &$0.missingSequences)
                }
                logger.warning(
                    "sequence gap",
                    metadata: [
                        "source": "\(SourceStream.describe(source))", "from": "\(range.lowerBound)",
                        "to": "\(range.upperBound)",
                    ]
                )
            case .announced(let source, let announcement):
                report(announcement, source: source)
            case .fetch(let routed, let standing):
                fetch(routed, standing: standing, at: now)
            case .giveUp(let gap):
                giveUp(gap)
            case .revived:
                counts.count { $0.sourcesRevived += 1 }
            case .expired:
                counts.count { $0.sourcesExpired += 1 }
            case .retired:
                counts.count { $0.sourcesRetired += 1 }
            case .checkpoint(let change):
                checkpoints.post(change)
            }
        }
    }

    /// Counts and logs an announced replay endpoint that was not taken, or that replaced another.
    mutating func report(_ announcement: Intake.Announcement, source: String) {
        switch announcement.outcome {
        case .pinned, .unchanged:
            break
        case .changed(let old):
            logger.notice(
                "replay endpoint changed",
                metadata: ["source": "\(source)", "from": "\(old)", "to": "\(announcement.endpoint)"]
            )
        case .refused(let kept):
            counts.count { $0.replayEndpointsRefused += 1 }
            let refused = counts.counts.replayEndpointsRefused
            if isLoggedOccurrence(refused) {
                logger.warning(
                    "announced replay endpoint ignored: the source's endpoint is pinned",
                    metadata: [
                        "source": "\(source)", "announced": "\(announcement.endpoint)", "kept": "\(kept)",
                        "refused_so_far": "\(refused)",
                    ]
                )
            }
        }
    }

    // MARK: Sources

    /// Makes settled sources idle for `input.source_idle_ms` dormant, a bounded number per turn.
    mutating func expireIdleSources(at now: ContinuousClock.Instant) {
        carryOut(books.expireIdle(at: now), at: now)
    }

    // MARK: Rendering

    /// Renders what waits: the newer part goes to an idle helper when several wait, the rest is
    /// rendered here, each result offered to the output at once. This thread compiles no locale
    /// (``renderHere(_:at:)``): events in a locale it has not compiled go to a helper.
    mutating func renderPending(at now: ContinuousClock.Instant) throws(ZMQError) {
        var rendered = 0
        submitSlowLane()
        if placement.mode == .delegate {
            delegatePending()
            return
        }
        while !pending.isEmpty, rendered < 16 {
            if let pool, let results, pending.count >= RenderPool.backlogForHelp, pool.hasIdleHelper {
                let share = min(pending.count / 2, RenderPool.maxBatch)
                let batch = RenderPool.Batch(events: pending.removeFirst(share), results: results)
                if pool.trySubmit(batch) {
                    atPool += batch.events.count
                } else {
                    pending.prepend(contentsOf: batch.events.map { ($0.header.sourceID, $0) })
                }
            }
            guard let event = pending.removeFirst() else { break }
            renderHere(event, at: now)
            rendered += 1
            try flush(at: now)
            try takeResults(at: now)
        }
    }

    /// Hands what waits to the idle helpers, shared evenly, none of it rendered here; what no
    /// helper can take now waits for the next one to come back.
    mutating func delegatePending() {
        guard let pool, let results else { return }
        while !pending.isEmpty {
            let idle = pool.idleHelpers
            guard idle > 0 else { return }
            let share = min(RenderPool.maxBatch, (pending.count + idle - 1) / idle)
            let batch = RenderPool.Batch(events: pending.removeFirst(share), results: results)
            guard pool.trySubmit(batch) else {
                pending.prepend(contentsOf: batch.events.map { ($0.header.sourceID, $0) })
                return
            }
            atPool += batch.events.count
            placement.delegated(batch.events.count)
        }
    }

    /// Renders `event` on this thread without compiling a locale: an event whose locale is not
    /// compiled here goes to a helper (which compiles it), is compiled here once it has proved
    /// common (``LocalePromotion``), or — with the slow lane full, or no helper and no budget
    /// left — is rendered with the nearest compiled locale, with a note saying so.
    mutating func renderHere(_ event: InputEvent, at now: ContinuousClock.Instant) {
        let result = renderer.render(event, newLocales: .defer)
        guard case .deferred(let locale) = result.summary, let input = result.parked else {
            enqueue(result)
            return
        }
        if promotion.shouldCompile(locale, at: now) {
            counts.count { $0.localePromotions += 1 }
            enqueue(renderer.render(input, newLocales: .compile))
        } else if results != nil, slowLane.count < Self.slowLaneLimit {
            slowLane.append(input)
            submitSlowLane()
        } else if results == nil, promotion.takeSoleThreadBudget(at: now) {
            // No helper to compile it: this thread does, a few times a second at most.
            enqueue(renderer.render(input, newLocales: .compile))
        } else {
            counts.count { $0.localeApproximations += 1 }
            enqueue(renderer.render(input, newLocales: .approximate))
        }
    }

    /// Events waiting for a helper to compile their locale, at most this many.
    static let slowLaneLimit = 256

    /// Hands the slow lane to an idle helper.
    mutating func submitSlowLane() {
        guard !slowLane.isEmpty, let pool, let results, pool.hasIdleHelper else { return }
        var events: [InputEvent] = []
        while events.count < RenderPool.maxBatch, let event = slowLane.removeFirst() { events.append(event) }
        if pool.trySubmit(RenderPool.Batch(events: events, results: results)) {
            atPool += events.count
        } else {
            slowLane.prepend(contentsOf: events)
        }
    }

    /// Collects what the helpers rendered.
    mutating func takeResults(at now: ContinuousClock.Instant) throws(ZMQError) {
        guard let results, atPool > 0 else { return }
        let batch = results.take()
        guard !batch.isEmpty else { return }
        atPool -= batch.count
        for event in batch { enqueue(event) }
        try flush(at: now)
    }

    /// Logs a dead letter (warning) unless the budget is spent: reason, reference, detail and a
    /// short excerpt of its bytes, with how many went unlogged before it.
    mutating func logDeadLetter(_ note: DeadLetterNote) {
        guard let heldBack = deadLetterLog.admit(at: .now) else { return }
        var metadata: Logger.Metadata = [
            "reason": "\(note.reason)", "source": "\(note.source)", "sequence": "\(note.sequence)",
            "detail": "\(note.detail)",
        ]
        if !note.orderID.isEmpty { metadata["order_id"] = "\(note.orderID)" }
        if !note.excerpt.isEmpty { metadata["excerpt"] = "\(note.excerpt)" }
        metadata.addTrace(note.trace)
        if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
        logger.warning("dead letter", metadata: metadata)
    }

    /// Logs a dropped duplicate (notice) unless the budget is spent; for a source without an
    /// epoch, with the hint that a restarted source numbering from 1 again is taken for one.
    mutating func logDuplicate(_ header: Caffe_V1_EventHeader, retry: Bool) {
        guard let heldBack = duplicateLog.admit(at: .now) else { return }
        var metadata: Logger.Metadata = [
            "source": "\(SourceStream.describe(header.streamKey))", "sequence": "\(header.sequence)",
            "kind": "\(retry ? "order id sent before under another sequence" : "sequence seen before")",
        ]
        if !header.orderID.isEmpty { metadata["order_id"] = "\(header.orderID)" }
        if header.sourceEpoch == 0, !retry {
            metadata["hint"] =
                "a source that numbers from 1 again after a restart must send a new source_epoch (docs/WIRE.md)"
        }
        metadata.addTrace(header.traceParent)
        if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
        logger.notice("duplicate event dropped", metadata: metadata)
    }

    /// Says how many dead letters and duplicates the budgets held back, once they allow a line.
    mutating func flushHeldBackLogs(at now: ContinuousClock.Instant) {
        if let count = deadLetterLog.flush(at: now) {
            logger.warning("dead letters not logged one by one (log rate limit)", metadata: ["count": "\(count)"])
        }
        if let count = duplicateLog.flush(at: now) {
            logger.notice("duplicates not logged one by one (log rate limit)", metadata: ["count": "\(count)"])
        }
        if let count = notOwnedLog.flush(at: now) {
            logger.warning(
                "events of other shards' sources not logged one by one (log rate limit)",
                metadata: ["count": "\(count)"]
            )
        }
    }

    /// Counts `event`'s outcome and queues it for the output.
    mutating func enqueue(_ event: RenderedEvent) {
        if case .rendered(_, _, _, let nanoseconds) = event.summary { placement.rendered(nanoseconds: nanoseconds) }
        if let note = event.letter { logDeadLetter(note) }
        let metrics = metrics
        var labels = labels
        counts.count { counts in
            switch event.summary {
            case .rendered(let kind, let locale, let outputs, let nanoseconds):
                counts.rendered += 1
                counts.renderLatency[LabelPair(kind, labels.label(locale, metrics)), default: LatencyHistogram()]
                    .record(nanoseconds: nanoseconds)
                for output in outputs {
                    counts.outputs[LabelPair(output.first, labels.label(output.second, metrics)), default: 0] += 1
                }
            case .deadLetter(let reason):
                counts.deadLetters[reason, default: 0] += 1
            case .parked:
                counts.parked += 1
            case .deferred:
                break
            }
            if let cache = event.localeCache {
                counts.localeCompilations &+= cache.compilations
                counts.localeEvictions &+= cache.evictions
            }
            for notice in event.notices {
                counts.agreementWordsLeft[LabelPair(labels.label(notice.locale, metrics), notice.reason), default: 0] +=
                    1
            }
        }
        self.labels = labels
        if let cache = event.localeCache {
            localeCaches[cache.renderer] = (cache.bytes, cache.bound)
            let total = localeCaches.values.reduce((0, 0)) { ($0.0 + $1.bytes, $0.1 + $1.bound) }
            counts.count {
                $0.localeCacheBytes = total.0
                $0.localeCacheBound = total.1
            }
        }
        if !event.notices.isEmpty { log(event.notices) }
        if let input = event.parked, case .parked(let reason) = event.summary {
            park(input, reason: reason)
        } else {
            outbound.append(event, key: event.ref?.source ?? "")
        }
    }

    // MARK: Redrive

    /// Publishes the dead letters an operator had rendered again (rendered on the RPC thread),
    /// outside the sequence books: their outputs complete nothing. Their outputs carry the
    /// letter's trace context as it came (no span of the worker's).
    mutating func redrive() {
        guard let redrives = pipeline.redrives else { return }
        for result in redrives.take() {
            counts.count { $0.redriven += 1 }
            enqueue(result)
        }
    }

    // MARK: Parking

    /// Keeps an event whose render failed because of the configuration, to render it again after
    /// the next successful reload; it is not completed meanwhile (a restart asks the source for it
    /// again). Beyond `render.max_parked` it is dead-lettered after all.
    mutating func park(_ event: InputEvent, reason: String) {
        guard parked.count < settings.maxParked else {
            enqueue(
                EventRenderer.deadLetter(
                    .renderFailed,
                    reason + " (not parked: render.max_parked events already wait for a reload)",
                    event: event
                )
            )
            return
        }
        parked.append(event)
        parkedSoFar += 1
        if isLoggedOccurrence(parkedSoFar) {
            var metadata: Logger.Metadata = [
                "source": "\(event.header.sourceID)", "sequence": "\(event.header.sequence)", "reason": "\(reason)",
                "parked_so_far": "\(parkedSoFar)",
            ]
            metadata.addTrace(event.header.traceParent)
            logger.error("event parked until a reload: the catalog cannot render it", metadata: metadata)
        }
    }

    /// After a successful reload, the parked events go back to be rendered first.
    mutating func unpark() {
        guard !parked.isEmpty else { return }
        var events: [InputEvent] = []
        while let event = parked.removeFirst() { events.append(event) }
        counts.count { $0.unparked += UInt64(events.count) }
        logger.notice("rendering parked events again after a reload", metadata: ["events": "\(events.count)"])
        pending.prepend(contentsOf: events.map { ($0.header.sourceID, $0) })
    }

    /// Logs each word agreement left as written once per (locale, reason, word), the first
    /// ``noticeLogLimit`` of them; the counter keeps counting after that.
    private mutating func log(_ notices: [AgreementNotice]) {
        for notice in notices where loggedNotices.count <= Self.noticeLogLimit {
            guard loggedNotices.insert(notice).inserted else { continue }
            if loggedNotices.count > Self.noticeLogLimit {
                logger.warning(
                    "agreement: more words left as written than are logged; see caffe_worker_agreement_words_left_total",
                    metadata: ["logged": "\(Self.noticeLogLimit)"]
                )
                return
            }
            logger.warning(
                "agreement left a word as written",
                metadata: [
                    "locale": "\(notice.locale)", "reason": "\(notice.reason)", "word": "\(notice.word)",
                    "fix": "declare it in the catalog's Menu table, or run caffe lint --agreement",
                ]
            )
        }
    }

    private static let noticeLogLimit = 1000
    private var loggedNotices: Set<AgreementNotice> = []

    // MARK: Output

    /// Offers what is rendered to the output, each source in turn, until it takes no more: a
    /// source whose outputs the output refuses (its share is full) is passed over for now.
    mutating func flush(at now: ContinuousClock.Instant) throws(ZMQError) {
        var refused: [(key: String, element: RenderedEvent)] = []
        var refusedInARow = 0
        let spans = settings.spans
        while refusedInARow < max(1, outbound.keyCount), var head = outbound.removeFirst() {
            let output = output
            let accepted = try counts.counting { counts throws(ZMQError) in
                let taken = try output.offer(&head, at: now, counts: &counts)
                if taken, head.sentAt != 0, let kind = head.latencyKind {
                    // From the source's sent_at to the output socket taking the last output.
                    let latency = max(0, WallClock.nanoseconds() - head.sentAt)
                    counts.eventLatency[kind, default: LatencyHistogram()].record(nanoseconds: UInt64(latency))
                }
                if taken, let span = head.span, let spans {
                    span.publishedAt = WallClock.nanoseconds()
                    spans.record(span)
                }
                return taken
            }
            if accepted {
                refusedInARow = 0
            } else {
                refused.append((head.ref?.source ?? "", head))
                refusedInARow += 1
            }
        }
        if !refused.isEmpty { outbound.prepend(contentsOf: refused) }
        complete(output.takeCompleted(), at: now)
    }

    mutating func complete(_ refs: [SequenceRef], at now: ContinuousClock.Instant) {
        carryOut(books.delivered(refs), at: now)
    }

    // MARK: Gap recovery

    /// Takes the replay replies that arrived and sends the requests that are due.
    mutating func serviceReplay(at now: ContinuousClock.Instant) throws(ZMQError) {
        for reply in try replay.receive() { take(reply, at: now) }
        carryOut(books.due(at: now), at: now)
        replay.closeIdle(at: now)
    }

    /// Sends a replay request the books decided on.
    mutating func fetch(_ routed: Intake.ReplayRequest, standing: ReplayStanding, at now: ContinuousClock.Instant) {
        let request = routed.request
        switch replay.send(routed, standing: standing, at: now) {
        case .sent(let connected):
            counts.count {
                if connected { $0.replayConnections += 1 }
                $0.replayRequests += 1
            }
        case .postponed:
            books.postpone(request, at: now)
        case .notSent:
            break
        case .unusable(let reason):
            // An endpoint libzmq refuses will not work later either: give the gap up now.
            carryOut(books.unusable(request, reason: reason), at: now)
        }
    }

    /// Takes a source's reply: its events go through intake like live ones; what it names as
    /// unavailable is given up.
    mutating func take(_ reply: ReplayClient.Reply, at now: ContinuousClock.Instant) {
        let request = reply.request
        switch reply.answer {
        case .refused:
            carryOut(books.replied(to: request, .refused, at: now).actions, at: now)
        case .served(let events, let unavailable):
            let headers = events.map(\.event.header)
            let (decisions, actions) = books.replied(
                to: request,
                .served(events: headers, unavailable: unavailable),
                at: now
            )
            counts.count { $0.replayedEvents += UInt64(events.count) }
            carryOut(actions, at: now)
            for (index, decision) in decisions.enumerated() {
                carryOut(decision, for: events[index].event, frames: events[index].frames)
            }
            logger.info(
                "replay received",
                metadata: [
                    "source": "\(request.source)", "events": "\(events.count)", "unavailable": "\(unavailable.count)",
                ]
            )
        }
    }

    /// Reports `gap` loudly (metric, error log, dead letter); the dead letter completes the range.
    mutating func giveUp(_ gap: GapRecovery.Abandoned) {
        replay.forget(gap.id)
        let size = gap.range.upperBound - gap.range.lowerBound + 1
        counts.count {
            $0.unrecoverableGaps += 1
            WorkerCounts.add(size, to: &$0.unrecoverableSequences)
        }
        logger.error(
            "unrecoverable gap",
            metadata: [
                "source": "\(SourceStream.describe(gap.source))", "from": "\(gap.range.lowerBound)",
                "to": "\(gap.range.upperBound)",
                "reason": "\(gap.reason)",
            ]
        )
        enqueue(EventRenderer.unrecoverableGap(gap))
    }

    // MARK: Checkpoint

    mutating func checkpointIfDue(at now: ContinuousClock.Instant) {
        carryOut(books.checkpointIfDue(at: now), at: now)
    }

    // MARK: Waiting

    /// Sets the lag gauges from the books, at most once a second, and less often with many
    /// active sources (a scan of 20,000 a second at most).
    mutating func updateLag(at now: ContinuousClock.Instant) {
        guard now >= nextLagScan else { return }
        let active = books.intake.tracker.counts.active
        nextLagScan = now + .seconds(max(1, active / 20_000))
        let (furthest, total) = books.lag(limit: WorkerCounts.maxLagLabels)
        let labels = Dictionary(
            furthest.map { (SourceStream.describe($0.source), $0.events) },
            uniquingKeysWith: { max($0, $1) }
        )
        let current = counts.counts
        guard current.totalLag != total || current.sourceLag != labels else { return }
        counts.count {
            $0.totalLag = total
            $0.sourceLag = labels
        }
    }

    mutating func updateGauges() {
        let queued = queued
        let gaps = books.pendingGaps
        let sources = books.intake.tracker.counts
        let current = counts.counts
        if current.renderQueue != queued || current.pendingGaps != gaps || current.activeSources != sources.active
            || current.dormantSources != sources.dormant || current.parkedNow != parked.count
        {
            let parkedNow = parked.count
            counts.count {
                $0.parkedNow = parkedNow
                $0.renderQueue = queued
                $0.pendingGaps = gaps
                $0.activeSources = sources.active
                $0.dormantSources = sources.dormant
            }
        }
    }

    /// Waits for something to do: input (when there is room), the output, replay replies,
    /// helpers' results, a stop request, or the next timer.
    mutating func wait(draining: Bool) throws(ZMQError) {
        // With every helper busy in delegate mode, what waits waits for a helper's results.
        if !pending.isEmpty, placement.mode == .inline || pool?.hasIdleHelper == true { return }
        if !outbound.isEmpty, output.interest.isEmpty { return }
        if polls.version != replay.connections.version {
            polls = PollSet(
                input: input,
                output: output,
                control: control,
                results: results,
                monitors: monitors,
                replay: replay.connections,
                redrives: pipeline.redrives
            )
        }
        let acceptsInput = !draining && queued < settings.queueCapacity
        polls.poller.update(polls.input, for: acceptsInput ? .readable : [])
        polls.poller.update(polls.output, for: output.interest)
        let now = ContinuousClock.now
        var deadline = now + .seconds(1)
        for candidate in [
            books.nextDue, output.nextDeadline, replay.connections.nextIdleCheck, books.intake.tracker.nextIdleCheck,
            books.nextCheckpointDue,
        ] {
            if let candidate, candidate < deadline { deadline = candidate }
        }
        if draining, isIdle, !output.isSettled { deadline = min(deadline, now + .milliseconds(10)) }
        if let publish = counts.nextPublish, publish < deadline { deadline = publish }
        let timeout = max(Duration.zero, deadline - now)
        // Milliseconds, rounded up so a timer is never polled for just before it is due.
        var milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        milliseconds += Int32((timeout.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        // Idle: warm the session one order at a time, looking at the sockets between orders.
        if !draining, renderer.isWarmingUp {
            // Idle-time work: it counts as waiting, not as the load's.
            renderer.warmUpStep()
            placement.waited(ContinuousClock.now - now)
            milliseconds = 0
        }
        if let results, !results.prepareToSleep() { return }
        flushHeldBackLogs(at: now)
        counts.publish(force: true)
        let sleeping = ContinuousClock.now
        _ = try polls.poller.poll(timeout: .milliseconds(milliseconds))
        placement.waited(ContinuousClock.now - sleeping)
        results?.awake()
        if polls.poller.isReadable(polls.control) { control.drain() }
        if let item = polls.redrives, polls.poller.isReadable(item) { pipeline.redrives?.wakeup.drain() }
        for (item, watch) in polls.monitors where polls.poller.isReadable(item) {
            let events = watch.drain()
            counts.count {
                $0.handshakeFailures += events.handshakeFailures
                $0.inputDisconnects += events.disconnects
            }
            if watch.socket === outputWatch?.socket, !events.closed.isEmpty { output.connectionsClosed(events.closed) }
        }
    }

    // MARK: Ending

    /// Writes the final checkpoint and closes the sockets.
    mutating func finish(_ ending: EventPipeline.Ending) -> EventPipeline.Ending {
        complete(output.takeCompleted(), at: .now)
        var ending = ending
        if !checkpoints.writeFinal(books.finalChange()), case .drained = ending {
            ending = .failed(
                WorkerError(
                    .checkpoint,
                    "the final checkpoint could not be written; a restart renders again what it lacks",
                    key: "checkpoint.path"
                )
            )
        }
        let undelivered = queued
        if case .abandoned = ending {
            logger.error(
                "drain timed out; abandoning undelivered work (it stays out of the checkpoint and is replayed after a restart)",
                metadata: ["undelivered": "\(undelivered)", "output_settled": "\(output.isSettled)"]
            )
        }
        updateGauges()
        counts.publish(force: true)
        input.close(linger: .milliseconds(0))
        replay.closeAll()
        for watch in monitors { watch.stop() }
        let delivered: Bool = if case .abandoned = ending { false } else { true }
        output.socket.close(linger: delivered ? ZMQTimeout(settings.outputLinger) : .milliseconds(0))
        return ending
    }
}

/// What the pipeline thread waits on, in one `zmq_poll`: input, output, the stop request, the
/// helpers' results, socket monitors and the replay connections.
private struct PollSet {
    var poller = ZMQPoller()
    let input: ZMQPoller.Item
    let output: ZMQPoller.Item
    let control: ZMQPoller.Item
    /// The redrive queue's wakeup, when there is one.
    let redrives: ZMQPoller.Item?
    let monitors: [(item: ZMQPoller.Item, watch: SocketWatch)]
    /// The ``ReplayConnections/version`` registered.
    let version: Int

    init(
        input: ZMQSocket,
        output: any OutputChannel,
        control: ZMQWakeup,
        results: Mailbox<RenderedEvent>?,
        monitors: [SocketWatch],
        replay: ReplayConnections,
        redrives: RedriveQueue?
    ) {
        self.input = poller.register(input, for: .readable)
        if let redrives {
            self.redrives = poller.register(fileDescriptor: redrives.wakeup.fileDescriptor, for: .readable)
        } else {
            self.redrives = nil
        }
        self.output = poller.register(output.socket, for: output.interest)
        self.control = poller.register(fileDescriptor: control.fileDescriptor, for: .readable)
        if let results { poller.register(fileDescriptor: results.wakeup.fileDescriptor, for: .readable) }
        var watched: [(ZMQPoller.Item, SocketWatch)] = []
        for watch in monitors { watched.append((poller.register(watch.socket, for: .readable), watch)) }
        self.monitors = watched
        for connection in replay.connections.values { poller.register(connection.socket, for: .readable) }
        version = replay.version
    }
}

/// Locale labels for the metrics, cached per thread (the shared table takes a lock).
struct LabelCache {
    private var labels: [String: String] = [:]

    mutating func label(_ locale: String, _ metrics: WorkerMetrics) -> String {
        if let label = labels[locale] { return label }
        if labels.count > 256 { labels.removeAll() }
        let label = metrics.localeLabel(locale)
        labels[locale] = label
        return label
    }
}

/// Which locales the pipeline thread compiles after all: one it has deferred
/// ``LocalePromotion/threshold`` times, at most one per ``LocalePromotion/interval``. A real
/// market's locale soon qualifies and is rendered here from then on; a flood of one-off locales
/// never does, and costs this thread nothing. With no helper thread, new locales are compiled
/// here from a small budget (``takeSoleThreadBudget(at:)``); past it they are approximated.
struct LocalePromotion {
    static let threshold = 8
    static let interval = Duration.seconds(2)
    private var deferrals: [String: Int] = [:]
    private var next: ContinuousClock.Instant?
    /// With no helper thread: compilations this thread may still do (a bucket of
    /// ``soleThreadBurst``, refilled at one a second).
    private var budget = Double(soleThreadBurst)
    private var budgetAt: ContinuousClock.Instant?
    static let soleThreadBurst = 8

    /// Whether a thread with no helper may compile a new locale now.
    mutating func takeSoleThreadBudget(at now: ContinuousClock.Instant) -> Bool {
        if let last = budgetAt {
            let elapsed = now - last
            budget = min(
                Double(Self.soleThreadBurst),
                budget + Double(elapsed.components.seconds)
                    + Double(elapsed.components.attoseconds) / 1e18
            )
        }
        budgetAt = now
        guard budget >= 1 else { return false }
        budget -= 1
        return true
    }

    mutating func shouldCompile(_ locale: String, at now: ContinuousClock.Instant) -> Bool {
        let seen = (deferrals[locale] ?? 0) + 1
        guard seen >= Self.threshold, next.map({ now >= $0 }) ?? true else {
            if deferrals.count >= 4096 { deferrals.removeAll(keepingCapacity: true) }
            deferrals[locale] = seen
            return false
        }
        deferrals[locale] = nil
        next = now + Self.interval
        return true
    }
}
