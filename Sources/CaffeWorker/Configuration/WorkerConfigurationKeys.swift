import CaffeBooks
import CaffeProtocol
import Foundation
import Localization
import Logging
import ZeroMQ

/// A key of the worker's configuration as operators see it: its name, the environment variable
/// that sets it, the value it takes, and its default (as `config/worker.yaml` writes it).
public struct WorkerConfigurationKey: Hashable, Sendable {
    /// The dotted key (`render.threads`).
    public var name: String
    /// `CAFFE_RENDER_THREADS`.
    public var environmentVariable: String
    /// The value it takes (`whole number 0…256`, `sub | pull`, `list of endpoints`).
    public var type: String
    /// The default, written as the file writes it (lists comma-separated).
    public var defaultValue: String

    /// A key's row.
    public init(name: String, environmentVariable: String, type: String, defaultValue: String) {
        self.name = name
        self.environmentVariable = environmentVariable
        self.type = type
        self.defaultValue = defaultValue
    }
}

extension WorkerConfigurationLoader {
    /// Every key with its type and default, in the order `config/worker.yaml` lists them.
    public static var keyTable: [WorkerConfigurationKey] {
        let defaults = WorkerConfiguration()
        return Key.all.map {
            WorkerConfigurationKey(
                name: $0.name,
                environmentVariable: environmentVariable(for: $0.name),
                type: $0.type,
                defaultValue: $0.written(defaults)
            )
        }
    }

    /// Why a raw value was refused (the loader adds the key and where the value came from).
    struct Message: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// One key: its name, the value it takes, how its value is written, and how a raw value is
    /// checked and stored. Most are made by the typed constructors below, from the property they
    /// set; the default is whatever `WorkerConfiguration()` holds there.
    struct Key: Sendable {
        typealias Path<Value> = any WritableKeyPath<WorkerConfiguration, Value> & Sendable

        let name: String
        let type: String
        /// The key's value in a configuration, as the file writes it.
        let written: @Sendable (WorkerConfiguration) -> String
        let set: @Sendable (Raw, inout WorkerConfiguration) throws(Message) -> Void

