import CaffeClient
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import GrammarAgreement
import Localization
import SwiftProtobuf
import ZeroMQ

/// What `caffe-sim demo` shows: a real `caffe worker` serving (``WorkerDemo``), order events crossing a
/// PUB/SUB forwarder as protobuf frames, a bad event dead-lettered with its reason, a CURVE-secured
/// health check with an unknown client refused, the sample catalogs rendered for the demo locales,
/// and the transport measured against C.
///
/// Everything runs in this process over `ipc://` endpoints in a temporary folder that is removed
/// at the end.
public struct PipelineDemo {
    let style: TerminalStyle
    let benchMessages: Int
    /// The catalog folder (`config/Localizations`); `nil` skips the catalog step.
    let catalog: URL?
    /// The `caffe` executable for the worker step; `nil` skips it.
    let caffe: URL?
    /// The markets of the worker step's load run (``MarketDirectory/mix(_:)``); `nil`: the default.
    let locales: String?
    var output: (String) -> Void

    public init(
        style: TerminalStyle,
        catalog: URL?,
        caffe: URL? = nil,
        benchMessages: Int = 200_000,
        locales: String? = nil,
        output: @escaping (String) -> Void = { print($0) }
    ) {
        self.style = style
        self.catalog = catalog
        self.caffe = caffe
        self.benchMessages = benchMessages
        self.locales = locales
        self.output = output
    }

    /// One sample order per demo locale: (locale, time zone, term of address, currency, lines).
    static let sampleOrders: [(String, String, Caffe_V1_TermOfAddress, String, [(String, String, UInt32)])] = [
        ("en-US", "America/Los_Angeles", .feminine, "USD", [("pizza", "large", 2), ("juice", "small", 1)]),
        ("es-ES", "Europe/Madrid", .masculine, "EUR", [("salad", "small", 2)]),
        ("es-MX", "America/Mexico_City", .feminine, "MXN", [("juice", "small", 2), ("sandwich", "large", 1)]),
        ("sv-SE", "Europe/Stockholm", .unspecified, "EUR", [("coffee", "large", 1)]),
        ("ja-JP", "Asia/Tokyo", .neutral, "JPY", [("pizza", "small", 3)]),
        ("ar-EG", "Africa/Cairo", .masculine, "EGP", [("salad", "large", 0), ("coffee", "small", 2)]),
    ]

    public mutating func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-demo-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let version = ZMQLibrary.version
        output(
            style.bold("Caffe demo")
                + style.dim(
                    "  libzmq \(version.major).\(version.minor).\(version.patch), CURVE \(ZMQLibrary.has("curve") ? "available" : "missing")"
                )
        )
        output(style.rainbow("Fast") + " & " + style.rainbow("Delicious") + " Food")
        output("")

