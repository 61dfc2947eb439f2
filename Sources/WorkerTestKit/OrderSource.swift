import CaffeClient
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import ZeroMQ

/// An order source as a worker sees one: a PUSH the worker pulls from, and a ``ReplayServer``
/// answering `caffe.v1.Replay/Fetch` from every event it sent or dropped.
///
/// ```swift
/// let source = try OrderSource(context: context, folder: folder)
/// try source.send(TestOrders.order(1))
/// source.drop(TestOrders.order(2))      // a gap the worker must fill by replay
/// try source.send(TestOrders.order(3))
/// ```
public final class OrderSource: @unchecked Sendable {
    /// The socket orders leave by (a test may send its own frames on it).
    public let push: ZMQSocket
    /// Where the PUSH is bound, for `input.endpoints=>…`.
    public let pushEndpoint: String
    /// Serves the replay requests, from `ipc://<folder>/replay`.
    public let replay: ReplayServer
    /// The replay endpoint each order's header names.
    public var replayEndpoint: String { replay.endpoint }

    /// Binds the PUSH on a free loopback port and the replay server in `folder`, and starts serving.
    public init(context: ZMQContext, folder: URL) throws {
        push = try context.socket(.push)
        pushEndpoint = try push.bind("tcp://127.0.0.1:*")
        replay = try ReplayServer(context: context, endpoint: "ipc://\(folder.path)/replay")
        replay.start()
    }

    /// Sends `order` (remembered for replay) with the replay endpoint and `metadata` in its
    /// header's metadata.
    public func send(_ order: Caffe_V1_OrderEvent, metadata: [String: String] = [:]) throws {
        replay.remember(order)
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
    public func drop(_ order: Caffe_V1_OrderEvent) {
        replay.remember(order)
    }

    /// From now on, answers these sequences of `source` as unavailable: retention ran out.
    public func forget(_ sequences: some Sequence<UInt64>, source: String = TestOrders.defaultSource) {
        replay.forget(source: source, sequences: sequences)
    }

    /// The replay ranges workers asked for, in order.
    public var requests: [ClosedRange<UInt64>] { replay.requestedRanges }

    /// Stops the replay server and closes the PUSH.
    public func stop() {
        replay.stop()
        push.close(linger: .milliseconds(0))
    }
}

/// Orders for tests: `id` `O-<sequence>` (`O-<source>-<sequence>` for other sources), source
/// `src`, locales, stores and terms of address in turn, one pizza line.
public enum TestOrders {
    /// The source of ``order(_:source:)`` when none is named.
    public static let defaultSource = "src"

    /// The locale, store, currency and time zone of sequence `n`: `shapes[n % shapes.count]`.
    public static let shapes: [(locale: String, store: String, currency: String, zone: String)] = [
        ("en-US", "store-us-sfo", "USD", "America/Los_Angeles"),
        ("es-MX", "store-mx-cdmx", "MXN", "America/Mexico_City"),
        ("fr-FR", "store-fr-par", "EUR", "Europe/Paris"),
        ("ja-JP", "store-jp-tyo", "JPY", "Asia/Tokyo"),
    ]

    /// `order(sequence, source:)` as the frames a source publishes under its store's topic.
    public static func frames(_ sequence: UInt64, source: String) throws -> [ZMQMessage] {
        let order = order(sequence, source: source)
        return try EventFrames.encode(
            topic: CaffeTopic.order(store: order.storeID),
            header: EventFrames.header(for: order),
            body: order
        )
    }

    /// The order of `sequence` from `source`.
    public static func order(_ sequence: UInt64, source: String = defaultSource) -> Caffe_V1_OrderEvent {
        let shape = shapes[Int(sequence) % shapes.count]
        var event = Caffe_V1_OrderEvent()
        event.orderID = source == defaultSource ? "O-\(sequence)" : "O-\(source)-\(sequence)"
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
