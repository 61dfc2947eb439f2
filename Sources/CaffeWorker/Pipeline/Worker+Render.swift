import CaffeCore
import CaffeProtocol
import CoreMetrics
import Dispatch
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A render thread's sockets: events from intake, RPC requests from the RPC thread, and where
/// results go.
struct RenderSockets {
    let work: ZMQSocket
    let results: ZMQSocket
    let rpcWork: ZMQSocket?
    let rpcDone: ZMQSocket?
}

/// What a render thread's per-thread timer and counter caches are keyed by.
private struct MetricKey: Hashable {
    let kind: String
    let locale: String
}

extension Worker {
    func openRenderSockets() throws(ZMQError) -> RenderSockets {
        let work = try context.socket(.pull)
        try work.set(.receiveHighWaterMark, to: Int32(configuration.render.queue))
        try work.connect(renderPipe)
        let results = try context.socket(.push)
        try results.connect(publishPipe)
        guard configuration.rpc.endpoint != nil else {
            return RenderSockets(work: work, results: results, rpcWork: nil, rpcDone: nil)
        }
        let rpcWork = try context.socket(.pull)
        try rpcWork.set(.receiveHighWaterMark, to: 1)
        try rpcWork.connect(rpcWorkPipe)
        let rpcDone = try context.socket(.push)
        try rpcDone.connect(rpcDonePipe)
        return RenderSockets(work: work, results: results, rpcWork: rpcWork, rpcDone: rpcDone)
    }

    /// A render thread: renders events and RPC requests until intake and the RPC endpoint have
    /// stopped and nothing is left for it.
    func render(_ sockets: RenderSockets) {
        var renderer = EventRenderer(worker: self)
        var requests = RequestRendering(session: renderer.rendering.session)
        var poller = ZMQPoller()
        poller.register(sockets.work, for: .readable)
        if let rpcWork = sockets.rpcWork { poller.register(rpcWork, for: .readable) }
        let limits = limits
        while true {
            if renderer.refresh() { requests = RequestRendering(session: renderer.rendering.session) }
            var busy = false
            do {
                if let frames = try sockets.work.tryReceiveMultipart() {
                    busy = true
                    metrics.renderQueue.add(-1, ordering: .relaxed)
                    send(renderer.handOff(for: frames), on: sockets.results, what: "result hand-off")
                }
                if let rpcWork = sockets.rpcWork, let rpcDone = sockets.rpcDone,
                    let frames = try rpcWork.tryReceiveMultipart()
                {
                    busy = true
                    metrics.rpcQueue.add(-1, ordering: .relaxed)
                    let (reply, method, code) = requests.reply(to: frames, limits: limits)
                    metrics.rpcRequest(method: method, code: code.grpcName)
                    if let reply { send(reply, on: rpcDone, what: "rpc reply") }
                }
            } catch {
                logger.error("render receive failed", metadata: ["error": "\(error)"])
                break
            }
            if !busy {
                if intakeFinished.load(ordering: .sequentiallyConsistent),
                    rpcIntakeFinished.load(ordering: .sequentiallyConsistent)
                {
                    // Both producers are done; one more look catches anything sent just before.
                    if ((try? poller.poll(timeout: .zero)) ?? 0) == 0 { break }
                    continue
                }
                _ = try? poller.poll(timeout: .milliseconds(50))
            }
        }
        sockets.work.close(linger: .milliseconds(0))
        sockets.rpcWork?.close(linger: .milliseconds(0))
        sockets.results.close(linger: .infinite)
        sockets.rpcDone?.close(linger: .infinite)
        renderersRunning.add(-1, ordering: .sequentiallyConsistent)
    }
}

/// Renders events for one render thread: the thread's session, swapped when the core is
/// reloaded, and its metric handles.
struct EventRenderer {
    let worker: Worker
    private(set) var rendering: EventRendering
    private var generation: Int
    private var timers: [MetricKey: CoreMetrics.Timer] = [:]
    private var outputs: [MetricKey: WorkerCounter] = [:]
    private let limits: CaffeProtocolLimits

    init(worker: Worker) {
        self.worker = worker
        let (core, generation) = worker.currentCore
        rendering = EventRendering(session: core.makeSession())
        self.generation = generation
        limits = worker.limits
    }

    /// Takes up a reloaded core, if there is one; true when the session changed.
    mutating func refresh() -> Bool {
        guard worker.coreGeneration.load(ordering: .relaxed) != generation else { return false }
        let core: RenderingCore
        (core, generation) = worker.currentCore
        rendering = EventRendering(session: core.makeSession())
        return true
    }

    /// Renders one input event and records its metrics; the result is what the publisher takes:
    /// the completion mark (empty when the input had no readable reference), then the outputs.
    mutating func handOff(for frames: [ZMQMessage]) -> [ZMQMessage] {
        let metrics = worker.metrics
        let started = DispatchTime.now().uptimeNanoseconds
        let result = rendering.outputs(for: frames, limits: limits)
        let elapsed = DispatchTime.now().uptimeNanoseconds - started
        if let reason = result.deadLetterReason {
            metrics.deadLetter(reason: reason)
        } else {
            metrics.rendered.add()
            // Bounded per thread: locales come from requests.
            if timers.count > 512 || outputs.count > 512 {
                timers.removeAll()
                outputs.removeAll()
            }
            let key = MetricKey(kind: result.kind, locale: result.locale)
            let timer =
                timers[key]
                ?? {
                    let timer = metrics.renderTimer(kind: key.kind, locale: metrics.localeLabel(key.locale))
                    timers[key] = timer
                    return timer
                }()
            timer.recordNanoseconds(Int64(elapsed))
            for output in result.outputs {
                let key = MetricKey(kind: output.kind, locale: output.locale)
                let counter =
                    outputs[key]
                    ?? {
                        let counter = metrics.counter(
                            "outputs",
                            [("kind", key.kind), ("locale", metrics.localeLabel(key.locale))]
                        )
                        outputs[key] = counter
                        return counter
                    }()
                counter.add()
            }
        }
        let mark = result.ref.map { CompletionMark(source: $0.sourceID, range: $0.sequence...$0.sequence) }
        var handOff = [mark.flatMap { $0.range.lowerBound > 0 ? $0.frame : nil } ?? ZMQMessage()]
        handOff.reserveCapacity(1 + result.frames.count)
        handOff += result.frames
        return handOff
    }
}
