// Caffe — CaffeWorker tests.
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import Synchronization
import WorkerTestKit
import ZeroMQ

/// A test's order source: a PUSH the worker pulls from, and a ROUTER serving
/// `caffe.v1.Replay/Fetch` from every event it sent (or naming the ones it was told to forget).
final class OrderSource: @unchecked Sendable {
    let context: ZMQContext
    let push: ZMQSocket
    let pushEndpoint: String
    let replayEndpoint: String
    /// Every event sent or held back, by sequence.
    let store = Mutex<[UInt64: Caffe_V1_OrderEvent]>([:])
    /// Sequences the replay endpoint says it no longer has.
    let forgotten = Mutex<Set<UInt64>>([])
    /// Replay requests served, as (from, to).
    let requests = Mutex<[ClosedRange<UInt64>]>([])
    private let stopping = Atomic<Bool>(false)
    private let served = DispatchSemaphore(value: 0)

    init(context: ZMQContext, folder: URL) throws {
        self.context = context
        push = try context.socket(.push)
        pushEndpoint = try push.bind("tcp://127.0.0.1:*")
        replayEndpoint = "ipc://\(folder.path)/replay"
        let router = try context.socket(.router)
        _ = try router.bind(replayEndpoint)
        let box = UncheckedBox(router)
        Thread { [self] in
            serve(box.value)
            served.signal()
        }.start()
    }

    /// Sends `order` (remembered for replay) with the replay endpoint and `metadata` in its
    /// header's metadata.
    func send(_ order: Caffe_V1_OrderEvent, metadata: [String: String] = [:]) throws {
        store.withLock { $0[order.sequence] = order }
        var header = EventFrames.header(for: order)
        header.metadata = metadata
        header.metadata["replay_endpoint"] = replayEndpoint
        try push.send(
            multipart: try EventFrames.encode(
                topic: CaffeTopic.order(store: order.storeID),
                header: header,
                body: order
            )
        )
    }

    /// Remembers `order` for replay without sending it: a dropped message.
    func drop(_ order: Caffe_V1_OrderEvent) {
        store.withLock { $0[order.sequence] = order }
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        served.wait()
        push.close(linger: .milliseconds(0))
    }

    private func serve(_ router: ZMQSocket) {
        while !stopping.load(ordering: .relaxed) {
            guard let frames = try? router.receiveMultipart(timeout: .milliseconds(50)),
                let request = try? RequestFrames(parsing: frames),
                let body = try? request.decodeBody(as: Caffe_V1_ReplayRequest.self)
            else { continue }
            requests.withLock { $0.append(body.fromSequence...body.toSequence) }
            var response = Caffe_V1_ReplayResponse()
            let forgotten = forgotten.withLock { $0 }
            let stored = store.withLock { $0 }
            for sequence in body.fromSequence...body.toSequence {
                if !forgotten.contains(sequence), let event = stored[sequence] {
                    response.events.append(event)
                } else {
                    response.unavailable.append(sequence)
                }
            }
            if let reply = try? request.reply(status: .ok, body: response) { try? router.send(multipart: reply) }
        }
        router.close(linger: .milliseconds(0))
    }
}

/// Moves a socket to the thread that will own it.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Orders for the tests: `id` `O-<sequence>` (`O-<source>-<sequence>` for other sources), source
/// `src`, locales and stores in turn.
enum TestOrders {
    static let shapes: [(locale: String, store: String, currency: String, zone: String)] = [
        ("en-US", "store-us-sfo", "USD", "America/Los_Angeles"),
        ("es-MX", "store-mx-cdmx", "MXN", "America/Mexico_City"),
        ("fr-FR", "store-fr-par", "EUR", "Europe/Paris"),
        ("ja-JP", "store-jp-tyo", "JPY", "Asia/Tokyo"),
    ]

    /// `order(sequence, source:)` as the frames a source publishes under its store's topic.
    static func frames(_ sequence: UInt64, source: String) throws -> [ZMQMessage] {
        let order = order(sequence, source: source)
        return try EventFrames.encode(
            topic: CaffeTopic.order(store: order.storeID),
            header: EventFrames.header(for: order),
            body: order
        )
    }

    static func order(_ sequence: UInt64, source: String = "src") -> Caffe_V1_OrderEvent {
        let shape = shapes[Int(sequence) % shapes.count]
        var event = Caffe_V1_OrderEvent()
        event.orderID = source == "src" ? "O-\(sequence)" : "O-\(source)-\(sequence)"
        event.sourceID = source
        event.sequence = sequence
        event.placedAt = Google_Protobuf_Timestamp(seconds: 1_795_000_000 + Int64(sequence))
        event.storeID = shape.store
        event.customer.customerID = "c-\(sequence)"
        event.customer.name = "Ana"
        event.customer.locale = shape.locale
        event.customer.timeZone = shape.zone
        event.customer.termOfAddress = sequence % 2 == 0 ? .feminine : .masculine
        event.currencyCode = shape.currency
        var line = Caffe_V1_OrderLine()
        line.itemID = "pizza"
        line.size = "large"
        line.quantity = sequence % 3 + 1
        event.lines = [line]
        return event
    }
}

/// A worker process between a test's ``OrderSource`` (PULL from its PUSH, replay from its ROUTER)
/// and a PUSH to a PULL collector, each in a fresh folder and context.
final class WorkerFixture {
    let folder: TemporaryFolder
    let context: ZMQContext
    let source: OrderSource
    let collector: WorkerRecoveryTests.Collector
    let worker: WorkerProcess

    /// `input` replaces the input settings (`input.kind=pull` from the source) when given;
    /// `prepare` runs with the fixture's folder before the worker starts and adds settings.
    init(
        _ name: String,
        settings: [String] = [],
        input: ((ZMQContext) throws -> [String])? = nil,
        prepare: ((URL) throws -> [String])? = nil
    ) throws {
        folder = try TemporaryFolder(name)
        context = try ZMQContext()
        source = try OrderSource(context: context, folder: folder.url)
        collector = try WorkerRecoveryTests.Collector(context: context)
        let inputSettings = try input?(context) ?? ["input.kind=pull", "input.endpoints=>\(source.pushEndpoint)"]
        let prepared = try prepare?(folder.url) ?? []
        worker = try WorkerProcess(
            folder: folder.url,
            settings: inputSettings + ["output.kind=push", "output.endpoints=>\(collector.endpoint)"] + settings
                + prepared
        )
    }

    deinit {
        source.stop()
        context.shutdown()
    }
}
