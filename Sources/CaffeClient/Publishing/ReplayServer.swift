import CaffeProtocol
import CaffeTransport
import Foundation
import ServiceLifecycle
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// Serves `caffe.v1.Replay/Fetch` on a ROUTER (docs/WIRE.md "Replay") from the events a source
/// sent or can send: a worker that detected a gap asks here, gets the events this server has, and
/// is told which ones it does not. An ``OrderPublisher`` records what it sends into the server's
/// ``journal``; a source may instead make events on demand, hand over prepared ones, or remember
/// order bodies.
///
/// A `Service`: `init` binds, ``run()`` serves until the task is cancelled or the service group
/// shuts down gracefully. Code that is not async starts it with ``start()`` and ends it with
/// ``stop()``.
///
/// ```swift
/// let server = try ReplayServer(context: context, endpoint: "tcp://127.0.0.1:*")
/// server.remember(order)
/// try await ServiceGroup(services: [server, …], logger: logger).run()
/// ```
public final class ReplayServer: Service, Sendable {
    /// The endpoint bound (wildcard port resolved).
    public let endpoint: String
    /// The endpoint sources announce in their events (`replay_endpoint`): the one given to `init`,
    /// else the bound one. Workers on other hosts connect to it and pin it, so a server bound to
    /// `tcp://0.0.0.0:…` or `tcp://*:…` must be given the address they reach it by.
    public let advertisedEndpoint: String
    /// What publishers sent, as it travelled, answered as `frames`.
    public let journal: ReplayJournal
    private let store = Mutex<[String: [UInt64: Caffe_V1_OrderEvent]]>([:])
    /// Sources whose events are made on demand rather than remembered, with what was sent of them.
    private let generated = Mutex<[String: @Sendable (UInt64) -> Caffe_V1_ReplayedEvent]>([:])
    private let sentThrough = Mutex<[String: UInt64]>([:])
    private let prepared = Mutex<[String: [UInt64: Caffe_V1_ReplayedEvent]]>([:])
    private let forgotten = Mutex<[String: Set<UInt64>]>([:])
    private let asked = Mutex<[ClosedRange<UInt64>]>([])
    /// Requests answered and events handed out, counted together so a reader sees one moment.
    private let served = Mutex<(requests: Int, events: Int)>((0, 0))
    private let running = Atomic<Bool>(true)
    private let phase: Mutex<Phase>

    /// Where the server is in its life: bound (the socket waiting for its thread), serving (the
    /// thread owns the socket; `waiters` resume when it ends) or ended.
    private enum Phase: @unchecked Sendable {
        case bound(ZMQSocket)
        case serving(finished: DispatchSemaphore, waiters: [CheckedContinuation<Void, Never>])
        case ended
    }

    /// Binds `endpoint` (`tcp://127.0.0.1:*` picks a port), announced as `advertise` when given;
    /// nothing is served until ``run()`` or ``start()``. The ``journal`` keeps `retention` events
    /// per source.
    public init(context: ZMQContext, endpoint: String, advertise: String? = nil, retention: Int = 100_000)
        throws(ZMQError)
    {
        let router = try context.socket(.router)
        self.endpoint = try router.bind(endpoint)
        advertisedEndpoint = advertise ?? self.endpoint
        journal = ReplayJournal(retention: retention)
        phase = Mutex(.bound(router))
    }

    deinit { stop() }

    /// Serves `source`'s events from `event`, which makes the event of a sequence (as its frames);
    /// sequences above the highest ``markSent(source:through:)`` are unavailable.
    public func serve(source: String, event: @escaping @Sendable (UInt64) -> Caffe_V1_ReplayedEvent) {
        generated.withLock { $0[source] = event }
    }

    /// Everything of `source` up to `sequence` has been sent (and can be replayed).
    public func markSent(source: String, through sequence: UInt64) {
        sentThrough.withLock { $0[source] = sequence }
    }

    /// Serves these events, by source and sequence, exactly as they were (or will be) sent.
    public func serve(prepared events: [String: [UInt64: Caffe_V1_ReplayedEvent]]) {
        self.prepared.withLock { $0.merge(events) { $0.merging($1) { $1 } } }
    }

    /// Makes `order` available for replay.
    public func remember(_ order: Caffe_V1_OrderEvent) {
        store.withLock { $0[order.sourceID, default: [:]][order.sequence] = order }
    }

    /// From now on, says these sequences of `source` are unavailable even where it has them: a
    /// source whose retention ran out.
    public func forget(source: String, sequences: some Sequence<UInt64>) {
        forgotten.withLock { $0[source, default: []].formUnion(sequences) }
    }

    /// The most sequences one reply covers.
    public static let maxBatch: UInt64 = 10_000
    /// The most bytes of events one reply carries: a worker refuses a reply over its
    /// `input.max_message_bytes` (1 MiB by default), so a reply stops short of it and leaves the
    /// rest of the range unanswered, which the worker asks for at once (docs/WIRE.md "Replay").
    public static let maxReplyBytes = 1_048_576 - 65_536

    /// Requests answered so far.
    public var requestsServed: Int { servedCounts.requests }

    /// Events handed out in replies so far.
    public var eventsServed: Int { servedCounts.events }

    /// Requests answered and the events handed out in them, read together.
    public var servedCounts: (requests: Int, events: Int) { served.withLock { $0 } }

    /// The ranges asked for so far (`from...to` of each well-formed Fetch), in order.
    public var requestedRanges: [ClosedRange<UInt64>] { asked.withLock { $0 } }

