// Caffe — simulator tests.
import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import Histogram
import SwiftProtobuf
import Synchronization
import Testing
import WorkerTestKit
import ZeroMQ

@testable import CaffeSimulator

@Suite("caffe-sim load and record", .serialized)
struct LoadTests {
    static let menu = Result {
        try Menu(contentsOf: CatalogBenchmarkTests.configuration.appendingPathComponent("menu.json"))
    }

    /// A fresh temporary folder for `ipc://` endpoints; the caller removes it.
    static func temporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A `caffe worker` process on the test configuration, pulling from `ipc://<folder>/in`, its
    /// checkpoint in `folder`, no metrics endpoint, with `settings` (output, RPC) added.
    static func startWorker(_ caffe: URL, in folder: URL, _ settings: [String]) throws -> ChildProcess {
        let common = [
            "input.kind=pull", "input.endpoints=>ipc://\(folder.path)/in", "metrics.address=",
            "checkpoint.path=\(folder.path)/checkpoint",
        ]
        let worker = ChildProcess(
            executable: caffe,
            arguments: WorkerCommandLine.arguments(
                configurationDirectory: CatalogBenchmarkTests.configuration,
                settings: common + settings
            ),
            log: folder.appendingPathComponent("worker.log")
        )
        try worker.start()
        return worker
    }

    /// A constant-rate order load binding PUSH `in` and PULL `out` in `folder`, without replay.
    static func ipcLoad(in folder: URL, rate: Double, count: Int, timeout: Double) throws -> LoadRun.Configuration {
        var configuration = LoadRun.Configuration()
        configuration.profile = .constant(rate: rate)
        configuration.count = count
        configuration.inputEndpoint = "@ipc://\(folder.path)/in"
        configuration.inputKind = "push"
        configuration.outputEndpoint = "@ipc://\(folder.path)/out"
        configuration.outputKind = "pull"
        configuration.timeout = timeout
        configuration.replayEndpoint = ""
        configuration.markets = try TestMarkets.mix()
        return configuration
    }

    /// A worker that misbehaves on purpose: no output for every 10th order, the confirmation twice
    /// for every 7th, a dead letter instead of outputs for every 13th.
    final class FaultyWorker: @unchecked Sendable {
        let handled = Atomic<Int>(0)
        private let running = Atomic<Bool>(true)
        private let done = DispatchSemaphore(value: 0)

        init(context: ZMQContext, input: String, output: String) throws {
            let pull = try context.socket(.pull)
            try pull.connect(input)
            let push = try context.socket(.push)
            try push.connect(output)
            let sockets = (pull, push)
            let box = UnsafeTransfer(sockets)
            Thread { [self] in
                let (pull, push) = box.value
                while running.load(ordering: .relaxed) {
                    guard let frames = try? pull.receiveMultipart(timeout: .milliseconds(20)),
                        let event = try? EventFrames(parsing: frames)
                    else { continue }
                    handled.add(1, ordering: .relaxed)
                    let sequence = event.header.sequence
                    func emit(_ topic: String) {
                        _ = try? push.send(
                            multipart: [topic, (try? event.header.serializedBytes()) ?? [], [UInt8]()]
                                as [any ZMQFrameRepresentable]
                        )
                    }
                    if sequence % 10 == 0 { continue }
                    if sequence % 13 == 0 {
                        emit(CaffeTopic.deadLetter)
                        continue
                    }
                    emit("confirmation.x")
                    if sequence % 7 == 0 { emit("confirmation.x") }
                    emit("receipt.x")
                }
                pull.close(linger: .zero)
                push.close(linger: .zero)
                done.signal()
            }.start()
        }

        func stop() {
            running.store(false, ordering: .relaxed)
            done.wait()
        }
    }

