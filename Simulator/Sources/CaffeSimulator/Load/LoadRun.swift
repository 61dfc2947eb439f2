import CaffeClient
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import Histogram
import SwiftProtobuf
import WorkerTestKit
import ZeroMQ

/// `caffe-sim load`: traffic against a running worker, open loop (a ``LoadProfile``) or closed
/// loop (a fixed number in flight), with the books kept by ``LoadAccounting``.
///
/// One thread does everything: it sends what is due, reads what came back, and waits in
/// `zmq_poll` until the next send is due. A send the worker does not take at once (its queues are
/// full) stays due; its latency keeps counting from the intended time.
public struct LoadRun {
    public enum Traffic: String, Sendable, CaseIterable {
        /// Order events in, confirmations and receipts out.
        case orders
        /// Complication requests in, payloads out.
        case complications
        /// `caffe.v1.Renderer/RenderOrder` requests on the RPC endpoint.
        case rpc
    }

    public struct Configuration: Sendable {
        public var traffic: Traffic = .orders
        /// Open loop when set; closed loop (``concurrency``) otherwise.
        public var profile: LoadProfile? = .constant(rate: 1000)
        public var concurrency: Int = 16
        /// At most this many messages…
        public var count: Int = 10_000
        /// …and none intended after this many seconds (open loop).
        public var duration: Double?
        /// Where events go: `@` binds, `>` connects. The default worker subscribes to 5560.
        public var inputEndpoint = "@tcp://127.0.0.1:5560"
        /// `pub` or `push`.
        public var inputKind = "pub"
        /// Where outputs come from: the default worker publishes on 5561.
        public var outputEndpoint = ">tcp://127.0.0.1:5561"
        /// `sub`, `pull`, or `acked` (a DEALER acknowledging the worker's acknowledged output).
        public var outputKind = "sub"
        /// Acknowledged output: the window this consumer grants.
        public var window: UInt32 = 1000
        public var rpcEndpoint = ">tcp://127.0.0.1:5562"
        /// How long after the last intended send an unsettled message counts as lost.
        public var timeout: Double = 5
        public var seed: UInt64 = 1
        /// Markets and their weights (``MarketDirectory/mix(_:)``); the run needs at least one.
        public var markets: [(market: Market, weight: Int)] = []
        /// Where to serve `caffe.v1.Replay/Fetch` from what was sent; empty: not served.
        public var replayEndpoint = "tcp://127.0.0.1:*"
        /// The source id of the run's events; empty: `load-` and a random suffix, so a worker's
        /// checkpoint from an earlier run does not take them for duplicates.
        public var sourceID = ""
        /// Seconds at the start whose messages are left out of the latency figures (still counted).
        public var warmup: Double = 0
        /// A process (with its children) whose CPU and resident memory the report follows, once a second.
        public var watchProcess: Int32?
        /// The report's run details as far as the caller knows them (command, version, a note);
        /// the run adds its start, host, endpoints and whether it was interrupted.
        public var details = LoadReport.RunDetails()

        public init() {}
    }

    public let configuration: Configuration
    public let menu: Menu

    public init(configuration: Configuration, menu: Menu) {
        self.configuration = configuration
        self.menu = menu
    }

