import CaffeBooks
import CaffeCore
import CaffeProtocol
import Foundation
import Logging

/// Everything `caffe worker` can be told, with the defaults `config/worker.yaml` documents. Made by
/// ``WorkerConfigurationLoader`` from the file, the environment and flags (later wins), and checked
/// whole before the worker starts.
public struct WorkerConfiguration: Hashable, Sendable {
    /// Where order events and complication requests come from.
    public struct Input: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// `input.kind`: how events arrive.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// SUB with topic prefixes: many workers each see every event (filtered by prefix).
            case sub
            /// PULL: events are shared out among the workers.
            case pull
        }

        /// `input.kind` (`sub`).
        public var kind: Kind = .sub
        /// `input.endpoints` (`>tcp://127.0.0.1:5560`): connected by default, `@` to bind.
        public var endpoints: [WorkerEndpoint] = [WorkerEndpoint(.connect, "tcp://127.0.0.1:5560")]
        /// Topic prefixes subscribed to (SUB only).
        public var topics: [String] = ["order.", "complication-request.", "heartbeat."]
        /// Messages queued in the socket before the sender blocks (PULL) or drops (PUB → SUB).
        public var highWaterMark: Int = 10_000
        /// Larger messages are refused: dead-lettered (`oversized`, without their bytes), counted
        /// and logged, and the sender stays connected. Beyond 256 MiB (or this, if larger) libzmq
        /// itself drops the connection, which is counted as a disconnect.
        public var maxMessageBytes: Int = 1 << 20
        /// The most a sequence may run ahead of the highest its source has sent; further is
        /// refused as invalid (0: no limit). A new source's first event counts from 0.
        public var maxSequenceJump: Int = 1_000_000
        /// The most a heartbeat's `last_sequence` may run ahead of its source's highest event;
        /// further is refused as invalid (0: only max_sequence_jump applies).
        public var maxHeartbeatJump: Int = 10_000
        /// How long a source whose events are all done stays in memory in full without sending;
        /// then only its mark is kept (it comes back in full with its next event).
        public var sourceIdle: Duration = .milliseconds(15_000)
        /// This worker's shard of a fleet (`i/N`): it renders only the sources ``ShardAssignment``
        /// gives it and counts and drops the others; `nil`: every source.
        public var shard: ShardAssignment?
        /// Pipelines in this process, each owning the sources ``PipelinePartition`` gives it, behind
        /// one thread that owns the input and output sockets; 1: one pipeline and no such thread;
        /// 0: one per core available (``ProcessorCores``).
        public var pipelines: Int = 1
    }

    /// Where confirmations, receipts, complication payloads and dead letters go.
    public struct Output: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// `output.kind`: how outputs leave.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// PUB, one topic per kind and locale or store (`confirmation.es-MX`, `receipt.<store>`);
            /// a full subscriber makes the worker wait rather than drop.
            case pub
            /// PUSH: outputs are shared out among the consumers, topic frame kept.
            case push
            /// ROUTER to DEALER consumers that grant a window and acknowledge: an input is
            /// checkpointed only once every output is acknowledged, so nothing the checkpoint
            /// covers can be lost with the worker (at-least-once across crashes).
            case acked
        }

        /// `output.kind` (`pub`).
        public var kind: Kind = .pub
        /// `output.endpoints` (`@tcp://127.0.0.1:5561`): bound by default, `>` to connect.
        public var endpoints: [WorkerEndpoint] = [WorkerEndpoint(.bind, "tcp://127.0.0.1:5561")]
        /// `output.high_water_mark` (10,000): messages queued per consumer in the socket.
        public var highWaterMark: Int = 10_000
        /// Acknowledged output: how long a consumer may stay silent before what it holds is
        /// delivered again (consumers report at least every second).
        public var ackTimeout: Duration = .milliseconds(5000)
        /// Acknowledged output: the window of a consumer whose feedback, after its hello, asks for 0.
        public var window: Int = 1000
        /// Acknowledged output: consumers at most; a new one replaces the one idle longest.
        public var maxConsumers: Int = 256
        /// `output.linger_ms` (5,000): how long a drained worker's socket may still hand queued
        /// outputs to slow subscribers when it closes (an abandoned drain closes at once).
        public var linger: Duration = .milliseconds(5000)
    }

    /// `render.*`: threads, queues and the locale cache.
    public struct Render: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// Render threads; 0 means one per core.
        public var threads: Int = 0
        /// Events the pipeline holds taken in and not yet done (rendered and published) before it stops reading its
        /// input (backpressure); libzmq's high-water marks queue more in front of it.
        public var queue: Int = 1024
        /// Events whose render failed because of the catalog, kept (not completed) until the next
        /// successful reload renders them; beyond this many they are dead-lettered.
        public var maxParked: Int = 10_000
        /// Each render thread's compiled locales (resources and wire programs) at most, in bytes;
        /// the least recently used are evicted past it.
        public var localeCacheBytes: Int = RenderSession.defaultLocaleCacheBytes
        /// Customer locales every render thread compiles before it takes work (the markets:
        /// `en-US`, `es-MX`), besides the catalog's localizations and the default locale.
        public var prepareLocales: [String] = []
        /// Whether each render thread, while idle, renders warm-up orders for the prepared
        /// locales (``SessionWarmUp``) so that their first real orders compile nothing.
        public var warmUp = true
    }

    /// `checkpoint.*`: where each source's delivered sequence is kept.
    public struct Checkpoint: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// The file holding each source's contiguous sequence; empty disables checkpoints.
        public var path: String = "caffe-worker.checkpoint"
        /// How often the checkpoint is written while running (it is also written at shutdown).
        public var interval: Duration = .milliseconds(1000)
        /// Failed checkpoint writes in a row before the worker reports NOT_SERVING.
        public var failuresBeforeUnhealthy: Int = 3
    }

    /// Gap recovery: where each source's replay endpoint is, and how hard to try.
    public struct Replay: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// Replay endpoints by source id (`pos-1=tcp://10.0.0.5:5563`). A source may also announce
        /// its endpoint in each event's `replay_endpoint` metadata; this map wins.
        public var endpoints: [String: String] = [:]
        /// How long to wait for a reply before asking again.
        public var timeout: Duration = .milliseconds(1000)
        /// Requests per gap before it is reported unrecoverable.
        public var attempts: Int = 5
        /// The first wait before asking; doubled after each unanswered request (at most 5 s).
        public var backoff: Duration = .milliseconds(100)
        /// The most sequences asked for in one request; longer gaps take several.
        public var batch: Int = 256
        /// Replay endpoints connected at once (configured ones are not counted); the least
        /// recently used idle one is closed to make room.
        public var maxConnections: Int = 64
        /// `replay.idle_timeout_ms` (30,000): a replay connection unused this long is closed.
        public var idleTimeout: Duration = .seconds(30)
        /// Whether a source's announced endpoint may replace the one pinned by its first
        /// announcement. Off: only an announcement carrying the CURVE identity that pinned it can.
        public var allowEndpointChange: Bool = false
    }

    /// The gRPC-style request/reply endpoint (ROUTER).
    public struct RPC: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// Where clients send requests; `nil` (an empty value) turns the endpoint off.
        public var endpoint: WorkerEndpoint? = WorkerEndpoint(.bind, "tcp://127.0.0.1:5562")
        /// Render requests waiting on the RPC thread before new ones get RESOURCE_EXHAUSTED.
        public var queue: Int = 1024
        /// `caffe.v1.Admin/Redrive` requests taken per second (a burst of as many); beyond,
        /// RESOURCE_EXHAUSTED. Redrives render on the RPC thread, never on the event pipeline's.
        public var redriveRate: Int = 20
        /// CURVE public keys (Z85) allowed to call `caffe.v1.Admin/*`; empty: every client the
        /// endpoint admits. Others get PERMISSION_DENIED; Renderer and Health stay open to them.
        public var adminAllowedKeys: [String] = []
    }

    /// `shutdown.*`: the drain after SIGTERM.
    public struct Shutdown: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// How long in-flight work may take to drain after SIGTERM before the worker gives up on it
        /// (what was not published is not checkpointed, so it is replayed after a restart).
        public var drainTimeout: Duration = .milliseconds(10_000)
    }

    /// `log.*`: what is logged and how.
    public struct Log: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// `log.format`.
        public enum Format: String, Hashable, Sendable, CaseIterable {
            /// `2026-11-22T10:00:00+0000 info caffe.worker: worker serving input=…`
            case text
            /// One JSON object per line: `ts`, `level`, `label`, `message`, and the metadata.
            case json
        }

        /// `log.level` (`info`): `trace` … `critical`.
        public var level: Logger.Level = .info
        /// `log.format` (`text`).
        public var format: Format = .text
    }

    /// `metrics.*`: the operations endpoint.
    public struct Metrics: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// `host:port` serving `/metrics` (Prometheus text format) and `/healthz`; empty turns it off.
        public var address: String = "127.0.0.1:9464"
    }

    /// Spans of traced events, exported over OTLP/HTTP (JSON); off while `otlpEndpoint` is empty.
    public struct Tracing: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// `http://host:port/v1/traces` of an OpenTelemetry collector (usually beside the worker);
        /// empty: no spans are recorded (outputs still carry the events' `traceparent`).
        public var otlpEndpoint: String = ""
        /// The `service.name` resource attribute of the spans.
        public var serviceName: String = "caffe-worker"
    }

    /// CURVE encryption and authentication; off while `secretKey` is empty.
    public struct Curve: Hashable, Sendable {
        /// Every setting at its default.
        public init() {}

        /// The worker's secret key (Z85, 40 characters); its public key is derived from it.
        public var secretKey: String = ""
        /// The public key of the servers the worker connects to (inputs and replay endpoints).
        public var serverKey: String = ""
        /// Public keys of the clients admitted to the endpoints the worker binds; others are refused.
        public var allowedClients: [String] = []
        /// Refuse to start without a secret key: a deployment that must not run in the clear
        /// fails closed when its key did not arrive (an empty or missing Secret).
        public var required = false

        /// Whether CURVE is on.
        public var isEnabled: Bool { !secretKey.isEmpty }
    }

    /// `input.*`.
    public var input = Input()
    /// `output.*`.
    public var output = Output()
    /// `render.*`.
    public var render = Render()
    /// `checkpoint.*`.
    public var checkpoint = Checkpoint()
    /// `replay.*`.
    public var replay = Replay()
    /// `rpc.*`.
    public var rpc = RPC()
    /// `shutdown.*`.
    public var shutdown = Shutdown()
    /// `log.*`.
    public var log = Log()
    /// `metrics.*`.
    public var metrics = Metrics()
    /// `tracing.*`.
    public var tracing = Tracing()
    /// `curve.*`.
    public var curve = Curve()
    /// The folder with `Localizations/` and `menu.json`; empty: `$CAFFE_CONFIG`, `./config`, or the
    /// built-in `config/`.
    public var configDirectory: String = ""
    /// The catalog folder; empty: `<config_dir>/Localizations`.
    public var catalog: String = ""
    /// The menu file; empty: `<config_dir>/menu.json`.
    public var menu: String = ""
    /// What to do with a catalog some of whose strings do not render with the values the worker
    /// passes (``CatalogProbe``).
    public var catalogCheck: CatalogCheck = .refuse
    /// How often the catalog folder and the menu are looked at for changes, reloaded as on SIGHUP
    /// once a change has held still for one look (``ConfigurationWatcher``); zero: never.
    public var catalogWatch: Duration = .seconds(1)

    /// `catalog_check`: what a catalog that does not render gets.
    public enum CatalogCheck: String, Hashable, Sendable, CaseIterable {
        /// Refuse it: the worker does not start, a reload keeps the loaded catalog.
        case refuse
        /// Load it and log each failing localization; orders in those localizations are parked
        /// until a reload brings a catalog that renders them.
        case warn
    }

    /// A configuration; each part defaults to what `config/worker.yaml` documents.
    ///
    /// - Parameters:
    ///   - input: where events come from (`input.*`; SUB connecting to `tcp://127.0.0.1:5560`).
    ///   - output: where outputs go (`output.*`; PUB bound on `tcp://127.0.0.1:5561`).
    ///   - render: render threads, queues, parked events, the locale cache (`render.*`).
    ///   - checkpoint: the checkpoint file and how often it is written (`checkpoint.*`).
    ///   - replay: gap recovery from the sources' replay endpoints (`replay.*`).
    ///   - rpc: the request endpoint (`rpc.*`; ROUTER bound on `tcp://127.0.0.1:5562`).
    ///   - shutdown: how long a drain may take (`shutdown.drain_timeout_ms`, 10 s).
    ///   - log: level (`info`) and format (`text`) (`log.*`).
    ///   - metrics: the `/metrics` and `/healthz` address (`metrics.address`, `127.0.0.1:9464`).
    ///   - tracing: OTLP/HTTP span export (`tracing.*`; off).
    ///   - curve: CURVE keys (`curve.*`; off).
    ///   - configDirectory: the folder with `Localizations/` and `menu.json` (`config_dir`).
    ///   - catalog: the catalog folder (`catalog`; `<config_dir>/Localizations`).
    ///   - menu: the menu file (`menu`; `<config_dir>/menu.json`).
    ///   - catalogCheck: what a catalog that does not render gets (`catalog_check`; `refuse`).
    public init(
        input: Input = Input(),
        output: Output = Output(),
        render: Render = Render(),
        checkpoint: Checkpoint = Checkpoint(),
        replay: Replay = Replay(),
        rpc: RPC = RPC(),
        shutdown: Shutdown = Shutdown(),
        log: Log = Log(),
        metrics: Metrics = Metrics(),
        tracing: Tracing = Tracing(),
        curve: Curve = Curve(),
        configDirectory: String = "",
        catalog: String = "",
        menu: String = "",
        catalogCheck: CatalogCheck = .refuse
    ) {
        self.input = input
        self.output = output
        self.render = render
        self.checkpoint = checkpoint
        self.replay = replay
        self.rpc = rpc
        self.shutdown = shutdown
        self.log = log
        self.metrics = metrics
        self.tracing = tracing
        self.curve = curve
        self.configDirectory = configDirectory
        self.catalog = catalog
        self.menu = menu
        self.catalogCheck = catalogCheck
    }

    /// The render threads to start: `render.threads`, or the active cores when 0.
    public var renderThreadCount: Int {
        render.threads > 0 ? render.threads : ProcessorCores.available.cores
    }

    /// Pipelines: `input.pipelines`, or one per core available when it is 0.
    public var pipelineCount: Int {
        input.pipelines > 0 ? input.pipelines : ProcessorCores.available.cores
    }
}

/// A socket endpoint of the worker's configuration (`@tcp://…` binds, `>tcp://…` connects), the
/// protocol's one endpoint type.
public typealias WorkerEndpoint = CaffeEndpoint
