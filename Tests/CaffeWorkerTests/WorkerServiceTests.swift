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

/// The worker's request/reply endpoint, operations endpoints, reload and CURVE, on a real process.
@Suite("caffe worker: RPC and operations", .serialized)
struct WorkerServiceTests {
    /// Settings for a worker whose event input and output point nowhere in particular (these
    /// tests talk to its RPC endpoint).
    static func quietSettings(_ folder: URL) -> [String] {
        [
            "input.kind=pull", "input.endpoints=@ipc://\(folder.path)/in", "output.kind=pub",
            "output.endpoints=@ipc://\(folder.path)/out",
        ]
    }

    @Test("withTestWorker: a worker serving on the built-in configuration, healthy, then drained with exit 0")
    func withATestWorker() throws {
        let health = try withTestWorker(
            configuration: ConfigurationDirectory.builtIn,
            settings: ["input.kind=pull", "input.endpoints=@tcp://127.0.0.1:0", "output.endpoints=@tcp://127.0.0.1:0"]
        ) { worker, metrics in
            #expect(worker.stderr.contains("worker serving"))
            return try httpGet(metrics, "/healthz")
        }
        #expect(health.status == 200 && health.body == "SERVING\n")
    }

    @Test(
        "RenderOrder, RenderComplication, Health and Stats answered by request id; deadlines, bad input and unknown names get their status codes"
    )
    func requests() throws {
        let folder = try TemporaryFolder("worker-rpc")
        let worker = try WorkerProcess(folder: folder.url, settings: Self.quietSettings(folder.url))
        let metricsAddress = try worker.waitUntilServing()
        let context = try ZMQContext()
        defer { context.shutdown() }
        let client = try RPCClient(context: context, endpoint: worker.rpcEndpoint)

        let order = TestOrders.order(1)  // es-MX
        var unknownItem = TestOrders.order(3)
        unknownItem.lines[0].itemID = "caviar"
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "R-1"
        request.userID = "u-1"
        request.locale = "fr-FR"
        request.timeZone = "Europe/Paris"
        request.nextFreeCoffee = Google_Protobuf_Timestamp(seconds: 1_798_675_200)
        var health = Grpc_Health_V1_HealthCheckRequest()
        try client.send(CaffeMethod.renderOrder, id: "order", body: order)
        try client.send(CaffeMethod.renderComplication, id: "complication", body: request)
        try client.send(CaffeMethod.healthCheck, id: "health", body: health)
        health.service = "caffe.v1.Nothing"
        try client.send(CaffeMethod.healthCheck, id: "health-unknown", body: health)
        try client.send(CaffeMethod.renderOrder, id: "expired", body: order, deadline: Date().addingTimeInterval(-1))
        try client.send(CaffeMethod.renderOrder, id: "unknown-item", body: unknownItem)
        try client.send(CaffeMethod.renderOrder, id: "invalid", body: Caffe_V1_OrderEvent())
        try client.send("caffe.v1.Renderer/Teleport", id: "unimplemented", body: order)
        let replies = try client.replies(8)
        #expect(replies.count == 8)
        func code(_ id: String) -> Caffe_V1_StatusCode? { replies[id]?.header.status }
        #expect(code("order") == .ok && code("complication") == .ok && code("health") == .ok)
        #expect(code("health-unknown") == .notFound)
        #expect(code("expired") == .deadlineExceeded)
        #expect(code("unknown-item") == .notFound)
        #expect(code("invalid") == .invalidArgument)
        #expect(code("unimplemented") == .unimplemented)

        let session = try RenderingCore(configurationDirectory: ConfigurationDirectory.builtIn).makeSession()
        let rendered = try #require(replies["order"]).decodeBody(as: Caffe_V1_RenderOrderResponse.self)
        let expected = try session.render(order)
        #expect(rendered.confirmation == expected.confirmation && rendered.receipt == expected.receipt)
        #expect(rendered.confirmation.summary.plain == "2 pizzas grandes")
        let payload = try #require(replies["complication"]).decodeBody(as: Caffe_V1_ComplicationPayload.self)
        #expect(payload == (try session.complication(request)))
        let status = try #require(replies["health"]).decodeBody(as: Grpc_Health_V1_HealthCheckResponse.self)
        #expect(status.status == .serving)

        try client.send(CaffeMethod.stats, id: "stats", body: Caffe_V1_StatsRequest())
        let stats = try #require(try client.replies(1)["stats"]).decodeBody(as: Caffe_V1_StatsResponse.self)
        #expect(stats.counters["rpc_requests"] == 8)
        #expect(stats.gauges["serving"] == 1 && stats.gauges["render_threads"] == 2)

        // The same counts in Prometheus text format, and the health check over HTTP.
        let metrics = try httpGet(metricsAddress, "/metrics")
        #expect(metrics.status == 200)
        for line in [
            #"caffe_worker_rpc_requests_total{method="caffe.v1.Renderer/RenderOrder",code="OK"} 1"#,
            #"caffe_worker_rpc_requests_total{method="caffe.v1.Renderer/RenderOrder",code="NOT_FOUND"} 1"#,
            #"caffe_worker_rpc_requests_total{method="caffe.v1.Renderer/RenderOrder",code="DEADLINE_EXCEEDED"} 1"#,
            #"caffe_worker_serving 1"#,
        ] {
            #expect(metrics.body.contains(line), "\(line) in \(metrics.body)")
        }
        #expect(try httpGet(metricsAddress, "/healthz") == (200, "SERVING\n"))
        #expect(try httpGet(metricsAddress, "/nothing").status == 404)
        #expect(worker.terminate() == 0)
    }

