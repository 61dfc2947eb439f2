import CaffeBooks
import CaffeCore
import CaffeProtocol
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import ZeroMQ

/// The event pipeline: one thread takes events in, renders them and hands their outputs to the
/// output, recording what is done for the ``CheckpointWriter``. A ``RenderPool`` takes part of
/// the rendering when events pile up, so at moderate rates an event costs one wake-up, and all
/// of it once this thread is busy (``RenderPlacement``), so its serial work alone bounds the rate.
///
/// The thread runs a ``PipelineLoop`` over ``PipelineStages``: intake, rendering, output,
/// recovery and telemetry, each its own type; ``EmbeddedPipeline`` runs the same stages without
/// sockets.
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
        /// The output's socket and the channel over it.
        var outputSocket: ZMQSocket
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

    /// What the stages are made of, besides the configuration.
    struct Parts {
        var context: ZMQContext
        var security: WorkerSecurity?
        var cores: CoreBox
        var pool: RenderPool?
        var checkpoints: CheckpointWriter
        var logger: Logger
        var metrics: WorkerMetrics
        /// Dead letters to render again, from the RPC endpoint.
        var redrives: RedriveQueue?
        /// Where the spans of traced events go (`tracing.otlp_endpoint`); `nil`: none are recorded.
        var spans: SpanExporter?
        /// Which of the worker's pipelines this is (`input.pipelines`), for its thread's name, its
        /// counts and its renderer's.
        var index = 0
    }

    private let sockets: Handoff<Sockets>
    private let configuration: WorkerConfiguration
    private let parts: Parts
    /// The checkpoint read at start, until the loop's intake takes it.
    private let resumed: Mutex<Checkpoint?>
    private let stop: ThreadStop
    private let ending = Mutex<Ending?>(nil)

    init(
        sockets: Handoff<Sockets>,
        configuration: WorkerConfiguration,
        parts: Parts,
        resumed: Checkpoint
    ) throws(ZMQError) {
        self.sockets = sockets
        self.configuration = configuration
        self.parts = parts
        self.resumed = Mutex(resumed)
        stop = try ThreadStop()
    }

    /// How the run ended (once it has).
    var result: Ending? { ending.withLock { $0 } }

    func run() async throws {
        let outcome = await runThreadService(named: parts.threadName, stop: stop) { self.loop() }
        ending.withLock { $0 = outcome }
        if case .failed(let error) = outcome { throw error }
    }

    private func loop() -> Ending {
        let sockets = sockets.value
        let stages = PipelineStages(
            configuration: configuration,
            parts: parts,
            resumed: resumed.withLock { $0.take() } ?? Checkpoint(),
            input: sockets.input,
            output: sockets.output,
            wakeup: stop.wakeup
        )
        var loop = PipelineLoop(
            stages: stages,
            sockets: sockets,
            control: stop.wakeup,
            outputLinger: configuration.output.linger
        )
        return loop.run { stop.request }
    }
}

extension PipelineStages {
    /// The stages as `configuration` sets them up, each taking its part of it.
    init(
        configuration: WorkerConfiguration,
        parts: EventPipeline.Parts,
        resumed: Checkpoint,
        input: any InputPort,
        output: any OutputChannel,
        wakeup: ZMQWakeup?
    ) {
        let limits = configuration.limits
        let render = configuration.render
        let replay = configuration.replay
        books = SourceBooks(
            policy: Intake.Policy(configuration),
            resumingFrom: resumed,
            checkpointInterval: configuration.checkpoint.interval
        )
        intake = IntakeStage(
            limits: limits,
            shard: configuration.input.shard,
            tracesEvents: parts.spans != nil,
            namesClients: parts.security != nil
        )
        self.render = RenderStage(
            renderer: EventRenderer(
                cores: parts.cores,
                limits: limits,
                id: -parts.index,
                localeCacheBytes: render.localeCacheBytes,
                prepare: render.prepareLocales,
                warmUp: render.warmUp
            ),
            pool: parts.pool
        )
        self.output = OutputStage(channel: output, spans: parts.spans)
        recovery = RecoveryStage(
            replay: ReplayClient(
                context: parts.context,
                security: parts.security,
                capacity: replay.maxConnections,
                idleTimeout: replay.idleTimeout,
                timeout: replay.timeout,
                limits: limits,
                logger: parts.logger
            ),
            redrives: parts.redrives,
            maxParked: render.maxParked,
            logger: parts.logger
        )
        telemetry = PipelineTelemetry(
            metrics: parts.metrics,
            logger: parts.logger,
            wakeup: wakeup,
            name: parts.index == 0 ? "pipeline" : "pipeline-\(parts.index)"
        )
        checkpoints = parts.checkpoints
        self.input = input
        queueCapacity = render.queue
    }
}

extension EventPipeline.Parts {
    /// `caffe-pipeline`, and `caffe-pipe-1`… for the others (Linux keeps 15 bytes of a thread's name).
    var threadName: String { index == 0 ? "caffe-pipeline" : "caffe-pipe-\(index)" }
}

extension WorkerConfiguration {
    /// The protocol's limits with `input.max_message_bytes`.
    var limits: CaffeProtocolLimits {
        var limits = CaffeProtocolLimits.standard
        limits.maxBodyBytes = input.maxMessageBytes
        return limits
    }
}
