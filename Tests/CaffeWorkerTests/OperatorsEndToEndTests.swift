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

@testable import CaffeWorker

/// What an operator sees of a real worker process: readiness, the new metrics, restarted
/// sources, logged dead letters and duplicates, the health probe, the version.
@Suite("Operators' view of a worker", .serialized)
struct OperatorsEndToEndTests {
    /// `order` under `epoch`, sent now (its header's `sent_at`), on `push`.
    func send(_ order: Caffe_V1_OrderEvent, epoch: UInt64, on push: ZMQSocket) throws {
        var header = EventFrames.header(for: order)
        header.sourceEpoch = epoch
        header.sentAt = Google_Protobuf_Timestamp(date: Date())
        try push.send(
            multipart: try EventFrames.encode(
                topic: CaffeTopic.order(store: order.storeID),
                header: header,
                body: order
            )
        )
    }

    /// The value of the sample that starts with `prefix` (name and labels), if the text has one.
    func sample(_ text: String, _ prefix: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    @Test(
        "not ready until the input connects; restarted sources rendered again, duplicates and dead letters logged; new metrics; caffe health"
    )
    func operatorsView() throws {
        let folder = try TemporaryFolder("operators")
        let context = try ZMQContext()
        defer { context.shutdown() }
        let collector = try WorkerRecoveryTests.Collector(context: context)
        let (worker, input) = try WorkerProcess.pullPush(folder: folder.url, collector: collector)
        let address = try worker.waitUntilServing()

        // Nothing listens where the input connects: alive, not ready.
        #expect(try httpGet(address, "/healthz").status == 200)
        #expect(
            try httpGet(address, "/readyz")
                == (503, "NOT_READY: an input endpoint it connects to has no connection\n")
        )
        let push = try context.socket(.push)
        defer { push.close(linger: .zero) }
        _ = try push.bind(input)
        var ready = try httpGet(address, "/readyz")
        let deadline = Date().addingTimeInterval(10)
        while ready.status != 200, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            ready = try httpGet(address, "/readyz")
        }
        #expect(ready == (200, "READY\n"))

        // pos-1 numbers 1…3 without an epoch; numbering from 1 again is taken for duplicates
        // (logged, with the hint); under epochs 1000 and then 2000 it is a new run each time.
        for sequence: UInt64 in 1...3 { try send(TestOrders.order(sequence, source: "pos-1"), epoch: 0, on: push) }
        #expect(try collector.collect { $0.count >= 6 }.count == 6)
        for sequence: UInt64 in 1...3 {
            var again = TestOrders.order(sequence, source: "pos-1")
            again.orderID += "-again"
            try send(again, epoch: 0, on: push)
        }
        for (epoch, count) in [(UInt64(1000), UInt64(3)), (2000, 2)] {
            for sequence in 1...count {
                var order = TestOrders.order(sequence, source: "pos-1")
                order.orderID += "-e\(epoch)"
                try send(order, epoch: epoch, on: push)
            }
        }
        let rerun = try collector.collect { $0.count >= 10 }
        #expect(rerun.count == 10)
        #expect(rerun.map(\.header.orderID).allSatisfy { $0.hasSuffix("-e1000") || $0.hasSuffix("-e2000") })
        // A two-frame message: a dead letter, logged with its reason and an excerpt.
        try push.send(multipart: [ZMQMessage.copying(Array("order.x".utf8)), ZMQMessage.copying(Array("\u{1}hi".utf8))])
        let letters = try collector.collect { $0.count >= 1 }
        #expect(letters.map(\.topic) == [CaffeTopic.deadLetter])

