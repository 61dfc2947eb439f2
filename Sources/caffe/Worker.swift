import ArgumentParser
import CaffeCore
import CaffeWorker
import Dispatch
import Foundation
import Localization
import Logging

/// `caffe worker`: the long-running service. Reads the configuration, starts the worker, and
/// stops it cleanly on SIGTERM or SIGINT (intake stops, in-flight work drains, checkpoint written).
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Subscribe to order events and complication requests; render and publish them.",
        discussion: """
            The configuration is config/worker.yaml (or --config-file), then CAFFE_* environment \
            variables, then --set key=value flags. See config/worker.yaml for every key.
            """
    )

    @Option(help: "The YAML configuration file (default: worker.yaml in the configuration folder).")
    var configFile: String?

    @Option(name: .customLong("set"), help: "Override one key: --set render.threads=2 (repeatable).")
    var overrides: [String] = []

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "caffe.worker")
        let file =
            configFile.map { URL(fileURLWithPath: $0) }
            ?? ConfigurationDirectory.resolve().appendingPathComponent("worker.yaml")
        let configuration: WorkerConfiguration
        do {
            configuration = try WorkerConfigurationLoader.load(
                file: FileManager.default.fileExists(atPath: file.path) || configFile != nil ? file : nil,
                overrides: overrides
            )
        } catch {
            throw ValidationError("configuration: \(error)")
        }
        let core: RenderingCore
        do {
            core = try WorkerSetup.core(for: configuration)
        } catch {
            throw ValidationError("\(error)")
        }
        let worker = try Worker(configuration: configuration, core: core, logger: logger)
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let signals = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                logger.notice("stopping", metadata: ["signal": "\(number == SIGTERM ? "SIGTERM" : "SIGINT")"])
                worker.stop()
            }
            source.resume()
            return source
        }
        try worker.start()
        worker.wait()
        signals.forEach { $0.cancel() }
    }
}
