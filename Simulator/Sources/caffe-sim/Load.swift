import ArgumentParser
import CaffeCore
import CaffeProtocol
import CaffeSimulator
import Foundation
import SwiftProtobuf
import ZeroMQ

/// `caffe-sim load`: traffic against a running worker, with a report and thresholds.
struct Load: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send orders, complication requests or RPC calls to a running worker and report what came back.",
        discussion: """
            Open loop by default (--rate, or --profile ramp:100-5000:30 / step:1000x10,2000x10); \
            --concurrency N makes it closed loop. Latency runs from each message's intended send \
            time. Defaults match the default worker: events PUB @tcp://127.0.0.1:5560, outputs \
            SUB >tcp://127.0.0.1:5561, RPC >tcp://127.0.0.1:5562. The report's first line is its \
            verdict: FAILED when a threshold fails or anything was lost, left unsent, dead-lettered or \
            answered with an error status. Exit status 2 when a --threshold is violated; 130 after \
            Ctrl-C, which stops sending, prints the summary and writes the report of what ran.
            """
    )

    @Option(help: "orders, complications or rpc.")
    var traffic = "orders"

    @Option(help: "Messages per second (open loop, constant).")
    var rate: Double?

    @Option(help: "constant:R, ramp:FROM-TO:SECONDS or step:RxS,RxS (open loop).")
    var profile: String?

    @Option(help: "Messages in flight (closed loop) instead of a rate.")
    var concurrency: Int?

    @Option(help: "At most this many messages (an upper bound; 10000 for a constant rate without --duration).")
    var count: Int?

    @Option(help: "Seconds of sending (open loop); a ramp or step profile lasts its own seconds.")
    var duration: Double?

    @Option(help: "Seconds at the start left out of the latency figures (losses still count).")
    var warmup = 0.0

    @Option(help: "Where events go (@ binds, > connects).")
    var input = "@tcp://127.0.0.1:5560"

    @Option(help: "pub or push.")
    var inputKind = "pub"

    @Option(help: "Where outputs come from.")
    var output = ">tcp://127.0.0.1:5561"

    @Option(help: "sub, pull, or acked (a DEALER acknowledging the worker's acknowledged output).")
    var outputKind = "sub"

    @Option(help: "The window granted to the worker (--output-kind acked).")
    var window: UInt32 = 1000

    @Option(help: "A process (the worker) whose CPU and memory the report follows, with its children.")
    var watchPid: Int32?

    @Option(help: "The worker's RPC endpoint (--traffic rpc).")
    var rpc = ">tcp://127.0.0.1:5562"

    @Option(help: "Seconds after the last send before what has not come back counts as lost.")
    var timeout = 5.0

    @OptionGroup var markets: MarketOptions

    @OptionGroup var seed: SeedOptions

    @Option(help: "Where to serve caffe.v1.Replay/Fetch from what was sent; empty: not served.")
    var replayEndpoint = "tcp://127.0.0.1:*"

    @Option(help: "text, json, html or csv (one row per second).")
    var format = "text"

    @Option(help: "Write the report here instead of standard output.")
    var reportFile: String?

    @Option(help: "Conditions such as 'p99<10ms,lost==0'; exit status 2 when one is violated.")
    var threshold: String?

    @OptionGroup var config: ConfigurationOptions

    func validate() throws {
        guard ["text", "json", "html", "csv"].contains(format) else {
            throw ValidationError("--format: '\(format)' is not text, json, html or csv")
        }
    }

    func run() throws {
        var configuration = LoadRun.Configuration()
        configuration.details.command = CommandLineText.current(as: "caffe-sim")
        configuration.details.version = CaffeVersion.current
        guard let kind = LoadRun.Traffic(rawValue: traffic) else {
            throw ValidationError("--traffic: '\(traffic)' is not orders, complications or rpc")
        }
        configuration.traffic = kind
        if let concurrency {
            configuration.profile = nil
            configuration.concurrency = max(1, concurrency)
        } else if let profile {
            guard let parsed = LoadProfile(profile) else {
                throw ValidationError("--profile: '\(profile)' is not constant:R, ramp:FROM-TO:SECONDS or step:RxS,…")
            }
            configuration.profile = parsed
        } else {
            configuration.profile = .constant(rate: rate ?? 1000)
        }
        if let profile = configuration.profile {
            let bounds = profile.bounds(count: count, duration: duration)
            configuration.count = bounds.count
            configuration.duration = bounds.duration
            if bounds.countEndsFirst, let seconds = bounds.duration {
                let note = "--count \(bounds.count) ends the run before its \(seconds) s of sending"
                configuration.details.note = note
                FileHandle.standardError.write(Data("note: \(note)\n".utf8))
            }
        } else {
            configuration.count = count ?? 10_000
            configuration.duration = duration
        }
        configuration.inputEndpoint = input
        configuration.inputKind = inputKind
        configuration.outputEndpoint = output
        configuration.outputKind = outputKind
        configuration.window = window
        configuration.watchProcess = watchPid
        configuration.rpcEndpoint = rpc
        configuration.timeout = timeout
        configuration.warmup = warmup
        configuration.seed = seed.seed
        configuration.markets = try markets.mix(in: config.directory).mix
        configuration.replayEndpoint = replayEndpoint
        let thresholds = try threshold.map { text in
            do { return try LoadThresholds(text) } catch { throw ValidationError("--threshold: \(error)") }
        }
        let menu = try Menu(contentsOf: config.directory.appendingPathComponent("menu.json"))
        let context = try ZMQContext()
        defer { context.shutdown() }
        let live = isatty(STDERR_FILENO) != 0
        let stop = StopSignal()
        var report = try LoadRun(configuration: configuration, menu: menu).run(
            context: context,
            stop: { stop.requested }
        ) { line in
            // On a terminal the line is rewritten in place (erasing what a longer one left).
            FileHandle.standardError.write(Data((live ? "\r\u{1B}[K" + line : line + "\n").utf8))
        }
        if live { FileHandle.standardError.write(Data("\n".utf8)) }
        report.judge(thresholds)
        let text: String
        switch format {
        case "json": text = try report.json()
        case "html": text = report.html
        case "csv": text = report.csv
        default: text = report.summary
        }
        if let reportFile {
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: reportFile))
            // The report went to a file: the summary still reaches the person who ran it.
            FileHandle.standardError.write(Data("\(report.summary)\nreport written to \(reportFile)\n".utf8))
        } else {
            print(text)
        }
        let violated = report.thresholds.filter { !$0.passed }
        if !violated.isEmpty {
            FileHandle.standardError.write(
                Data("threshold violated: \(violated.map(\.condition).joined(separator: ", "))\n".utf8)
            )
        }
        if report.run.interrupted { throw ExitCode(130) }
        if !violated.isEmpty { throw ExitCode(2) }
    }
}

