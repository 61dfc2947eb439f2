import CZeroMQ
import CaffeProtocol
import CaffeTransport
import Foundation
import ServiceLifecycle
import Synchronization
import ZeroMQ

/// The forwarder of a sharded fleet (`caffe proxy --kind partition`): publishers on one side,
/// the shards' workers on the other, and every event sent only to the shard that owns its source.
///
/// An event's owner is ``ShardAssignment/shard(of:among:)`` of its header's `source_id` (read
/// without checking anything else, as the worker reads it); the event leaves under the owner's
/// ``ShardAssignment/topicPrefix`` (`order.sf-1` → `shard/2-of-4/order.sf-1`), frames otherwise
/// untouched. An event whose header cannot be read goes to shard 0, which dead-letters it: one
/// dead letter, not one per shard.
///
/// Subscriptions flow upstream with their prefix taken off: a worker's `shard/2-of-4/order.`
/// subscribes the publishers to `order.`. A subscription that names another number of shards is
/// counted and reported (its worker was given a different `input.shard` count than this proxy);
/// one without a prefix gets nothing here and is only counted.
///
/// Anyone who reaches the shards' side can subscribe, so what is kept is bounded: at most
/// ``maxTopicsPerShard`` topics per shard and ``maxUnprefixedTopics`` without a prefix, each at
/// most ``maxTopicBytes`` (a larger subscription message closes its connection: the socket's
/// message size limit); beyond, a subscription is refused — not tracked, not passed upstream —
/// counted, and logged a few times a second at most, and the router says it is shedding for the
/// next 10 s. So routing an event, which scans its owner's topics, costs at most that cap.
///
/// A `Service`, with the lifecycle of the other long-running parts: `init` takes the sockets,
/// ``run()`` routes on a thread of its own until the task is cancelled or the service group shuts
/// down gracefully. Code that is not async starts it with ``start()`` and ends it with ``stop()``.
/// The sockets are closed on the router's thread (or by ``stop()`` when it never started).
public final class ShardRouter: Service, Sendable {
    /// What the router has done since it started.
    public struct Counts: Hashable, Sendable {
        /// Messages read from the publishers, and their bytes.
        public var received: UInt64 = 0
        public var receivedBytes: UInt64 = 0
        /// Bytes sent to the shards (topics with their prefix).
        public var sentBytes: UInt64 = 0
        /// Events sent to each shard.
        public var routed: [UInt64]
        /// Events sent to a shard while no subscription of it was known (the publisher side
        /// drops them; the owner finds the gap when it comes back and asks the source).
        public var unsubscribed: [UInt64]
        /// Messages whose header could not be read, sent to shard 0.
        public var unroutable: UInt64 = 0
        /// Subscription messages received from the shards' side.
        public var subscriptionMessages: UInt64 = 0
        /// Subscriptions naming a shard of another fleet size than this router's.
        public var foreignSubscriptions: UInt64 = 0
        /// Subscriptions refused: past a cap on the topics kept (``ShardRouter/maxTopicsPerShard``,
        /// ``ShardRouter/maxUnprefixedTopics``).
        public var refusedSubscriptions: UInt64 = 0
        /// Whether a subscription was refused in the last 10 s.
        public var isShedding = false
        /// Topics each shard is subscribed to now.
        public var subscribedTopics: [Int]
        /// Topics subscribed to without a shard prefix now that no shard also subscribes to under
        /// its prefix (a worker without `input.shard`: it receives nothing here).
        public var unprefixedTopics: Int = 0

        /// The same traffic in the shape libzmq's proxy reports: frontend in, backend out, and the
        /// subscription messages in on the backend.
        public var proxyStatistics: ZMQProxyStatistics {
            ZMQProxyStatistics(
                frontend: .init(messagesIn: received, bytesIn: receivedBytes, messagesOut: 0, bytesOut: 0),
                backend: .init(
                    messagesIn: subscriptionMessages,
                    bytesIn: 0,
                    messagesOut: routed.reduce(0, +),
                    bytesOut: sentBytes
                )
            )
        }

        init(shards: Int) {
            routed = Array(repeating: 0, count: shards)
            unsubscribed = Array(repeating: 0, count: shards)
            subscribedTopics = Array(repeating: 0, count: shards)
        }
    }

    /// Topics kept per shard: a worker subscribes to a handful.
    public static let maxTopicsPerShard = 256
    /// Topics kept without a shard prefix.
    public static let maxUnprefixedTopics = 256
    /// The longest subscription message the shards' side reads (a topic and its one-byte kind);
    /// a longer one closes the connection that sent it.
    public static let maxTopicBytes = 1024

    /// How many shards events are partitioned among.
    public let shards: Int
    private let state: Mutex<Counts>
    private let stopRequested = Atomic<Bool>(false)
    private let wakeup: ZMQWakeup
    private let finished = DispatchSemaphore(value: 0)
    private let failure = Mutex<ZMQError?>(nil)

