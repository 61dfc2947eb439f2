import CaffeBooks
import CaffeProtocol
import CaffeTransport
import Logging
import Synchronization
import ZeroMQ

/// The one thread that owns the worker's input and output sockets when it runs several
/// pipelines (`input.pipelines`): it reads each input message's header, hands the message to the
/// pipeline that owns its source (``PipelinePartition``), offers what the pipelines rendered to the
/// output channel, and sends each pipeline what the channel completed.
///
/// Per pipeline, two `inproc://` sockets (a *lane*): a PUSH feeding the pipeline's input and a
/// PAIR carrying rendered events in and completions out (``RelayedChannel``). Messages move
/// between threads without copying their frames.
///
/// Bounded like one pipeline: a pipeline that takes nothing fills its lane (its high-water
/// mark), the hub then holds that one message and reads no more input, and the input's
/// high-water mark pushes back on the sources. An output that takes nothing stops the hub
/// reading rendered events, so each pipeline's `render.queue` fills and its intake stops.
///
/// Stopping: graceful shutdown closes intake (``stop``'s drain request) while the pipelines
/// drain; once they have all ended (``pipelinesEnded()``) the hub ends when the output holds
/// nothing undelivered. Cancellation ends it at once.
final class PipelineHub: Sendable {
    /// A pipeline's two sockets, as the hub holds them.
    struct Lane {
        /// Input messages for the pipeline (PUSH, bound).
        var feed: ZMQSocket
        /// Rendered events from the pipeline, completions to it (PAIR, bound).
        var results: ZMQSocket
    }

    struct Sockets {
        var input: ZMQSocket
        var outputSocket: ZMQSocket
        var output: any OutputChannel
        var monitors: [SocketWatch]
        var outputWatch: SocketWatch?
        var lanes: [Lane]
    }

    private let sockets: Handoff<Sockets>
    private let partition: PipelinePartition
    private let limits: CaffeProtocolLimits
    private let metrics: WorkerMetrics
    fileprivate let logger: Logger
    fileprivate let outputLinger: Duration
    let stop: ThreadStop
    private let ended = Atomic<Bool>(false)

    init(
        sockets: Handoff<Sockets>,
        partition: PipelinePartition,
        limits: CaffeProtocolLimits,
        metrics: WorkerMetrics,
        logger: Logger,
        outputLinger: Duration
    ) throws(ZMQError) {
        self.sockets = sockets
        self.partition = partition
        self.limits = limits
        self.metrics = metrics
        self.logger = logger
        self.outputLinger = outputLinger
        stop = try ThreadStop()
    }

    /// Every pipeline has ended: the hub ends once the output holds nothing undelivered.
    func pipelinesEnded() {
        ended.store(true, ordering: .releasing)
        stop.wakeup.signal()
    }

    /// The hub's loop, on its own thread, until it ends or a socket fails.
    func run() -> EventPipeline.Ending {
        var loop = HubLoop(
            hub: self,
            sockets: sockets.value,
            counts: ThreadCounts("hub", in: metrics, wakeup: stop.wakeup)
        )
        return loop.run()
    }

    /// Shutdown began (a drain request): what the input still holds is left to a restart's replay.
    fileprivate var isIntakeClosed: Bool { stop.isRequested }
    fileprivate var havePipelinesEnded: Bool { ended.load(ordering: .acquiring) }

    fileprivate func owner(of frames: [ZMQMessage]) -> Int {
        guard partition.count > 1, frames.count >= 2 else { return 0 }
        // A header that does not decode goes to pipeline 0, whose intake dead-letters it.
        let source = EventFrames.sourceID(inHeaderFrame: frames[1], limits: limits)
        return source.map(partition.owner(of:)) ?? 0
    }

    fileprivate func owner(of ref: SequenceRef) -> Int { partition.owner(ofKey: ref.source) }
}