    struct UnsafeTransfer<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    @Test("lost, duplicates and dead letters are counted exactly against a worker that gets them wrong on purpose")
    func accountingAgainstAFaultyWorker() throws {
        let folder = try Self.temporaryFolder("load")
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try ZMQContext()
        defer { context.shutdown() }
        let configuration = try Self.ipcLoad(in: folder, rate: 2000, count: 910, timeout: 1)
        let worker = try FaultyWorker(
            context: context,
            input: "ipc://\(folder.path)/in",
            output: "ipc://\(folder.path)/out"
        )
        defer { worker.stop() }
        var lines: [String] = []
        let report = try LoadRun(configuration: configuration, menu: try Self.menu.get()).run(
            context: context,
            progress: { lines.append($0) }
        )

        // 1…910: multiples of 10 lost (91); of 13 and not 10 dead-lettered (70 - 7 = 63); of 7 and
        // of neither 10 nor 13 duplicated (130 - 13 - 10 + 1 = 108).
        let lost = (1...910).filter { $0 % 10 == 0 }.count
        let dead = (1...910).filter { $0 % 13 == 0 && $0 % 10 != 0 }.count
        let duplicated = (1...910).filter { $0 % 7 == 0 && $0 % 10 != 0 && $0 % 13 != 0 }.count
        #expect((lost, dead, duplicated) == (91, 63, 108))
        #expect(report.sent == 910)
        #expect(report.lost == lost)
        #expect(report.deadLettered == dead)
        #expect(report.duplicates == duplicated)
        #expect(report.received == 910 - lost - dead)
        #expect(report.unexpected == 0)
        #expect(report.perLocale.values.map(\.sent).reduce(0, +) == 910)
        #expect(report.targetRate > 1999 && report.targetRate < 2001)
        #expect(!lines.isEmpty && lines[0].contains("sent"))

        // The JSON has the documented keys; thresholds judge it.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        for key in [
            "sent", "received", "lost", "duplicates", "dead_lettered", "target_rate", "achieved_rate", "p50_ms",
            "p99_ms", "p999_ms", "max_ms",
        ] {
            #expect(json[key] != nil, "\(key)")
        }
        #expect(try LoadThresholds("lost==91, duplicates<=108, p99<60s").violations(of: report).isEmpty)
        #expect(
            try LoadThresholds("lost==0,dead_lettered<1").violations(of: report).map(\.text) == [
                "lost==0", "dead_lettered<1",
            ]
        )
        // The verdict names every reason; the thresholds are in the report with what they measured.
        var judged = report
        judged.judge(try LoadThresholds("lost==91,p99<60s,dead_lettered==0"))
        #expect(!judged.verdict.passed)
        #expect(
            judged.verdict.problems == [
                "threshold dead_lettered==0: 63", "lost 91", "dead-lettered 63",
            ]
        )
        #expect(judged.thresholds.map { $0.passed } == [true, true, false])
        #expect(judged.thresholds[0].line == "✓ lost==91 (measured 91)")
        #expect(judged.summary.hasPrefix("FAILED: threshold dead_lettered==0: 63; lost 91; dead-lettered 63\n"))
        let judgedJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(judged.json().utf8)) as? [String: Any]
        )
        let verdict = try #require(judgedJSON["verdict"] as? [String: Any])
        #expect(verdict["passed"] as? Bool == false)
        let listed = try #require(judgedJSON["thresholds"] as? [[String: Any]])
        #expect(listed.map { $0["condition"] as? String } == ["lost==91", "p99<60s", "dead_lettered==0"])
        #expect(listed.map { $0["passed"] as? Bool } == [true, true, false])
        let judgedHTML = judged.html
        #expect(judgedHTML.contains("<h2>FAILED</h2>") && !judgedHTML.contains("PASSED"))
        #expect(judgedHTML.contains("<li>threshold dead_lettered==0: 63</li>"))
        #expect(judgedHTML.contains("✗</td><td class=\"mono\">dead_lettered==0</td><td>measured 63</td>"))
        // One CSV row per second, and every sent message in them.
        let rows = report.csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.first?.map(String.init) == LoadReport.csvColumns)
        #expect(rows.count == report.throughput.count + 1)
        let sentPerRow: [Int] = rows.dropFirst().map { row in Int(row[2]) ?? -1 }
        #expect(sentPerRow.reduce(0, +) == 910)
        #expect(rows.dropFirst().allSatisfy { $0.count == LoadReport.csvColumns.count })
        #expect(throws: LoadError.self) { try LoadThresholds("p98<3ms") }
        #expect(throws: LoadError.self) { try LoadThresholds("p99 about 3ms") }
        let html = report.html
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<svg") && !html.contains("<script"))
        #expect(html.contains("Latency over time") && html.contains("Latency by percentile"))
        #expect(html.contains("Rate per second") && html.contains("Errors per second"))
        #expect(html.contains("Latency per locale"))
        // Per second: everything sent is accounted, dead letters are where they happened.
        #expect(report.throughput.map(\.sent).reduce(0, +) == 910)
        #expect(report.throughput.map(\.deadLettered).reduce(0, +) == dead)
        #expect(report.throughput.map(\.completed).reduce(0, +) == 910 - lost - dead)
        #expect(report.localeLatency.map(\.count).reduce(0, +) == 910 - lost - dead)
    }

    @Test("a run with nothing wrong passes; error statuses and interruption fail it")
    func verdicts() {
        var books = LoadAccounting()
        for sequence in 1...4 {
            books.sent(UInt64(sequence), intended: Double(sequence) * 0.1, locale: "en-US", expected: 1)
        }
        books.reply(1, code: "OK", at: 0.2)
        books.reply(2, code: "OK", at: 0.3)
        var configuration = LoadRun.Configuration()
        configuration.traffic = .rpc
        configuration.profile = nil
        var failed = LoadReport(
            configuration: configuration,
            books: books,
            targetRate: 0,
            sendSeconds: 0.4,
            seconds: 0.5,
            replayRequests: 0
        )
        #expect(failed.verdict.problems == ["lost 2"])
        books.reply(3, code: "RESOURCE_EXHAUSTED", at: 0.4)
        books.reply(4, code: "RESOURCE_EXHAUSTED", at: 0.4)
        failed = LoadReport(
            configuration: configuration,
            books: books,
            targetRate: 0,
            sendSeconds: 0.4,
            seconds: 0.5,
            replayRequests: 0
        )
        #expect(failed.verdict == .init(passed: false, problems: ["error statuses 2 (RESOURCE_EXHAUSTED 2)"]))
        #expect(failed.html.contains("<h2>FAILED</h2>"))

        var clean = LoadAccounting()
        clean.sent(1, intended: 0, locale: "en-US", expected: 1)
        clean.output(1, kind: "reply", at: 0.001)
        var details = LoadReport.RunDetails()
        details.command = "caffe-sim load --rate 1"
        let passed = LoadReport(
            configuration: configuration,
            books: clean,
            targetRate: 1,
            sendSeconds: 0,
            seconds: 0.001,
            replayRequests: 0,
            run: details
        )
        #expect(passed.verdict == .init(passed: true, problems: []))
        #expect(passed.summary.hasPrefix("PASSED\n"))
        #expect(passed.html.contains("<h2>PASSED</h2>") && passed.html.contains("caffe-sim load --rate 1"))
        details.interrupted = true
        let stopped = LoadReport(
            configuration: configuration,
            books: clean,
            targetRate: 1,
            sendSeconds: 0,
            seconds: 0.001,
            replayRequests: 0,
            run: details
        )
        #expect(stopped.verdict.problems == ["interrupted after 0.0 s"])
    }

    @Test("charts: one or two points are dots, not a line; an empty chart says so")
    func chartShapes() {
        let two = LoadReport.lineChart(
            title: "t",
            yUnit: "/s",
            series: [.init("sent", "#000", [(0, 10), (1, 12)])]
        )
        #expect(!two.contains("<polyline") && two.components(separatedBy: "<circle").count == 3)
        let many = LoadReport.lineChart(
            title: "t",
            yUnit: "/s",
            series: [.init("sent", "#000", (0..<60).map { (Double($0), 5) })]
        )
        #expect(many.contains("<polyline") && !many.contains("<circle"))
        let empty = LoadReport.lineChart(title: "t", yUnit: "%", series: [.init("cpu", "#000", [])])
        #expect(empty.contains(">no data</text>") && !empty.contains("<polyline"))
        // Charts scale to the page's width.
        #expect(many.contains("viewBox=\"0 0 1400 300\""))
    }

    @Test("command lines are recorded as a shell would read them back")
    func commandLines() {
        #expect(
            CommandLineText.quoted(["caffe-sim", "load", "--input", ">tcp://h:1", "--replay-endpoint", "", "a'b"])
                == #"caffe-sim load --input '>tcp://h:1' --replay-endpoint '' 'a'\''b'"#
        )
    }

    @Test("axes tick at round numbers")
    func niceTicks() {
        #expect(LoadReport.niceTicks(upTo: 3404) == [0, 1000, 2000, 3000, 4000])
        #expect(LoadReport.niceTicks(upTo: 11.4) == [0, 5, 10, 15])
        #expect(LoadReport.niceTicks(upTo: 0.37) == [0, 0.1, 0.2, 0.30000000000000004, 0.4])
        #expect(LoadReport.niceTicks(upTo: 1).map(LoadReport.tickLabel) == ["0", "0.2", "0.4", "0.6", "0.8", "1"])
        #expect(LoadReport.niceTicks(upTo: 0.37).map(LoadReport.tickLabel) == ["0", "0.1", "0.2", "0.3", "0.4"])
        // Tiny axes keep their digits (an empty CPU axis once read 0.001 0.001 0.001 0. 0.).
        #expect(
            LoadReport.niceTicks(upTo: 0.001).map(LoadReport.tickLabel) == [
                "0", "0.0002", "0.0004", "0.0006", "0.0008", "0.001",
            ]
        )
    }

    @Test("with no worker taking messages, load gives up after the timeout with a clear error")
    func noWorker() throws {
        let folder = try Self.temporaryFolder("load")
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try ZMQContext()
        defer { context.shutdown() }
        let configuration = try Self.ipcLoad(in: folder, rate: 1000, count: 100, timeout: 0.5)
        let started = ContinuousClock.now
        #expect {
            _ = try LoadRun(configuration: configuration, menu: try Self.menu.get()).run(context: context)
        } throws: { error in
            "\(error)" == "nothing could be sent to @ipc://\(folder.path)/in for 0.5 s: is a worker connected?"
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("warm-up messages count but stay out of the latency figures")
    func warmup() {
        var books = LoadAccounting(warmup: 1)
        books.sent(1, intended: 0.5, locale: "en-US", expected: 1)
        books.sent(2, intended: 1.5, locale: "en-US", expected: 1)
        books.output(1, kind: "complication", at: 0.9)
        books.output(2, kind: "complication", at: 1.502)
        #expect(books.received == 2 && books.latency.totalCount == 1)
        #expect(books.latency.max >= 1999 && books.latency.max <= 2001)
    }

    @Test("profiles: constant, ramp and steps give the intended send times")
    func profiles() throws {
        let constant = try #require(LoadProfile("constant:4"))
        #expect(constant.offsets(count: 5) == [0, 0.25, 0.5, 0.75, 1])
        #expect(constant.offsets(count: 100, duration: 1) == [0, 0.25, 0.5, 0.75])
        let steps = try #require(LoadProfile("step:2x1,4x1"))
        #expect(steps.offsets(count: 6) == [0, 0.5, 1, 1.25, 1.5, 1.75])
        let ramp = try #require(LoadProfile("ramp:10-1000:2"))
        let offsets = ramp.offsets(count: 100_000, duration: 2)
        // The integral of the rate over 2 s is (10 + 1000) / 2 × 2 = 1010 messages.
        #expect(abs(offsets.count - 1010) <= 10, "\(offsets.count)")
        #expect(LoadProfile("ramp:10:2") == nil && LoadProfile("constant:-1") == nil && LoadProfile("step:") == nil)
    }

    @Test(
        "a duration or a profile's own seconds run their whole time; a count is an upper bound, said when it ends the run"
    )
    func bounds() throws {
        let constant = try #require(LoadProfile("constant:2000"))
        // `--rate 2000 --duration 20` sends for 20 s: no default count cuts it short.
        #expect(constant.bounds(count: nil, duration: 20) == (Int.max, 20, false))
        #expect(constant.offsets(count: Int.max, duration: 20).count == 40_000)
        // A count that fits changes nothing; one that does not ends the run first, and says so.
        #expect(constant.bounds(count: 40_000, duration: 20) == (40_000, 20, false))
        #expect(constant.bounds(count: 10_000, duration: 20) == (10_000, 20, true))
        // A constant rate given neither sends the default count.
        #expect(constant.bounds(count: nil, duration: nil) == (10_000, nil, false))
        // `--profile ramp:1000-20000:30` lasts its 30 s.
        let ramp = try #require(LoadProfile("ramp:1000-20000:30"))
        #expect(ramp.seconds == 30 && ramp.bounds(count: nil, duration: nil) == (Int.max, 30, false))
        #expect(try #require(LoadProfile("step:2x1,4x3")).seconds == 4)
    }

    @Test("record captures a live stream into a journal that replays the same frames")
    func record() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString).journal")
        defer { try? FileManager.default.removeItem(at: url) }
        let context = try ZMQContext()
        defer { context.shutdown() }
        let publisher = try context.socket(.xpub)
        let endpoint = try publisher.bind("tcp://127.0.0.1:*")
        let subscriber = try context.socket(.sub)
        try subscriber.subscribe("order.")
        try subscriber.connect(endpoint)
        _ = try #require(try publisher.receive(timeout: .seconds(5)))  // the subscription
        var generator = try OrderGenerator(menu: try Self.menu.get(), configuration: .init(markets: TestMarkets.mix()))
        let orders = generator.next(25)
        for order in orders {
            try publisher.send(
                multipart: try EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: EventFrames.header(for: order),
                    body: order
                )
            )
        }
        // Not subscribed to: not recorded.
        try publisher.send(multipart: ["complication-request.u", "x", "y"] as [any ZMQFrameRepresentable])
        var header = Caffe_V1_JournalHeader()
        header.origin = "test"
        let recorded = try StreamRecorder(subscriber: subscriber).record(
            to: url,
            header: header,
            count: 25,
            duration: 10
        )
        #expect(recorded == 25)
        let contents = try Journal.read(url)
        #expect(contents.error == nil && contents.header.origin == "test")
        let replayed = try contents.entries.map { try Caffe_V1_OrderEvent(serializedBytes: $0.record.body) }
        #expect(replayed == orders)
        let times = contents.entries.map(\.record.capturedAt.date)
        #expect(times == times.sorted())
        subscriber.close(linger: .zero)
    }

    @Test("an acknowledged-output load acknowledges its last deliveries: the worker drains and exits 0")
    func ackedLoadLeavesNothingHeld() throws {
        let caffe = try #require(ExecutableRunner.locate("caffe"))
        let simulator = try #require(ExecutableRunner.locate("caffe-sim"))
        let folder = try Self.temporaryFolder("load-acked")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = CatalogBenchmarkTests.configuration
        let worker = try Self.startWorker(
            caffe,
            in: folder,
            [
                "output.kind=acked", "output.endpoints=@ipc://\(folder.path)/out", "rpc.endpoint=",
                "shutdown.drain_timeout_ms=5000",
            ]
        )
        // 301 orders, 602 deliveries: not a multiple of a quarter window (250).
        let load = try ExecutableRunner.run(
            simulator,
            [
                "load", "--config", configuration.path, "--input", "@ipc://\(folder.path)/in", "--input-kind", "push",
                "--output", ">ipc://\(folder.path)/out", "--output-kind", "acked", "--count", "301", "--rate", "1000",
                "--format", "json",
            ]
        )
        #expect(load.status == 0, "\(load.standardError)")
        #expect(worker.stop() == 0)
    }

    @Test("caffe-sim finds its configuration as caffe does: from any folder, the built-in one")
    func configurationFromAnywhere() throws {
        let simulator = try #require(ExecutableRunner.locate("caffe-sim"))
        let folder = try Self.temporaryFolder("config-rule")
        defer { try? FileManager.default.removeItem(at: folder) }
        let generated = try ChildProcess.run(
            simulator,
            ["generate", "-o", "o.journal", "--orders", "3"],
            workingDirectory: folder,
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "CAFFE_CONFIG" }
        )
        #expect(generated.status == 0, "\(generated.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("o.journal").path))
    }

    @Test("caffe-sim replay with nobody subscribed says so and exits 3")
    func replayToNobody() throws {
        let simulator = try #require(ExecutableRunner.locate("caffe-sim"))
        let folder = try Self.temporaryFolder("replay-nobody")
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("o.journal").path
        let configuration = CatalogBenchmarkTests.configuration.path
        let generated = try ExecutableRunner.run(
            simulator,
            ["generate", "-o", journal, "--orders", "3", "--config", configuration]
        )
        #expect(generated.status == 0, "\(generated.standardError)")
        let replay = try ExecutableRunner.run(
            simulator,
            [
                "replay", journal, "--speed", "max", "--endpoint", "@ipc://\(folder.path)/in",
                "--replay-endpoint", "ipc://\(folder.path)/replay",
            ]
        )
        #expect(replay.status == 3)
        #expect(
            replay.standardOutput.contains("replay endpoint: ipc://\(folder.path)/replay, 0 requests, 0 events served")
        )
        #expect(replay.standardError.contains("caffe-sim replay: nobody subscribed: the 3 records went nowhere"))
        // A selection that holds nothing says what the journal holds.
        let empty = try ExecutableRunner.run(
            simulator,
            ["replay", journal, "--from-time", "2030-01-01T00:00:00Z", "--dry-run"]
        )
        #expect(empty.status == 1)
        #expect(
            empty.standardError.hasPrefix(
                "caffe-sim replay: nothing selected in \(journal): its 3 records were captured from "
            )
        )
    }

    @Test("caffe-sim load against a real worker: all received; a threshold it violates exits 2")
    func thresholdsAgainstAWorker() throws {
        let caffe = try #require(ExecutableRunner.locate("caffe"))
        let simulator = try #require(ExecutableRunner.locate("caffe-sim"))
        let folder = try Self.temporaryFolder("load-e2e")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = CatalogBenchmarkTests.configuration
        let worker = try Self.startWorker(
            caffe,
            in: folder,
            [
                "output.kind=push", "output.endpoints=>ipc://\(folder.path)/out",
                "rpc.endpoint=@ipc://\(folder.path)/rpc",
            ]
        )
        defer { worker.stop() }
        let common = [
            "load", "--config", configuration.path, "--input", "@ipc://\(folder.path)/in", "--input-kind", "push",
            "--output", "@ipc://\(folder.path)/out", "--output-kind", "pull", "--count", "300", "--rate", "1000",
            "--format", "json",
        ]
        let passing = try ExecutableRunner.run(
            simulator,
            common + ["--threshold", "lost==0,duplicates==0,received==300"]
        )
        #expect(passing.status == 0, "\(passing.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(passing.standardOutput.utf8)) as? [String: Any]
        )
        #expect(report["sent"] as? Int == 300 && report["received"] as? Int == 300 && report["lost"] as? Int == 0)
        #expect((report["verdict"] as? [String: Any])?["passed"] as? Bool == true)
        let failing = try ExecutableRunner.run(simulator, common + ["--threshold", "p99<0.001us"])
        #expect(failing.status == 2)
        #expect(failing.standardError.contains("threshold violated: p99<0.001us"))
        let failed = try #require(
            try JSONSerialization.jsonObject(with: Data(failing.standardOutput.utf8)) as? [String: Any]
        )
        let verdict = try #require(failed["verdict"] as? [String: Any])
        #expect(verdict["passed"] as? Bool == false)
        #expect((verdict["problems"] as? [String])?.first?.hasPrefix("threshold p99<0.001us: ") == true)
        let unknown = try ExecutableRunner.run(simulator, common + ["--format", "xml"])
        #expect(unknown.status == 64 && unknown.standardError.contains("'xml' is not text, json, html or csv"))

        // Ctrl-C: the summary and the report of what ran, exit 130.
        let reportFile = folder.appendingPathComponent("interrupted.json")
        let interrupted = ChildProcess(
            executable: simulator,
            arguments: common.filter { $0 != "300" && $0 != "--count" }
                + ["--duration", "30", "--report-file", reportFile.path],
            log: folder.appendingPathComponent("interrupted.log")
        )
        try interrupted.start()
        Thread.sleep(forTimeInterval: 2)
        #expect(interrupted.stop(SIGINT, timeout: 30) == 130)
        let said = interrupted.logText
        #expect(said.contains("FAILED: interrupted after "), "\(said)")
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: reportFile)) as? [String: Any]
        )
        #expect((written["run"] as? [String: Any])?["interrupted"] as? Bool == true)
        #expect((written["sent"] as? Int ?? 0) > 0 && (written["sent"] as? Int ?? 0) < 30_000)
        let rpc = try ExecutableRunner.run(
            simulator,
            [
                "load", "--config", configuration.path, "--traffic", "rpc", "--rpc", ">ipc://\(folder.path)/rpc",
                "--concurrency", "4", "--count", "100", "--format", "json", "--threshold", "received==100",
            ]
        )
        #expect(rpc.status == 0, "\(rpc.standardError)")
        #expect(rpc.standardOutput.contains(#""status_codes":{"OK":100}"#))
    }
}