    /// A router between `frontend` (a SUB socket, bound or connected to the publishers) and
    /// `backend` (an XPUB socket for the shards); `capture`, if given, receives a copy of every
    /// message as it came in. Nothing is routed until ``run()`` or ``start()``. `report` receives a line for each change worth an operator's eye;
    /// `ended` hears of an error that stopped the loop (the router then forwards nothing).
    public init(
        frontend: sending ZMQSocket,
        backend: sending ZMQSocket,
        capture: sending ZMQSocket? = nil,
        shards: Int,
        report: @escaping @Sendable (String) -> Void,
        ended: @escaping @Sendable (ZMQError) -> Void = { _ in }
    ) throws(ZMQError) {
        guard frontend.type == .sub, backend.type == .xpub, shards >= 1, shards <= ShardAssignment.maximumCount else {
            throw ZMQError(
                code: EINVAL,
                operation: "ShardRouter",
                message: "a SUB frontend, an XPUB backend and 1 to \(ShardAssignment.maximumCount) shards"
            )
        }
        self.shards = shards
        // Subscriptions are short topics: a larger message ends its connection in libzmq.
        try backend.set(.maxMessageSize, to: Int64(Self.maxTopicBytes + 1))
        state = Mutex(Counts(shards: shards))
        wakeup = try ZMQWakeup()
        phase = Mutex(.ready(Handoff((frontend, backend, capture)), Loop(shards: shards, report: report), ended))
    }

    /// Where the router is in its life: holding its sockets, routing (the thread owns them), or
    /// ended.
    private enum Phase: @unchecked Sendable {
        case ready(Handoff<(ZMQSocket, ZMQSocket, ZMQSocket?)>, Loop, @Sendable (ZMQError) -> Void)
        case routing(waiters: [CheckedContinuation<Void, Never>])
        case ended
    }

    private let phase: Mutex<Phase>

