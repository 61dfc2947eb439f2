import CaffeTestKit
import Foundation
import Testing

@Suite("caffe render and caffe complication as processes", .enabled(if: ExecutableRunner.locate("caffe") != nil))
struct RenderCommandTests {
    func caffe(_ arguments: [String], input: String = "") throws -> ExecutableRunner.Result {
        try ExecutableRunner.run(
            try #require(ExecutableRunner.locate("caffe")),
            arguments + ["--config", CoreFixture.configuration.path],
            input: input
        )
    }

    static let order = """
        {"orderId": "A-1", "sourceId": "pos-1", "sequence": "1", "placedAt": "2026-11-18T11:06:40Z",
         "storeId": "store-es-mad", "currencyCode": "EUR", "tip": "1.50",
         "customer": {"name": "Luis", "locale": "es-ES", "timeZone": "Europe/Madrid",
                      "termOfAddress": "TERM_OF_ADDRESS_MASCULINE"},
         "lines": [{"itemId": "sandwich", "size": "small", "quantity": 2}]}
        """

    @Test("render prints the confirmation and the receipt")
    func renderText() throws {
        let result = try caffe(["render", "--order", "-"], input: Self.order)
        #expect(result.status == 0)
        #expect(
            result.standardOutput.hasPrefix(
                "¡Bienvenido, Luis!\nHas pedido 2 sándwiches pequeños.\n2 artículos\n\nCaffé\nComida rápida y deliciosa\n"
            )
        )
        #expect(result.standardOutput.contains("\nTotal: 14,48\u{00A0}€\n"))
    }

    @Test("--locale and --format html")
    func renderHTML() throws {
        let result = try caffe(["render", "--order", "-", "--locale", "en-US", "--format", "html"], input: Self.order)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("<article class=\"caffe-receipt\" lang=\"en-US\" dir=\"ltr\">\n"))
        #expect(result.standardOutput.contains("<td class=\"description\">2 small sandwiches</td>"))
    }

    @Test("a bad order exits 1 with the reason")
    func badOrder() throws {
        let result = try caffe(
            ["render", "--order", "-"],
            input: Self.order.replacingOccurrences(of: "\"sandwich\"", with: "\"calzone\"")
        )
        #expect(result.status == 1)
        #expect(result.standardError == "caffe render: unknown-item at lines[0].itemId: 'calzone' is not on the menu\n")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("an order that cannot be read says what is wrong in a sentence, exit 1")
    func unreadableOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("passwd")
        try Data("root:x:0:0:root:/root:/bin/bash\n".utf8).write(to: text)
        let cases: [([String], String, String)] = [
            (
                ["--order", folder.appendingPathComponent("none.json").path], "",
                "\(folder.path)/none.json: no such file"
            ),
            (["--order", folder.path], "", "\(folder.path): is a folder"),
            (
                ["--order", text.path], "",
                "\(text.path): not a caffe.v1.OrderEvent in protobuf JSON: not JSON (or not one JSON object)"
            ),
            (
                ["--order", "-"], #"{"bogus": 1}"#,
                "standard input: not a caffe.v1.OrderEvent in protobuf JSON: unknown field 'bogus'"
            ),
            (["--order", "-"], "\n", "standard input: empty; expected a caffe.v1.OrderEvent in JSON"),
        ]
        for (arguments, input, message) in cases {
            let result = try caffe(["render"] + arguments, input: input)
            #expect(result.status == 1 && result.standardError == "caffe render: \(message)\n", "\(arguments)")
            #expect(!result.standardError.contains("NSCocoaErrorDomain"))
        }
    }

    @Test("a configuration that does not load exits 1 with the reason, not usage")
    func brokenConfiguration() throws {
        let result = try ExecutableRunner.run(
            try #require(ExecutableRunner.locate("caffe")),
            ["render", "--order", "-", "--config", "/nonexistent/config"],
            input: Self.order
        )
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("caffe render: catalog: "))
        #expect(!result.standardError.contains("USAGE"))
    }

    @Test("complication prints one line per family")
    func complication() throws {
        let result = try caffe([
            "complication", "--date", "2026-11-20T06:45:00Z", "--locale", "ja-JP", "--time-zone", "Asia/Tokyo",
            "--family", "modular-large", "--family", "circular-small",
        ])
        #expect(result.status == 0)
        #expect(result.standardOutput == "modular-large: 金 15:45\ncircular-small: 金\n")
    }
}
