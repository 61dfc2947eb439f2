// Caffe — CaffeWorker tests.
import CaffeClient
import CaffeCore
import Foundation
import Logging
import Synchronization
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeWorker

/// Catalog files that change under a running worker are reloaded as on SIGHUP: a plain edit, a
/// ConfigMap-style link swap, and a broken file refused with the old catalog kept.
@Suite("Configuration watcher", .serialized)
struct ConfigurationWatcherTests {
    /// Runs a watcher over `catalog` and `menu` every 50 ms, counting its reloads, until `body`
    /// returns.
    static func watching(
        catalog: URL,
        menu: URL,
        _ body: (_ reloads: @Sendable () -> Int) async throws -> Void
    ) async throws {
        let count = Atomic<Int>(0)
        let watcher = ConfigurationWatcher(
            catalog: catalog,
            menu: menu,
            interval: .milliseconds(50),
            logger: Logger(label: "test.watcher")
        ) { count.add(1, ordering: .relaxed) }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await watcher.run() }
            try await body { count.load(ordering: .relaxed) }
            tasks.cancelAll()
        }
    }

    /// Waits until `condition` holds, at most `timeout`.
    static func eventually(_ timeout: Duration = .seconds(5), _ condition: () async throws -> Bool) async rethrows
        -> Bool
    {
        let until = ContinuousClock.now + timeout
        while ContinuousClock.now < until {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    @Test("an edited file is reloaded once, after it held still; an untouched folder never")
    func edits() async throws {
        let folder = try TemporaryFolder("watch-edit")
        let catalog = folder.url.appendingPathComponent("Localizations/en.lproj")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        let strings = catalog.appendingPathComponent("Menu.strings")
        let menu = folder.url.appendingPathComponent("menu.json")
        try Data("\"pizza\" = \"pizza\";\n".utf8).write(to: strings)
        try Data("{}".utf8).write(to: menu)
        try await Self.watching(catalog: folder.url.appendingPathComponent("Localizations"), menu: menu) { reloads in
            try await Task.sleep(for: .milliseconds(300))
            #expect(reloads() == 0)
            try Data("\"pizza\" = \"pie\";\n".utf8).write(to: strings)
            #expect(await Self.eventually { reloads() == 1 })
            try Data("{\"items\": []}".utf8).write(to: menu)
            #expect(await Self.eventually { reloads() == 2 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(reloads() == 2)
        }
    }

    @Test("a ConfigMap update, an atomic swap of the ..data link, is seen through the links")
    func configMapSwap() async throws {
        let folder = try TemporaryFolder("watch-configmap")
        let files = FileManager.default
        // What the kubelet writes: ..<timestamp>/ with the files, ..data -> it, and each entry a
        // link through ..data.
        for version in ["..v1", "..v2"] {
            let lproj = folder.url.appendingPathComponent("\(version)/en.lproj")
            try files.createDirectory(at: lproj, withIntermediateDirectories: true)
            try Data("\"pizza\" = \"\(version)\";\n".utf8).write(to: lproj.appendingPathComponent("Menu.strings"))
        }
        try files.createSymbolicLink(atPath: folder.url.path + "/..data", withDestinationPath: "..v1")
        try files.createSymbolicLink(atPath: folder.url.path + "/en.lproj", withDestinationPath: "..data/en.lproj")
        let menu = folder.url.appendingPathComponent("..v1/menu.json")
        try await Self.watching(catalog: folder.url, menu: menu) { reloads in
            try await Task.sleep(for: .milliseconds(200))
            // The swap as the kubelet does it: a new link renamed over ..data.
            try files.createSymbolicLink(atPath: folder.url.path + "/..data_tmp", withDestinationPath: "..v2")
            #expect(rename(folder.url.path + "/..data_tmp", folder.url.path + "/..data") == 0)
            #expect(await Self.eventually { reloads() == 1 })
        }
    }

    @Test(
        "a running worker serves an edited catalog within seconds, and keeps it when the next edit is broken"
    )
    func runningWorker() async throws {
        let folder = try TemporaryFolder("watch-worker")
        let configuration = folder.url.appendingPathComponent("config")
        try FileManager.default.copyItem(at: ConfigurationDirectory.builtIn, to: configuration)
        let worker = try TestWorker(
            configuration: configuration,
            folder: folder.url,
            settings: [
                "input.kind=pull", "input.endpoints=@ipc://\(folder.url.path)/in",
                "output.endpoints=@ipc://\(folder.url.path)/out", "catalog_watch_ms=200",
            ]
        )
        defer { worker.kill() }
        _ = try worker.waitUntilServing()
        let context = try ZMQContext()
        defer { context.shutdown() }
        let client = try CaffeClient.RPCClient(endpoint: ">" + worker.rpcEndpoint, context: context)
        let order = TestOrders.order(4)  // en-US, large pizzas
        func summary() async throws -> String { try await client.renderOrder(order).confirmation.summary.plain }
        let before = try await summary()
        #expect(before.contains("pizza") && !before.contains("flatbread"))

        let strings = configuration.appendingPathComponent("Localizations/en.lproj/Menu.strings")
        let text = try String(contentsOf: strings, encoding: .utf8)
        try text.replacingOccurrences(of: "\"pizza\" = \"pizza\";", with: "\"pizza\" = \"flatbread\";")
            .write(to: strings, atomically: true, encoding: .utf8)
        let edited = ContinuousClock.now
        #expect(try await Self.eventually(.seconds(5)) { try await summary().contains("flatbread") })
        let served = ContinuousClock.now - edited
        #expect(served < .seconds(5))

        // A broken file: refused, counted and logged; the edited catalog keeps serving.
        try (text + "\n\"unterminated = ;\n").write(to: strings, atomically: true, encoding: .utf8)
        #expect(
            await Self.eventually { worker.stderr.contains("reload rejected; keeping the loaded catalog and menu") }
        )
        #expect(try await summary().contains("flatbread"))
        let address = try #require(HostAndPort(try worker.waitUntilServing()))
        let metrics = try #require(HTTPProbe.get(address, "/metrics"))
        #expect(metrics.body.contains("caffe_worker_reloads_total{result=\"loaded\"} 1"))
        #expect(metrics.body.contains("caffe_worker_reloads_total{result=\"rejected\"} 1"))
        #expect(worker.terminate() == 0)
        print("catalog edit served after \(served)")
    }
}
