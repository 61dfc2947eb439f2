import CaffeClient
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import Synchronization
import WorkerTestKit
import ZeroMQ

/// The chaos suite's order source: a bound PUSH sending `count` pre-encoded orders at `rate` (a
/// message the worker cannot take waits, and the schedule catches up), serving
/// `caffe.v1.Replay/Fetch` for everything sent, and sending a heartbeat with the last sequence
/// every ``heartbeatInterval``, so a restarted worker finds the end of the stream.
public final class ChaosSource: @unchecked Sendable {
    public let endpoint: String
    public let sourceID: String
    public let count: Int
    let encoded: EncodedOrders
    private let socket: ZMQSocket
    private let server: ReplayServer
    private let rate: Double
    private let sentCount = Atomic<Int>(0)
    /// When each sequence was sent (uptime nanoseconds; 0: not yet), for latencies.
    private let sendTimes: Mutex<[UInt64]>
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    public static let heartbeatInterval = 0.5

    /// Every this many orders, a hostile message goes out too (0: none).
    private let hostileEvery: Int
    private var hostileSent = 0

    /// Hostile messages sent.
    public var hostileCount: Int { hostileSent }

    public init(
        context: ZMQContext,
        menu: Menu,
        markets: [(market: Market, weight: Int)],
        count: Int,
        rate: Double,
        seed: UInt64 = 1,
        hostileEvery: Int = 0
    ) throws {
        self.hostileEvery = hostileEvery
        sourceID = "chaos-\(UUID().uuidString.prefix(8))"
        server = try ReplayServer(context: context, endpoint: "tcp://127.0.0.1:*")
        encoded = try EncodedOrders(
            menu: menu,
            seed: seed,
            sourceID: sourceID,
            markets: markets,
            replayEndpoint: server.endpoint
        )
        let encoded = encoded
        server.serve(source: sourceID) { encoded.replayed(sequence: $0) }
        server.start()
        socket = try context.socket(.push)
        try socket.set(.sendHighWaterMark, to: 1000)
        endpoint = try socket.bind("tcp://127.0.0.1:*")
        self.count = count
        self.rate = rate
        sendTimes = Mutex([UInt64](repeating: 0, count: count + 1))
    }

    /// When `sequence` was sent, in uptime nanoseconds (0: not sent).
    public func sentAt(_ sequence: Int) -> UInt64 {
        sendTimes.withLock { sequence < $0.count ? $0[sequence] : 0 }
    }

    /// Sent so far.
    public var sent: Int { sentCount.load(ordering: .relaxed) }

    /// Replay requests the source's endpoint has served.
    public var requestsServed: Int { server.requestsServed }

    /// Starts sending on a thread of its own.
    public func start() {
        started.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "chaos-source"
        thread.start()
    }

    /// Stops sending and heartbeating.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        if started.load(ordering: .relaxed) { finished.wait() }
        socket.close(linger: .milliseconds(0))
        server.stop()
    }

    private func run() {
        var topic: [UInt8] = []
        var header: [UInt8] = []
        var body: [UInt8] = []
        let start = ContinuousClock.now
        var lastBeat = ContinuousClock.now
        var next = 1
        while !stopping.load(ordering: .relaxed) {
            let now = ContinuousClock.now
            while next <= count, now - start >= .seconds(Double(next - 1) / rate) {
                encoded.frames(sequence: UInt64(next), topic: &topic, header: &header, body: &body)
                let accepted =
                    (try? topic.withUnsafeBytes { try socket.send($0, more: true, timeout: .milliseconds(20)) })
                    ?? false
                guard accepted else { break }
                _ = try? header.withUnsafeBytes { try socket.send($0, more: true) }
                _ = try? body.withUnsafeBytes { try socket.send($0, more: false) }
                server.markSent(source: sourceID, through: UInt64(next))
                let sentAt = DispatchTime.now().uptimeNanoseconds
                sendTimes.withLock { $0[next] = sentAt }
                sentCount.store(next, ordering: .relaxed)
                if hostileEvery > 0, next % hostileEvery == 0 { sendHostile(next / hostileEvery) }
                next += 1
            }
            if now - lastBeat >= .seconds(Self.heartbeatInterval), next > 1 {
                lastBeat = now
                sendHeartbeat(last: UInt64(next - 1))
            }
            Thread.sleep(forTimeInterval: next <= count ? 0.001 : 0.05)
        }
    }

    /// One hostile message, of the kind `index` picks: never this source's id, so the stream's
    /// books are untouched; each must be dead-lettered or refused, and the stream go on.
    private func sendHostile(_ index: Int) {
        let attacker = "attacker-\(index)"
        var order = Caffe_V1_OrderEvent()
        order.orderID = "A-\(index)"
        order.sourceID = attacker
        order.sequence = 1
        var header = EventFrames.header(for: order)
        let body = (try? order.serializedBytes() as [UInt8]) ?? []
        let frames: [[UInt8]]
        switch index % 8 {
        case 0: frames = [Array("garbage".utf8), [0xff, 0xff]]
        case 1: frames = [Array("order.x".utf8), [0x0a, 0xff, 0x01], body]
        case 2:
            // Oversized: 2 MiB of body.
            frames = [
                Array("order.x".utf8), (try? header.serializedBytes()) ?? [], [UInt8](repeating: 0x41, count: 2 << 20),
            ]
        case 3:
            header.sequence = 2  // the body says 1
            frames = [Array("order.x".utf8), (try? header.serializedBytes()) ?? [], body]
        case 4:
            header.sequence = 0
            frames = [Array("order.x".utf8), (try? header.serializedBytes()) ?? [], body]
        case 5:
            header.sequence = 1 << 62
            frames = [Array("order.x".utf8), (try? header.serializedBytes()) ?? [], body]
        case 6:
            header.bodyType = "caffe.v1.Teleport"
            frames = [Array("order.x".utf8), (try? header.serializedBytes()) ?? [], body]
        default:
            header.bodyType = Caffe_V1_ComplicationRequest.protoMessageName
            frames = [Array("complication-request.x".utf8), (try? header.serializedBytes()) ?? [], [0x12, 0x80]]
        }
        for (position, frame) in frames.enumerated() {
            _ = try? socket.send(frame, more: position < frames.count - 1, timeout: .milliseconds(100))
        }
        hostileSent += 1
    }

    private func sendHeartbeat(last: UInt64) {
        var header = Caffe_V1_EventHeader()
        header.sourceID = sourceID
        header.metadata["replay_endpoint"] = server.endpoint
        var beat = Caffe_V1_Heartbeat()
        beat.lastSequence = last
        guard let frames = try? EventFrames.encode(topic: "heartbeat.\(sourceID)", header: header, body: beat) else {
            return
        }
        _ = try? socket.send(multipart: frames, timeout: .milliseconds(20))
    }
}
