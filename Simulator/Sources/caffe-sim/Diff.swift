import ArgumentParser
import CaffeSimulator
import Foundation

/// `caffe-sim diff`: what a configuration change does to what customers receive.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Render a journal through two configurations and report every output that changes, by key.",
        discussion: """
            Renders every order and complication request of the journal with the configuration \
            --before and --after (folders holding Localizations/ and menu.json) on the worker's \
            bytes path, on every core, and reports each output that differs: by output kind, \
            localization and the catalog key whose new value changes it (found by rendering it \
            again with only that key changed), with examples; and the events that render in one \
            configuration and fail in the other. Exit status 1 when a gate trips: --fail-on changed \
            (an output changed by a key not given to --allow), --fail-on failures (dead letters \
            appear).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "The journal (caffe-sim generate or record).")
    var journal: String

    @Option(help: "The configuration folder before the change.")
    var before: String

    @Option(help: "The configuration folder after the change.")
    var after: String

    @Option(help: "text or json.")
    var format: Format = .text

    @Option(name: .customLong("fail-on"), help: "changed or failures (repeatable): exit 1 when it trips.")
    var failOn: [ConfigurationDiff.Gate] = []

    @Option(help: "A key whose changes are intended, Table:key or key (repeatable; menu.json for the menu).")
    var allow: [String] = []

    @Option(help: "Render threads; 0: one per core.")
    var threads = 0

    @Option(help: "Example orders shown per change.")
    var examples = 3

    func run() throws {
        var configuration = ConfigurationDiff.Configuration(
            journal: URL(fileURLWithPath: journal),
            before: URL(fileURLWithPath: before),
            after: URL(fileURLWithPath: after)
        )
        configuration.threads = threads
        configuration.examples = examples
        let showsProgress = format == .text && isatty(STDERR_FILENO) == 1
        let report = try ConfigurationDiff(configuration: configuration).run { done, total in
            guard showsProgress, total > 0 else { return }
            let width = 30
            let filled = done * width / total
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
            if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
        }
        let trips = ConfigurationDiff.trips(report, gates: Set(failOn), allow: allow)
        switch format {
        case .text:
            print(ConfigurationDiff.summary(report, allow: allow))
            if !failOn.isEmpty {
                print(trips.isEmpty ? "gates: pass" : "gates: FAIL\n" + trips.map { "  " + $0 }.joined(separator: "\n"))
            }
        case .json:
            struct Output: Encodable {
                var report: ConfigurationDiff.Report
                var gates: [ConfigurationDiff.Gate]
                var allow: [String]
                var trips: [String]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(Output(report: report, gates: failOn, allow: allow, trips: trips))
            print(String(decoding: data, as: UTF8.self))
        }
        if !trips.isEmpty { throw ExitCode(1) }
    }
}

extension ConfigurationDiff.Gate: ExpressibleByArgument {}
