import ArgumentParser
import CaffeCore
import CaffeWorker
import Foundation
import Localization
import Logging
import ServiceLifecycle
import UnixSignals

/// `caffe worker`: the long-running service, run by swift-service-lifecycle. SIGTERM or SIGINT
/// starts a graceful shutdown (health NOT_SERVING, intake stops, in-flight work drains within
/// `shutdown.drain_timeout_ms`, checkpoint written, exit 0); SIGHUP reloads the catalog and menu.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Subscribe to order events and complication requests; render and publish them.",
        discussion: """
            The configuration is config/worker.yaml (or --config-file), then CAFFE_* environment \
            variables, then --set key=value flags. See config/worker.yaml for every key.
            Signals: SIGTERM/SIGINT drain and stop; SIGHUP reloads the catalog and menu.
            Exit status: 0 after a complete drain, 1 if draining timed out or the worker failed.
            """
    )

    @Option(help: "The YAML configuration file (default: worker.yaml in the configuration folder).")
    var configFile: String?

    @Option(name: .customLong("set"), help: "Override one key: --set render.threads=2 (repeatable).")
    var overrides: [String] = []

    @Option(help: "Log level (the same as --set log.level=…): trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    func run() async throws {
        let file =
            configFile.map { URL(fileURLWithPath: $0) }
            ?? ConfigurationDirectory.resolve().appendingPathComponent("worker.yaml")
        let configuration: WorkerConfiguration
        do {
            configuration = try WorkerConfigurationLoader.load(
                file: FileManager.default.fileExists(atPath: file.path) || configFile != nil ? file : nil,
                overrides: overrides + (logLevel.map { ["log.level=\($0)"] } ?? [])
            )
        } catch {
            throw ValidationError("configuration: \(error)")
        }
        let level = Logger.Level(rawValue: configuration.log.level) ?? .info
        let format = configuration.log.format
        LoggingSystem.bootstrap { label in
            switch format {
            case .json:
                var handler = JSONLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
        let logger = Logger(label: "caffe.worker")
        let core: RenderingCore
        do {
            core = try WorkerSetup.core(for: configuration)
        } catch {
            throw ValidationError("\(error)")
        }
        let worker = try Worker(configuration: configuration, core: core, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: worker),
                    .init(service: ReloadService(worker: worker), successTerminationBehavior: .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
        if !worker.isDrained { throw ExitCode(1) }
    }
}

/// Reloads the catalog and menu on each SIGHUP until shutdown; a broken file is rejected (and
/// logged) while the loaded ones stay in use.
struct ReloadService: Service {
    let worker: Worker

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            try? worker.reload()
        }
    }
}
