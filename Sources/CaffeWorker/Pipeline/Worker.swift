import CaffeCore
import CaffeProtocol
import Foundation
import Logging
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// Why the worker could not start.
public struct WorkerError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The running service: intake → render pool → publisher, on their own threads, joined by
/// `inproc://` PUSH/PULL pipes whose high-water marks bound the queues (a full render queue stops
/// intake from reading; a slow PUSH consumer stops the publisher).
///
/// - Intake: receives events (SUB or PULL), tells duplicates and gaps apart (``IntakeTracker``),
///   and hands new events to the render threads.
/// - Render threads (one per core by default), each with its own ``RenderSession``: render, or turn
///   the event into a dead letter; never drop it.
/// - Publisher: sends every output (PUB or PUSH), marks the input done, and checkpoints each
///   source's contiguous done sequence (``Checkpoint``) periodically and at shutdown.
public final class Worker: Sendable {
    public let configuration: WorkerConfiguration
    public let statistics = WorkerStatistics()
    private let core: RenderingCore
    private let context: ZMQContext
    private let logger: Logger
    private let checkpointURL: URL?
    private let resumed: Checkpoint
    private let running = Atomic<Bool>(true)
    private let intakeFinished = Atomic<Bool>(false)
    private let renderersRunning = Atomic<Int>(0)
    private let finished = DispatchGroup()
    /// The endpoints actually bound (`tcp://…:0` resolved), by role.
    private let bound = Mutex<[String: [String]]>([:])
    private let id = UUID().uuidString

    private var renderPipe: String { "inproc://caffe-render-\(id)" }
    private var publishPipe: String { "inproc://caffe-publish-\(id)" }

    /// Prepares a worker; reads the checkpoint (a missing file is a first start).
    public init(configuration: WorkerConfiguration, core: RenderingCore, logger: Logger) throws(WorkerError) {
        self.configuration = configuration
        self.core = core
        self.logger = logger
        checkpointURL =
            configuration.checkpoint.path.isEmpty ? nil : URL(fileURLWithPath: configuration.checkpoint.path)
        do {
            resumed = try checkpointURL.map(Checkpoint.read) ?? Checkpoint()
            context = try ZMQContext()
        } catch {
            throw WorkerError("\(error)")
        }
    }

    /// The endpoints bound for `role` ("input", "output"), with wildcard ports resolved.
    public func boundEndpoints(_ role: String) -> [String] { bound.withLock { $0[role] ?? [] } }

    /// Starts every thread; returns once all sockets are bound and connected.
    ///
    /// - Throws: ``WorkerError`` naming the endpoint that could not be bound or connected.
    public func start() throws(WorkerError) {
        try launch("caffe-publish") { () throws(ZMQError) -> (() -> Void) in
            let pipe = try self.context.socket(.pull)
            _ = try pipe.bind(self.publishPipe)
            let output = try self.openOutput()
            return { self.publish(from: pipe, to: output) }
        }
        try launch("caffe-intake") { () throws(ZMQError) -> (() -> Void) in
            let render = try self.context.socket(.push)
            try render.set(.sendHighWaterMark, to: Int32(self.configuration.render.queue))
            _ = try render.bind(self.renderPipe)
            let letters = try self.context.socket(.push)
            try letters.connect(self.publishPipe)
            let input = try self.openInput()
            return { self.intake(from: input, to: render, deadLetters: letters) }
        }
        for index in 0..<configuration.renderThreadCount {
            renderersRunning.add(1, ordering: .sequentiallyConsistent)
            try launch("caffe-render-\(index)") { () throws(ZMQError) -> (() -> Void) in
                let work = try self.context.socket(.pull)
                try work.set(.receiveHighWaterMark, to: Int32(self.configuration.render.queue))
                try work.connect(self.renderPipe)
                let results = try self.context.socket(.push)
                try results.connect(self.publishPipe)
                return { self.render(from: work, to: results) }
            }
        }
        logger.info(
            "worker serving",
            metadata: [
                "input":
                    "\(configuration.input.kind.rawValue) \(boundOrConnected("input", configuration.input.endpoints))",
                "output":
                    "\(configuration.output.kind.rawValue) \(boundOrConnected("output", configuration.output.endpoints))",
                "render_threads": "\(configuration.renderThreadCount)",
                "resumed_sources": "\(resumed.sources.count)",
            ]
        )
    }