        let metrics = try httpGet(address, "/metrics").body
        #expect(sample(metrics, "caffe_worker_source_restarts_total") == 1)
        #expect(sample(metrics, "caffe_worker_duplicates_total") == 3)
        #expect(sample(metrics, "caffe_worker_event_latency_seconds_count{kind=\"order\"}") == 8)
        #expect(sample(metrics, "caffe_worker_ready") == 1)
        #expect(
            sample(metrics, "caffe_build_info{version=\"\(CaffeVersion.current)\",swift=\"\(CaffeVersion.swift)\"}")
                == 1
        )
        #expect((sample(metrics, "process_resident_memory_bytes") ?? 0) > 10_000_000)
        #expect((sample(metrics, "process_open_fds") ?? 0) > 5)
        #expect(metrics.contains("# TYPE caffe_worker_checkpoint_age_seconds gauge"))
        #expect(sample(metrics, "caffe_worker_lag_events") == 0)

        let log = worker.stderr
        #expect(log.contains("duplicate event dropped"))
        #expect(log.contains("must send a new source_epoch"))
        #expect(log.contains("source restarted: a new source_epoch"))
        #expect(log.contains("epoch=2000") && log.contains("previous_epoch=1000"))
        #expect(log.contains("dead letter") && log.contains("reason=malformed"))

        // Admin/Stats names the counts as /metrics does.
        let client = try RPCClient(context: context, endpoint: worker.rpcEndpoint)
        defer { client.socket.close(linger: .zero) }
        try client.send(CaffeMethod.stats, id: "s", body: Caffe_V1_StatsRequest())
        let stats = try #require(try client.replies(1)["s"]).decodeBody(as: Caffe_V1_StatsResponse.self)
        #expect(stats.counters["events_rendered"] == 8 && stats.counters["dead_letters"] == 1)
        #expect(stats.counters["source_restarts"] == 1 && stats.gauges["ready"] == 1)

        // The probe, with grpc_health_probe's exit codes.
        let caffe = try #require(ExecutableRunner.locate("caffe"))
        let healthy = try ExecutableRunner.run(caffe, ["health", "--rpc", ">" + worker.rpcEndpoint])
        #expect(healthy.status == 0 && healthy.standardOutput == "status: SERVING\n")
        let unknown = try ExecutableRunner.run(caffe, ["health", "--rpc", worker.rpcEndpoint, "--service", "nope"])
        #expect(unknown.status == 3 && unknown.standardError.contains("NOT_FOUND: unknown service 'nope'"))
        let nobody = try ExecutableRunner.run(
            caffe,
            ["health", "--rpc", "ipc://\(folder.url.path)/nobody", "--connect-timeout", "0.3"]
        )
        #expect(nobody.status == 2 && nobody.standardError.contains("failed to connect"))
        #expect(worker.terminate() == 0)

        // One version, both tools.
        let simulator = try #require(ExecutableRunner.locate("caffe-sim"))
        #expect(try ExecutableRunner.run(caffe, ["--version"]).standardOutput == CaffeVersion.current + "\n")
        #expect(try ExecutableRunner.run(simulator, ["--version"]).standardOutput == CaffeVersion.current + "\n")
        let changelog = try String(
            contentsOf: ConfigurationDirectory.builtIn.deletingLastPathComponent().appendingPathComponent(
                "CHANGELOG.md"
            ),
            encoding: .utf8
        )
        #expect(changelog.contains("\n## \(CaffeVersion.current) "))
    }

    @Test("caffe proxy --metrics-address: its counts per side and direction, build and process metrics, health")
    func proxyOperations() throws {
        let folder = try TemporaryFolder("proxy-ops")
        let proxy = try ProxyProcess([
            "--kind", "queue", "--frontend", "@ipc://\(folder.url.path)/front", "--backend",
            "@ipc://\(folder.url.path)/back",
        ])
        defer { proxy.stop() }
        let address = proxy.metricsAddress

        let context = try ZMQContext()
        defer { context.shutdown() }
        let producer = try context.socket(.push)
        defer { producer.close(linger: .zero) }
        try producer.connect("ipc://\(folder.url.path)/front")
        let consumer = try context.socket(.pull)
        defer { consumer.close(linger: .zero) }
        try consumer.connect("ipc://\(folder.url.path)/back")
        for index in 0..<3 { try producer.send(Array("m\(index)".utf8), more: false) }
        for _ in 0..<3 { _ = try #require(try consumer.receive(timeout: .seconds(5))) }

        #expect(try httpGet(String(address), "/healthz") == (200, "SERVING\n"))
        #expect(try httpGet(String(address), "/readyz") == (200, "SERVING\n"))
        let metrics = try httpGet(String(address), "/metrics").body
        #expect(sample(metrics, "caffe_proxy_up{kind=\"queue\"}") == 1)
        #expect(sample(metrics, "caffe_proxy_messages_total{side=\"frontend\",direction=\"in\"}") == 3)
        #expect(sample(metrics, "caffe_proxy_messages_total{side=\"backend\",direction=\"out\"}") == 3)
        #expect(sample(metrics, "caffe_proxy_bytes_total{side=\"frontend\",direction=\"in\"}") == 6)
        #expect(
            sample(metrics, "caffe_build_info{version=\"\(CaffeVersion.current)\",swift=\"\(CaffeVersion.swift)\"}")
                == 1
        )
        #expect((sample(metrics, "process_open_fds") ?? 0) > 3)
    }
}
