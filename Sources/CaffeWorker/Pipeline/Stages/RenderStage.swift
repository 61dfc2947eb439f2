import CaffeBooks
import CaffeCore
import CaffeProtocol
import ZeroMQ

/// Where admitted events wait to be rendered, and where each is rendered: on the pipeline thread
/// while it has time to spare, on the ``RenderPool``'s helpers once it has not
/// (``RenderPlacement``, judged by this thread's CPU time), and always on a helper when its
/// locale is not compiled here (``LocalePromotion``). It renders one event a step, so the loop
/// can offer each result to the output at once.
struct RenderStage {
    /// This thread's renderer, which compiles no locale unless promoted.
    private(set) var renderer: EventRenderer
    let pool: RenderPool?
    /// Where the helpers put what they rendered; `nil` without helpers.
    let results: Mailbox<RenderedEvent>?
    /// Whether this thread renders or leaves every render to the helpers.
    private(set) var placement: RenderPlacement
    /// Admitted, waiting to be rendered: a queue per source, served in turn, so a source that
    /// floods waits behind itself.
    private var pending = FairQueue<InputEvent>()
    /// Handed to the helpers, not back yet.
    private var atPool = 0
    /// Waiting for a helper to render them: their locale is not compiled on this thread.
    private var slowLane = FIFO<InputEvent>()
    /// Locales this thread compiles after all, once common.
    private var promotion = LocalePromotion()

    /// Events waiting for a helper to compile their locale, at most this many.
    static let slowLaneLimit = 256

    init(renderer: EventRenderer, pool: RenderPool?) {
        self.renderer = renderer
        self.pool = pool
        results = pool.flatMap { $0.helpers > 0 ? try? Mailbox<RenderedEvent>() : nil }
        placement = RenderPlacement(helpers: results == nil ? 0 : pool?.helpers ?? 0)
    }

    /// Events admitted and not rendered yet (here or on a helper).
    var count: Int { pending.count + slowLane.count + atPool }
    var isEmpty: Bool { pending.isEmpty && slowLane.isEmpty && atPool == 0 }
    /// Whether an event waits that can be rendered or handed off now, without waiting.
    var canProceed: Bool { !pending.isEmpty && (placement.mode == .inline || pool?.hasIdleHelper == true) }

    /// Queues an admitted event behind its source's others.
    mutating func append(_ event: InputEvent) {
        pending.append(event, key: event.header.sourceID)
    }

    /// Queues events to be rendered before everything else (parked events after a reload).
    mutating func prepend(_ events: [InputEvent]) {
        pending.prepend(contentsOf: events.map { ($0.header.sourceID, $0) })
    }

    /// Switches to a reloaded core between two events; `true` when it did.
    mutating func refresh() -> Bool { renderer.refresh() }

    /// Starts the next placement window when this one is over (`cpu`: this thread's CPU time).
    mutating func tick(at now: ContinuousClock.Instant, cpu: @autoclosure () -> Duration?) {
        placement.tick(at: now, cpu: cpu(), backlog: pending.count + slowLane.count)
    }

    /// Records time this thread waited for work in its poll (the busy share's other side).
    mutating func waited(_ duration: Duration) { placement.waited(duration) }

    /// Notes a render's cost for placement.
    mutating func note(_ event: RenderedEvent) {
        if case .rendered(_, _, _, let nanoseconds) = event.summary { placement.rendered(nanoseconds: nanoseconds) }
    }

    /// What one step did.
    enum Step {
        /// Rendered here, or dead-lettered by the renderer.
        case rendered(RenderedEvent)
        /// Gone to a helper (its locale is not compiled here).
        case handedOff
    }

    /// Takes the next waiting event: with a backlog and an idle helper the newer half goes to the
    /// helper first; then one event is rendered here. `nil` when nothing waits, or in delegate mode
    /// (``delegate()`` hands everything out).
    mutating func step(at now: ContinuousClock.Instant, telemetry: inout PipelineTelemetry) -> Step? {
        submitSlowLane()
        guard placement.mode == .inline else { return nil }
        if let pool, let results, pending.count >= RenderPool.backlogForHelp, pool.hasIdleHelper {
            let share = min(pending.count / 2, RenderPool.maxBatch)
            let batch = RenderPool.Batch(events: pending.removeFirst(share), results: results)
            if pool.trySubmit(batch) {
                atPool += batch.events.count
            } else {
                prepend(batch.events)
            }
        }
        guard let event = pending.removeFirst() else { return nil }
        return renderHere(event, at: now, telemetry: &telemetry)
    }

    /// Hands what waits to the idle helpers, shared evenly, none of it rendered here; what no
    /// helper can take now waits for the next one to come back.
    mutating func delegate() {
        submitSlowLane()
        guard placement.mode == .delegate, let pool, let results else { return }
        while !pending.isEmpty {
            let idle = pool.idleHelpers
            guard idle > 0 else { return }
            let share = min(RenderPool.maxBatch, (pending.count + idle - 1) / idle)
            let batch = RenderPool.Batch(events: pending.removeFirst(share), results: results)
            guard pool.trySubmit(batch) else {
                prepend(batch.events)
                return
            }
            atPool += batch.events.count
            placement.delegated(batch.events.count)
        }
    }

    /// What the helpers rendered since the last call.
    mutating func takeResults() -> [RenderedEvent] {
        guard let results, atPool > 0 else { return [] }
        let batch = results.take()
        atPool -= batch.count
        return batch
    }

    /// Renders `event` on this thread without compiling a locale: an event whose locale is not
    /// compiled here goes to a helper (which compiles it), is compiled here once it has proved
    /// common (``LocalePromotion``), or — with the slow lane full, or no helper and no budget
    /// left — is rendered with the nearest compiled locale, with a note saying so.
    private mutating func renderHere(
        _ event: InputEvent,
        at now: ContinuousClock.Instant,
        telemetry: inout PipelineTelemetry
    ) -> Step {
        let result = renderer.render(event, newLocales: .defer)
        guard case .deferred(let locale) = result.summary, let input = result.parked else {
            return .rendered(result)
        }
        if promotion.shouldCompile(locale, at: now) {
            telemetry.count { $0.localePromotions += 1 }
            return .rendered(renderer.render(input, newLocales: .compile))
        } else if results != nil, slowLane.count < Self.slowLaneLimit {
            slowLane.append(input)
            submitSlowLane()
            return .handedOff
        } else if results == nil, promotion.takeSoleThreadBudget(at: now) {
            // No helper to compile it: this thread does, a few times a second at most.
            return .rendered(renderer.render(input, newLocales: .compile))
        } else {
            telemetry.count { $0.localeApproximations += 1 }
            return .rendered(renderer.render(input, newLocales: .approximate))
        }
    }

    /// Hands the slow lane to an idle helper.
    private mutating func submitSlowLane() {
        guard !slowLane.isEmpty, let pool, let results, pool.hasIdleHelper else { return }
        var events: [InputEvent] = []
        while events.count < RenderPool.maxBatch, let event = slowLane.removeFirst() { events.append(event) }
        if pool.trySubmit(RenderPool.Batch(events: events, results: results)) {
            atPool += events.count
        } else {
            slowLane.prepend(contentsOf: events)
        }
    }

    // MARK: Idle time

    var isWarmingUp: Bool { renderer.isWarmingUp }

    /// Warms the session up by one order (idle-time work, counted as waiting).
    mutating func warmUpStep(waitedSince start: ContinuousClock.Instant) {
        renderer.warmUpStep()
        placement.idled(ContinuousClock.now - start)
    }
}
