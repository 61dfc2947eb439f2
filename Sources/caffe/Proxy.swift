import ArgumentParser
import CaffeWorker
import Foundation
import ZeroMQ

/// `caffe proxy`: libzmq's proxy between a frontend and a backend, so many workers on many hosts
/// share one address. `queue` joins PUSH producers to PULL workers (ROUTER/DEALER for requests);
/// `forwarder` joins publishers to subscribers (XSUB/XPUB, subscriptions flow upstream).
struct ProxyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Forward messages between a frontend and a backend (libzmq's zmq_proxy).",
        discussion: """
            Endpoints: @tcp://… binds, >tcp://… connects (default: bind).
            Kinds: queue (PULL frontend → PUSH backend), forwarder (XSUB frontend → XPUB backend),
            rpc (ROUTER frontend → DEALER backend, for worker RPC endpoints that connect).
            --capture sends a copy of every message to a PUB socket there (for caffe-sim record).
            --metrics-address host:port serves /metrics (messages and bytes per side and \
            direction, process metrics), /healthz and /readyz (200 while the proxy answers).
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case queue, forwarder, rpc
    }

    @Option(help: "Where producers (or clients) connect: @tcp://*:5560.")
    var frontend: String

    @Option(help: "Where workers (or subscribers) connect: @tcp://*:5570.")
    var backend: String

    @Option(help: "queue, forwarder or rpc.")
    var kind: Kind = .queue

    @Option(help: "A PUB endpoint receiving a copy of every message.")
    var capture: String?

    @Option(help: "host:port for /metrics, /healthz and /readyz (port 0 picks one; empty: none).")
    var metricsAddress = ""

    func run() throws {
        let context = try ZMQContext()
        let types: (ZMQSocketType, ZMQSocketType) =
            switch kind {
            case .queue: (.pull, .push)
            case .forwarder: (.xsub, .xpub)
            case .rpc: (.router, .dealer)
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
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        let proxy = try ZMQProxy(frontend: front, backend: back, capture: captureSocket)
        let operations =
            metricsAddress.isEmpty
            ? nil
            : try ProxyOperations(address: metricsAddress, kind: kind.rawValue) {
                try? proxy.statistics(timeout: .seconds(1))
            }
        let served = operations.map { ", metrics http://\($0.address)/metrics" } ?? ""
        FileHandle.standardError.write(
            Data("caffe proxy (\(kind.rawValue)): \(frontend) -> \(backend)\(served)\n".utf8)
        )
        stop.wait()
        operations?.stop()
        let statistics = try? proxy.statistics(timeout: .seconds(1))
        _ = proxy.terminate()
        sources.forEach { $0.cancel() }
        if let statistics {
            FileHandle.standardError.write(
                Data(
                    "caffe proxy stopped: \(statistics.frontend.messagesIn) messages in, \(statistics.backend.messagesOut) out\n"
                        .utf8
                )
            )
        }
        context.shutdown()
    }

    static func attach(_ socket: ZMQSocket, _ text: String) throws {
        if text.hasPrefix(">") {
            try socket.connect(String(text.dropFirst()))
        } else {
            _ = try socket.bind(text.hasPrefix("@") ? String(text.dropFirst()) : text)
        }
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