/// `caffe-sim record`: a live stream captured into a journal.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Capture a live event stream (a SUB, or a proxy's capture socket) into a journal."
    )

    @Option(help: "Where to subscribe (> connects, @ binds): a publisher or caffe proxy --capture.")
    var from = ">tcp://127.0.0.1:5560"

    @Option(help: "Topic prefixes to record (comma-separated).")
    var topics = "order.,complication-request."

    @Option(name: .shortAndLong, help: "The journal to write.")
    var output: String

    @Option(help: "Stop after this many events.")
    var count: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func run() throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let subscriber = try context.socket(.sub)
        for topic in topics.split(separator: ",") { try subscriber.subscribe(String(topic)) }
        try LoadRun.attach(subscriber, from)
        var header = Caffe_V1_JournalHeader()
        header.createdAt = Google_Protobuf_Timestamp(date: Date())
        header.origin = CommandLineText.current(as: "caffe-sim")
        let stop = StopSignal()
        let recorder = StreamRecorder(subscriber: subscriber)
        let live = isatty(STDERR_FILENO) != 0
        let started = Date()
        let recorded = try recorder.record(
            to: URL(fileURLWithPath: output),
            header: header,
            count: count,
            duration: duration,
            stop: { stop.requested }
        ) { events, seconds in
            guard live else { return }
            let rate = seconds > 0 ? Double(events) / seconds : 0
            FileHandle.standardError.write(
                Data(String(format: "\r\u{1B}[K%5.0fs  %d events recorded (%.0f/s)", seconds, events, rate).utf8)
            )
        }
        if live { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let seconds = Date().timeIntervalSince(started)
        let ending =
            stop.requested ? "stopped by a signal" : recorded == count ? "--count reached" : "--duration reached"
        FileHandle.standardError.write(
            Data(
                "caffe-sim record: \(recorded) events written to \(output) in \(String(format: "%.1f", seconds)) s (\(ending))\n"
                    .utf8
            )
        )
        subscriber.close(linger: .zero)
    }
}
