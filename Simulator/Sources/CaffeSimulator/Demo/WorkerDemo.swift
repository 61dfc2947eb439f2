import CaffeBooks
import CaffeClient
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import WorkerTestKit
import ZeroMQ

/// The first step of `caffe-sim demo`: a real `caffe worker` process on the default configuration
/// (`config/worker.yaml`, SUB in and PUB out), its endpoints moved to `ipc://` in the demo's
/// temporary folder. The demo publishes mixed-locale orders, a malformed event and complication
/// requests, prints what the worker publishes, asks its RPC endpoint for health and stats, reads
/// its `/metrics`, and stops it with SIGTERM.
struct WorkerDemo {
    let style: TerminalStyle
    let executable: URL
    let configurationDirectory: URL
    let folder: String
    /// The load run's markets (``MarketDirectory/mix(_:)``); `nil`: the default.
    let locales: String?
    let output: (String) -> Void

    /// (locale, store, currency, time zone, term of address, name, lines)
    static let orders: [(String, String, String, String, Caffe_V1_TermOfAddress, String, [(String, String, UInt32)])] =
        [
            (
                "en-US", "store-us-sfo", "USD", "America/Los_Angeles", .feminine, "Ana",
                [("pizza", "large", 2), ("juice", "small", 1)]
            ),
            ("es-ES", "store-es-mad", "EUR", "Europe/Madrid", .feminine, "Lucía", [("salad", "small", 2)]),
            (
                "es-MX", "store-mx-cdmx", "MXN", "America/Mexico_City", .masculine, "Luis",
                [("pizza", "large", 2), ("juice", "small", 1)]
            ),
            (
                "fr-FR", "store-fr-par", "EUR", "Europe/Paris", .unspecified, "Camille",
                [("coffee", "large", 1), ("water", "large", 2)]
            ),
            (
                "de-DE", "store-de-ber", "EUR", "Europe/Berlin", .feminine, "Lena",
                [("cafe_au_lait", "large", 2), ("pizza", "small", 2), ("cortadito", "small", 2)]
            ),
            (
                "it-IT", "store-it-rom", "EUR", "Europe/Rome", .feminine, "Giulia",
                [("pizza", "large", 2), ("cortadito", "small", 2)]
            ),
            // Polish and Russian: the numeral governs the case (1, 2–4, 5+, and 22 like 2).
            (
                "pl-PL", "store-pl-waw", "PLN", "Europe/Warsaw", .feminine, "Zofia",
                [("pizza", "large", 1), ("juice", "small", 2), ("salad", "large", 5), ("sandwich", "small", 22)]
            ),
            (
                "ru-RU", "store-ru-mow", "RUB", "Europe/Moscow", .masculine, "Иван",
                [("pizza", "large", 1), ("sandwich", "small", 2), ("salad", "large", 5), ("juice", "small", 22)]
            ),
            (
                "pt-BR", "store-br-sao", "BRL", "America/Sao_Paulo", .masculine, "João",
                [("salad", "small", 2), ("water", "large", 2)]
            ),
            ("ja-JP", "store-jp-tyo", "JPY", "Asia/Tokyo", .unspecified, "Yui", [("pizza", "small", 3)]),
            (
                "ar-EG", "store-eg-cai", "EGP", "Africa/Cairo", .masculine, "Omar",
                [("salad", "large", 0), ("coffee", "small", 2)]
            ),
        ]