        static let all: [Key] = [
            .choice("input.kind", \.input.kind),
            .endpoints("input.endpoints", \.input.endpoints, defaultMode: .connect),
            .list("input.topics", \.input.topics, type: "list of topic prefixes"),
            .integer("input.high_water_mark", \.input.highWaterMark, 1...10_000_000),
            .integer("input.max_message_bytes", \.input.maxMessageBytes, 256...(1 << 30)),
            .integer("input.max_sequence_jump", \.input.maxSequenceJump, 0...Int(IntakeTracker.maxSequence)),
            .integer("input.max_heartbeat_jump", \.input.maxHeartbeatJump, 0...Int(IntakeTracker.maxSequence)),
            .milliseconds("input.source_idle_ms", \.input.sourceIdle, 100...86_400_000),
            .integer("input.pipelines", \.input.pipelines, 0...256, zero: Key.perCore),
            Key(
                "input.shard",
                type: "i/N (0 ≤ i < N ≤ \(ShardAssignment.maximumCount)) or empty",
                written: { $0.input.shard?.description ?? "" }
            ) { raw, configuration throws(Message) in
                let text = try scalar(raw)
                guard !text.isEmpty else {
                    configuration.input.shard = nil
                    return
                }
                guard let shard = ShardAssignment(text) else {
                    throw Message(
                        "'\(text)' is not a shard: write i/N with 0 ≤ i < N ≤ \(ShardAssignment.maximumCount) "
                            + "(2/4 is the third of four)"
                    )
                }
                configuration.input.shard = shard
            },
            .choice("output.kind", \.output.kind),
            .endpoints("output.endpoints", \.output.endpoints, defaultMode: .bind),
            .integer("output.high_water_mark", \.output.highWaterMark, 1...10_000_000),
            .milliseconds("output.ack_timeout_ms", \.output.ackTimeout, 100...3_600_000),
            .integer("output.window", \.output.window, 1...1_000_000),
            .integer("output.max_consumers", \.output.maxConsumers, 1...100_000),
            .milliseconds("output.linger_ms", \.output.linger, 0...600_000),
            .integer("render.threads", \.render.threads, 0...256, zero: Key.perCore),
            .integer("render.queue", \.render.queue, 1...1_000_000),
            .integer("render.max_parked", \.render.maxParked, 0...10_000_000),
            .integer("render.locale_cache_bytes", \.render.localeCacheBytes, 1 << 20...1 << 34),
            .list("render.prepare_locales", \.render.prepareLocales, type: "list of BCP 47 locale tags") {
                locales throws(Message) in
                if let bad = locales.first(where: { !LocaleTag.isWellFormed($0) }) {
                    throw Message("'\(bad)' is not a BCP 47 locale tag")
                }
            },
            .boolean("render.warm_up", \.render.warmUp),
            .text("checkpoint.path", \.checkpoint.path, type: "file path"),
            .milliseconds("checkpoint.interval_ms", \.checkpoint.interval, 10...3_600_000),
            .integer("checkpoint.failures_before_unhealthy", \.checkpoint.failuresBeforeUnhealthy, 1...1000),
            Key(
                "replay.endpoints",
                type: "list of source=endpoint",
                written: { $0.replay.endpoints.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.list }
            ) { raw, configuration throws(Message) in
                configuration.replay.endpoints = try sourceEndpoints(raw)
            },
            .milliseconds("replay.timeout_ms", \.replay.timeout, 10...600_000),
            .integer("replay.attempts", \.replay.attempts, 1...1000),
            .milliseconds("replay.backoff_ms", \.replay.backoff, 1...60_000),
            .integer("replay.batch", \.replay.batch, 1...100_000),
            .integer("replay.max_connections", \.replay.maxConnections, 1...10_000),
            .milliseconds("replay.idle_timeout_ms", \.replay.idleTimeout, 100...3_600_000),
            .boolean("replay.allow_endpoint_change", \.replay.allowEndpointChange),
            Key(
                "rpc.endpoint",
                type: "endpoint (default bind) or empty",
                written: { $0.rpc.endpoint?.description ?? "" }
            ) { raw, configuration throws(Message) in
                let text = try scalar(raw)
                configuration.rpc.endpoint = try text.isEmpty ? nil : endpoints(.scalar(text), defaultMode: .bind).first
            },
            .integer("rpc.queue", \.rpc.queue, 1...1_000_000),
            .integer("rpc.redrive_rate", \.rpc.redriveRate, 1...100_000),
            .curveKeys("rpc.admin_allowed_keys", \.rpc.adminAllowedKeys),
            .milliseconds("shutdown.drain_timeout_ms", \.shutdown.drainTimeout, 0...3_600_000),
            Key(
                "log.level",
                type: Logger.Level.allCases.map(\.rawValue).joined(separator: " | "),
                written: { $0.log.level.rawValue }
            ) { raw, configuration throws(Message) in
                let text = try scalar(raw).lowercased()
                guard let level = Logger.Level(rawValue: text) else {
                    let levels = Logger.Level.allCases.map(\.rawValue)
                    throw Message("'\(text)' is not one of \(levels.joined(separator: ", "))")
                }
                configuration.log.level = level
            },
            .choice("log.format", \.log.format),
            .text("metrics.address", \.metrics.address, type: "host:port or empty (no endpoint)") {
                address throws(Message) in
                guard address.isEmpty || HostAndPort(address) != nil else {
                    throw Message("'\(address)' is not host:port, such as 127.0.0.1:9464 or 0.0.0.0:9464")
                }
            },
            .text("tracing.otlp_endpoint", \.tracing.otlpEndpoint, type: "http://host:port/path or empty (off)") {
                text throws(Message) in
                guard text.isEmpty || OTLPEndpoint(text) != nil else {
                    throw Message(
                        "'\(text)' is not http://host:port/path, such as http://127.0.0.1:4318/v1/traces "
                            + "(plain HTTP: run the collector beside the worker)"
                    )
                }
            },
            .text("tracing.service_name", \.tracing.serviceName, type: "text, not empty") { name throws(Message) in
                guard !name.isEmpty else { throw Message("the service name is empty") }
            },
            .curveKey("curve.secret_key", \.curve.secretKey),
            .curveKey("curve.server_key", \.curve.serverKey),
            .curveKeys("curve.allowed_clients", \.curve.allowedClients),
            .boolean("curve.required", \.curve.required),
            .text("config_dir", \.configDirectory, type: "folder path or empty (built-in)"),
            .text("catalog", \.catalog, type: "file path or empty (config_dir's)"),
            .text("menu", \.menu, type: "file path or empty (config_dir's)"),
            .choice("catalog_check", \.catalogCheck),
            .milliseconds("catalog_watch_ms", \.catalogWatch, 0...3_600_000),
        ]