/// The hub thread's state: what waits for a lane or for the output.
private struct HubLoop {
    let hub: PipelineHub
    let sockets: PipelineHub.Sockets
    var counts: ThreadCounts
    /// An input message its pipeline's lane could not take yet: no more input until it does.
    var heldInput: (lane: Int, frames: [ZMQMessage])?
    /// A rendered event the output could not take yet: no more results until it does.
    var heldOutput: RenderedEvent?
    /// Completions a lane could not take yet, per lane.
    var heldCompletions: [[SequenceRef]]
    /// The lane whose results are read first next turn (each gets its turn first in rotation).
    var nextLane = 0
    var poller: ZMQPoller
    let inputItem: ZMQPoller.Item
    let outputItem: ZMQPoller.Item
    let controlItem: ZMQPoller.Item
    let feedItems: [ZMQPoller.Item]
    let resultItems: [ZMQPoller.Item]
    let monitorItems: [(item: ZMQPoller.Item, watch: SocketWatch)]

    init(hub: PipelineHub, sockets: PipelineHub.Sockets, counts: ThreadCounts) {
        self.hub = hub
        self.sockets = sockets
        self.counts = counts
        heldCompletions = Array(repeating: [], count: sockets.lanes.count)
        var poller = ZMQPoller()
        inputItem = poller.register(sockets.input, for: .readable)
        outputItem = poller.register(sockets.outputSocket, for: sockets.output.interest)
        controlItem = poller.register(fileDescriptor: hub.stop.wakeup.fileDescriptor, for: .readable)
        feedItems = sockets.lanes.map { poller.register($0.feed, for: []) }
        resultItems = sockets.lanes.map { poller.register($0.results, for: .readable) }
        monitorItems = sockets.monitors.map { (poller.register($0.socket, for: .readable), $0) }
        self.poller = poller
    }

    mutating func run() -> EventPipeline.Ending {
        var ending = EventPipeline.Ending.drained
        do {
            while true {
                if hub.stop.request == .abandon {
                    ending = .abandoned
                    break
                }
                let now = ContinuousClock.now
                try relayResults(at: now)
                let output = sockets.output
                try counts.counting { counts throws(ZMQError) in try output.service(at: now, counts: &counts) }
                try returnCompletions()
                if !hub.isIntakeClosed { try routeInput() }
                if hub.havePipelinesEnded, heldOutput == nil, sockets.output.isSettled { break }
                counts.publishIfRequested()
                counts.publish()
                try wait()
                counts.publishIfRequested()
            }
        } catch {
            hub.logger.error("pipeline hub stopped", metadata: ["error": "\(error)"])
            ending = .failed(WorkerError(.stageFailed, "the pipeline hub stopped", cause: error))
        }
        counts.publish(force: true)
        sockets.input.close(linger: .milliseconds(0))
        for lane in sockets.lanes {
            lane.feed.close(linger: .milliseconds(0))
            lane.results.close(linger: .milliseconds(0))
        }
        for watch in sockets.monitors { watch.stop() }
        let delivered: Bool = if case .drained = ending { true } else { false }
        sockets.outputSocket.close(linger: delivered ? ZMQTimeout(hub.outputLinger) : .milliseconds(0))
        return ending
    }

    /// Hands input messages to their pipelines, at most 256 a turn, until a lane is full.
    private mutating func routeInput() throws(ZMQError) {
        if let held = heldInput {
            guard try send(held.frames, on: sockets.lanes[held.lane].feed) else { return }
            heldInput = nil
        }
        var budget = 256
        while budget > 0, let frames = try sockets.input.tryReceiveMultipart() {
            budget -= 1
            let lane = hub.owner(of: frames)
            guard try send(frames, on: sockets.lanes[lane].feed) else {
                heldInput = (lane, frames)
                return
            }
        }
    }