    /// Runs the load; `progress` gets one line a second. When `stop` turns true, sending ends,
    /// what is in flight gets at most a second to come back, and the report of what ran is
    /// returned, marked interrupted.
    public func run(
        context: ZMQContext,
        stop: () -> Bool = { false },
        progress: (String) -> Void = { _ in }
    ) throws -> LoadReport {
        let configuration = configuration
        var details = configuration.details
        details.started = Date().formatted(.iso8601)
        details.host = ProcessInfo.processInfo.hostName
        details.input = configuration.traffic == .rpc ? configuration.rpcEndpoint : configuration.inputEndpoint
        details.output =
            configuration.traffic == .rpc
            ? configuration.rpcEndpoint : "\(configuration.outputEndpoint) (\(configuration.outputKind))"
        // Set once `stop` turned true: sending ended, and the run ends at this time at the latest.
        var stoppedBy: Double?
        let source = configuration.sourceID.isEmpty ? "load-\(UUID().uuidString.prefix(8))" : configuration.sourceID
        let markets = configuration.markets
        var orders = try OrderGenerator(
            menu: menu,
            configuration: .init(seed: configuration.seed, sourceID: source, markets: markets)
        )
        var complications = ComplicationGenerator(
            configuration: .init(seed: configuration.seed, markets: markets)
        )

        let open = configuration.profile != nil
        let offsets = configuration.profile?.offsets(count: configuration.count, duration: configuration.duration) ?? []
        var total = open ? offsets.count : configuration.count
        // Messages never sent because the input stopped taking them (see `blockedSince`).
        var unsent = 0
        var blockedSince: Double?

        // Sockets.
        let rpc = configuration.traffic == .rpc
        var acknowledging: AckedConsumer?
        let sender: ZMQSocket
        let receiver: ZMQSocket
        if rpc {
            sender = try context.socket(.dealer)
            try sender.set(.sendHighWaterMark, to: 100_000)
            try Self.attach(sender, configuration.rpcEndpoint)
            receiver = sender
        } else {
            sender = try context.socket(configuration.inputKind == "push" ? .push : .xpub)
            try sender.set(.sendHighWaterMark, to: 100_000)
            try Self.attach(sender, configuration.inputEndpoint)
            if configuration.outputKind == "acked" {
                // Every delivery is counted, repeats too: the run's accounting de-duplicates.
                let consumer = try AckedConsumer(
                    endpoint: configuration.outputEndpoint,
                    window: configuration.window,
                    deduplicate: 0,
                    context: context
                )
                try consumer.announce()
                receiver = consumer.socket
                acknowledging = consumer
            } else {
                receiver = try context.socket(configuration.outputKind == "pull" ? .pull : .sub)
                try receiver.set(.receiveHighWaterMark, to: 1_000_000)
                if configuration.outputKind != "pull" { try receiver.subscribe("") }
                try Self.attach(receiver, configuration.outputEndpoint)
            }
        }
        defer {
            sender.close(linger: .milliseconds(0))
            // The acknowledged output's last feedback must leave before the socket goes.
            if !rpc { receiver.close(linger: acknowledging == nil ? .milliseconds(0) : .seconds(1)) }
        }
        let server =
            try configuration.replayEndpoint.isEmpty || rpc
            ? nil : ReplayServer(context: context, endpoint: configuration.replayEndpoint)
        server?.start()
        defer { server?.stop() }
        // Orders are encoded before the run; the replay server answers from the same encoding.
        let encoded: EncodedOrders? =
            configuration.traffic == .orders
            ? try EncodedOrders(
                menu: menu,
                seed: configuration.seed,
                sourceID: source,
                markets: markets,
                replayEndpoint: server?.endpoint
            ) : nil
        if let encoded, let server {
            server.serve(source: source) { encoded.replayed(sequence: $0) }
        }
        let sourceBytes = Array(source.utf8)
        var topicBuffer: [UInt8] = []
        var headerBuffer: [UInt8] = []
        var bodyBuffer: [UInt8] = []
        topicBuffer.reserveCapacity(256)
        headerBuffer.reserveCapacity(1024)
        bodyBuffer.reserveCapacity(4096)
        let incoming = (0..<5).map { _ in ZMQMessage() }
        if !rpc && configuration.inputKind != "push" {
            // A PUB drops what it sends before the worker has subscribed: wait for the subscription.
            var subscribed = false
            for _ in 0..<200 where !subscribed {
                if let frame = try sender.receive(timeout: .milliseconds(50)), frame.bytes.first == 1 {
                    subscribed = true
                }
            }
            guard subscribed else {
                throw LoadError("no worker subscribed to \(configuration.inputEndpoint) within 10 s")
            }
        }
        // Our own subscription to the worker's outputs needs a moment to reach it.
        if !rpc { Thread.sleep(forTimeInterval: 0.3) }

        var books = LoadAccounting(warmup: configuration.warmup)
        var poller = ZMQPoller()
        poller.register(receiver, for: .readable)
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Double {
            let duration = clock.now - start
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        var next = 0
        var waiting: (frames: [ZMQMessage], id: UInt64, locale: String, expected: Int, order: Caffe_V1_OrderEvent?)?
        var orderPending = false
        // What the replay server may hand out: updated once per loop, not per message.
        var markedSent: UInt64 = 0
        var announcedSent: UInt64 = 0
        var lastHeartbeat = 0.0
        var resources: [LoadReport.ResourceSample] = []
        var lastCPU = configuration.watchProcess.map { ProcessCPU.seconds(ofTree: $0) } ?? 0
        var lastSample = 0.0
        var lastProgress = 0.0
        var lastSent = 0.0
        var lastOutput = 0.0
        var lastSettled = 0.0
        var lastSettledCount = 0
        let lastIntended = offsets.last ?? 0

        func message(_ index: Int) throws -> (
            frames: [ZMQMessage], id: UInt64, locale: String, expected: Int, order: Caffe_V1_OrderEvent?
        ) {
            let sequence = UInt64(index + 1)
            switch configuration.traffic {
            case .orders:
                let order = orders.next()
                var header = EventFrames.header(for: order)
                if let server { header.metadata["replay_endpoint"] = server.endpoint }
                let frames = try EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: header,
                    body: order
                )
                return (frames, sequence, order.customer.locale, 2, order)
            case .complications:
                let request = complications.next()
                var header = Caffe_V1_EventHeader()
                header.sourceID = source
                header.sequence = sequence
                if let server { header.metadata["replay_endpoint"] = server.endpoint }
                let frames = try EventFrames.encode(
                    topic: CaffeTopic.complicationRequest(user: request.userID),
                    header: header,
                    body: request
                )
                return (frames, sequence, request.locale, 1, nil)
            case .rpc:
                let order = orders.next()
                let frames = try RequestFrames.encode(
                    method: CaffeMethod.renderOrder,
                    requestID: "\(sequence)",
                    deadline: Google_Protobuf_Timestamp(date: Date().addingTimeInterval(configuration.timeout)),
                    body: order
                )
                return (frames, sequence, order.customer.locale, 1, nil)
            }
        }

        /// Called when the input took nothing at `now`: after `configuration.timeout` of that,
        /// nobody is taking messages, so sending stops (what is left is counted unsent) rather
        /// than waiting forever. Returns whether it stopped.
        func givesUp(at now: Double) throws -> Bool {
            let since = blockedSince ?? now
            blockedSince = since
            guard now - since > configuration.timeout else { return false }
            let seconds = String(format: "%g", configuration.timeout)
            guard books.sent > 0 else {
                throw LoadError(
                    "nothing could be sent to \(configuration.inputEndpoint) for \(seconds) s: is a worker connected?"
                )
            }
            unsent = total - next
            total = next
            progress("the input took nothing for \(seconds) s; \(unsent) messages not sent")
            return true
        }

        while true {
            let now = elapsed()
            if stoppedBy == nil, stop() {
                stoppedBy = now + min(1, configuration.timeout)
                details.interrupted = true
                total = next
                waiting = nil
                orderPending = false
            }
            // Send what is due.
            while next < total {
                if open {
                    guard offsets[next] <= now else { break }
                } else {
                    guard books.outstanding < configuration.concurrency else { break }
                }
                if let encoded {
                    // Orders: the pre-encoded frames, patched; no message objects.
                    let sequence = UInt64(next + 1)
                    if !orderPending {
                        encoded.frames(
                            sequence: sequence,
                            topic: &topicBuffer,
                            header: &headerBuffer,
                            body: &bodyBuffer
                        )
                    }
                    let accepted = try topicBuffer.withUnsafeBytes { try sender.send($0, more: true, timeout: .zero) }
                    guard accepted else {
                        orderPending = try !givesUp(at: now)
                        break
                    }
                    try headerBuffer.withUnsafeBytes { try sender.send($0, more: true) }
                    try bodyBuffer.withUnsafeBytes { try sender.send($0, more: false) }
                    orderPending = false
                    blockedSince = nil
                    books.sent(
                        sequence,
                        intended: open ? offsets[next] : now,
                        locale: encoded.locale(of: sequence),
                        expected: 2,
                        at: now
                    )
                    lastSent = now
                    next += 1
                    markedSent = sequence
                    continue
                }
                let item = try waiting ?? message(next)
                guard try sender.send(multipart: item.frames, timeout: .zero) else {
                    waiting = try givesUp(at: now) ? nil : item
                    break
                }
                blockedSince = nil
                waiting = nil
                books.sent(
                    item.id,
                    intended: open ? offsets[next] : now,
                    locale: item.locale,
                    expected: item.expected,
                    at: now
                )
                if let order = item.order { server?.remember(order) }
                lastSent = now
                next += 1
            }
            if markedSent != announcedSent {
                server?.markSent(source: source, through: markedSent)
                announcedSent = markedSent
            }
            // A heartbeat every half second lets a worker find a lost end of the stream.
            if let server, markedSent > 0, now - lastHeartbeat >= 0.5 {
                lastHeartbeat = now
                var header = Caffe_V1_EventHeader()
                header.sourceID = source
                header.metadata["replay_endpoint"] = server.endpoint
                var beat = Caffe_V1_Heartbeat()
                beat.lastSequence = markedSent
                _ = try? sender.send(
                    multipart: try EventFrames.encode(topic: "heartbeat.\(source)", header: header, body: beat),
                    timeout: .zero
                )
            }
            // Read what came back.
            var read = 0
            while !rpc, read < 10_000, try receiver.receive(into: incoming[0], timeout: .zero) {
                // In place: the kind from the topic, the sequence from the header; no decoding.
                read += 1
                var count = 1
                while incoming[count - 1].hasMore, count < incoming.count {
                    _ = try receiver.receive(into: incoming[count])
                    count += 1
                }
                while incoming[count - 1].hasMore { _ = try receiver.receive() }
                var first = 0
                if acknowledging != nil {
                    guard acknowledging?.accept(tagFrame: incoming[0]) == true else { continue }
                    first = 1
                }
                guard count - first == 3 else { continue }
                let time = elapsed()
                lastOutput = time
                let kind = incoming[first].withUnsafeBytes { OutputScanner.Kind(topic: $0) }
                guard
                    let id = incoming[first + 1].withUnsafeBytes({
                        OutputScanner.sequence(inHeader: $0, source: sourceBytes)
                    })
                else { continue }
                if kind == .deadLetter {
                    books.deadLetter(id, at: time)
                } else {
                    books.output(id, kind: kind.name, at: time)
                }
            }
            try acknowledging?.acknowledgeIfDue()
            while rpc, read < 10_000, let frames = try receiver.tryReceiveMultipart() {
                read += 1
                let time = elapsed()
                lastOutput = time
                if rpc {
                    guard let reply = try? ResponseFrames(parsing: frames) else { continue }
                    books.reply(UInt64(reply.header.requestID) ?? 0, code: reply.status.code.grpcName, at: time)
                } else {
                    guard let event = try? EventFrames(parsing: frames), event.header.sourceID == source else {
                        continue
                    }
                    let id = event.header.sequence
                    if event.topic == CaffeTopic.deadLetter {
                        books.deadLetter(id, at: time)
                    } else {
                        books.output(id, kind: String(event.topic.prefix { $0 != "." }), at: time)
                    }
                }
            }
            let time = elapsed()
            if time - lastProgress >= 1 {
                lastProgress = time
                if let pid = configuration.watchProcess {
                    let cpu = ProcessCPU.seconds(ofTree: pid)
                    resources.append(
                        LoadReport.ResourceSample(
                            second: Int(time.rounded()),
                            cpuPercent: (cpu - lastCPU) / max(0.001, time - lastSample) * 100,
                            residentMegabytes: ProcessCPU.residentMegabytes(ofTree: pid)
                        )
                    )
                    lastCPU = cpu
                    lastSample = time
                }
                // The last whole second's p99: a cumulative one hides a bad second behind the others.
                let lastSecond = Int(time) - 1
                let recent = books.perSecond[lastSecond].map {
                    String(format: "%.2f ms", Double($0.valueAtPercentile(99)) / 1000)
                }
                let completed =
                    lastSecond >= 0 && lastSecond < books.completedPerSecond.count
                    ? books.completedPerSecond[lastSecond] : 0
                progress(
                    String(
                        format: "%5.0fs  sent %d  received %d  in flight %d  dead-lettered %d  duplicates %d",
                        time,
                        books.sent,
                        books.received,
                        books.outstanding,
                        books.deadLettered,
                        books.duplicates
                    ) + "  last second: \(completed)/s, p99 \(recent ?? "–")"
                )
            }
            if books.settled > lastSettledCount {
                lastSettledCount = books.settled
                lastSettled = time
            }
            if let stoppedBy {
                if books.outstanding == 0 || time > stoppedBy { break }
            } else if next >= total {
                let deadline = max(open ? lastIntended : lastSent, lastSent) + configuration.timeout
                if books.outstanding == 0 || time > deadline { break }
            } else if !open, books.outstanding >= configuration.concurrency,
                time - max(lastSettled, lastSent) > configuration.timeout
            {
                // Closed loop with every slot taken by messages that never come back: they are lost.
                break
            }
            // Wait for output, or until the next send is due.
            var wait = 0.1
            if next < total, waiting == nil {
                wait = open ? max(0, offsets[next] - time) : (books.outstanding < configuration.concurrency ? 0 : 0.1)
            } else if waiting != nil || orderPending {
                wait = 0.001
            }
            if let acknowledging {
                let due = ContinuousClock.now.duration(to: acknowledging.nextDue)
                wait = min(
                    wait,
                    max(0.0005, Double(due.components.seconds) + Double(due.components.attoseconds) / 1e18)
                )
            }
            if wait > 0 { _ = try poller.poll(timeout: .milliseconds(Int32(min(100, max(1, wait * 1000))))) }
        }
        // A last sample covers the run's end (a run shorter than a second would have none).
        let end = elapsed()
        if let pid = configuration.watchProcess, end - lastSample >= 0.5 {
            resources.append(
                LoadReport.ResourceSample(
                    second: Int(end.rounded(.up)),
                    cpuPercent: (ProcessCPU.seconds(ofTree: pid) - lastCPU) / max(0.001, end - lastSample) * 100,
                    residentMegabytes: ProcessCPU.residentMegabytes(ofTree: pid)
                )
            )
        }
        // Everything processed is acknowledged before leaving: the worker would otherwise hold the
        // last deliveries for a consumer that is gone (and a drain would wait for them).
        try acknowledging?.acknowledgeEverything()
        return LoadReport(
            configuration: configuration,
            books: books,
            targetRate: open && offsets.count > 1 ? Double(offsets.count - 1) / lastIntended : 0,
            sendSeconds: lastSent,
            seconds: max(lastOutput, lastSent),
            replayRequests: server?.requestsServed ?? 0,
            unsent: unsent,
            resources: resources,
            run: details
        )
    }

    /// Binds (`@addr` or a bare address) or connects (`>addr`) `socket`.
    public static func attach(_ socket: ZMQSocket, _ endpoint: String) throws {
        try socket.attach(endpoint, defaultMode: .bind)
    }
}

/// A load run that could not start.
public struct LoadError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
