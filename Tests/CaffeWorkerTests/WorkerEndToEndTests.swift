// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import SwiftProtobuf
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeBooks
@testable import CaffeWorker

/// A real `caffe worker` process between a test's PUSH source and PULL collector over tcp loopback.
@Suite("caffe worker end to end", .serialized)
struct WorkerEndToEndTests {
    static func timestamp(_ text: String) -> Google_Protobuf_Timestamp {
        Google_Protobuf_Timestamp(date: ISO8601DateFormatter().date(from: text) ?? .distantPast)
    }

    static func order(
        _ id: String,
        sequence: UInt64,
        locale: String,
        store: String,
        currency: String,
        timeZone: String,
        lines: [(String, String, UInt32)]
    ) -> Caffe_V1_OrderEvent {
        var event = Caffe_V1_OrderEvent()
        event.orderID = id
        event.sourceID = "e2e"
        event.sequence = sequence
        event.placedAt = timestamp("2026-11-18T11:06:40Z")
        event.pickupAt = timestamp("2026-11-18T11:25:00Z")
        event.storeID = store
        event.customer.customerID = "c-\(id)"
        event.customer.name = "Ana"
        event.customer.locale = locale
        event.customer.timeZone = timeZone
        event.customer.termOfAddress = .feminine
        event.currencyCode = currency
        event.lines = lines.map { item, size, quantity in
            var line = Caffe_V1_OrderLine()
            line.itemID = item
            line.size = size
            line.quantity = UInt64(quantity)
            return line
        }
        return event
    }

    @Test(
        "orders in three locales and a complication rendered exactly once; a duplicate suppressed, a malformed event dead-lettered; SIGTERM drains and checkpoints"
    )
    func pipeline() throws {
        let executable = try #require(ExecutableRunner.locate("caffe"), "build with swift build --build-tests")
        let context = try ZMQContext()
        defer { context.shutdown() }
        let source = try context.socket(.push)
        let sourceEndpoint = try source.bind("tcp://127.0.0.1:*")
        let collector = try context.socket(.pull)
        let collectorEndpoint = try collector.bind("tcp://127.0.0.1:*")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worker-e2e-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let checkpoint = folder.appendingPathComponent("worker.checkpoint")

        let process = ChildProcess(
            executable: executable,
            arguments: WorkerCommandLine.arguments(
                configurationDirectory: ConfigurationDirectory.builtIn,
                settings: [
                    "input.kind=pull", "input.endpoints=>\(sourceEndpoint)", "output.kind=push",
                    "output.endpoints=>\(collectorEndpoint)", "checkpoint.path=\(checkpoint.path)",
                    "render.threads=2", "metrics.address=127.0.0.1:0", "rpc.endpoint=",
                ]
            ),
            log: folder.appendingPathComponent("stderr")
        )
        try process.start()
        defer { process.stop() }

        let orders = [
            Self.order(
                "E-1",
                sequence: 1,
                locale: "en-US",
                store: "store-us-sfo",
                currency: "USD",
                timeZone: "America/Los_Angeles",
                lines: [("pizza", "large", 2), ("juice", "small", 1)]
            ),
            Self.order(
                "E-2",
                sequence: 2,
                locale: "es-MX",
                store: "store-mx-cdmx",
                currency: "MXN",
                timeZone: "America/Mexico_City",
                lines: [("pizza", "large", 2), ("juice", "small", 1)]
            ),
            Self.order(
                "E-3",
                sequence: 3,
                locale: "ja-JP",
                store: "store-jp-tyo",
                currency: "JPY",
                timeZone: "Asia/Tokyo",
                lines: [("coffee", "small", 3)]
            ),
        ]
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "R-1"
        request.userID = "u-7"
        request.locale = "es-ES"
        request.timeZone = "Europe/Madrid"
        request.nextFreeCoffee = Self.timestamp("2026-03-29T00:30:00Z")
        var requestHeader = Caffe_V1_EventHeader()
        requestHeader.sourceID = "e2e"
        requestHeader.sequence = 4

        func sendOrder(_ order: Caffe_V1_OrderEvent) throws {
            try source.send(
                multipart: try EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: EventFrames.header(for: order),
                    body: order
                )
            )
        }
        try sendOrder(orders[0])
        try sendOrder(orders[1])
        try sendOrder(orders[1])  // a publisher retry: suppressed
        try source.send(multipart: ["order.x", "not a header", "not a body"] as [any ZMQFrameRepresentable])
        try sendOrder(orders[2])
        try source.send(
            multipart: try EventFrames.encode(
                topic: CaffeTopic.complicationRequest(user: "u-7"),
                header: requestHeader,
                body: request
            )
        )

        var received: [String: EventFrames] = [:]
        var topics: [String] = []
        while received.count < 8 {
            guard let frames = try collector.receiveMultipart(timeout: .seconds(20)) else { break }
            let event = try EventFrames(parsing: frames)
            topics.append(event.topic)
            received["\(event.topic) \(event.header.orderID)"] = event
        }
        #expect(try collector.receiveMultipart(timeout: .milliseconds(500)) == nil, "nothing beyond the expected")
        #expect(
            topics.sorted() == [
                "complication.u-7", "confirmation.en-US", "confirmation.es-MX", "confirmation.ja-JP", "dead-letter",
                "receipt.store-jp-tyo", "receipt.store-mx-cdmx", "receipt.store-us-sfo",
            ]
        )

        // Byte for byte what the formatting core renders in-process.
        let session = try RenderingCore(configurationDirectory: ConfigurationDirectory.builtIn).makeSession()
        for order in orders {
            let expected = try session.render(order)
            let locale = order.customer.locale
            let confirmation = try #require(received["confirmation.\(locale) \(order.orderID)"])
            #expect(try confirmation.decodeBody(as: Caffe_V1_Confirmation.self) == expected.confirmation)
            #expect(confirmation.header.sourceID == "e2e" && confirmation.header.sequence == order.sequence)
            let receipt = try #require(received["receipt.\(order.storeID) \(order.orderID)"])
            #expect(try receipt.decodeBody(as: Caffe_V1_Receipt.self) == expected.receipt)
        }
        let mexican = try #require(received["confirmation.es-MX E-2"]).decodeBody(as: Caffe_V1_Confirmation.self)
        #expect(mexican.summary.plain == "2 pizzas grandes y 1 jugo pequeño")
        let payload = try #require(received["complication.u-7 "]).decodeBody(as: Caffe_V1_ComplicationPayload.self)
        #expect(payload == (try session.complication(request)))
        let letter = try #require(received["dead-letter "]).decodeBody(as: Caffe_V1_DeadLetter.self)
        #expect(letter.reason == .malformed)
        #expect(letter.topic == "order.x")
        #expect(letter.originalHeader == Data("not a header".utf8) && letter.originalBody == Data("not a body".utf8))

        #expect(process.stop(SIGTERM, timeout: 60) == 0)
        #expect(try Checkpoint.read(checkpoint).sources == ["e2e": 4])
        let stderr = process.logText
        #expect(stderr.contains("worker serving"))
        #expect(stderr.contains("duplicates=1") || stderr.contains("duplicates: 1"), "\(stderr)")
    }
}