    @Test("SIGHUP reloads the catalog; a broken catalog is rejected and the loaded one kept; JSON logs")
    func reload() throws {
        let folder = try TemporaryFolder("worker-reload")
        let configuration = folder.url.appendingPathComponent("config")
        try FileManager.default.copyItem(at: ConfigurationDirectory.builtIn, to: configuration)
        let catalog = configuration.appendingPathComponent("Localizations/Localizable.xcstrings")
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: Self.quietSettings(folder.url) + ["config_dir=\(configuration.path)", "log.format=json"]
        )
        try worker.waitUntilServing()
        let context = try ZMQContext()
        defer { context.shutdown() }
        let client = try RPCClient(context: context, endpoint: worker.rpcEndpoint)
        func receiptText(_ id: String) throws -> String {
            try client.send(CaffeMethod.renderOrder, id: id, body: TestOrders.order(1))
            let reply = try #require(try client.replies(1)[id])
            return try reply.decodeBody(as: Caffe_V1_RenderOrderResponse.self).receipt.text.plain
        }
        func waitForLog(_ text: String, count: Int) {
            let deadline = Date().addingTimeInterval(10)
            while worker.stderr.components(separatedBy: text).count - 1 < count, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        #expect(try receiptText("before").contains("¡Gracias!"))

        let original = try String(contentsOf: catalog, encoding: .utf8)
        try original.replacingOccurrences(of: "**¡Gracias!**", with: "**¡Mil gracias!**")
            .write(to: catalog, atomically: true, encoding: .utf8)
        worker.signal(SIGHUP)
        waitForLog("catalog and menu reloaded", count: 1)
        #expect(try receiptText("reloaded").contains("¡Mil gracias!"))

        try "{ \"sourceLanguage\": \"en\", \"strings\": ".write(to: catalog, atomically: true, encoding: .utf8)
        worker.signal(SIGHUP)
        waitForLog("reload rejected", count: 1)
        #expect(try receiptText("kept").contains("¡Mil gracias!"))
        #expect(worker.terminate() == 0)

        // Every line is one JSON object with the fixed fields first.
        let lines = worker.stderr.split(separator: "\n")
        #expect(lines.count >= 4)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] is String && object?["message"] is String, "\(line)")
        }
        #expect(
            lines.contains {
                $0.hasPrefix(#"{"ts":"#)
                    && $0.contains(#""message":"reload rejected; keeping the loaded catalog and menu""#)
            }
        )
    }

    @Test("with CURVE keys, an allowed client is served and an unknown key is refused and counted")
    func curve() throws {
        let folder = try TemporaryFolder("worker-curve")
        let server = try ZMQCurveKeyPair.generate()
        let allowed = try ZMQCurveKeyPair.generate()
        let stranger = try ZMQCurveKeyPair.generate()
        // The secret key through the environment, as config/worker.yaml recommends.
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: Self.quietSettings(folder.url) + ["curve.allowed_clients=\(allowed.publicKey.z85)"],
            environment: ["CAFFE_CURVE_SECRET_KEY": server.secretKey.z85]
        )
        let metricsAddress = try worker.waitUntilServing()
        #expect(worker.stderr.contains("curve=on"))
        let context = try ZMQContext()
        defer { context.shutdown() }

