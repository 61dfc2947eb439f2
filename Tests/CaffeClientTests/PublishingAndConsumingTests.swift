// Caffe — CaffeClient tests.
import CaffeCore
import CaffeTransport
import Foundation
import SwiftProtobuf
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeClient

/// A source publishing through ``OrderPublisher`` to a real `caffe worker` process, its outputs
/// taken by ``AckedConsumer``; and each side's protocol checked frame by frame against a socket
/// the test holds.
@Suite("Publishing and consuming", .serialized)
struct PublishingAndConsumingTests {
    @Test(
        "a source's orders reach an acknowledging consumer: the one lost before the worker subscribed is replayed from the journal, a quiet source's heartbeat is heard, every output acknowledged"
    )
    func endToEnd() async throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let folder = try TemporaryFolder("client-e2e")
        let replay = try ReplayServer(context: context, endpoint: "ipc://\(folder.url.path)/replay")
        replay.start()
        defer { replay.stop() }
        let publisher = try OrderPublisher(
            endpoint: "@tcp://127.0.0.1:*",
            sourceID: "pos-7",
            replay: replay,
            context: context
        )
        // Nobody subscribed yet: the XPUB drops it, the journal keeps it.
        #expect(try await publisher.publish(TestOrders.order(1, source: "pos-7")) == 1)

        let worker = try TestWorker(
            configuration: ConfigurationDirectory.builtIn,
            folder: folder.url,
            settings: [
                "input.endpoints=>\(publisher.address)", "output.kind=acked",
                "output.endpoints=@ipc://\(folder.url.path)/out",
            ]
        )
        defer { worker.kill() }
        _ = try worker.waitUntilServing()
        try await publisher.waitForSubscribers(count: 1, timeout: .seconds(10))
        for sequence: UInt64 in 2...3 {
            #expect(try await publisher.publish(TestOrders.order(sequence, source: "pos-7")) == sequence)
        }

        let consumer = try AckedConsumer(endpoint: ">ipc://\(folder.url.path)/out", window: 10, context: context)
        var confirmed: [String] = []
        var receipts = 0
        while confirmed.count + receipts < 6, let delivery = try await consumer.receive(timeout: .seconds(10)) {
            switch delivery.event.body {
            case .confirmation: confirmed.append(delivery.event.header.orderID)
            case .receipt: receipts += 1
            default: Issue.record("unexpected output \(delivery.event.topic)")
            }
            consumer.processed(delivery)
        }
        #expect(confirmed.sorted() == ["O-pos-7-1", "O-pos-7-2", "O-pos-7-3"] && receipts == 3)
        #expect(replay.requestedRanges == [1...1] && replay.eventsServed == 1)