    /// Routes until the task is cancelled or the service group shuts down gracefully.
    public func run() async {
        start()
        await withTaskCancellationOrGracefulShutdownHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ended = phase.withLock { phase -> Bool in
                    guard case .routing(let waiters) = phase else { return true }
                    phase = .routing(waiters: waiters + [continuation])
                    return false
                }
                if ended { continuation.resume() }
            }
        } onCancelOrGracefulShutdown: {
            self.requestStop()
        }
    }

    /// Starts routing on a thread of its own (once; later calls do nothing).
    public func start() {
        phase.withLock { phase in
            guard case .ready(let sockets, let loop, let ended) = phase else { return }
            phase = .routing(waiters: [])
            loop.router = self
            let thread = Thread {
                caffe_zmq_name_thread("caffe-router")
                let (frontend, backend, capture) = sockets.value
                var failure: ZMQError?
                do throws(ZMQError) {
                    try loop.run(frontend: frontend, backend: backend, capture: capture)
                } catch {
                    failure = error
                    loop.report("caffe proxy: routing stopped: \(error)")
                }
                for socket in [frontend, backend, capture] { socket?.close(linger: .zero) }
                self.finish(failure)
                if let failure { ended(failure) }
            }
            thread.name = "caffe-router"
            thread.start()
        }
    }

    /// The counts so far; `nil` once the loop has ended on an error.
    public func counts() -> Counts? {
        failure.withLock { $0 } == nil ? state.withLock { $0 } : nil
    }

    /// Stops the loop and waits for it; returns the error that ended it early, if any.
    @discardableResult
    public func stop() -> ZMQError? {
        requestStop()
        let wait = phase.withLock { phase -> Bool in
            switch phase {
            case .ready(let sockets, _, _):
                let (frontend, backend, capture) = sockets.value
                for socket in [frontend, backend, capture] { socket?.close(linger: .zero) }
                phase = .ended
                return false
            case .routing: return true
            case .ended: return false
            }
        }
        if wait { finished.wait() }
        return failure.withLock { $0 }
    }

    private func requestStop() {
        if !stopRequested.exchange(true, ordering: .acquiringAndReleasing) { wakeup.signal() }
    }

    fileprivate func finish(_ error: ZMQError?) {
        failure.withLock { $0 = error }
        let waiters = phase.withLock { phase -> [CheckedContinuation<Void, Never>] in
            defer { phase = .ended }
            if case .routing(let waiters) = phase { return waiters }
            return []
        }
        finished.signal()
        for waiter in waiters { waiter.resume() }
    }

    fileprivate var isStopping: Bool { stopRequested.load(ordering: .acquiring) }

    /// Adds what the loop did since its last call, and the subscriptions it knows now.
    fileprivate func add(_ pending: Counts, subscribed: [Int], unprefixed: Int) {
        state.withLock { counts in
            counts.received += pending.received
            counts.receivedBytes += pending.receivedBytes
            counts.sentBytes += pending.sentBytes
            counts.unroutable += pending.unroutable
            counts.subscriptionMessages += pending.subscriptionMessages
            counts.refusedSubscriptions += pending.refusedSubscriptions
            counts.isShedding = pending.isShedding
            counts.foreignSubscriptions += pending.foreignSubscriptions
            for shard in counts.routed.indices {
                counts.routed[shard] += pending.routed[shard]
                counts.unsubscribed[shard] += pending.unsubscribed[shard]
            }
            counts.subscribedTopics = subscribed
            counts.unprefixedTopics = unprefixed
        }
    }

    fileprivate var wakeupDescriptor: Int32 { wakeup.fileDescriptor }

    /// The router's thread: owns the sockets and what it knows of the subscriptions.
    private final class Loop: @unchecked Sendable {
        /// Set when routing starts (until then the router holds its loop, not the other way round).
        var router: ShardRouter!
        let report: @Sendable (String) -> Void
        /// The prefix bytes of each shard, made once.
        let prefixes: [[UInt8]]
        /// Subscribed topics (prefix included) by shard; XPUB passes each topic's first
        /// subscription and last unsubscription, so a set is the truth.
        var topics: [Set<[UInt8]>]
        var unprefixed: Set<[UInt8]> = []
        var pending: Counts
        /// ``strayTopics``, recomputed only when a subscription changed.
        var strayCount = 0
        var subscriptionsChanged = false
        /// Refusals logged a few a second at most.
        var refusalLog = LogBudget(perSecond: 1, burst: 5)
        /// Subscriptions without a prefix said a few times a second at most.
        var strayLog = LogBudget(perSecond: 1, burst: 5)
        var lastRefusal: ContinuousClock.Instant?

        init(shards count: Int, report: @escaping @Sendable (String) -> Void) {
            self.report = report
            prefixes = (0..<count).map { Array(ShardAssignment.topicPrefix(index: $0, count: count).utf8) }
            topics = Array(repeating: [], count: count)
            pending = Counts(shards: count)
        }

        /// Messages handled per wake-up before the counts are published and the stop flag read.
        static let batch = 512

        func run(frontend: ZMQSocket, backend: ZMQSocket, capture: ZMQSocket?) throws(ZMQError) {
            var poller = ZMQPoller()
            let incoming = poller.register(frontend, for: .readable)
            let subscriptions = poller.register(backend, for: .readable)
            poller.register(fileDescriptor: router.wakeupDescriptor, for: .readable)
            var subscriptionsLeft = false
            while !router.isStopping {
                // Subscriptions left unread last turn: look again at once, events first.
                try poller.poll(timeout: subscriptionsLeft ? .zero : .infinite)
                subscriptionsLeft = false
                if poller.isReadable(subscriptions) {
                    // A few hundred per turn, so a flood of them never holds the events back.
                    var read = 0
                    while read < Self.batch, let frames = try backend.tryReceiveMultipart() {
                        subscriptionChanged(frames, frontend: frontend)
                        read += 1
                    }
                    subscriptionsLeft = read == Self.batch
                }
                if poller.isReadable(incoming) {
                    var handled = 0
                    while handled < Self.batch, let frames = try frontend.tryReceiveMultipart() {
                        try route(frames, backend: backend, capture: capture)
                        handled += 1
                    }
                }
                if subscriptionsChanged {
                    strayCount = strayTopics
                    subscriptionsChanged = false
                }
                pending.isShedding = lastRefusal.map { .now - $0 < .seconds(10) } ?? false
                router.add(pending, subscribed: topics.map(\.count), unprefixed: strayCount)
                pending = Counts(shards: router.shards)
            }
        }

        func route(_ frames: [ZMQMessage], backend: ZMQSocket, capture: ZMQSocket?) throws(ZMQError) {
            let bytes = frames.reduce(0) { $0 + $1.count }
            pending.received += 1
            pending.receivedBytes += UInt64(bytes)
            if let capture {
                let copies = try frames.map { frame throws(ZMQError) in try frame.copy() }
                _ = try capture.send(multipart: copies, timeout: .zero)
            }
            let owner: Int
            if frames.count >= 2, let source = EventFrames.sourceID(inHeaderFrame: frames[1]) {
                owner = ShardAssignment.shard(of: source, among: router.shards)
            } else {
                owner = 0
                pending.unroutable += 1
            }
            let prefix = prefixes[owner]
            let topic = try ZMQMessage(count: prefix.count + frames[0].count)
            topic.withUnsafeMutableBytes { destination in
                destination.copyBytes(from: prefix)
                frames[0].withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: destination[prefix.count...]).copyMemory(from: source)
                }
            }
            pending.routed[owner] += 1
            // Dropped by the XPUB unless one of the owner's subscriptions is a prefix of the topic.
            // A scan, allocation-free: a shard holds a handful of topics, ``maxTopicsPerShard`` at
            // most however many are sent.
            let covered = topic.withUnsafeBytes { outgoing in
                topics[owner].contains { subscription in outgoing.starts(with: subscription) }
            }
            if !covered { pending.unsubscribed[owner] += 1 }
            pending.sentBytes += UInt64(bytes + prefix.count)
            // XPUB never blocks: past the high-water mark of a slow shard it drops, as a forwarder
            // does, and the shard recovers the gap from the source.
            try backend.send(multipart: [topic] + frames.dropFirst())
        }

        /// Whether some shard subscribes to `topic` under its prefix: a plain subscription of a
        /// shard worker, not a stray one.
        func isCovered(_ topic: [UInt8]) -> Bool {
            prefixes.indices.contains { topics[$0].contains(prefixes[$0] + topic) }
        }

        /// Plain subscriptions no shard also makes under its prefix: workers without `input.shard`.
        var strayTopics: Int { unprefixed.filter { !isCovered($0) }.count }

        /// Counts a subscription refused past a cap and says so, a few times a second at most.
        func refuse(_ text: String, _ reason: String) {
            pending.refusedSubscriptions += 1
            lastRefusal = .now
            guard let heldBack = refusalLog.admit(at: .now) else { return }
            let shown = text.count > 64 ? String(text.prefix(64)) + "…" : text
            report(
                "caffe proxy: subscription '\(Identifier.printable(shown))' refused: \(reason)"
                    + (heldBack > 0 ? " (\(heldBack) more refused since the last line)" : "")
            )
        }

        func subscriptionChanged(_ frames: [ZMQMessage], frontend: ZMQSocket) {
            pending.subscriptionMessages += 1
            guard frames.count == 1, let kind = frames[0].withUnsafeBytes({ $0.first }), kind <= 1 else { return }
            let subscribing = kind == 1
            let topic = Array(frames[0].bytes.dropFirst())
            let text = String(decoding: topic, as: UTF8.self)
            subscriptionsChanged = true
            guard let (shard, upstream) = ShardAssignment.split(partitionedTopic: text[...]) else {
                if subscribing {
                    guard !unprefixed.contains(topic) else { return }
                    guard unprefixed.count < ShardRouter.maxUnprefixedTopics else {
                        refuse(
                            text,
                            "\(ShardRouter.maxUnprefixedTopics) topics without a shard prefix are held already"
                        )
                        return
                    }
                    unprefixed.insert(topic)
                    guard let heldBack = strayLog.admit(at: .now) else { return }
                    let more = heldBack > 0 ? " (\(heldBack) more such subscriptions since the last line)" : ""
                    if "shard/".utf8.starts(with: topic) {
                        report(
                            "caffe proxy: a subscription without a shard prefix ('\(Identifier.printable(text))') receives "
                                + "every shard's events; its worker drops what it does not own" + more
                        )
                    } else if !isCovered(topic) {
                        // A shard worker subscribes its topics plain too (for a broadcasting
                        // forwarder), after their prefixed form: those are expected here.
                        report(
                            "caffe proxy: a subscription without a shard prefix ('\(Identifier.printable(text))') "
                                + "receives nothing here" + more
                        )
                    }
                } else {
                    unprefixed.remove(topic)
                }
                return
            }
            guard shard.count == router.shards else {
                if subscribing {
                    pending.foreignSubscriptions += 1
                    if let heldBack = refusalLog.admit(at: .now) {
                        report(
                            "caffe proxy: a worker subscribes as shard \(shard) but this proxy routes among "
                                + "\(router.shards) shards; give the proxy and every worker the same count"
                                + (heldBack > 0 ? " (\(heldBack) more lines held back)" : "")
                        )
                    }
                }
                return
            }
            let wasEmpty = topics[shard.index].isEmpty
            if subscribing {
                guard !topics[shard.index].contains(topic) else { return }
                guard topics[shard.index].count < ShardRouter.maxTopicsPerShard else {
                    refuse(text, "shard \(shard) holds \(ShardRouter.maxTopicsPerShard) topics already")
                    return
                }
                topics[shard.index].insert(topic)
                try? frontend.subscribe(Array(upstream.utf8))
                if wasEmpty { report("caffe proxy: shard \(shard) subscribed") }
            } else {
                guard topics[shard.index].remove(topic) != nil else { return }
                try? frontend.unsubscribe(Array(upstream.utf8))
                if topics[shard.index].isEmpty {
                    report("caffe proxy: shard \(shard) has no subscriber; its events are dropped until one comes back")
                }
            }
        }
    }
}
