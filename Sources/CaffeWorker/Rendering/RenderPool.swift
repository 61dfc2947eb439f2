import CaffeBooks
import CaffeCore
import CaffeProtocol
import Dispatch
import Foundation
import ServiceLifecycle
import Synchronization

/// Render threads that take the event pipeline's rendering when it piles up or keeps it busy.
///
/// The pipeline renders on its own thread while it has time to spare: an event that arrives alone
/// is received, rendered and sent by one thread, with no hand-off (at moderate rates each hand-off
/// between threads costs a wake-up, ~20 µs of CPU on this kind of machine). When several events
/// wait (``backlogForHelp``), it gives the newer half of them to an idle helper (``trySubmit(_:)``),
/// one wake-up for the whole batch; once the pipeline is busy (``RenderPlacement``) it gives the
/// helpers every event and keeps only the serial work. Results come back through a ``Mailbox``.
final class RenderPool: Service {
    /// Events for one helper, and where their results go.
    struct Batch: @unchecked Sendable {
        var events: [InputEvent]
        var results: Mailbox<RenderedEvent>
    }

    let helpers: Int
    private let cores: CoreBox
    private let limits: CaffeProtocolLimits
    private let queue = Mutex<[Batch]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let idle = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)

    /// The most events one batch carries.
    static let maxBatch = 64

    /// Events waiting before the pipeline asks for help: below it, waiting for the pipeline's own
    /// thread costs less than waking a helper (a few renders, against a wake-up on each side).
    static let backlogForHelp = 6

    private let localeCacheBytes: Int
    private let prepareLocales: [String]
    private let warmUp: Bool

    init(
        helpers: Int,
        cores: CoreBox,
        limits: CaffeProtocolLimits,
        localeCacheBytes: Int = RenderSession.defaultLocaleCacheBytes,
        prepareLocales: [String] = [],
        warmUp: Bool = true
    ) {
        self.helpers = helpers
        self.cores = cores
        self.limits = limits
        self.localeCacheBytes = localeCacheBytes
        self.prepareLocales = prepareLocales
        self.warmUp = warmUp
    }

    /// Hands `batch` to an idle helper; `false` (and nothing taken) when every helper is busy.
    func trySubmit(_ batch: Batch) -> Bool {
        var available = idle.load(ordering: .relaxed)
        while available > 0 {
            let (exchanged, original) = idle.compareExchange(
                expected: available,
                desired: available - 1,
                ordering: .acquiringAndReleasing
            )
            if exchanged {
                queue.withLock { $0.append(batch) }
                ready.signal()
                return true
            }
            available = original
        }
        return false
    }

    /// Whether a helper is waiting for work.
    var hasIdleHelper: Bool { idle.load(ordering: .relaxed) > 0 }

    /// How many helpers wait for work.
    var idleHelpers: Int { idle.load(ordering: .relaxed) }

    /// Runs the helpers until graceful shutdown (by then the pipeline has stopped submitting).
    func run() async throws {
        guard helpers > 0 else {
            try? await gracefulShutdown()
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<helpers {
                group.addTask {
                    await runOnDedicatedThread(named: "caffe-render-\(index + 1)") { self.help(id: index + 1) }
                }
            }
            try? await gracefulShutdown()
            stopping.store(true, ordering: .sequentiallyConsistent)
            for _ in 0..<helpers { ready.signal() }
            await group.waitForAll()
        }
    }

    /// One helper: waits for a batch, renders it, posts the results.
    private func help(id: Int) {
        var renderer = EventRenderer(
            cores: cores,
            limits: limits,
            id: id,
            localeCacheBytes: localeCacheBytes,
            prepare: prepareLocales,
            warmUp: warmUp
        )
        idle.add(1, ordering: .releasing)
        while true {
            // Idle: warm the session one order at a time, taking a batch as soon as one comes.
            while renderer.isWarmingUp, ready.wait(timeout: .now()) == .timedOut { renderer.warmUpStep() }
            if !renderer.isWarmingUp { ready.wait() }
            guard !stopping.load(ordering: .acquiring) else { return }
            // A signal comes with a batch (or the stop); without one, this helper is still idle.
            guard let batch = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            renderer.refresh()
            var results: [RenderedEvent] = []
            results.reserveCapacity(batch.events.count)
            for event in batch.events { results.append(renderer.render(event)) }
            // Idle again before the results are seen: the pipeline, woken by them, can hand
            // this helper the next batch at once.
            idle.add(1, ordering: .releasing)
            batch.results.post(results)
        }
    }
}
