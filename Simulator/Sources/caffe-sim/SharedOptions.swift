import ArgumentParser
import CaffeCore
import CaffeSimulator
import Foundation

/// `--json`, and printing what a command reports: one JSON object (sorted keys) or text.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// Prints a progress line, unless the report is JSON.
    func progress(_ line: String) {
        if !json { print(line) }
    }

    /// Prints `report`: its JSON, or its summary for people.
    func report(_ report: some BenchmarkReport) throws {
        try self.report(report, summary: report.summary)
    }

    /// Prints `value` as one JSON object, or `summary`.
    func report(_ value: some Encodable, summary: @autoclosure () -> String) throws {
        guard json else {
            print(summary())
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

/// `--config`: the configuration folder, found as `caffe` finds it.
struct ConfigurationOptions: ParsableArguments {
    @Option(
        help: """
            The configuration folder (worker.yaml, menu.json, Localizations/). Default: $CAFFE_CONFIG, \
            ./config, the built-in one.
            """
    )
    var config: String?

    var directory: URL { ConfigurationDirectory.resolve(config) }
}

/// `--caffe`: the worker's executable.
struct CaffeExecutableOptions: ParsableArguments {
    @Option(help: "The caffe executable (default: the one next to caffe-sim).")
    var caffe: String?

    /// `--caffe`, or the `caffe` next to caffe-sim; a usage error naming what to do when neither is there.
    func executable() throws -> URL {
        let executable = caffe.map { URL(fileURLWithPath: $0) } ?? siblingExecutable("caffe")
        guard let executable, FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ValidationError(
                "no caffe executable at \(executable?.path ?? "the side of caffe-sim"); build it (swift build -c release) or pass --caffe"
            )
        }
        return executable
    }
}

/// `--seed`: the traffic generator's seed.
struct SeedOptions: ParsableArguments {
    @Option(help: "The generator's seed: the same seed gives the same traffic.")
    var seed: UInt64 = 1
}

/// `--locales`: which of the configuration's markets traffic goes to, and how much to each.
struct MarketOptions: ParsableArguments {
    @Option(
        help: """
            Markets and weights, such as it-IT:2,pt-BR:1; 'all' for every market of the configuration \
            (each store of menu.json with a locale, currency and time zone). Default: traffic.json's \
            defaultLocales.
            """
    )
    var locales: String?

    /// The configuration's markets and the weighted mix `--locales` names; the directory's notes go
    /// to standard error, and a market that is not configured is a usage error naming those that are.
    func mix(in folder: URL) throws -> (directory: MarketDirectory, mix: [(market: Market, weight: Int)]) {
        try Self.mix(locales, in: folder)
    }

    /// The configuration's markets and the mix `locales` names, as ``mix(in:)`` gives them.
    static func mix(_ locales: String?, in folder: URL) throws -> (
        directory: MarketDirectory, mix: [(market: Market, weight: Int)]
    ) {
        let directory = try MarketDirectory.load(configurationDirectory: folder)
        for note in directory.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        do {
            return (directory, try directory.mix(locales))
        } catch {
            throw ValidationError("--locales: \(error)")
        }
    }
}