        init(
            _ name: String,
            type: String,
            written: @escaping @Sendable (WorkerConfiguration) -> String,
            set: @escaping @Sendable (Raw, inout WorkerConfiguration) throws(Message) -> Void
        ) {
            self.name = name
            self.type = type
            self.written = written
            self.set = set
        }

        // MARK: Keys by the type of their value

        /// What 0 means for the keys that size themselves by the process's cores.
        static let perCore =
            "one per core the process may use: its CPU affinity, capped by the cgroup CPU limit (cpu.max)"

        /// A whole number in `range`; `zero` says what 0 means, when it is special.
        static func integer(_ name: String, _ path: Path<Int>, _ range: ClosedRange<Int>, zero: String? = nil) -> Key {
            let type = "whole number \(range.lowerBound)…\(range.upperBound)" + (zero.map { " (0: \($0))" } ?? "")
            return Key(name, type: type, written: { "\($0[keyPath: path])" }) {
                raw,
                configuration throws(Message) in
                configuration[keyPath: path] = try integer(raw, range)
            }
        }

        /// A `Duration` written as whole milliseconds (keys ending `_ms`).
        static func milliseconds(_ name: String, _ path: Path<Duration>, _ range: ClosedRange<Int>) -> Key {
            Key(
                name,
                type: "milliseconds \(range.lowerBound)…\(range.upperBound)",
                written: { "\($0[keyPath: path].wholeMilliseconds)" }
            ) { raw, configuration throws(Message) in
                configuration[keyPath: path] = .milliseconds(try integer(raw, range))
            }
        }

        static func boolean(_ name: String, _ path: Path<Bool>) -> Key {
            Key(name, type: "true | false", written: { "\($0[keyPath: path])" }) { raw, configuration throws(Message) in
                configuration[keyPath: path] = try boolean(raw)
            }
        }

        static func choice<Value: RawRepresentable & CaseIterable & Sendable>(_ name: String, _ path: Path<Value>)
            -> Key
        where Value.RawValue == String {
            Key(
                name,
                type: Value.allCases.map(\.rawValue).joined(separator: " | "),
                written: { $0[keyPath: path].rawValue }
            ) { raw, configuration throws(Message) in
                configuration[keyPath: path] = try choice(raw)
            }
        }

        /// One value, `check`ed before it is stored.
        static func text(
            _ name: String,
            _ path: Path<String>,
            type: String,
            check: @escaping @Sendable (String) throws(Message) -> Void = { _ throws(Message) in }
        ) -> Key {
            Key(name, type: type, written: { $0[keyPath: path] }) { raw, configuration throws(Message) in
                let text = try scalar(raw)
                try check(text)
                configuration[keyPath: path] = text
            }
        }

        /// A list, its empty items dropped where `check` is given.
        static func list(
            _ name: String,
            _ path: Path<[String]>,
            type: String,
            check: (@Sendable ([String]) throws(Message) -> Void)? = nil
        ) -> Key {
            Key(name, type: type, written: { $0[keyPath: path].list }) { raw, configuration throws(Message) in
                guard let check else {
                    configuration[keyPath: path] = raw.items
                    return
                }
                let items = raw.items.filter { !$0.isEmpty }
                try check(items)
                configuration[keyPath: path] = items
            }
        }