    /// Serves until the task is cancelled or the service group shuts down gracefully.
    public func run() async {
        start()
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await ended()
            } onGracefulShutdown: {
                self.running.store(false, ordering: .relaxed)
            }
        } onCancel: {
            self.running.store(false, ordering: .relaxed)
        }
    }

    /// Starts serving on a thread of its own (once; later calls do nothing).
    public func start() {
        phase.withLock { phase in
            guard case .bound(let router) = phase else { return }
            let finished = DispatchSemaphore(value: 0)
            phase = .serving(finished: finished, waiters: [])
            let box = UncheckedBox(router)
            let thread = Thread { [self] in
                serve(box.value)
                let waiters = self.phase.withLock { phase in
                    defer { phase = .ended }
                    if case .serving(_, let waiters) = phase { return waiters }
                    return []
                }
                finished.signal()
                for waiter in waiters { waiter.resume() }
            }
            thread.name = "caffe-replay"
            thread.start()
        }
    }

    /// Stops serving, closes the socket and returns once it is closed.
    public func stop() {
        running.store(false, ordering: .relaxed)
        let finished: DispatchSemaphore? = phase.withLock { phase in
            switch phase {
            case .bound(let router):
                router.close(linger: .milliseconds(0))
                phase = .ended
                return nil
            case .serving(let finished, _):
                return finished
            case .ended:
                return nil
            }
        }
        // The thread signals once; pass the signal on to any other caller waiting.
        finished?.wait()
        finished?.signal()
    }

    /// Returns when the serving thread has ended (at once if it has).
    private func ended() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = phase.withLock { phase in
                guard case .serving(let finished, var waiters) = phase else { return false }
                waiters.append(continuation)
                phase = .serving(finished: finished, waiters: waiters)
                return true
            }
            if !waiting { continuation.resume() }
        }
    }

    /// The reply to one request: the events held in the range and the sequences not held.
    func response(to request: Caffe_V1_ReplayRequest) -> Caffe_V1_ReplayResponse {
        var response = Caffe_V1_ReplayResponse()
        guard request.fromSequence <= request.toSequence else { return response }
        asked.withLock { $0.append(request.fromSequence...request.toSequence) }
        // At most one batch per reply; the worker asks again for the rest.
        let last = request.fromSequence + Swift.min(request.toSequence - request.fromSequence, Self.maxBatch - 1)
        let forgotten = forgotten.withLock { $0[request.sourceID] ?? [] }
        /// Each sequence of the range goes to `answers` as `held` gives it, or to the response's
        /// unavailable ones (also when forgotten).
        var unavailable: [UInt64] = []
        func answer<Held>(_ held: (UInt64) -> Held?, size: (Held) -> Int) -> [Held] {
            var answers: [Held] = []
            var bytes = 0
            for sequence in request.fromSequence...last {
                if !forgotten.contains(sequence), let value = held(sequence) {
                    bytes += size(value) + 16
                    // Past the budget: stop; what is left is neither sent nor unavailable.
                    if bytes > Self.maxReplyBytes, !answers.isEmpty { break }
                    answers.append(value)
                } else {
                    unavailable.append(sequence)
                }
            }
            return answers
        }
        func size(_ event: Caffe_V1_ReplayedEvent) -> Int {
            event.topic.utf8.count + event.header.count + event.body.count
        }
        if let make = generated.withLock({ $0[request.sourceID] }) {
            let sent = sentThrough.withLock { $0[request.sourceID] ?? 0 }
            response.frames = answer({ $0 >= 1 && $0 <= sent ? make($0) : nil }, size: size)
        } else if let frames = prepared.withLock({ $0[request.sourceID] }) {
            response.frames = answer({ frames[$0] }, size: size)
        } else if journal.holds(source: request.sourceID) {
            response.frames = answer({ journal.event(source: request.sourceID, sequence: $0) }, size: size)
        } else {
            let events = store.withLock { $0[request.sourceID] ?? [:] }
            response.events = answer({ events[$0] }, size: { ((try? $0.serializedBytes()) as [UInt8]?)?.count ?? 0 })
        }
        response.unavailable = unavailable
        return response
    }

    private func serve(_ router: ZMQSocket) {
        while running.load(ordering: .relaxed) {
            let received: [ZMQMessage]?
            do {
                received = try router.receiveMultipart(timeout: .milliseconds(50))
            } catch {
                // The context shut down (or the socket broke): nothing more will arrive.
                break
            }
            guard let frames = received, let request = try? RequestFrames(parsing: frames) else { continue }
            let reply: [ZMQMessage]?
            var events = 0
            if request.header.method != CaffeMethod.replayFetch {
                reply = try? request.reply(
                    status: RPCStatus(code: .unimplemented, message: "this endpoint serves \(CaffeMethod.replayFetch)")
                )
            } else if let body = try? request.decodeBody(as: Caffe_V1_ReplayRequest.self) {
                let answer = response(to: body)
                events = answer.frames.count + answer.events.count
                reply = try? request.reply(status: .ok, body: answer)
            } else {
                reply = try? request.reply(status: RPCStatus(code: .invalidArgument, message: "not a ReplayRequest"))
            }
            if let reply {
                // Counted before it leaves, so whoever reads the reply reads the count too.
                served.withLock {
                    $0.requests += 1
                    $0.events += events
                }
                _ = try? router.send(multipart: reply, timeout: .milliseconds(100))
            }
        }
        router.close(linger: .milliseconds(0))
    }
}

/// A value (a socket) handed to the thread that will own it.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
