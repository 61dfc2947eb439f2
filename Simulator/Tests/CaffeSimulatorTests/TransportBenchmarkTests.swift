// Caffe — simulator tests.
import CaffeCore
import CaffeSimulator
import CaffeTestKit
import Foundation
import Synchronization
import Testing

@Suite("caffe-sim bench transport")
struct TransportBenchmarkTests {
    @Test func reportsBothImplementationsForEverySize() async throws {
        let benchmark = TransportBenchmark(configuration: .init(sizes: [64, 2048], messages: 2_000, rounds: 1))
        var lines: [String] = []
        let report = try await benchmark.run { lines.append($0) }

        #expect(Set(report.bindingMessagesPerSecond.keys) == ["64", "2048"])
        #expect(Set(report.cMessagesPerSecond.keys) == ["64", "2048"])
        #expect(Set(report.ratio.keys) == ["64", "2048"])
        for key in ["64", "2048"] {
            let binding = try #require(report.bindingMessagesPerSecond[key])
            let baseline = try #require(report.cMessagesPerSecond[key])
            #expect(binding > 0 && baseline > 0)
            let ratio = try #require(report.ratio[key])
            #expect(abs(ratio - binding / baseline) < 0.01)
        }
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("size 64 B round 1: binding "))
    }

    @Test func asyncReceiveModeMeasuresTheSameShape() async throws {
        let configuration = TransportBenchmark.Configuration(
            sizes: [256],
            messages: 2_000,
            rounds: 1,
            receiveMode: .async
        )
        let report = try await TransportBenchmark(configuration: configuration).run()
        #expect(Array(report.ratio.keys) == ["256"])
        #expect((report.bindingMessagesPerSecond["256"] ?? 0) > 0)
        #expect((report.cMessagesPerSecond["256"] ?? 0) > 0)
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let report = TransportBenchmark.Report(
            bindingMessagesPerSecond: ["256": 2_300_000, "1024": 1_000_000],
            cMessagesPerSecond: ["256": 2_400_000, "1024": 1_100_000],
            ratio: ["256": 0.958, "1024": 0.909]
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(
            json
                == #"{"binding_msgs_per_s":{"1024":1000000,"256":2300000},"c_msgs_per_s":{"1024":1100000,"256":2400000},"ratio":{"1024":0.909,"256":0.958}}"#
        )
        #expect(
            TransportBenchmark.summary(report) == """
                size      binding msg/s        C msg/s   ratio
                256 B            2.30 M         2.40 M   0.958
                1024 B           1.00 M         1.10 M   0.909
                """
        )
    }
}

@Suite("caffe-sim demo")
struct PipelineDemoTests {
    @Test func demoShowsEventsDeadLetterSecurityAndTransport() async throws {
        let output = Mutex<[String]>([])
        var demo = PipelineDemo(
            style: TerminalStyle(enabled: false),
            catalog: CatalogBenchmarkTests.catalog,
            caffe: try #require(ExecutableRunner.locate("caffe"), "build with swift build --build-tests"),
            benchMessages: 2_000
        ) { line in
            output.withLock { $0.append(line) }
        }
        try await demo.run()
        let lines = output.withLock { $0 }
        let text = lines.joined(separator: "\n")

        #expect(lines.first?.hasPrefix("Caffe demo  libzmq 4.3.4, CURVE available") == true)
        // A real worker on the default configuration.
        #expect(lines.contains { $0.hasSuffix("[CaffeWorker] worker serving") && $0.contains("input=sub") })
        #expect(lines.contains("  grpc.health.v1.Health/Check: SERVING"))
        #expect(lines.contains("  confirmation.es-MX     ¡Bienvenido, Luis! 2 pizzas grandes y 1 jugo pequeño"))
        #expect(lines.contains("  confirmation.es-ES     ¡Bienvenida, Lucía! 2 ensaladas pequeñas"))
        #expect(lines.contains("  receipt.store-mx-cdmx  total 632.20 MXN · ¡Gracias! Visita nuestro sitio web."))
        #expect(lines.contains("  complication.u-1       Thu 1:53\u{202F}AM"))
        #expect(
            lines.contains(
                "  caffe.v1.Admin/Stats: events_received 14, events_rendered 13, outputs_published 25, dead_letters 1, duplicates 0, gaps 0"
            )
        )
        #expect(
            lines.contains("  orders, constant 1000/s: sent 2000, received 2000, lost 0, duplicates 0, dead-lettered 0")
        )
        #expect(
            lines.contains(
                "  SIGTERM: drained, exit status 0; checkpoint demo 14, demo-load 2000"
            )
        )
        #expect(lines.contains("  order.sf-1 #1 A-1001 en-US (feminine) 2× pizza large, 1× juice small"))
        #expect(lines.contains("  order.sf-1 #3 A-1003 es-MX (feminine) 2× juice small, 1× sandwich large"))
        #expect(
            lines.contains("  order.sf-1 #6 A-1006 ar-EG (masculine) 0× salad large, 2× coffee small, tip 1.50 EGP")
        )
        #expect(
            lines.contains { $0.hasPrefix("  dead-letter  malformed: event body is not a valid caffe.v1.OrderEvent") }
        )
        #expect(lines.contains("  client (CaffeClient.RPCClient): OK → serving"))
        #expect(lines.contains("  unknown client key: refused (handshakeFailedAuth, ZAP status 400)"))
        #expect(lines.contains("  authenticator: 1 admitted, 1 refused"))
        #expect(text.contains("  size      binding msg/s        C msg/s   ratio"))
        #expect(lines.contains("  en-US  Ana added 1 juice · 1 item · watch: Open the receipt on your iPhone"))
        #expect(
            lines.contains("  es-MX  Ana añadió 1 jugo · 1,000,000 de artículos · watch: Abre el recibo en tu iPhone")
        )
        #expect(lines.contains("  es-ES  Ana añadió 1 zumo · 3 artículos · watch: Abre el recibo en tu iPhone"))
        #expect(lines.contains("  ar-EG  أضاف Ana ١ عصير · ١٬٢٣٤ عنصرًا · watch: افتح الإيصال على iPhone"))
        #expect(
            lines.contains(
                "  sv-SE  Ana added 1 juice · 2 items · watch: Open the receipt on your iPhone  (no sv-SE localization)"
            )
        )
        #expect(lines.contains("  caffe lint: 0 errors, 1 warning, 0 notes"))
        #expect(!text.contains("\u{1B}["))
    }
}
