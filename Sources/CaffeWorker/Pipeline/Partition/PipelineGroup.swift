import CaffeBooks
import Logging
import ServiceLifecycle
import Synchronization
import ZeroMQ

/// A worker's pipelines when it runs several (`input.pipelines`), as one service: the
/// ``PipelineHub`` and one ``EventPipeline`` per partition, each on its own thread.
///
/// Graceful shutdown reaches all of them at once: the hub reads no more input, every pipeline
/// drains its sources, and the hub ends once they all have and the output holds nothing
/// undelivered. A pipeline or the hub that fails cancels the rest (they abandon what they hold,
/// which stays out of the checkpoint), as one failing pipeline fails the worker.
final class PipelineGroup: Service {
    let hub: PipelineHub
    let pipelines: [EventPipeline]
    private let ending = Mutex<EventPipeline.Ending?>(nil)

    init(hub: PipelineHub, pipelines: [EventPipeline]) {
        self.hub = hub
        self.pipelines = pipelines
    }

    /// How the run ended (once it has): drained only if every pipeline and the hub drained.
    var result: EventPipeline.Ending? { ending.withLock { $0 } }

    func run() async throws {
        let hub = hub
        let endings = await withTaskGroup(of: (index: Int?, ending: EventPipeline.Ending).self) { group in
            group.addTask { (nil, await runThreadService(named: "caffe-hub", stop: hub.stop) { hub.run() }) }
            for (index, pipeline) in pipelines.enumerated() {
                group.addTask {
                    try? await pipeline.run()
                    return (index, pipeline.result ?? .abandoned)
                }
            }
            var endings: [EventPipeline.Ending] = []
            var pipelinesLeft = pipelines.count
            for await (index, ending) in group {
                endings.append(ending)
                if case .failed = ending { group.cancelAll() }
                if index != nil {
                    pipelinesLeft -= 1
                    if pipelinesLeft == 0 { hub.pipelinesEnded() }
                }
            }
            return endings
        }
        let outcome = Self.combined(endings)
        ending.withLock { $0 = outcome }
        if case .failed(let error) = outcome { throw error }
    }

    /// The first failure, else abandoned if any part abandoned, else drained.
    static func combined(_ endings: [EventPipeline.Ending]) -> EventPipeline.Ending {
        var outcome = EventPipeline.Ending.drained
        for ending in endings {
            switch ending {
            case .failed: return ending
            case .abandoned: outcome = .abandoned
            case .drained: break
            }
        }
        return outcome
    }
}

/// The pipelines as the worker runs them: one ``EventPipeline``, or a ``PipelineGroup``.
protocol PipelineService: Service {
    /// How the run ended, once it has.
    var result: EventPipeline.Ending? { get }
}

extension EventPipeline: PipelineService {}
extension PipelineGroup: PipelineService {}

extension PipelineGroup {
    /// `count` pipelines behind a hub that takes over the worker's `sockets` (its input, output
    /// and their monitors), each pipeline resuming from its share of `resumed`; the lanes between
    /// them are `inproc://` sockets in `parts.context`, named after `name` (unique per worker, as
    /// tests run several in one context). Sockets opened are added to `opened`, to close on failure.
    static func open(
        count: Int,
        name: String,
        sockets: EventPipeline.Sockets,
        configuration: WorkerConfiguration,
        parts: EventPipeline.Parts,
        resumed: Checkpoint,
        opened: inout [ZMQSocket]
    ) throws(ZMQError) -> PipelineGroup {
        let partition = PipelinePartition(count: count)
        let shares = partition.split(resumed)
        var lanes: [PipelineHub.Lane] = []
        var pipelines: [EventPipeline] = []
        for index in 0..<count {
            let context = parts.context
            func pair(_ role: String, _ bound: ZMQSocketType, _ connected: ZMQSocketType) throws(ZMQError)
                -> (ZMQSocket, ZMQSocket)
            {
                let address = "inproc://\(name)-\(role)-\(index)"
                let hubSide = try context.socket(bound)
                opened.append(hubSide)
                let pipelineSide = try context.socket(connected)
                opened.append(pipelineSide)
                for socket in [hubSide, pipelineSide] {
                    try socket.set(.sendHighWaterMark, to: Self.laneHighWaterMark)
                    try socket.set(.receiveHighWaterMark, to: Self.laneHighWaterMark)
                }
                _ = try hubSide.bind(address)
                try pipelineSide.connect(address)
                return (hubSide, pipelineSide)
            }
            let (feed, input) = try pair("feed", .push, .pull)
            let (results, output) = try pair("results", .pair, .pair)
            lanes.append(PipelineHub.Lane(feed: feed, results: results))
            var own = parts
            own.index = index
            own.logger[metadataKey: "pipeline"] = "\(index)"
            pipelines.append(
                try EventPipeline(
                    sockets: Handoff(
                        EventPipeline.Sockets(
                            input: input,
                            outputSocket: output,
                            output: RelayedChannel(socket: output),
                            monitors: [],
                            outputWatch: nil
                        )
                    ),
                    configuration: configuration,
                    parts: own,
                    resumed: shares[index]
                )
            )
        }
        let hubSockets = PipelineHub.Sockets(
            input: sockets.input,
            outputSocket: sockets.outputSocket,
            output: sockets.output,
            monitors: sockets.monitors,
            outputWatch: sockets.outputWatch,
            lanes: lanes
        )
        let hub = try PipelineHub(
            sockets: Handoff(hubSockets),
            partition: partition,
            limits: configuration.limits,
            metrics: parts.metrics,
            logger: parts.logger,
            outputLinger: configuration.output.linger
        )
        return PipelineGroup(hub: hub, pipelines: pipelines)
    }

    /// Messages a lane holds each way per side: enough for a pipeline's batch of 256, little
    /// enough that a stalled pipeline holds back its share of the input soon.
    static let laneHighWaterMark: Int32 = 1000
}
