import CaffeProtocol
import CaffeTransport
import Foundation
import Synchronization
import ZeroMQ

/// Serves `caffe.v1.Replay/Fetch` on a ROUTER from the orders a simulator sent or can send: a
/// worker that detected a gap asks here, gets the events this server has, and is told which ones
/// it does not. Runs on a thread of its own until ``stop()``.
public final class ReplayServer: Sendable {
    /// The endpoint bound (wildcard port resolved).
    public let endpoint: String
    private let store = Mutex<[String: [UInt64: Caffe_V1_OrderEvent]]>([:])
    /// Sources whose events are made on demand rather than remembered, with what was sent of them.
    private let generated = Mutex<[String: @Sendable (UInt64) -> Caffe_V1_ReplayedEvent]>([:])
    private let sentThrough = Mutex<[String: UInt64]>([:])
    private let prepared = Mutex<[String: [UInt64: Caffe_V1_ReplayedEvent]]>([:])
    private let served = Atomic<Int>(0)
    private let servedEvents = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    /// Binds `endpoint` (`tcp://127.0.0.1:*` picks a port) and starts serving.
    public init(context: ZMQContext, endpoint: String) throws(ZMQError) {
        let router = try context.socket(.router)
        self.endpoint = try router.bind(endpoint)
        let box = SocketBox(router)
        let thread = Thread { [self] in
            serve(box.socket)
            finished.signal()
        }
        thread.name = "caffe-sim-replay"
        thread.start()
    }

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

    /// The most sequences one reply covers.
    static let maxBatch: UInt64 = 10_000

    /// Requests answered so far.
    public var requestsServed: Int { served.load(ordering: .relaxed) }

    /// Events handed out in replies so far.
    public var eventsServed: Int { servedEvents.load(ordering: .relaxed) }

    /// Stops serving and closes the socket.
    public func stop() {
        guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
        finished.wait()
    }

    /// The reply to one request: the events held in the range and the sequences not held.
    func response(to request: Caffe_V1_ReplayRequest) -> Caffe_V1_ReplayResponse {
        var response = Caffe_V1_ReplayResponse()
        guard request.fromSequence <= request.toSequence else { return response }
        // At most one batch per reply; the worker asks again for the rest.
        let last = request.fromSequence + Swift.min(request.toSequence - request.fromSequence, Self.maxBatch - 1)
        if let make = generated.withLock({ $0[request.sourceID] }) {
            let sent = sentThrough.withLock { $0[request.sourceID] ?? 0 }
            for sequence in request.fromSequence...last {
                if sequence >= 1, sequence <= sent {
                    response.frames.append(make(sequence))
                } else {
                    response.unavailable.append(sequence)
                }
            }
            return response
        }
        if let frames = prepared.withLock({ $0[request.sourceID] }) {
            for sequence in request.fromSequence...last {
                if let event = frames[sequence] {
                    response.frames.append(event)
                } else {
                    response.unavailable.append(sequence)
                }
            }
            return response
        }
        let events = store.withLock { $0[request.sourceID] ?? [:] }
        for sequence in request.fromSequence...last {
            if let event = events[sequence] {
                response.events.append(event)
            } else {
                response.unavailable.append(sequence)
            }
        }
        return response
    }

    private func serve(_ router: ZMQSocket) {
        while running.load(ordering: .relaxed) {
            guard let frames = try? router.receiveMultipart(timeout: .milliseconds(50)),
                let request = try? RequestFrames(parsing: frames)
            else { continue }
            let reply: [ZMQMessage]?
            if request.header.method != CaffeMethod.replayFetch {
                reply = try? request.reply(
                    status: RPCStatus(code: .unimplemented, message: "this endpoint serves \(CaffeMethod.replayFetch)")
                )
            } else if let body = try? request.decodeBody(as: Caffe_V1_ReplayRequest.self) {
                let answer = response(to: body)
                servedEvents.add(answer.frames.count + answer.events.count, ordering: .relaxed)
                reply = try? request.reply(status: .ok, body: answer)
            } else {
                reply = try? request.reply(status: RPCStatus(code: .invalidArgument, message: "not a ReplayRequest"))
            }
            if let reply {
                _ = try? router.send(multipart: reply, timeout: .milliseconds(100))
                served.add(1, ordering: .relaxed)
            }
        }
        router.close(linger: .milliseconds(0))
    }
}

/// A socket handed to the thread that will own it.
final class SocketBox: @unchecked Sendable {
    let socket: ZMQSocket
    init(_ socket: ZMQSocket) { self.socket = socket }
}
