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
            --before and --after (folders holding Localizations/ and menu.json, or REVISION:PATH \
            of the git repository around the working directory) on the worker's \
            bytes path, on every core, and reports each output that differs: by output kind, \
            localization and the catalog key whose new value changes it (found by rendering it \
            again with only that key changed), with examples; each key that differs with its value \
            before and after and the events that reach it; and the events that render in one \
            configuration and fail in the other. Exit status 1 when a gate trips: --fail-on changed \
            (an output changed by a key not given to --allow, or a key no output of the journal \
            shows, unless --allow-unreached or --allow names it), --fail-on failures (dead letters \
            appear, or events fail differently), and under any gate an --allow that names no key \
            that differs; 64 for arguments it cannot use, 2 when the journal or a configuration \
            cannot be read.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, html
    }

    @Option(help: "The journal (caffe-sim generate or record).")
    var journal: String

    @Option(
        help:
            "The configuration before the change: a folder, or REVISION:PATH of the git repository here (HEAD~1:config)."
    )
    var before: String

    @Option(help: "The configuration after the change: a folder, or REVISION:PATH.")
    var after: String

    @Option(help: "text, json, or html (one page: examples side by side, changed words marked).")
    var format: Format = .text

    @Option(name: .customLong("fail-on"), help: "changed or failures (repeatable): exit 1 when it trips.")
    var failOn: [ConfigurationDiff.Gate] = []

    @Option(help: "A key whose changes are intended, Table:key or key (repeatable; menu.json for the menu).")
    var allow: [String] = []

    @Flag(
        help: """
            With --fail-on changed: let keys pass that no output of the journal shows (no event reaches \
            their localization, or none uses them); they are still listed as not checked.
            """
    )
    var allowUnreached = false

    @Option(help: "Render threads; 0: one per core.")
    var threads = 0

    @Option(help: "Example orders shown per change.")
    var examples = 3

    func run() throws {
        let old: ConfigurationSource
        let new: ConfigurationSource
        do {
            old = try ConfigurationSource(before)
        } catch {
            FileHandle.standardError.write(Data("caffe-sim diff: --before: \(error)\n".utf8))
            throw ExitCode(2)
        }
        defer { old.remove() }
        do {
            new = try ConfigurationSource(after)
        } catch {
            FileHandle.standardError.write(Data("caffe-sim diff: --after: \(error)\n".utf8))
            throw ExitCode(2)
        }
        defer { new.remove() }
        var configuration = ConfigurationDiff.Configuration(
            journal: URL(fileURLWithPath: journal),
            before: old.folder,
            after: new.folder
        )
        configuration.threads = threads
        configuration.examples = examples
        let showsProgress = format == .text && isatty(STDERR_FILENO) == 1
        let report: ConfigurationDiff.Report
        do {
            report = try ConfigurationDiff(configuration: configuration).run { done, total in
                Self.showProgress(done, total, on: showsProgress)
            }
        } catch {
            FileHandle.standardError.write(Data("caffe-sim diff: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let trips = ConfigurationDiff.trips(report, gates: Set(failOn), allow: allow, allowUnreached: allowUnreached)

        switch format {
        case .text:
            print(ConfigurationDiff.summary(report, allow: allow))
            if !failOn.isEmpty {
                print(trips.isEmpty ? "gates: pass" : "gates: FAIL\n" + trips.map { "  " + $0 }.joined(separator: "\n"))
            }
        case .html:
            print(ConfigurationDiff.html(report, allow: allow, gates: failOn, trips: trips), terminator: "")
        case .json:
            struct Output: Encodable {
                var report: ConfigurationDiff.Report
                var gates: [ConfigurationDiff.Gate]
                var allow: [String]
                var allowUnreached: Bool
                var trips: [String]

                enum CodingKeys: String, CodingKey {
                    case report, gates, allow, trips
                    case allowUnreached = "allow_unreached"
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(
                Output(report: report, gates: failOn, allow: allow, allowUnreached: allowUnreached, trips: trips)
            )
            print(String(decoding: data, as: UTF8.self))
        }
        if !trips.isEmpty { throw ExitCode(1) }
    }

    /// A bar on standard error, on a terminal only.
    static func showProgress(_ done: Int, _ total: Int, on terminal: Bool) {
        guard terminal, total > 0 else { return }
        let width = 30
        let filled = done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
        if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

extension ConfigurationDiff.Gate: ExpressibleByArgument {}