    /// Offers the pipelines' rendered events to the output, each lane in turn, until it refuses one.
    private mutating func relayResults(at now: ContinuousClock.Instant) throws(ZMQError) {
        let output = sockets.output
        if var held = heldOutput {
            let taken = try counts.counting { counts throws(ZMQError) in
                try output.offer(&held, at: now, counts: &counts)
            }
            heldOutput = taken ? nil : held
            guard taken else { return }
        }
        let lanes = sockets.lanes.count
        for step in 0..<lanes {
            let lane = (nextLane + step) % lanes
            var budget = 64
            while budget > 0, let frames = try sockets.lanes[lane].results.tryReceiveMultipart() {
                budget -= 1
                guard var event = Self.event(frames) else { continue }
                let taken = try counts.counting { counts throws(ZMQError) in
                    try output.offer(&event, at: now, counts: &counts)
                }
                if !taken {
                    heldOutput = event
                    nextLane = (lane + 1) % lanes
                    return
                }
            }
        }
        nextLane = (nextLane + 1) % lanes
    }

    /// Sends each pipeline what the output completed of its inputs.
    private mutating func returnCompletions() throws(ZMQError) {
        for ref in sockets.output.takeCompleted() { heldCompletions[hub.owner(of: ref)].append(ref) }
        for lane in heldCompletions.indices where !heldCompletions[lane].isEmpty {
            if try send([RelayedFrames.completions(heldCompletions[lane])], on: sockets.lanes[lane].results) {
                heldCompletions[lane].removeAll(keepingCapacity: true)
            }
        }
    }

    /// Sends a whole message without waiting; `false` (nothing sent) when the socket cannot take it now.
    private func send(_ frames: [ZMQMessage], on socket: ZMQSocket) throws(ZMQError) -> Bool {
        guard let first = frames.first else { return true }
        guard try socket.send(first, more: frames.count > 1, timeout: .zero) else { return false }
        for (index, frame) in frames.enumerated().dropFirst() { try socket.send(frame, more: index < frames.count - 1) }
        return true
    }

    /// A rendered event from a pipeline's message: the ref frame, then three frames per output.
    private static func event(_ frames: [ZMQMessage]) -> RenderedEvent? {
        guard let first = frames.first, (frames.count - 1) % 3 == 0 else { return nil }
        var outputs: [OutputMessage] = []
        outputs.reserveCapacity((frames.count - 1) / 3)
        var index = 1
        while index + 2 < frames.count {
            outputs.append(OutputMessage(topic: frames[index], header: frames[index + 1], body: frames[index + 2]))
            index += 3
        }
        // The summary is the pipeline's to count (it did, when it offered the event); the output
        // channel reads only the ref and the outputs.
        return RenderedEvent(
            ref: RelayedFrames.ref(in: first),
            outputs: outputs,
            summary: .deadLetter(reason: "relayed")
        )
    }

    /// Sleeps until input (when no message is held), a lane, the output, a monitor or a stop.
    private mutating func wait() throws(ZMQError) {
        let open = !hub.isIntakeClosed
        poller.update(inputItem, for: open && heldInput == nil ? .readable : [])
        for (lane, item) in feedItems.enumerated() {
            poller.update(item, for: open && heldInput?.lane == lane ? .writable : [])
        }
        for (lane, item) in resultItems.enumerated() {
            var events: ZMQEvents = heldOutput == nil ? .readable : []
            if !heldCompletions[lane].isEmpty { events.insert(.writable) }
            poller.update(item, for: events)
        }
        poller.update(outputItem, for: sockets.output.interest)
        let now = ContinuousClock.now
        var deadline = now + .seconds(1)
        if let due = sockets.output.nextDeadline { deadline = min(deadline, due) }
        if let due = counts.nextPublish { deadline = min(deadline, due) }
        if hub.havePipelinesEnded { deadline = min(deadline, now + .milliseconds(10)) }
        let timeout = max(.zero, deadline - now)
        let milliseconds = Int32(
            clamping: (timeout.components.seconds * 1000)
                + Int64((timeout.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        )
        _ = try poller.poll(timeout: .milliseconds(milliseconds))
        if poller.isReadable(controlItem) { hub.stop.wakeup.drain() }
        for (item, watch) in monitorItems where poller.isReadable(item) {
            let events = watch.drain()
            counts.count {
                $0.handshakeFailures += events.handshakeFailures
                $0.inputDisconnects += events.disconnects
            }
            if watch.socket === sockets.outputWatch?.socket, !events.closed.isEmpty {
                sockets.output.connectionsClosed(events.closed)
            }
        }
    }
}
