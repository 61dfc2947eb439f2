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