    func run(context: ZMQContext) async throws {
        output(
            style.bold("1. caffe worker, default configuration")
                + style.dim("  (SUB in, PUB out, ROUTER for RPC; ipc:// here)")
        )
        let inbound = "ipc://\(folder)/orders"
        // Epoch 0: the demo's source keeps one numbering (its folder is new each run).
        let publisher = try OrderPublisher(endpoint: "@" + inbound, sourceID: "demo", sourceEpoch: 0, context: context)
        let settings = [
            "input.endpoints=>\(inbound)", "output.endpoints=@ipc://\(folder)/outputs",
            "rpc.endpoint=@ipc://\(folder)/rpc", "metrics.address=127.0.0.1:0",
            "checkpoint.path=\(folder)/worker.checkpoint",
        ]
        let log = URL(fileURLWithPath: "\(folder)/worker.log")
        let process = ChildProcess(
            executable: executable,
            arguments: WorkerCommandLine.arguments(configurationDirectory: configurationDirectory, settings: settings),
            log: log
        )
        try process.start()
        defer { process.stop() }
        // The worker is serving once its SUB has subscribed to our XPUB.
        guard try await waitForSubscription(publisher, process: process) else {
            output(style.red("  the worker did not start:"))
            output((try? String(contentsOf: log, encoding: .utf8)) ?? "")
            return
        }
        // The subscription arrives during start-up; the "worker serving" line right after.
        var serving: Substring?
        for _ in 0..<100 where serving == nil {
            serving = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
                .first { $0.contains("worker serving") }
            if serving == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        output(style.dim("  " + (serving.map(String.init) ?? "worker serving")))
        let metricsAddress = serving.flatMap { $0.firstMatch(of: /http:\/\/([0-9.]+:[0-9]+)\/metrics/) }.map {
            String($0.output.1)
        }

        // The demo is a client like any other: CaffeClient publishes, subscribes and calls.
        let subscriber = try OutputSubscriber(endpoints: [">ipc://\(folder)/outputs"], context: context)
        let client = try RPCClient(endpoint: ">ipc://\(folder)/rpc", context: context)
        // A health check round trip; by then the subscription has reached the worker's PUB too.
        let health = try? await client.health()
        try await Task.sleep(for: .milliseconds(200))
        output("  grpc.health.v1.Health/Check: " + style.green(health.map { "\($0)".uppercased() } ?? "no answer"))

        for (index, sample) in Self.orders.enumerated() {
            let order = Self.order(index: index, sequence: publisher.lastSequence + 1, sample: sample)
            try await publisher.publish(order, metadata: ["demo": "true"])
        }
        try await publisher.publish(
            encodedBody: Array("not protobuf".utf8),
            bodyType: Caffe_V1_OrderEvent.protoMessageName,
            topic: CaffeTopic.order(store: "store-us-sfo")
        )
        for (user, locale, zone) in [("u-1", "en-US", "America/New_York"), ("u-2", "es-MX", "America/Mexico_City")] {
            var request = Caffe_V1_ComplicationRequest()
            request.requestID = "R-\(user)"
            request.userID = user
            request.locale = locale
            request.timeZone = zone
            request.nextFreeCoffee = Google_Protobuf_Timestamp(seconds: 1_798_700_000)
            try await publisher.publish(request)
        }

        let expected = 2 * Self.orders.count + 1 + 2
        var received = 0
        while received < expected, let event = try await subscriber.receive(timeout: .seconds(10)) {
            received += 1
            show(event)
        }
        if received < expected { output(style.red("  only \(received) of \(expected) outputs arrived")) }

        if let stats = try? await client.stats() {
            let counters = [
                "events_received", "events_rendered", "outputs_published", "dead_letters", "duplicates", "gaps",
            ]
            .map { "\($0) \(stats.counters[$0] ?? 0)" }.joined(separator: ", ")
            output("  caffe.v1.Admin/Stats: " + counters)
        }
        if let metricsAddress, let address = HostAndPort(metricsAddress),
            let body = HTTPProbe.get(address, "/metrics")?.body
        {
            let lines = body.split(separator: "\n").filter {
                $0.hasPrefix("caffe_worker_outputs_total{kind=\"confirmation\",locale=\"es")
                    || $0.hasPrefix("caffe_worker_dead_letters_total")
            }
            output(style.dim("  GET http://\(metricsAddress)/metrics:"))
            for line in lines { output(style.dim("    " + line)) }
        }
        try loadRun(context: context, subscriber: subscriber, publisher: publisher)
        let status = process.stop() ?? process.terminationStatus ?? 0
        output(
            "  SIGTERM: drained, exit status \(status); checkpoint "
                + style.dim(Self.checkpointSummary(at: "\(folder)/worker.checkpoint"))
        )
        output("")
    }

    /// The last sequence per source in the checkpoint the drained worker left (its snapshot and
    /// journal, read as the worker reads them): "demo 12, demo-load 2000".
    static func checkpointSummary(at path: String) -> String {
        guard let checkpoint = try? Checkpoint.read(URL(fileURLWithPath: path)) else { return "none" }
        return checkpoint.sources.keys.sorted().map { "\($0) \(checkpoint.sources[$0]!)" }.joined(separator: ", ")
    }

    /// A short open-loop load run against the same worker: `caffe-sim load` in miniature. The
    /// demo's own publisher and subscriber make way for the load run's, on the same endpoints.
    private func loadRun(context: ZMQContext, subscriber: OutputSubscriber, publisher: OrderPublisher) throws {
        subscriber.close()
        publisher.close(linger: .zero)
        var configuration = LoadRun.Configuration()
        configuration.profile = .constant(rate: 1000)
        configuration.count = 2000
        configuration.warmup = 0.5
        configuration.inputEndpoint = "@ipc://\(folder)/orders"
        configuration.outputEndpoint = ">ipc://\(folder)/outputs"
        configuration.replayEndpoint = ""
        configuration.sourceID = "demo-load"
        configuration.timeout = 3
        configuration.markets = try MarketDirectory.load(configurationDirectory: configurationDirectory).mix(locales)
        let menu = try Menu(contentsOf: configurationDirectory.appendingPathComponent("menu.json"))
        output(style.bold("  load: 2000 orders at 1000/s") + style.dim("  (caffe-sim load --rate 1000 --count 2000)"))
        let report = try LoadRun(configuration: configuration, menu: menu).run(context: context)
        let summary = report.summary.split(separator: "\n").prefix(3)
        for line in summary { output("  " + line) }
    }

    private func show(_ event: OutputEvent) {
        let topic = style.dim(event.topic.padding(toLength: 22, withPad: " ", startingAt: 0))
        switch event.body {
        case .confirmation(let confirmation):
            output("  \(topic) \(style.render(confirmation.greeting)) \(style.render(confirmation.summary))")
        case .receipt(let receipt):
            let last = receipt.text.plain.split(separator: "\n").last.map(String.init) ?? ""
            output("  \(topic) total \(receipt.total) \(receipt.currencyCode) · \(style.dim(last))")
        case .complication(let payload):
            if let entry = payload.entries.last { output("  \(topic) \(style.render(entry.text))") }
        case .deadLetter(let letter):
            output("  \(topic) " + style.red(String(letter.detail.prefix(90))))
        case .unknown(let bodyType, _):
            output("  \(topic) " + style.red("a body this demo does not know: \(bodyType)"))
        }
    }

    /// Waits for the worker's subscription, as long as the worker runs (at most 10 s).
    private func waitForSubscription(_ publisher: OrderPublisher, process: ChildProcess) async throws -> Bool {
        for _ in 0..<200 {
            if (try? await publisher.waitForSubscribers(count: 1, timeout: .milliseconds(50))) != nil { return true }
            if !process.isRunning { return false }
        }
        return false
    }

    static func order(
        index: Int,
        sequence: UInt64,
        sample: (String, String, String, String, Caffe_V1_TermOfAddress, String, [(String, String, UInt32)])
    ) -> Caffe_V1_OrderEvent {
        var order = Caffe_V1_OrderEvent()
        order.orderID = "D-\(1001 + index)"
        order.sourceID = "demo"
        order.sequence = sequence
        order.placedAt = Google_Protobuf_Timestamp(seconds: 1_795_003_200 + Int64(index) * 60)
        order.pickupAt = Google_Protobuf_Timestamp(seconds: 1_795_004_400 + Int64(index) * 60)
        order.storeID = sample.1
        order.currencyCode = sample.2
        order.customer.customerID = "c-\(index)"
        order.customer.locale = sample.0
        order.customer.timeZone = sample.3
        order.customer.termOfAddress = sample.4
        order.customer.name = sample.5
        order.lines = sample.6.map { item, size, quantity in
            var line = Caffe_V1_OrderLine()
            line.itemID = item
            line.size = size
            line.quantity = UInt64(quantity)
            return line
        }
        // A yen amount has no minor units.
        if index % 2 == 1 { order.tip = order.currencyCode == "JPY" ? "150" : "1.50" }
        return order
    }
}