        let intruder = try RPCClient(context: context, endpoint: worker.rpcEndpoint) {
            try $0.makeCurveClient(keys: stranger, serverKey: server.publicKey)
        }
        try intruder.send(CaffeMethod.healthCheck, id: "intruder", body: Grpc_Health_V1_HealthCheckRequest())
        #expect(try intruder.replies(1, timeout: .milliseconds(700)).isEmpty)

        let client = try RPCClient(context: context, endpoint: worker.rpcEndpoint) {
            try $0.makeCurveClient(keys: allowed, serverKey: server.publicKey)
        }
        try client.send(CaffeMethod.healthCheck, id: "friend", body: Grpc_Health_V1_HealthCheckRequest())
        let reply = try #require(try client.replies(1)["friend"])
        #expect(try reply.decodeBody(as: Grpc_Health_V1_HealthCheckResponse.self).status == .serving)
        func refusals() throws -> Int {
            let metrics = try httpGet(metricsAddress, "/metrics").body
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("caffe_worker_handshake_failures_total ") }
            return line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        }
        /// The refusals counted once they exceed `floor`, or at the deadline: the monitor's event
        /// reaches the counters on the RPC thread's next turn (it came late once on a loaded CI
        /// machine), so wait for it at most 5 s.
        func refusals(over floor: Int) throws -> Int {
            let deadline = ContinuousClock.now + .seconds(5)
            var counted = try refusals()
            while counted <= floor, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.05)
                counted = try refusals()
            }
            return counted
        }
        #expect(try refusals(over: 0) >= 1)
        intruder.socket.close(linger: .milliseconds(0))
        // Every way of failing the handshake is counted, not only a key the allow-list refuses.
        let wrongServerKey = try ZMQCurveKeyPair.generate()
        let attempts: [(String, (ZMQSocket) throws -> Void)] = [
            ("no CURVE", { _ in }),
            ("a wrong server key", { try $0.makeCurveClient(keys: allowed, serverKey: wrongServerKey.publicKey) }),
            ("the server role", { try $0.makeCurveServer(keys: stranger) }),
        ]
        for (name, configure) in attempts {
            let before = try refusals()
            let attacker = try RPCClient(context: context, endpoint: worker.rpcEndpoint, configure: configure)
            try attacker.send(CaffeMethod.healthCheck, id: name, body: Grpc_Health_V1_HealthCheckRequest())
            #expect(try attacker.replies(1, timeout: .milliseconds(500)).isEmpty, "\(name) was answered")
            attacker.socket.close(linger: .milliseconds(0))
            #expect(try refusals(over: before) > before, "\(name) was not counted")
        }
        #expect(worker.terminate() == 0)
    }

    @Test("rpc.admin_allowed_keys: Admin answers only the operator's key; Renderer and Health stay open")
    func adminKeys() throws {
        let folder = try TemporaryFolder("worker-admin-keys")
        let server = try ZMQCurveKeyPair.generate()
        let operatorKeys = try ZMQCurveKeyPair.generate()
        let client = try ZMQCurveKeyPair.generate()
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: Self.quietSettings(folder.url) + [
                "curve.allowed_clients=\(operatorKeys.publicKey.z85),\(client.publicKey.z85)",
                "rpc.admin_allowed_keys=\(operatorKeys.publicKey.z85)",
            ],
            environment: ["CAFFE_CURVE_SECRET_KEY": server.secretKey.z85]
        )
        try worker.waitUntilServing()
        let context = try ZMQContext()
        defer { context.shutdown() }
        func connect(_ keys: ZMQCurveKeyPair) throws -> RPCClient {
            try RPCClient(context: context, endpoint: worker.rpcEndpoint) {
                try $0.makeCurveClient(keys: keys, serverKey: server.publicKey)
            }
        }
        let renderer = try connect(client)
        try renderer.send(CaffeMethod.stats, id: "stats", body: Caffe_V1_StatsRequest())
        try renderer.send(CaffeMethod.redrive, id: "redrive", body: Caffe_V1_DeadLetter())
        try renderer.send(CaffeMethod.healthCheck, id: "health", body: Grpc_Health_V1_HealthCheckRequest())
        let replies = try renderer.replies(3)
        #expect(replies["stats"]?.status.code == .permissionDenied)
        #expect(
            replies["redrive"]?.status
                == RPCStatus(
                    code: .permissionDenied,
                    message:
                        "caffe.v1.Admin/Redrive is for the keys in rpc.admin_allowed_keys; this client's is not one"
                )
        )
        #expect(replies["health"]?.status.code == .ok)
        let admin = try connect(operatorKeys)
        try admin.send(CaffeMethod.stats, id: "stats", body: Caffe_V1_StatsRequest())
        #expect(try admin.replies(1)["stats"]?.status.code == .ok)
        #expect(worker.terminate() == 0)
    }

    @Test("caffe proxy: orders through a queue proxy, requests through an rpc proxy to a worker that connects")
    func proxies() throws {
        let folder = try TemporaryFolder("worker-proxy")
        let path = folder.url.path
        let executable = try #require(ExecutableRunner.locate("caffe"))
        func proxy(_ kind: String, _ frontend: String, _ backend: String) throws -> ChildProcess {
            let process = ChildProcess(
                executable: executable,
                arguments: ["proxy", "--kind", kind, "--frontend", frontend, "--backend", backend],
                log: folder.url.appendingPathComponent("proxy-\(kind).log")
            )
            try process.start()
            return process
        }
        let queue = try proxy("queue", "@ipc://\(path)/orders-in", "@ipc://\(path)/orders-out")
        let rpc = try proxy("rpc", "@ipc://\(path)/rpc-in", "@ipc://\(path)/rpc-out")
        defer { for process in [queue, rpc] { process.stop() } }
        let context = try ZMQContext()
        defer { context.shutdown() }
        let collector = try WorkerRecoveryTests.Collector(context: context)
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: [
                "input.kind=pull", "input.endpoints=>ipc://\(path)/orders-out", "output.kind=push",
                "output.endpoints=>\(collector.endpoint)", "rpc.endpoint=>ipc://\(path)/rpc-out",
            ]
        )
        try worker.waitUntilServing()
        let source = try context.socket(.push)
        try source.connect("ipc://\(path)/orders-in")
        for sequence in UInt64(1)...2 {
            let order = TestOrders.order(sequence)
            try source.send(
                multipart: try EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: EventFrames.header(for: order),
                    body: order
                )
            )
        }
        let events = try collector.collect { $0.count >= 4 }
        #expect(
            events.map(\.topic).sorted() == [
                "confirmation.es-MX", "confirmation.fr-FR", "receipt.store-fr-par", "receipt.store-mx-cdmx",
            ]
        )

        let client = try RPCClient(context: context, endpoint: "ipc://\(path)/rpc-in")
        try client.send(CaffeMethod.healthCheck, id: "through-proxy", body: Grpc_Health_V1_HealthCheckRequest())
        let reply = try #require(try client.replies(1)["through-proxy"])
        #expect(try reply.decodeBody(as: Grpc_Health_V1_HealthCheckResponse.self).status == .serving)
        source.close(linger: .milliseconds(0))
        #expect(worker.terminate() == 0)
        #expect(queue.stop() == 0)
    }

    @Test("a full RPC queue answers RESOURCE_EXHAUSTED at once; every request gets exactly one reply")
    func backpressure() throws {
        let folder = try TemporaryFolder("worker-rpc-queue")
        let worker = try WorkerProcess(
            folder: folder.url,
            settings: Self.quietSettings(folder.url) + ["rpc.queue=1", "render.threads=1"]
        )
        try worker.waitUntilServing()
        let context = try ZMQContext()
        defer { context.shutdown() }
        let client = try RPCClient(context: context, endpoint: worker.rpcEndpoint)
        let count = 300
        for index in 0..<count {
            try client.send(CaffeMethod.renderOrder, id: "r\(index)", body: TestOrders.order(UInt64(index + 1)))
        }
        let replies = try client.replies(count)
        #expect(replies.count == count)
        let codes = Dictionary(grouping: replies.values, by: \.header.status).mapValues(\.count)
        #expect(Set(codes.keys).isSubset(of: [.ok, .resourceExhausted]), "\(codes)")
        #expect((codes[.resourceExhausted] ?? 0) > 0 && (codes[.ok] ?? 0) > 0, "\(codes)")
        #expect(try client.replies(1, timeout: .milliseconds(300)).isEmpty, "no second reply to anything")
        #expect(worker.terminate() == 0)
    }
}