    /// Stops intake; the threads then drain what is in flight, write the checkpoint and end.
    public func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
    }

    /// Waits until every thread has ended (after ``stop()``).
    public func wait() {
        finished.wait()
        context.shutdown()
        logger.info("worker stopped", metadata: statistics.snapshot.mapValues { "\($0)" })
    }

    // MARK: Threads

    /// Runs `setUp` on a new thread, waits for it to report, then lets the thread run what it returned.
    private func launch(
        _ name: String,
        _ setUp: @escaping @Sendable () throws(ZMQError) -> (() -> Void)
    ) throws(WorkerError) {
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<ZMQError?>(nil)
        finished.enter()
        let thread = Thread {
            defer { self.finished.leave() }
            let body: () -> Void
            do throws(ZMQError) {
                body = try setUp()
            } catch {
                failure.withLock { $0 = error }
                ready.signal()
                return
            }
            ready.signal()
            body()
        }
        thread.name = name
        thread.start()
        ready.wait()
        if let error = failure.withLock({ $0 }) {
            stop()
            throw WorkerError("\(name): \(error)")
        }
    }

    private func intake(from input: ZMQSocket, to render: ZMQSocket, deadLetters: ZMQSocket) {
        var tracker = IntakeTracker(resumingFrom: resumed.sources)
        let limits = limits
        while running.load(ordering: .relaxed) {
            let frames: [ZMQMessage]
            do {
                guard let received = try input.receiveMultipart(timeout: .milliseconds(100)) else { continue }
                frames = received
            } catch {
                logger.error("input receive failed", metadata: ["error": "\(error)"])
                break
            }
            statistics.received.add(1, ordering: .relaxed)
            let event: EventFrames
            do {
                event = try EventFrames(parsing: frames, limits: limits)
            } catch {
                // Unreadable before rendering: no sequence to track, so it is dead-lettered here.
                statistics.deadLettered.add(1, ordering: .relaxed)
                let letter = EventRendering.deadLetter(.malformed, "\(error)", frames: frames, ref: nil)
                send([ZMQMessage()] + letter, on: deadLetters, what: "dead letter")
                continue
            }
            let header = event.header
            let verdict = tracker.observe(source: header.sourceID, sequence: header.sequence, orderID: header.orderID)
            for range in verdict.missing {
                statistics.gaps.add(1, ordering: .relaxed)
                statistics.missingSequences.add(range.upperBound - range.lowerBound + 1, ordering: .relaxed)
                logger.warning(
                    "sequence gap",
                    metadata: [
                        "source": "\(header.sourceID)", "from": "\(range.lowerBound)", "to": "\(range.upperBound)",
                    ]
                )
            }
            if verdict.isDuplicate {
                statistics.duplicates.add(1, ordering: .relaxed)
                continue
            }
            send(frames, on: render, what: "render hand-off")
        }
        input.close(linger: .milliseconds(0))
        render.close(linger: .infinite)
        deadLetters.close(linger: .infinite)
        intakeFinished.store(true, ordering: .sequentiallyConsistent)
    }

    private func render(from work: ZMQSocket, to results: ZMQSocket) {
        let rendering = EventRendering(session: core.makeSession())
        let limits = limits
        while true {
            let frames: [ZMQMessage]
            do {
                guard let received = try work.receiveMultipart(timeout: .milliseconds(50)) else {
                    if intakeFinished.load(ordering: .sequentiallyConsistent) { break }
                    continue
                }
                frames = received
            } catch {
                logger.error("render receive failed", metadata: ["error": "\(error)"])
                break
            }
            let result = rendering.outputs(for: frames, limits: limits)
            if result.rendered {
                statistics.rendered.add(1, ordering: .relaxed)
            } else {
                statistics.deadLettered.add(1, ordering: .relaxed)
            }
            let refBytes: [UInt8] = (try? result.ref?.serializedBytes()) ?? []
            send([Self.frame(refBytes)] + result.frames, on: results, what: "result hand-off")
        }
        work.close(linger: .milliseconds(0))
        results.close(linger: .infinite)
        renderersRunning.add(-1, ordering: .sequentiallyConsistent)
    }

    private func publish(from pipe: ZMQSocket, to output: ZMQSocket) {
        var done = resumed.sources.mapValues { ContiguousSequence(contiguous: $0) }
        var lastCheckpoint = ContinuousClock.now
        let interval = Duration.milliseconds(configuration.checkpoint.intervalMilliseconds)
        var written = resumed.sources
        func checkpoint() {
            let marks = done.mapValues(\.contiguous)
            guard marks != written, let checkpointURL else { return }
            do {
                try Checkpoint(sources: marks).write(to: checkpointURL)
                written = marks
                statistics.checkpoints.add(1, ordering: .relaxed)
            } catch {
                logger.error("checkpoint not written", metadata: ["error": "\(error)"])
            }
        }
        while true {
            let message: [ZMQMessage]?
            do {
                message = try pipe.receiveMultipart(timeout: .milliseconds(50))
            } catch {
                logger.error("publish receive failed", metadata: ["error": "\(error)"])
                break
            }
            if let message, let refFrame = message.first {
                var index = 1
                while index + 3 <= message.count {
                    send(Array(message[index..<(index + 3)]), on: output, what: "output")
                    statistics.published.add(1, ordering: .relaxed)
                    index += 3
                }
                if !refFrame.isEmpty, let ref = try? Caffe_V1_EventRef(serializedBytes: refFrame.bytes),
                    ref.sequence > 0
                {
                    done[ref.sourceID, default: ContiguousSequence()].insert(ref.sequence)
                }
            } else if intakeFinished.load(ordering: .sequentiallyConsistent),
                renderersRunning.load(ordering: .sequentiallyConsistent) == 0
            {
                break
            }
            if ContinuousClock.now - lastCheckpoint >= interval {
                checkpoint()
                lastCheckpoint = .now
            }
        }
        checkpoint()
        pipe.close(linger: .milliseconds(0))
        output.close(linger: .seconds(5))
    }

    // MARK: Sockets

    private var limits: CaffeProtocolLimits {
        var limits = CaffeProtocolLimits.standard
        limits.maxBodyBytes = configuration.input.maxMessageBytes
        return limits
    }

    private func openInput() throws(ZMQError) -> ZMQSocket {
        let input = configuration.input
        let socket = try context.socket(input.kind == .sub ? .sub : .pull)
        try socket.set(.receiveHighWaterMark, to: Int32(input.highWaterMark))
        try socket.set(.maxMessageSize, to: Int64(input.maxMessageBytes))
        if input.kind == .sub {
            for topic in input.topics { try socket.subscribe(topic) }
        }
        try attach(socket, input.endpoints, role: "input")
        return socket
    }

    private func openOutput() throws(ZMQError) -> ZMQSocket {
        let output = configuration.output
        let socket = try context.socket(output.kind == .pub ? .pub : .push)
        try socket.set(.sendHighWaterMark, to: Int32(output.highWaterMark))
        try attach(socket, output.endpoints, role: "output")
        return socket
    }

    private func attach(_ socket: ZMQSocket, _ endpoints: [WorkerEndpoint], role: String) throws(ZMQError) {
        for endpoint in endpoints {
            switch endpoint.mode {
            case .bind:
                let actual = try socket.bind(endpoint.address)
                bound.withLock { $0[role, default: []].append(actual) }
            case .connect:
                try socket.connect(endpoint.address)
            }
        }
    }

    private func boundOrConnected(_ role: String, _ endpoints: [WorkerEndpoint]) -> String {
        let actual = boundEndpoints(role)
        let connected = endpoints.filter { $0.mode == .connect }.map(\.description)
        return (actual.map { "@" + $0 } + connected).joined(separator: ",")
    }

    /// A frame holding a copy of `bytes`.
    static func frame(_ bytes: [UInt8]) -> ZMQMessage {
        guard !bytes.isEmpty, let message = try? ZMQMessage(count: bytes.count) else { return ZMQMessage() }
        message.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { target.copyMemory(from: $0) }
        }
        return message
    }

    /// Sends a multipart message, waiting as long as the peer needs (that wait is the backpressure);
    /// a failure is logged and counted as a dead letter would be, never ignored.
    private func send(_ frames: [ZMQMessage], on socket: ZMQSocket, what: String) {
        do {
            try socket.send(multipart: frames)
        } catch {
            logger.error("send failed", metadata: ["what": "\(what)", "error": "\(error)"])
        }
    }
}
