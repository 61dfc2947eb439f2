import ArgumentParser
import CaffeProtocol
import CaffeTransport
import CaffeWorker
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import ZeroMQ

/// `caffe proxy`: libzmq's proxy between a frontend and a backend, so many workers on many hosts
/// share one address. `queue` joins PUSH producers to PULL workers (ROUTER/DEALER for requests);
/// `forwarder` joins publishers to subscribers (XSUB/XPUB, subscriptions flow upstream).
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Forward messages between a frontend and a backend (libzmq's zmq_proxy).",
        discussion: """
            Endpoints: @tcp://… binds, >tcp://… connects (default: bind).
            Kinds: queue (PULL frontend → PUSH backend), forwarder (XSUB frontend → XPUB backend),
            rpc (ROUTER frontend → DEALER backend, for worker RPC endpoints that connect),
            partition (SUB frontend → XPUB backend: each event goes only to the shard that owns its \
            source, under the topic prefix shard/<i>-of-<N>/; give --shards N, the count every \
            worker's input.shard names).
            --capture sends a copy of every message to a PUB socket there (for caffe-sim record).
            --metrics-address host:port serves /metrics (messages and bytes per side and \
            direction, process metrics), /healthz and /readyz (200 while the proxy answers).
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case queue, forwarder, rpc, partition
    }

    @Option(help: "Where producers (or clients) connect: @tcp://*:5560.")
    var frontend: String

    @Option(help: "Where workers (or subscribers) connect: @tcp://*:5570.")
    var backend: String

    @Option(help: "queue, forwarder, rpc or partition.")
    var kind: Kind = .queue

    @Option(help: "partition: how many shards events are routed among (1–4096).")
    var shards: Int?

    @Option(help: "A PUB endpoint receiving a copy of every message.")
    var capture: String?

    @Option(help: "host:port for /metrics, /healthz and /readyz (port 0 picks one; empty: none).")
    var metricsAddress = ""

    func validate() throws {
        switch (kind, shards) {
        case (.partition, nil):
            throw ValidationError("--kind partition needs --shards N: the count every worker's input.shard names")
        case (.partition, let count?) where ShardAssignment(index: 0, count: count) == nil:
            throw ValidationError("--shards \(count) is not between 1 and \(ShardAssignment.maximumCount)")
        case (.partition, _), (_, nil):
            break
        case (_, .some):
            throw ValidationError("--shards applies to --kind partition only")
        }
    }

    func run() async throws {
        DescriptorLimit.raiseToHard()
        let context = try ZMQContext()
        let types: (ZMQSocketType, ZMQSocketType) =
            switch kind {
            case .queue: (.pull, .push)
            case .forwarder: (.xsub, .xpub)
            case .rpc: (.router, .dealer)
            case .partition: (.sub, .xpub)
            }
        let front = try context.socket(types.0)
        let back = try context.socket(types.1)
        try Self.attach(front, frontend)
        try Self.attach(back, backend)
        var captureSocket: ZMQSocket?
        if let capture {
            let socket = try context.socket(.pub)
            try Self.attach(socket, capture)
            captureSocket = socket
        }
        let running = try Running(kind: kind, shards: shards, front, back, captureSocket)
        let operations = metricsAddress.isEmpty ? nil : try running.operations(address: metricsAddress, kind: kind)
        let served = operations.map { ", metrics http://\($0.address)/metrics" } ?? ""
        let among = shards.map { " among \($0) shards" } ?? ""
        FileHandle.standardError.write(
            Data("caffe proxy (\(kind.rawValue)): \(frontend) -> \(backend)\(among)\(served)\n".utf8)
        )
        // One lifecycle, as the worker's: SIGTERM or SIGINT shuts the group down gracefully; the
        // router ending on an error ends the group.
        var logger = Logger(label: "caffe.proxy")
        logger.logLevel = .warning
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: operations ?? IdleService(), successTerminationBehavior: .ignore),
                    .init(service: running.service),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
        let (statistics, failure) = running.finish()
        if let statistics {
            FileHandle.standardError.write(
                Data(
                    "caffe proxy stopped: \(statistics.frontend.messagesIn) messages in, \(statistics.backend.messagesOut) out\n"
                        .utf8
                )
            )
        }
        context.shutdown()
        if let failure {
            FileHandle.standardError.write(Data("caffe proxy: stopped by an error: \(failure)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// libzmq's proxy, or the partitioning router, running.
    private enum Running {
        case proxy(ForwardingProxy)
        case router(ShardRouter)

        init(
            kind: Kind,
            shards: Int?,
            _ front: sending ZMQSocket,
            _ back: sending ZMQSocket,
            _ capture: sending ZMQSocket?
        ) throws {
            if kind == .partition, let shards {
                self = .router(
                    try ShardRouter(
                        frontend: front,
                        backend: back,
                        capture: capture,
                        shards: shards,
                        report: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
                    )
                )
            } else {
                self = .proxy(try ForwardingProxy(frontend: front, backend: back, capture: capture))
            }
        }

        func operations(address: String, kind: Kind) throws -> ProxyOperations {
            switch self {
            case .proxy(let forwarding):
                try ProxyOperations(address: address, kind: kind.rawValue) {
                    try? forwarding.proxy.statistics(timeout: .seconds(1))
                }
            case .router(let router):
                try ProxyOperations(address: address, router: router)
            }
        }

        /// What the group runs.
        var service: any Service {
            switch self {
            case .proxy(let forwarding): forwarding
            case .router(let router): router
            }
        }

        /// Stops forwarding; the last counts, and the error that stopped it early if one did.
        func finish() -> (ZMQProxyStatistics?, ZMQError?) {
            switch self {
            case .proxy(let forwarding):
                return forwarding.finish()
            case .router(let router):
                let failure = router.stop()
                return (router.counts()?.proxyStatistics, failure)
            }
        }
    }

    /// Binds (`@addr` or a bare address) or connects (`>addr`) `socket`.
    static func attach(_ socket: ZMQSocket, _ text: String) throws {
        try socket.attach(text, defaultMode: .bind)
    }
}

/// `caffe keygen`: a new CURVE key pair, for `curve.secret_key` and the peers' allow-lists.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Print a new CURVE key pair (Z85) as YAML."
    )

    func run() throws {
        let keys = try ZMQCurveKeyPair.generate()
        print("public_key: \"\(keys.publicKey.z85)\"")
        print("secret_key: \"\(keys.secretKey.z85)\"")
    }
}
