import ArgumentParser
import CaffeClient
import CaffeCore
import CaffeProtocol
import CaffeSimulator
import CaffeTransport
import Foundation
import SwiftProtobuf
import WorkerTestKit
import ZeroMQ

/// `caffe-sim generate`: a deterministic synthetic order journal.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a deterministic synthetic order stream (a journal) from the menu."
    )

    @Option(name: .shortAndLong, help: "The journal to write.")
    var output: String

    @Option(help: "Orders to generate.")
    var orders = 10_000

    @OptionGroup var seed: SeedOptions

    @OptionGroup var markets: MarketOptions

    @Option(help: "Mean orders per second of capture time.")
    var rate = 100.0

    @Option(help: "The source id the orders carry.")
    var source = "sim-1"

    @OptionGroup var config: ConfigurationOptions

    func validate() throws {
        guard orders >= 1, rate > 0 else { throw ValidationError("--orders and --rate must be positive") }
    }

    func run() throws {
        let folder = config.directory
        let menuURL = folder.appendingPathComponent("menu.json")
        let menu = try Menu(contentsOf: menuURL)
        let (directory, mix) = try markets.mix(in: folder)
        let generator = JournalGenerator(
            configuration: .init(seed: seed.seed, orders: orders, sourceID: source, markets: mix, rate: rate)
        )
        let written = try generator.write(
            to: URL(fileURLWithPath: output),
            menu: menu,
            menuURL: menuURL,
            catalogURL: folder.appendingPathComponent("Localizations"),
            origin: CommandLineText.current(as: "caffe-sim")
        )
        FileHandle.standardError.write(
            Data(
                ("caffe-sim generate: \(written) orders written to \(output)\n"
                    + Self.coverage(mix, of: directory)).utf8
            )
        )
    }
}

extension Generate {
    /// Which markets the traffic went to, of how many configured, and the localizations it cannot
    /// reach: `markets: en-US, … (7 of 10 configured; --locales all for every one)`.
    static func coverage(_ mix: [(market: Market, weight: Int)], of directory: MarketDirectory) -> String {
        let used = mix.filter { $0.weight > 0 }.map(\.market.locale)
        var text = "markets: \(used.joined(separator: ", ")) (\(used.count) of \(directory.markets.count) configured"
        text += used.count < directory.markets.count ? "; --locales all for every one)\n" : ")\n"
        if !directory.localizationsWithoutMarket.isEmpty {
            text +=
                "note: no market is rendered in "
                + directory.localizationsWithoutMarket.joined(separator: ", ")
                + ": no traffic reaches it (add a store with its locale to menu.json)\n"
        }
        return text
    }
}

/// `caffe-sim journal cat|stats|export`.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Read a journal: list its records, count them, or export them as JSON lines.",
        subcommands: [Cat.self, Stats.self, Export.self]
    )

    /// Reads the journal; a damaged tail is reported on standard error after what could be read.
    static func open(_ path: String) throws -> Journal.Contents {
        do {
            return try Journal.read(URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("\(path): \(error)")
        }
    }

    /// Exit status 1 after the output when the journal was damaged.
    static func finish(_ contents: Journal.Contents, _ path: String) throws {
        guard let error = contents.error else { return }
        FileHandle.standardError.write(Data("caffe-sim journal: \(path): \(error)\n".utf8))
        throw ExitCode(1)
    }

    struct Cat: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One line per record: offset, capture time, topic, source#sequence, order, locale, lines."
        )
        @Argument var journal: String

        func run() throws {
            let contents = try JournalCommand.open(journal)
            for entry in contents.entries { print(JournalInspection.line(entry)) }
            try JournalCommand.finish(contents, journal)
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Header, counts per topic and locale, sources and spans (JSON)."
        )
        @Argument var journal: String

        func run() throws {
            let contents = try JournalCommand.open(journal)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(JournalInspection.stats(contents)), as: UTF8.self))
            try JournalCommand.finish(contents, journal)
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every record as one JSON object per line.")
        @Argument var journal: String
        @Flag(help: "JSON lines (the only format so far).") var jsonl = false

        func run() throws {
            let contents = try JournalCommand.open(journal)
            for entry in contents.entries { print(try JournalInspection.jsonLine(entry)) }
            try JournalCommand.finish(contents, journal)
        }
    }
}

