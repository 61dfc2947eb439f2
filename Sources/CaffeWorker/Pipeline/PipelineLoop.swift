import CaffeBooks
import CaffeProtocol
import Logging
import ZeroMQ

/// The pipeline thread's loop over sockets: it owns the poll set and the clock, turns the stages
/// (``PipelineStages``) whenever something is ready, and sleeps in one `zmq_poll` until the next
/// message, helper result, stop request or timer. It ends by draining or abandoning, writes the
/// final checkpoint and closes the sockets.
struct PipelineLoop {
    var stages: PipelineStages
    private let sockets: EventPipeline.Sockets
    /// The stop request's wake-up.
    private let control: ZMQWakeup
    private let outputLinger: Duration
    private var polls: PollSet

    init(stages: PipelineStages, sockets: EventPipeline.Sockets, control: ZMQWakeup, outputLinger: Duration) {
        self.stages = stages
        self.sockets = sockets
        self.control = control
        self.outputLinger = outputLinger
        polls = PollSet(sockets, stages: stages, control: control)
    }

    /// Runs until `stop` asks to (draining or abandoning) or a socket fails.
    mutating func run(stop: () -> ThreadStop.Request) -> EventPipeline.Ending {
        var ending = EventPipeline.Ending.drained
        do {
            while true {
                let request = stop()
                if request == .abandon {
                    ending = .abandoned
                    break
                }
                let draining = request != .none
                let now = ContinuousClock.now
                try stages.turn(at: now, draining: draining, cpu: ThreadCPUTime.now())
                if draining, stages.isIdle, stages.output.isSettled { break }
                stages.updateGauges(at: now)
                stages.telemetry.counts.publishIfRequested()
                stages.telemetry.counts.publish()
                try wait(draining: draining)
                stages.telemetry.counts.publishIfRequested()
            }
        } catch {
            stages.telemetry.logger.error("event pipeline stopped", metadata: ["error": "\(error)"])
            ending = .failed(WorkerError(.stageFailed, "the event pipeline stopped", cause: error))
        }
        return finish(ending)
    }

    /// Waits for something to do: input (when there is room), the output, replay replies,
    /// helpers' results, a stop request, or the next timer. While idle, it warms the render
    /// session up one order at a time, looking at the sockets between orders.
    private mutating func wait(draining: Bool) throws(ZMQError) {
        // With every helper busy in delegate mode, what waits waits for a helper's results.
        if stages.render.canProceed || stages.output.mustRetry { return }
        if polls.version != stages.recovery.replay.connections.version {
            polls = PollSet(sockets, stages: stages, control: control)
        }
        polls.poller.update(polls.input, for: !draining && stages.acceptsInput ? .readable : [])
        polls.poller.update(polls.output, for: stages.output.channel.interest)
        let now = ContinuousClock.now
        var deadline = min(now + .seconds(1), stages.nextDeadline ?? now + .seconds(1))
        if draining, stages.isIdle, !stages.output.isSettled { deadline = min(deadline, now + .milliseconds(10)) }
        let timeout = max(Duration.zero, deadline - now)
        // Milliseconds, rounded up so a timer is never polled for just before it is due.
        var milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        milliseconds += Int32((timeout.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        if !draining, stages.render.isWarmingUp {
            stages.render.warmUpStep(waitedSince: now)
            milliseconds = 0
        }
        if let results = stages.render.results, !results.prepareToSleep() { return }
        stages.telemetry.flushHeldBackLogs(at: now)
        stages.telemetry.counts.publish(force: true)
        let sleeping = ContinuousClock.now
        _ = try polls.poller.poll(timeout: .milliseconds(milliseconds))
        stages.render.waited(ContinuousClock.now - sleeping)
        stages.render.results?.awake()
        if polls.poller.isReadable(polls.control) { control.drain() }
        if let item = polls.redrives, polls.poller.isReadable(item) { stages.recovery.redrives?.wakeup.drain() }
        for (item, watch) in polls.monitors where polls.poller.isReadable(item) {
            let events = watch.drain()
            stages.telemetry.count {
                $0.handshakeFailures += events.handshakeFailures
                $0.inputDisconnects += events.disconnects
            }
            if watch.socket === sockets.outputWatch?.socket, !events.closed.isEmpty {
                stages.output.channel.connectionsClosed(events.closed)
            }
        }
    }

    /// Writes the final checkpoint and closes the sockets.
    private mutating func finish(_ ending: EventPipeline.Ending) -> EventPipeline.Ending {
        var ending = ending
        if !stages.writeFinalCheckpoint(at: .now), case .drained = ending {
            ending = .failed(
                WorkerError(
                    .checkpoint,
                    "the final checkpoint could not be written; a restart renders again what it lacks",
                    key: "checkpoint.path"
                )
            )
        }
        if case .abandoned = ending {
            stages.telemetry.logger.error(
                "drain timed out; abandoning undelivered work (it stays out of the checkpoint and is replayed after a restart)",
                metadata: ["undelivered": "\(stages.queued)", "output_settled": "\(stages.output.isSettled)"]
            )
        }
        stages.updateGauges(at: .now)
        stages.telemetry.counts.publish(force: true)
        sockets.input.close(linger: .milliseconds(0))
        stages.recovery.closeAll()
        for watch in sockets.monitors { watch.stop() }
        let delivered: Bool = if case .abandoned = ending { false } else { true }
        sockets.outputSocket.close(linger: delivered ? ZMQTimeout(outputLinger) : .milliseconds(0))
        return ending
    }
}

/// What the pipeline thread waits on, in one `zmq_poll`: input, output, the stop request, the
/// helpers' results, socket monitors, the redrive queue and the replay connections.
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

    init(_ sockets: EventPipeline.Sockets, stages: PipelineStages, control: ZMQWakeup) {
        input = poller.register(sockets.input, for: .readable)
        if let queue = stages.recovery.redrives {
            redrives = poller.register(fileDescriptor: queue.wakeup.fileDescriptor, for: .readable)
        } else {
            redrives = nil
        }
        output = poller.register(sockets.outputSocket, for: stages.output.channel.interest)
        self.control = poller.register(fileDescriptor: control.fileDescriptor, for: .readable)
        if let results = stages.render.results {
            poller.register(fileDescriptor: results.wakeup.fileDescriptor, for: .readable)
        }
        var watched: [(ZMQPoller.Item, SocketWatch)] = []
        for watch in sockets.monitors { watched.append((poller.register(watch.socket, for: .readable), watch)) }
        monitors = watched
        let replay = stages.recovery.replay.connections
        for connection in replay.connections.values { poller.register(connection.socket, for: .readable) }
        version = replay.version
    }
}