        static func endpoints(_ name: String, _ path: Path<[WorkerEndpoint]>, defaultMode: WorkerEndpoint.Mode) -> Key {
            Key(
                name,
                type:
                    "list of endpoints (@ binds, > connects; without either: \(defaultMode == .bind ? "bind" : "connect"))",
                written: { $0[keyPath: path].map(\.description).list }
            ) { raw, configuration throws(Message) in
                configuration[keyPath: path] = try endpoints(raw, defaultMode: defaultMode)
            }
        }

        static func curveKey(_ name: String, _ path: Path<String>) -> Key {
            Key(name, type: "CURVE key (40 characters of Z85) or empty", written: { $0[keyPath: path] }) {
                raw,
                configuration throws(Message) in
                configuration[keyPath: path] = try curveKey(raw)
            }
        }

        /// A list of CURVE public keys (Z85), each checked.
        static func curveKeys(_ name: String, _ path: Path<[String]>) -> Key {
            Key(name, type: "list of CURVE public keys (Z85)", written: { $0[keyPath: path].list }) {
                raw,
                configuration throws(Message) in
                var keys: [String] = []
                for item in raw.items where !item.isEmpty { keys.append(try curveKey(.scalar(item))) }
                configuration[keyPath: path] = keys
            }
        }

        // MARK: Reading raw values

        static func scalar(_ raw: Raw) throws(Message) -> String {
            switch raw {
            case .scalar(let text): text.trimmingCharacters(in: .whitespaces)
            case .list: throw Message("expected one value, not a list")
            }
        }

        static func integer(_ raw: Raw, _ range: ClosedRange<Int>) throws(Message) -> Int {
            let text = try scalar(raw).replacingOccurrences(of: "_", with: "")
            guard let value = Int(text) else { throw Message("'\(text)' is not a whole number") }
            guard range.contains(value) else {
                throw Message("\(value) is outside \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }

        static func boolean(_ raw: Raw) throws(Message) -> Bool {
            switch try scalar(raw).lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            case let text: throw Message("'\(text)' is not true or false")
            }
        }

        static func choice<Value: RawRepresentable & CaseIterable>(_ raw: Raw) throws(Message) -> Value
        where Value.RawValue == String {
            let text = try scalar(raw).lowercased()
            guard let value = Value(rawValue: text) else {
                let names = Value.allCases.map(\.rawValue).joined(separator: " or ")
                throw Message("'\(text)' is not \(names)")
            }
            return value
        }

        /// A Z85 CURVE key (40 characters), or empty.
        static func curveKey(_ raw: Raw) throws(Message) -> String {
            let text = try scalar(raw)
            guard text.isEmpty || (try? ZMQCurveKey(z85: text)) != nil else {
                throw Message("not a CURVE key: expected 40 characters of Z85 (caffe keygen prints a pair)")
            }
            return text
        }

        /// `source=endpoint` pairs.
        static func sourceEndpoints(_ raw: Raw) throws(Message) -> [String: String] {
            var map: [String: String] = [:]
            for item in raw.items where !item.isEmpty {
                guard let equals = item.firstIndex(of: "="),
                    let endpoint = WorkerEndpoint(
                        parsing: String(item[item.index(after: equals)...]),
                        defaultMode: .connect
                    ),
                    endpoint.mode == .connect
                else {
                    throw Message("'\(item)' is not source=endpoint, such as pos-1=tcp://10.0.0.5:5563")
                }
                map[item[..<equals].trimmingCharacters(in: .whitespaces)] = endpoint.address
            }
            return map
        }

        static func endpoints(_ raw: Raw, defaultMode: WorkerEndpoint.Mode) throws(Message) -> [WorkerEndpoint] {
            var endpoints: [WorkerEndpoint] = []
            for item in raw.items where !item.isEmpty {
                guard let endpoint = WorkerEndpoint(parsing: item, defaultMode: defaultMode) else {
                    throw Message("'\(item)' is not an endpoint such as @tcp://*:5561 or >tcp://host:5560")
                }
                endpoints.append(endpoint)
            }
            return endpoints
        }
    }
}

extension [String] {
    /// A list as the file's comments and `--keys` write it: comma-separated.
    fileprivate var list: String { joined(separator: ", ") }
}

extension Duration {
    /// The duration in whole milliseconds (rounded down).
    fileprivate var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