/// `caffe-sim replay`: a journal sent at its recorded pace (or faster), serving the replay endpoint.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a journal's events at their recorded pace, or faster, and serve caffe.v1.Replay/Fetch.",
        discussion: """
            Pacing is anchored to the start: each record leaves at its offset from the first, so a \
            late send does not delay the rest. Later --loop passes get new order ids (#2, #3 …) \
            and sequences. The replay endpoint answers workers' gap requests from the journal. \
            After the last record it stays, heartbeating, until the workers have caught up (the \
            endpoint went quiet with heartbeats going out) or --linger-limit passed; it says so \
            either way, and exits 3 when it could not confirm the catch-up or nobody subscribed.
            """
    )

    @Argument(help: "The journal to send.")
    var journal: String

    @Option(help: "Where to send: @ binds, > connects (the worker's default input connects to tcp://127.0.0.1:5560).")
    var endpoint = "@tcp://127.0.0.1:5560"

    @Option(help: "pub or push.")
    var socket = "pub"

    @Option(help: "1x, 10x, 0.5x or max.")
    var speed = "1x"

    @Option(help: "Passes over the selection.")
    var loop = 1

    @Option(help: "The longest pause kept between records, in seconds (before --speed).")
    var maxGap: Double?

    @Option(help: "Only records captured at or after this ISO 8601 time.")
    var fromTime: String?

    @Option(help: "Only records captured before this ISO 8601 time.")
    var toTime: String?

    @Option(help: "Only records from this byte offset on (journal cat shows offsets).")
    var fromOffset: Int?

    @Option(help: "Where to serve caffe.v1.Replay/Fetch (announced in every event); empty: not served.")
    var replayEndpoint = "tcp://127.0.0.1:5563"

    @Option(help: "Send a heartbeat per source after this many seconds without an event (0: none).")
    var heartbeat = 0.5

    @Option(help: "After the last record: 'auto' (until the workers caught up) or seconds to stay, serving.")
    var linger = "auto"

    @Option(help: "The longest --linger auto waits for the workers to catch up, in seconds.")
    var lingerLimit = 30.0

    @Flag(help: "Count what would be sent and how long it would take; send nothing.")
    var dryRun = false

    @Flag(help: "Send the records before a damaged part of the journal rather than refusing it.")
    var acceptDamage = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard linger == "auto" || (Double(linger) ?? -1) >= 0 else {
            throw ValidationError("--linger: '\(linger)' is not auto or a number of seconds")
        }
        guard heartbeat >= 0, lingerLimit >= 0 else {
            throw ValidationError("--heartbeat and --linger-limit take seconds, 0 or more")
        }
    }

    func run() throws {
        let contents = try JournalCommand.open(journal)
        if let error = contents.error {
            guard acceptDamage else {
                FileHandle.standardError.write(
                    Data(
                        ("caffe-sim replay: \(journal): \(error); nothing sent (--accept-damage sends the "
                            + "\(contents.entries.count) records before the damage)\n").utf8
                    )
                )
                throw ExitCode(1)
            }
            FileHandle.standardError.write(
                Data(
                    "caffe-sim replay: \(journal): \(error); sending the \(contents.entries.count) records before it\n"
                        .utf8
                )
            )
        }
        var options = ReplayPlan.Options()
        guard let pace = ReplayPlan.Speed(speed) else {
            throw ValidationError("--speed: '\(speed)' is not 1x, 10x, 0.5x or max")
        }
        options.speed = pace
        options.loops = max(1, loop)
        options.maxGap = maxGap.map { .milliseconds(Int64($0 * 1000)) }
        options.fromTime = try fromTime.map(Self.date)
        options.toTime = try toTime.map(Self.date)
        options.fromOffset = fromOffset
        let plan = ReplayPlan(entries: contents.entries, options: options)
        if plan.steps.isEmpty {
            // Nothing to send is never what was meant: say what the journal holds instead.
            let times = contents.entries.map(\.record.capturedAt.date)
            let span =
                times.min().map { "its \(times.count) records were captured from \($0.formatted(.iso8601)) to " }
                .map { $0 + (times.max() ?? Date()).formatted(.iso8601) } ?? "it holds no records"
            FileHandle.standardError.write(Data("caffe-sim replay: nothing selected in \(journal): \(span)\n".utf8))
            throw ExitCode(1)
        }
        if dryRun {
            let seconds =
                Double(plan.expectedDuration.components.seconds) + Double(plan.expectedDuration.components.attoseconds)
                / 1e18
            print(
                json
                    ? "{\"records\":\(plan.steps.count),\"expected_seconds\":\(seconds)}"
                    : "\(plan.steps.count) records, \(String(format: "%.3f", seconds)) s at \(pace)"
            )
            return
        }
        let context = try ZMQContext()
        defer { context.shutdown() }
        // An XPUB rather than a PUB: the same to subscribers, and it sees who subscribed.
        let sender = try context.socket(socket == "push" ? .push : .xpub)
        try sender.attach(endpoint, defaultMode: .bind)
        let server = try replayEndpoint.isEmpty ? nil : ReplayServer(context: context, endpoint: replayEndpoint)
        server?.start()
        defer { server?.stop() }
        // Every journal order can be replayed, not only the selection.
        if let server {
            for entry in contents.entries where entry.record.topic.hasPrefix("order.") {
                if let order = try? Caffe_V1_OrderEvent(serializedBytes: entry.record.body) { server.remember(order) }
            }
        }
        // Subscribers need a moment to connect before a PUB sends.
        if socket != "push" { Thread.sleep(forTimeInterval: 0.5) }
        var player = JournalPlayer(plan: plan, entries: contents.entries)
        if let server { player.metadata = ["replay_endpoint": server.endpoint] }
        if heartbeat > 0 { player.heartbeatInterval = .milliseconds(Int64(heartbeat * 1000)) }
        if let seconds = Double(linger) {
            player.linger = .fixed(.milliseconds(Int64(seconds * 1000)))
        } else {
            // Two heartbeats with no request after them: the workers asked for nothing more.
            let quiet = max(1, 2 * heartbeat)
            player.linger = .untilCaughtUp(
                quiet: .milliseconds(Int64(quiet * 1000)),
                limit: .milliseconds(Int64(max(quiet, lingerLimit) * 1000))
            )
        }
        let live = isatty(STDERR_FILENO) != 0
        let report = try player.play(on: sender, server: server) { progress in
            guard live else { return }
            let share = progress.total > 0 ? 100 * progress.sent / progress.total : 100
            let line =
                progress.lingering
                ? String(format: "%5.0fs  all %d sent; lingering", progress.seconds, progress.total)
                : String(format: "%5.0fs  sent %d of %d (%d%%)", progress.seconds, progress.sent, progress.total, share)
            FileHandle.standardError.write(
                Data("\r\u{1B}[K\(line)  replay requests \(progress.replayRequests)".utf8)
            )
        }
        if live { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        sender.close(linger: .seconds(5))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(
                String(
                    format: "sent %d records in %.3f s (planned %.3f s, latest send %.2f ms behind)",
                    report.sent,
                    report.seconds,
                    report.expectedSeconds,
                    report.maxLateMilliseconds
                )
            )
            print(
                "replay endpoint: \(server.map { "\($0.endpoint), \(report.replayRequests) requests, \(report.replayedEvents) events served" } ?? "off")"
            )
        }
        let warnings = Self.warnings(report, served: server != nil, heartbeats: heartbeat > 0, pub: socket != "push")
        for warning in warnings { FileHandle.standardError.write(Data("caffe-sim replay: \(warning)\n".utf8)) }
        if report.caughtUp == false || report.subscriptions == 0 { throw ExitCode(3) }
    }

    /// What the person who ran the replay must know about delivery: lingering that ended
    /// before the workers caught up, nobody subscribed, or nothing that could recover a loss.
    static func warnings(_ report: JournalPlayer.Report, served: Bool, heartbeats: Bool, pub: Bool) -> [String] {
        var warnings: [String] = []
        let linger = String(format: "%.1f", report.lingerSeconds)
        switch report.caughtUp {
        case true?:
            if report.replayedEvents > 0 {
                warnings.append(
                    "workers fetched \(report.replayedEvents) events they had missed; caught up after \(linger) s"
                )
            }
        case false?:
            warnings.append(
                "NOT CONFIRMED: workers were still fetching after \(linger) s (--linger-limit); "
                    + "they may not have everything"
            )
        case nil:
            if !served {
                warnings.append("no replay endpoint: events a subscriber missed cannot be fetched, only reported lost")
            } else if !heartbeats {
                warnings.append("no heartbeats: a worker that missed the last events cannot know it")
            }
        }
        if pub, report.subscriptions == 0 {
            warnings.append("nobody subscribed: the \(report.sent) records went nowhere")
        }
        return warnings
    }

    static func date(_ text: String) throws -> Date {
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw ValidationError("'\(text)' is not an ISO 8601 time such as 2026-03-28T20:00:00Z")
        }
        return date
    }
}