        // Quiet for a second: the next tick is a heartbeat, which the worker counts.
        try await Task.sleep(for: .milliseconds(1100))
        #expect(try await publisher.tick())
        #expect(try await !publisher.tick())
        let rpc = try RPCClient(endpoint: ">" + worker.rpcEndpoint, context: context)
        var counters: [String: UInt64] = [:]
        for _ in 0..<100 {
            // Acknowledgements leave within 5 ms of processing; Stats lags the outputs a little.
            _ = try await consumer.receive(timeout: .milliseconds(50))
            counters = try await rpc.stats().counters
            if counters["outputs_acknowledged"] == 6 && counters["heartbeats"] == 1 { break }
        }
        #expect(counters["outputs_acknowledged"] == 6 && counters["heartbeats"] == 1)
        #expect(counters["replayed_events"] == 1 && counters["events_rendered"] == 3)
        consumer.close()
        #expect(worker.terminate() == 0)
    }

    @Test("an order the publisher refuses is not sent and takes no sequence")
    func refusals() async throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let publisher = try OrderPublisher(
            endpoint: "inproc://refusals",
            sourceID: "pos-1",
            kind: .push,
            context: context
        )
        var other = TestOrders.order(1, source: "pos-2")
        var reasons: [String] = []
        for order in [
            other, TestOrders.order(2, source: "pos-1"),
            {
                other.sourceID = ""; other.orderID = ""; return other
            }(),
        ] {
            do {
                try await publisher.publish(order)
            } catch {
                reasons.append("\(error)")
            }
        }
        #expect(
            reasons == [
                "event not sent: order O-pos-2-1 names source 'pos-2', not 'pos-1'",
                "event not sent: order O-pos-1-2 has sequence 2; the next is 1",
                "event not sent: an order needs an order_id",
            ]
        )
        #expect(publisher.lastSequence == 0)
        #expect(throws: CaffeClientError.self) {
            try OrderPublisher(endpoint: "127.0.0.1:5560", sourceID: "pos-1", context: context)
        }
        #expect(throws: CaffeClientError.self) {
            try OrderPublisher(endpoint: "inproc://x", sourceID: "", context: context)
        }
    }

    @Test(
        "what a publisher sends, frame by frame: numbered events with epoch and replay endpoint, a heartbeat on order."
    )
    func publishedFrames() async throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let replay = try ReplayServer(context: context, endpoint: "inproc://frames-replay")
        let publisher = try OrderPublisher(
            endpoint: "@inproc://frames",
            sourceID: "pos-3",
            sourceEpoch: 42,
            replay: replay,
            metadata: ["lane": "a"],
            context: context
        )
        let subscriber = try context.socket(.sub)
        try subscriber.subscribe("")
        try subscriber.connect("inproc://frames")
        try await publisher.waitForSubscribers(count: 1, topic: "", timeout: .seconds(5))
        var order = TestOrders.order(1, source: "pos-3")
        order.sourceID = ""
        order.sequence = 0
        try await publisher.publish(order, metadata: ["try": "1"])
        var request = Caffe_V1_ComplicationRequest()
        request.userID = "u-9"
        try await publisher.publish(request)
        try await publisher.heartbeat()

        var events: [EventFrames] = []
        while events.count < 3, let frames = try await subscriber.receiveMultipart(timeout: .seconds(5)) {
            events.append(try EventFrames(parsing: frames))
        }
        try #require(events.count == 3)
        #expect(events.map(\.topic) == ["order.store-mx-cdmx", "complication-request.u-9", "order."])
        #expect(
            events.map(\.header.bodyType) == [
                "caffe.v1.OrderEvent", "caffe.v1.ComplicationRequest", "caffe.v1.Heartbeat",
            ]
        )
        #expect(events.map(\.header.sequence) == [1, 2, 0])
        #expect(events.allSatisfy { $0.header.sourceID == "pos-3" && $0.header.sourceEpoch == 42 })
        #expect(events.allSatisfy { $0.header.metadata["replay_endpoint"] == "inproc://frames-replay" })
        #expect(events[0].header.metadata == ["replay_endpoint": "inproc://frames-replay", "lane": "a", "try": "1"])
        #expect(events[0].header.orderID == "O-pos-3-1")
        let body = try events[0].decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(body.sourceID == "pos-3" && body.sequence == 1)
        #expect(try events[2].decodeBody(as: Caffe_V1_Heartbeat.self).lastSequence == 2)
        // The journal holds both numbered events exactly as they travelled; not the heartbeat.
        let kept = try #require(replay.journal.event(source: "pos-3", sequence: 1))
        #expect(kept.topic == events[0].topic && Array(kept.header) == events[0].headerFrame.bytes)
        #expect(replay.journal.event(source: "pos-3", sequence: 2) != nil)
        #expect(replay.journal.event(source: "pos-3", sequence: 3) == nil)
        subscriber.close(linger: .zero)
        replay.stop()
    }

    @Test("a journal keeps the most recent events per source; older ones are answered unavailable")
    func journalRetention() throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let replay = try ReplayServer(context: context, endpoint: "inproc://retention", retention: 2)
        for sequence: UInt64 in 1...3 {
            replay.journal.record(
                source: "pos-1",
                sequence: sequence,
                frames: try TestOrders.frames(sequence, source: "pos-1")
            )
        }
        var request = Caffe_V1_ReplayRequest()
        request.sourceID = "pos-1"
        request.fromSequence = 1
        request.toSequence = 4
        let response = replay.response(to: request)
        #expect(response.unavailable == [1, 4])
        #expect(try response.frames.map { try Caffe_V1_EventHeader(serializedBytes: $0.header).sequence } == [2, 3])
        replay.stop()
    }

    @Test(
        "the acknowledged output's consumer side, against a socket playing the worker: hello with the window, repeats skipped and acknowledged, a restart counted"
    )
    func ackedConsumerProtocol() async throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let worker = try context.socket(.router)
        _ = try worker.bind("inproc://acked")
        let consumer = try AckedConsumer(endpoint: "inproc://acked", window: 8, context: context)
        try consumer.announce()
        let hello = try #require(try await worker.receiveMultipart(timeout: .seconds(5)))
        let peer = hello[0]
        let helloFeedback = try Caffe_V1_ConsumerFeedback(serializedBytes: hello[1].bytes)
        #expect(helloFeedback.window == 8 && helloFeedback.incarnation == 0 && helloFeedback.acknowledgedThrough == 0)

        func deliver(_ incarnation: UInt64, _ tag: UInt64, orderID: String, bodyType: String = "caffe.v1.Confirmation")
            throws
        {
            var deliveryTag = Caffe_V1_DeliveryTag()
            deliveryTag.incarnation = incarnation
            deliveryTag.tag = tag
            var header = Caffe_V1_EventHeader()
            header.sourceID = "pos-1"
            header.orderID = orderID
            header.sequence = tag
            let frames = try EventFrames.encode(
                topic: "confirmation.en-US",
                header: header,
                body: Caffe_V1_Confirmation()
            )
            try worker.send(
                multipart: [try ZMQMessage(peer.bytes), try ZMQMessage(deliveryTag.serializedBytes() as [UInt8])]
                    + frames
            )
        }
        try deliver(7, 1, orderID: "O-1")
        try deliver(7, 2, orderID: "O-1")  // a redelivery of the same output
        try deliver(7, 3, orderID: "O-2")
        var orders: [String] = []
        while orders.count < 2, let delivery = try await consumer.receive(timeout: .seconds(5)) {
            orders.append(delivery.event.header.orderID)
            consumer.processed(delivery)
        }
        #expect(orders == ["O-1", "O-2"] && consumer.repeats == 1)
        _ = try await consumer.receive(timeout: .milliseconds(20))
        var last = Caffe_V1_ConsumerFeedback()
        while let frames = try await worker.receiveMultipart(timeout: .milliseconds(100)) {
            last = try Caffe_V1_ConsumerFeedback(serializedBytes: frames[1].bytes)
        }
        #expect(last.incarnation == 7 && last.acknowledgedThrough == 3 && last.window == 8)

        // A repeat skipped while a returned delivery is not processed yet is not acknowledged
        // past it: acknowledgements are cumulative, and the application may still lose it.
        try deliver(7, 4, orderID: "O-3")
        try deliver(7, 5, orderID: "O-3")  // a repeat of 4
        try deliver(7, 6, orderID: "O-4")
        let pending = try #require(try await consumer.receive(timeout: .seconds(5)))
        #expect(pending.tag == 4)
        let next = try #require(try await consumer.receive(timeout: .seconds(5)))
        #expect(next.tag == 6 && consumer.repeats == 2)
        _ = try await consumer.receive(timeout: .milliseconds(20))
        var held = Caffe_V1_ConsumerFeedback()
        while let frames = try await worker.receiveMultipart(timeout: .milliseconds(100)) {
            held = try Caffe_V1_ConsumerFeedback(serializedBytes: frames[1].bytes)
            #expect(held.acknowledgedThrough <= 3, "acknowledged past a delivery not processed yet")
        }
        consumer.processed(next)
        _ = try await consumer.receive(timeout: .milliseconds(20))
        while let frames = try await worker.receiveMultipart(timeout: .milliseconds(100)) {
            held = try Caffe_V1_ConsumerFeedback(serializedBytes: frames[1].bytes)
        }
        #expect(held.acknowledgedThrough == 6)

        // A restarted worker: a new incarnation, tags from 1 again.
        try deliver(9, 1, orderID: "O-5")
        let after = try #require(try await consumer.receive(timeout: .seconds(5)))
        #expect(after.incarnation == 9 && after.tag == 1 && consumer.workerRestarts == 1)
        worker.close(linger: .zero)
    }

    @Test(
        "output keys: confirmations and receipts by source and order id, payloads and letters by source, run and sequence, unreadable letters never repeats"
    )
    func outputKeys() throws {
        var header = Caffe_V1_EventHeader()
        header.bodyType = "caffe.v1.Confirmation"
        header.orderID = "O-1"
        header.sourceID = "pos-1"
        header.sequence = 4
        var retried = header
        retried.sequence = 9
        retried.sourceEpoch = 3
        // The same order sent again by its source (another sequence, another run) is a repeat…
        #expect(OutputKey(header: header) == OutputKey(header: retried))
        // …the same order id from another source is another order, rendered by the worker too.
        var neighbour = header
        neighbour.sourceID = "pos-2"
        #expect(OutputKey(header: header) != OutputKey(header: neighbour))
        #expect(try #require(OutputKey(header: header)).description == "caffe.v1.Confirmation pos-1/O-1")
        header.bodyType = "caffe.v1.DeadLetter"
        var nextRun = header
        nextRun.sourceEpoch = 7
        #expect(OutputKey(header: nextRun) != OutputKey(header: header))
        #expect(try #require(OutputKey(header: header)).description == "caffe.v1.DeadLetter pos-1#4")
        #expect(try #require(OutputKey(header: nextRun)).description == "caffe.v1.DeadLetter pos-1 (epoch 7)#4")
        // A letter of an unreadable input (no source, no sequence) has no key: each is its own.
        var unreadable = Caffe_V1_EventHeader()
        unreadable.bodyType = "caffe.v1.DeadLetter"
        #expect(OutputKey(header: unreadable) == nil)
        var deduplicator = OutputDeduplicator(capacity: 2)
        #expect(deduplicator.isFirst(nil) && deduplicator.isFirst(nil))
        let keys = ["a", "b", "c"].map { id -> OutputKey? in
            var header = Caffe_V1_EventHeader()
            header.bodyType = "caffe.v1.Receipt"
            header.sourceID = "pos-1"
            header.orderID = id
            return OutputKey(header: header)
        }
        #expect(keys.map { deduplicator.isFirst($0) } == [true, true, true])
        #expect(deduplicator.isFirst(keys[2]) == false && deduplicator.isFirst(keys[0]) == true)
        #expect(deduplicator.repeats == 1)
    }
}