        let context = try ZMQContext()
        if let caffe {
            let demo = WorkerDemo(
                style: style,
                executable: caffe,
                configurationDirectory: ConfigurationDirectory.resolve(),
                folder: folder.path,
                locales: locales,
                output: output
            )
            try await demo.run(context: context)
        } else {
            output(
                style.dim(
                    "1. caffe worker: no caffe executable next to caffe-sim (swift build --product caffe); skipped"
                )
            )
        }
        try await forwardOrders(context: context, folder: folder.path)
        try await secureHealthCheck(context: context, folder: folder.path)
        renderCatalogs()
        await measureTransport()
    }

    /// Order events through an XSUB/XPUB forwarder to a subscriber, one of them malformed.
    func forwardOrders(context: ZMQContext, folder: String) async throws {
        output(style.bold("2. Order events over PUB → forwarder → SUB") + style.dim("  (ipc://, protobuf frames)"))
        let frontend = try context.socket(.xsub)
        let publishers = try frontend.bind("ipc://\(folder)/orders-in")
        let backend = try context.socket(.xpub)
        let subscribers = try backend.bind("ipc://\(folder)/orders-out")
        let proxy = try ZMQProxy(frontend: frontend, backend: backend)
        defer { proxy.terminate() }

        let source = try context.socket(.pub)
        try source.connect(publishers)
        let worker = try context.socket(.sub)
        try worker.subscribe("order.")
        try worker.connect(subscribers)
        try await waitForSubscription(publisher: source, subscriber: worker)

        var sequence: UInt64 = 0
        for (index, sample) in Self.sampleOrders.enumerated() {
            sequence += 1
            let order = Self.makeOrder(number: index + 1, sequence: sequence, sample: sample)
            try await source.send(
                multipart: EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: EventFrames.header(for: order),
                    body: order
                )
            )
        }
        // A POS with a bug: the body is not an OrderEvent at all.
        sequence += 1
        var badHeader = Caffe_V1_EventHeader()
        badHeader.bodyType = Caffe_V1_OrderEvent.protoMessageName
        badHeader.sourceID = "pos-7"
        badHeader.sequence = sequence
        try await source.send(multipart: [
            "order.sf-1", try badHeader.serializedBytes() as [UInt8], [0xFF, 0xFF, 0x01] as [UInt8],
        ])

        for _ in 0...Self.sampleOrders.count {
            guard let frames = try await worker.receiveMultipart(timeout: .seconds(5)) else {
                output(style.red("  no event within 5 s"))
                break
            }
            do {
                let event = try EventFrames(parsing: frames)
                let order = try event.decodeBody(as: Caffe_V1_OrderEvent.self)
                try order.validate()
                output("  " + Self.describe(order, topic: event.topic, style: style))
            } catch {
                output("  " + style.red("dead-letter") + "  \(error)")
            }
        }
        let stats = try proxy.statistics()
        output(
            style.dim(
                "  forwarder: \(stats.frontend.messagesIn) messages in, \(stats.backend.messagesOut) out, \(stats.frontend.bytesIn) bytes"
            )
        )
        output("")
        source.close()
        worker.close()
    }

    /// Publishes a probe until the subscriber sees one, so no real event is lost to the slow joiner.
    func waitForSubscription(publisher: ZMQSocket, subscriber: ZMQSocket) async throws {
        try subscriber.subscribe("order.probe")
        defer { try? subscriber.unsubscribe("order.probe") }
        for _ in 0..<500 {
            try await publisher.send("order.probe")
            if try await subscriber.receive(timeout: .milliseconds(10)) != nil {
                while try subscriber.tryReceive() != nil {}
                return
            }
        }
    }

    /// A CURVE ROUTER with an allow-list: a known client gets SERVING, an unknown key is refused.
    func secureHealthCheck(context: ZMQContext, folder: String) async throws {
        output(style.bold("3. Health check over CURVE") + style.dim("  (ROUTER/DEALER, ZAP allow-list)"))
        let serverKeys = try ZMQCurveKeyPair.generate()
        let trustedKeys = try ZMQCurveKeyPair.generate()
        let strangerKeys = try ZMQCurveKeyPair.generate()
        let authenticator = try ZMQAuthenticator(context: context, allowedClientKeys: [trustedKeys.publicKey])
        defer { authenticator.stop() }

        let server = try context.socket(.router)
        try server.makeCurveServer(keys: serverKeys)
        let endpoint = try server.bind("ipc://\(folder)/rpc")
        let monitor = try ZMQSocketMonitor(server, events: [.handshakeSucceeded, .handshakeFailedAuth])

        var options = RPCClient.Options()
        options.curve = CurveCredentials(keys: trustedKeys, serverKey: serverKeys.publicKey)
        options.attempts = 1
        let client = try RPCClient(endpoint: ">" + endpoint, options: options, context: context)
        async let answer = client.health()

        if let frames = try await server.receiveMultipart(timeout: .seconds(5)) {
            let request = try RequestFrames(parsing: frames)
            var health = Grpc_Health_V1_HealthCheckResponse()
            health.status = .serving
            let user = frames.last?.metadata("User-Id") ?? "?"
            output("  server: \(request.header.method) from client \(style.cyan(String(user.prefix(10)) + "…"))")
            try await server.send(multipart: request.reply(status: .ok, body: health))
        }
        let status = try await answer
        output("  client (CaffeClient.RPCClient): OK → \(style.green(String(describing: status)))")

        let stranger = try context.socket(.dealer)
        try stranger.makeCurveClient(keys: strangerKeys, serverKey: serverKeys.publicKey)
        try stranger.connect(endpoint)
        _ = try stranger.send(
            multipart: RequestFrames.encode(
                method: CaffeMethod.healthCheck,
                requestID: "demo-2",
                body: Grpc_Health_V1_HealthCheckRequest()
            ),
            timeout: .zero
        )
        if let refusal = try monitor.wait(for: .handshakeFailedAuth, timeout: .seconds(5)) {
            output(
                "  unknown client key: " + style.red("refused")
                    + style.dim(" (\(refusal.kind), ZAP status \(refusal.value))")
            )
        }
        output(style.dim("  authenticator: \(authenticator.admitted) admitted, \(authenticator.refused) refused"))
        output("")
        for socket in [stranger, server] { socket.close() }
        monitor.stop()
    }

    /// The sample catalogs in each demo locale: plurals, regional fallback, device variants, digits.
    func renderCatalogs() {
        output(style.bold("4. Catalogs") + style.dim("  (config/Localizations: .xcstrings, .strings, .stringsdict)"))
        defer { output("") }
        guard let catalog else {
            output(style.dim("  no catalog folder given; skipped"))
            return
        }
        do {
            let loaded = try StringCatalog(directory: catalog)
            // One juice each: agreeing "2 juices" / "2 jugos" is the grammar-agreement module's job.
            let samples: [(locale: String, juices: Int64, items: Int64)] = [
                ("en-US", 1, 1), ("es-ES", 1, 3), ("es-MX", 1, 1_000_000), ("sv-SE", 1, 2), ("ja-JP", 1, 3),
                ("ar-EG", 1, 1234),
            ]
            for sample in samples {
                let localizer = try Localizer(catalog: loaded, locale: sample.locale)
                let onWatch = try Localizer(
                    catalog: loaded,
                    locale: sample.locale,
                    options: RenderOptions(device: .applewatch)
                )
                let juice = try localizer.string("juice", table: "Menu").text
                let line = try localizer.string(
                    "%1$@ added %2$lld %3$@",
                    table: "Receipt",
                    arguments: ["Ana", .integer(sample.juices), .string(juice)]
                )
                let count = try localizer.string("%lld items", arguments: [.integer(sample.items)])
                let receipt = try onWatch.string("Open your receipt")
                let fallback = localizer.fallbackNote == nil ? "" : style.dim("  (no \(sample.locale) localization)")
                let label = sample.locale.padding(toLength: 6, withPad: " ", startingAt: 0)
                output("  \(style.cyan(label)) \(line.text) · \(count.text) · watch: \(receipt.text)\(fallback)")
            }
            output(style.dim("  caffe lint: \(CatalogLinter(catalog: loaded, termTables: ["Menu"]).lint().summary)"))
            // Agreement after a preposition: German mit governs the dative (mit 2 Keksen), Polish z and
            // Russian с the instrumental (z 2 ciastkami, с 2 печеньями).
            let extras = [
                ("de-DE", "Keks"), ("fr-FR", "biscuit"), ("it-IT", "biscotto"), ("pt-BR", "biscoito"),
                ("es-ES", "galleta"), ("en-US", "cookie"), ("pl-PL", "ciastko"), ("ru-RU", "печенье"),
            ]
            var withExtras: [String] = []
            for (locale, extra) in extras {
                let rich = try RichLocalizer(catalog: loaded, locale: locale)
                withExtras.append(try rich.text("Coffee with %lld %@", arguments: [2, .string(extra)]).plainText)
            }
            output("  agreement: " + withExtras.joined(separator: " · "))
            let menu = try? Menu(contentsOf: catalog.deletingLastPathComponent().appendingPathComponent("menu.json"))
            let preflight = AgreementPreflight(catalog: loaded, uses: menu?.agreementUses).run()
            output(
                style.dim(
                    "  caffe lint --agreement: \(preflight.unknown) unknown, \(preflight.ambiguous) ambiguous, "
                        + "\(preflight.rule) rule-inflected word(s) in \(preflight.locales.count) localizations with "
                        + "agreement rules"
                )
            )
        } catch {
            output(style.red("  catalog step failed: \(error)"))
        }
    }

    /// A short run of `caffe-sim bench transport`.
    func measureTransport() async {
        output(
            style.bold("5. Transport: Swift binding vs C")
                + style.dim("  (PUSH/PULL, tcp loopback, \(benchMessages) messages)")
        )
        let benchmark = TransportBenchmark(
            configuration: .init(sizes: [256, 1024], messages: benchMessages, rounds: 1)
        )
        do {
            let report = try await benchmark.run()
            output(TransportBenchmark.summary(report).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            output(style.dim("  full measurement: caffe-sim bench transport"))
        } catch {
            output(style.red("  transport measurement failed: \(error)"))
        }
    }

    static func makeOrder(
        number: Int,
        sequence: UInt64,
        sample: (String, String, Caffe_V1_TermOfAddress, String, [(String, String, UInt32)])
    ) -> Caffe_V1_OrderEvent {
        var order = Caffe_V1_OrderEvent()
        order.orderID = "A-\(1000 + number)"
        order.sourceID = "pos-7"
        order.sequence = sequence
        order.placedAt = Google_Protobuf_Timestamp(
            date: Date(timeIntervalSince1970: 1_790_000_000 + Double(number) * 60)
        )
        order.storeID = "sf-1"
        order.customer.customerID = "c-\(number)"
        order.customer.name = ["Ana", "Luis", "Sofía", "Camille", "Yui", "Omar"][(number - 1) % 6]
        order.customer.locale = sample.0
        order.customer.timeZone = sample.1
        order.customer.termOfAddress = sample.2
        order.currencyCode = sample.3
        order.lines = sample.4.map { item, size, quantity in
            var line = Caffe_V1_OrderLine()
            line.itemID = item
            line.size = size
            line.quantity = UInt64(quantity)
            return line
        }
        order.tip = number % 2 == 0 ? "1.50" : ""
        return order
    }

    static func describe(_ order: Caffe_V1_OrderEvent, topic: String, style: TerminalStyle) -> String {
        let lines = order.lines.map { "\($0.quantity)× \($0.itemID) \($0.size)" }.joined(separator: ", ")
        let address: String
        switch order.customer.termOfAddress {
        case .feminine: address = "feminine"
        case .masculine: address = "masculine"
        case .neutral: address = "neutral"
        default: address = "unknown"
        }
        return "\(style.dim(topic)) #\(order.sequence) \(style.bold(order.orderID)) \(order.customer.locale) "
            + "(\(address)) \(lines)\(order.tip.isEmpty ? "" : ", tip \(order.tip) \(order.currencyCode)")"
    }
}
