// Caffe — CaffeWorker tests.
import CaffeCore
import CaffeProtocol
import CaffeSimulator
import CaffeTestKit
import CaffeTransport
import Foundation
import Synchronization
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeWorker

/// W3C trace context from the point of sale to the outputs and the logs, and the worker's spans
/// exported as OTLP/HTTP JSON to a collector (a real HTTP server here).
@Suite("Tracing", .serialized)
struct TracingTests {
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let sourceSpan = "00f067aa0ba902b7"
    static let sampled = "00-\(traceID)-\(sourceSpan)-01"
    static let unsampled = "00-\(traceID)-\(sourceSpan)-00"
    static let otherTrace = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    static func unknownItem(_ sequence: UInt64) -> Caffe_V1_OrderEvent {
        var order = TestOrders.order(sequence)
        order.lines[0].itemID = "no-such-item"
        return order
    }

    static func metric(_ address: String, _ name: String) throws -> Double? {
        try httpGet(address, "/metrics").body.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ")[1]) }
    }

    /// The JSON log lines whose message is `message`.
    static func logLines(_ worker: WorkerProcess, _ message: String) -> [[String: Any]] {
        worker.stderr.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["message"] as? String == message
            else { return nil }
            return object
        }
    }

    @Test("without an OTLP endpoint, outputs and dead letters carry the traceparent as it came; the log names it")
    func propagatedAsItCame() throws {
        let fixture = try WorkerFixture("trace-off", settings: ["log.format=json"])
        defer { withExtendedLifetime(fixture) {} }
        let address = try fixture.worker.waitUntilServing()
        try fixture.source.send(TestOrders.order(1), metadata: ["traceparent": Self.sampled, "tracestate": "pos=1"])
        try fixture.source.send(Self.unknownItem(2), metadata: ["traceparent": Self.otherTrace])
        let events = try fixture.collector.collect { $0.count >= 3 }
        #expect(events.count == 3)
        for event in events where event.header.sequence == 1 {
            #expect(event.header.metadata["traceparent"] == Self.sampled)
            #expect(event.header.metadata["tracestate"] == "pos=1")
        }
        let letter = try #require(events.first { $0.topic == CaffeTopic.deadLetter })
        #expect(letter.header.metadata["traceparent"] == Self.otherTrace)
        let logged = try #require(Self.logLines(fixture.worker, "dead letter").first)
        #expect(logged["trace_id"] as? String == "0af7651916cd43dd8448eb211c80319c")
        #expect(logged["span_id"] as? String == "b7ad6b7169203331")
        #expect(try Self.metric(address, "caffe_worker_spans_exported_total") == 0)
        #expect(fixture.worker.terminate() == 0)
    }

    @Test("with an OTLP endpoint, a sampled event's outputs hang under the worker's span, exported with its stages")
    func spansExported() throws {
        let collector = try HTTPReceiver()
        defer { collector.stop() }
        let fixture = try WorkerFixture(
            "trace-on",
            settings: ["log.format=json", "tracing.otlp_endpoint=http://127.0.0.1:\(collector.port)/v1/traces"]
        )
        defer { withExtendedLifetime(fixture) {} }
        let address = try fixture.worker.waitUntilServing()
        try fixture.source.send(TestOrders.order(1), metadata: ["traceparent": Self.sampled])
        try fixture.source.send(TestOrders.order(2), metadata: ["traceparent": Self.unsampled])
        try fixture.source.send(TestOrders.order(3))
        try fixture.source.send(Self.unknownItem(4), metadata: ["traceparent": Self.sampled])
        // Flags version 00 does not define (0x02) are not passed on.
        try fixture.source.send(
            TestOrders.order(5),
            metadata: ["traceparent": "00-\(Self.traceID)-\(Self.sourceSpan)-03"]
        )
        let events = try fixture.collector.collect { $0.count >= 9 }
        #expect(events.count == 9)
        func contexts(_ sequence: UInt64) -> Set<String?> {
            Set(events.filter { $0.header.sequence == sequence }.map { $0.header.metadata["traceparent"] })
        }
        // Order 1: both outputs name one new span of the same trace, sampled.
        let first = try #require(contexts(1).first.flatMap { $0 }.flatMap(TraceParent.init))
        #expect(contexts(1).count == 1)
        #expect(first.traceID == Self.traceID && first.isSampled && first.parentIDString != Self.sourceSpan)
        // Not sampled, or not traced: as they came.
        #expect(contexts(2) == [Self.unsampled])
        #expect(contexts(3) == [nil])
        let letter = try #require(contexts(4).first.flatMap { $0 }.flatMap(TraceParent.init))
        #expect(letter.traceID == Self.traceID && letter.parentIDString != Self.sourceSpan)
        let fifth = try #require(contexts(5).first.flatMap { $0 })
        #expect(contexts(5).count == 1 && fifth.hasSuffix("-01") && fifth.contains(Self.traceID))

        // Twelve spans: four per sampled event, exported within the second.
        var spans: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(10)
        while spans.count < 12, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            spans = collector.bodies.flatMap(Self.spans(in:))
        }
        #expect(spans.count == 12)
        let request = try #require(collector.requests.withLock { $0.first })
        #expect(request.path == "/v1/traces" && request.contentType == "application/json")
        for (context, order, outcome) in [(first, "O-1", "rendered"), (letter, "O-4", "dead_letter:unknown_item")] {
            let id = context.parentIDString
            let event = try #require(spans.first { $0["spanId"] as? String == id })
            #expect(event["name"] as? String == "caffe.event")
            #expect(event["parentSpanId"] as? String == Self.sourceSpan)
            #expect(event["traceId"] as? String == Self.traceID)
            #expect(Self.attributes(event)["caffe.order_id"] == order)
            #expect(Self.attributes(event)["caffe.outcome"] == outcome)
            let children = spans.filter { $0["parentSpanId"] as? String == id }
            #expect(children.map { $0["name"] as? String } == ["intake", "render", "publish"])
            // The stages tile the event's span.
            let times = children.map { (Self.time($0, "startTimeUnixNano"), Self.time($0, "endTimeUnixNano")) }
            #expect(times[0].0 == Self.time(event, "startTimeUnixNano"))
            #expect(times[0].1 == times[1].0 && times[1].1 == times[2].0)
            #expect(times[2].1 == Self.time(event, "endTimeUnixNano"))
            #expect(times.allSatisfy { $0.0 <= $0.1 })
        }
        let failed = try #require(spans.first { $0["spanId"] as? String == letter.parentIDString })
        #expect((failed["status"] as? [String: Any])?["code"] as? Int == 2)
        let logged = try #require(Self.logLines(fixture.worker, "dead letter").first)
        #expect(logged["trace_id"] as? String == Self.traceID)
        #expect(logged["span_id"] as? String == letter.parentIDString)
        #expect(try Self.metric(address, "caffe_worker_spans_exported_total") == 12)
        #expect(try Self.metric(address, "caffe_worker_spans_dropped_total") == 0)
        #expect(fixture.worker.terminate() == 0)
    }

    @Test("a collector that refuses costs spans, counted and logged, and no order")
    func collectorRefuses() throws {
        let collector = try HTTPReceiver(status: 503)
        defer { collector.stop() }
        let fixture = try WorkerFixture(
            "trace-refused",
            settings: ["tracing.otlp_endpoint=http://127.0.0.1:\(collector.port)/v1/traces"]
        )
        defer { withExtendedLifetime(fixture) {} }
        let address = try fixture.worker.waitUntilServing()
        try fixture.source.send(TestOrders.order(1), metadata: ["traceparent": Self.sampled])
        #expect(try fixture.collector.collect { $0.count >= 2 }.count == 2)
        let deadline = Date().addingTimeInterval(10)
        while try Self.metric(address, "caffe_worker_spans_dropped_total") != 4, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(try Self.metric(address, "caffe_worker_spans_dropped_total") == 4)
        #expect(try Self.metric(address, "caffe_worker_span_exports_failed_total") == 1)
        #expect(fixture.worker.stderr.contains("spans refused by the collector; dropped"))
        #expect(fixture.worker.terminate() == 0)
    }

    @Test("tracing.otlp_endpoint takes http://host:port/path only")
    func endpointSetting() throws {
        let set = try WorkerConfigurationLoader.load(
            file: nil,
            environment: [:],
            overrides: ["tracing.otlp_endpoint=http://otel-collector.monitoring:4318/v1/traces"]
        )
        #expect(
            OTLPEndpoint(set.tracing.otlpEndpoint)?.description == "http://otel-collector.monitoring:4318/v1/traces"
        )
        #expect(OTLPEndpoint("http://127.0.0.1")?.description == "http://127.0.0.1:80/v1/traces")
        for bad in ["https://collector:4318/v1/traces", "collector:4318", "http://:4318/x", "http://a b:1/"] {
            #expect(OTLPEndpoint(bad) == nil, "\(bad)")
        }
        #expect(throws: WorkerConfigurationError.self) {
            try WorkerConfigurationLoader.load(
                file: nil,
                environment: [:],
                overrides: ["tracing.otlp_endpoint=https://collector:4318/v1/traces"]
            )
        }
    }

    @Test("the OTLP JSON escapes what the event's strings hold")
    func jsonEscapes() throws {
        let parent = try #require(TraceParent(Self.sampled))
        let span = EventSpan(
            parent: parent,
            spanID: 0xabc,
            source: "pos \"7\"\\\n\u{1}é",
            sequence: 9,
            orderID: "O-9",
            bodyType: "caffe.v1.OrderEvent",
            admittedAt: 10
        )
        (span.renderStartedAt, span.renderEndedAt, span.publishedAt) = (12, 15, 20)
        span.outcome = "rendered"
        var ids = SpanIDGenerator()
        let body = String(
            decoding: OTLPTraceJSON.encode([span][...], serviceName: "w\"1", childIDs: &ids),
            as: UTF8.self
        )
        let spans = Self.spans(in: body)
        #expect(spans.count == 4)
        #expect(Self.attributes(spans[0])["caffe.source_id"] == "pos \"7\"\\\n\u{1}é")
        #expect(Self.attributes(spans[0])["caffe.sequence"] == "9")
        #expect(spans[0]["spanId"] as? String == "0000000000000abc")
        #expect(spans.map { Self.time($0, "startTimeUnixNano") } == [10, 10, 12, 15])
        #expect(spans.map { Self.time($0, "endTimeUnixNano") } == [20, 12, 15, 20])
        #expect(spans.map { $0["kind"] as? Int } == [5, 1, 1, 4])
    }

    static func spans(in body: String) -> [[String: Any]] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return [] }
        let resources = object["resourceSpans"] as? [[String: Any]] ?? []
        return resources.flatMap { resource in
            (resource["scopeSpans"] as? [[String: Any]] ?? []).flatMap { $0["spans"] as? [[String: Any]] ?? [] }
        }
    }

    static func attributes(_ span: [String: Any]) -> [String: String] {
        var values: [String: String] = [:]
        for entry in span["attributes"] as? [[String: Any]] ?? [] {
            guard let key = entry["key"] as? String, let value = entry["value"] as? [String: Any] else { continue }
            values[key] = value["stringValue"] as? String ?? value["intValue"] as? String
        }
        return values
    }

    static func time(_ span: [String: Any], _ key: String) -> Int64 {
        (span[key] as? String).flatMap { Int64($0) } ?? -1
    }
}
