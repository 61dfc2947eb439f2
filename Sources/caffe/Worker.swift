import ArgumentParser
import CaffeBooks
import CaffeCore
import CaffeProtocol
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
            Signals: SIGTERM/SIGINT drain and stop; SIGHUP reloads the catalog and menu, as does a \
            change to their files (catalog_watch_ms).
            Exit status: 0 after a complete drain, 1 if draining timed out, the worker failed \
            (the reason on standard error) or the configuration was refused (naming the key).
            --check-config validates the configuration, catalog, menu and checkpoint and exits: \
            0 when the worker could start with them, 1 naming the key that stops it. \
            --keys lists every key with its type, default and environment variable.
            """
    )

    @Option(help: "The YAML configuration file (default: worker.yaml in the configuration folder).")
    var configFile: String?

    @Option(name: .customLong("set"), help: "Override one key: --set render.threads=2 (repeatable).")
    var overrides: [String] = []

    @Option(help: "Log level (the same as --set log.level=…): trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    @Flag(help: "Validate the configuration (file, CAFFE_* variables, --set), catalog, menu, checkpoint; exit.")
    var checkConfig = false

    @Flag(help: "List every configuration key with its type, default and environment variable; exit.")
    var keys = false

    func run() async throws {
        if keys {
            print(Self.keyTable(), terminator: "")
            return
        }
        let file =
            configFile.map { URL(fileURLWithPath: $0) }
            ?? ConfigurationDirectory.resolve().appendingPathComponent("worker.yaml")
        let used = FileManager.default.fileExists(atPath: file.path) || configFile != nil ? file : nil
        let configuration: WorkerConfiguration
        do {
            configuration = try WorkerConfigurationLoader.load(
                file: used,
                overrides: overrides + (logLevel.map { ["log.level=\($0)"] } ?? [])
            )
        } catch {
            try Self.refuse("\(error)")
        }
        if checkConfig {
            try Self.check(configuration, file: used)
            return
        }
        WorkerSetup.limitHeapArenas()
        let level = configuration.log.level
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
        let descriptors = DescriptorLimit.raiseToHard()
        logger.info(
            "file descriptor limit",
            metadata: [
                "soft": "\(descriptors.after)", "raised_from": "\(descriptors.before)",
                "operations_connections": "\(DescriptorLimit.operationsConnections(limit: descriptors.after))",
            ]
        )
        let core: RenderingCore
        do {
            core = try WorkerSetup.core(for: configuration, logger: logger)
        } catch {
            try Self.refuse("\(error)")
        }
        do {
            let worker = try Worker(configuration: configuration, core: core, logger: logger)
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [
                        .init(service: worker),
                        .init(service: ReloadService(worker: worker), successTerminationBehavior: .ignore),
                        .init(
                            service: ConfigurationWatcher(worker: worker, configuration: configuration, logger: logger),
                            successTerminationBehavior: .ignore
                        ),
                    ],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            try await group.run()
            if !worker.isDrained { throw ExitCode(1) }
        } catch let error as WorkerError {
            // A failure at run time, not a usage error: the reason, no usage text.
            FileHandle.standardError.write(Data("caffe worker: failed (\(error.code)): \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension WorkerCommand {
    /// `--keys`: one line per key, its type, its default (`""` when empty) and its environment
    /// variable, in columns.
    static func keyTable() -> String {
        let header = WorkerConfigurationKey(
            name: "KEY",
            environmentVariable: "ENVIRONMENT",
            type: "TYPE",
            defaultValue: "DEFAULT"
        )
        let rows =
            [header]
            + WorkerConfigurationLoader.keyTable.map { key in
                var key = key
                if key.defaultValue.isEmpty { key.defaultValue = "\"\"" }
                return key
            }
        let nameWidth = rows.map(\.name.count).max() ?? 0
        let defaultWidth = rows.map(\.defaultValue.count).max() ?? 0
        let variableWidth = rows.map(\.environmentVariable.count).max() ?? 0
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        return rows.map {
            padded($0.name, nameWidth) + "  " + padded($0.defaultValue, defaultWidth) + "  "
                + padded($0.environmentVariable, variableWidth) + "  " + $0.type + "\n"
        }.joined()
    }

    /// `--check-config`: what `run()` would load before opening a socket, loaded and reported.
    /// Endpoints are checked as text (binding them would be starting).
    static func check(_ configuration: WorkerConfiguration, file: URL?) throws {
        do {
            _ = try WorkerSetup.core(for: configuration)
        } catch {
            // Its description starts with the key at fault (`error.key`: "catalog: …", "menu: …").
            try refuse("\(error)")
        }
        let checkpoint = configuration.checkpoint.path
        var resumed = "off"
        if !checkpoint.isEmpty {
            do {
                let sources = try Checkpoint.read(URL(fileURLWithPath: checkpoint)).sources.count
                resumed = FileManager.default.fileExists(atPath: checkpoint) ? "\(sources) sources" : "a first start"
            } catch {
                try refuse("checkpoint.path: \(error)")
            }
        }
        let environment = WorkerConfigurationLoader.keys.filter {
            ProcessInfo.processInfo.environment[WorkerConfigurationLoader.environmentVariable(for: $0)] != nil
        }
        let endpoints = { (list: [WorkerEndpoint]) in list.map(\.description).joined(separator: ",") }
        print("caffe worker: configuration OK")
        print("  file        \(file?.path ?? "none (defaults)")")
        print("  environment \(environment.isEmpty ? "none" : environment.joined(separator: ", "))")
        print("  input       \(configuration.input.kind.rawValue) \(endpoints(configuration.input.endpoints))")
        print("  output      \(configuration.output.kind.rawValue) \(endpoints(configuration.output.endpoints))")
        print("  rpc         \(configuration.rpc.endpoint?.description ?? "off")")
        print("  metrics     \(configuration.metrics.address.isEmpty ? "off" : configuration.metrics.address)")
        print("  checkpoint  \(checkpoint.isEmpty ? "off" : "\(checkpoint) (\(resumed))")")
        let curve = configuration.curve.isEnabled ? "on" : "off"
        print("  render      \(configuration.renderThreadCount) threads, curve \(curve)")
        let tracing = configuration.tracing.otlpEndpoint
        print("  tracing     \(tracing.isEmpty ? "off (traceparent carried as it came)" : "spans to \(tracing)")")
    }

    /// Prints why the configuration cannot be used and exits 1.
    static func refuse(_ reason: String) throws -> Never {
        FileHandle.standardError.write(Data("caffe worker: configuration refused: \(reason)\n".utf8))
        throw ExitCode(1)
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
