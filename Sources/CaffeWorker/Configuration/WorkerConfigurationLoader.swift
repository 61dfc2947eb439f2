import CaffeBooks
import CaffeProtocol
import Foundation
import Localization
import Logging
import Yams
import ZeroMQ

/// A configuration value that cannot be used: which key, where it came from, and why.
public struct WorkerConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key at fault (`render.threads`); empty when the whole file is.
    public var key: String
    /// The file, the environment variable or `--set` the value came from.
    public var source: String
    /// Why the value was refused.
    public var message: String

    /// A refusal of `key`'s value from `source`.
    public init(key: String, source: String, _ message: String) {
        self.key = key
        self.source = source
        self.message = message
    }

    /// `key (from source): message`, as `caffe worker` prints it.
    public var description: String {
        key.isEmpty ? "\(source): \(message)" : "\(key) (from \(source)): \(message)"
    }
}

/// Builds a ``WorkerConfiguration`` from layers, each overriding the one before: the defaults, the
/// YAML file, environment variables (`CAFFE_` and the key in capitals with `_` for `.`:
/// `render.threads` is `CAFFE_RENDER_THREADS`), then `--set key=value` flags. Lists are YAML
/// sequences in the file and comma-separated elsewhere. Unknown keys are errors, so a typo never
/// silently falls back to a default.
public enum WorkerConfigurationLoader {
    /// A raw value before it is checked: a scalar, or a list (a YAML sequence or comma-separated).
    enum Raw {
        case scalar(String)
        case list([String])

        var items: [String] {
            switch self {
            case .scalar(let text): text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case .list(let items): items
            }
        }
    }

    /// Every key, in the order `config/worker.yaml` lists them.
    public static let keys: [String] = Setter.all.map(\.key)

    /// The environment variable that overrides `key`.
    public static func environmentVariable(for key: String) -> String {
        "CAFFE_" + key.uppercased().replacingOccurrences(of: ".", with: "_")
    }

    /// Loads `file` (when given), then the environment, then `overrides` (`key=value`).
    public static func load(
        file: URL?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        overrides: [String] = []
    ) throws(WorkerConfigurationError) -> WorkerConfiguration {
        var configuration = WorkerConfiguration()
        if let file {
            let text: String
            do {
                text = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw WorkerConfigurationError(key: "", source: file.path, "cannot read: \(error.localizedDescription)")
            }
            for (key, value) in try flatten(yaml: text, source: file.path) {
                try apply(key, value, source: file.path, to: &configuration)
            }
        }
        for setter in Setter.all {
            let variable = environmentVariable(for: setter.key)
            if let value = environment[variable] {
                try apply(setter.key, .scalar(value), source: variable, to: &configuration)
            }
        }
        for override in overrides {
            guard let equals = override.firstIndex(of: "=") else {
                throw WorkerConfigurationError(key: override, source: "--set", "expected key=value")
            }
            let key = String(override[..<equals]).trimmingCharacters(in: .whitespaces)
            try apply(
                key,
                .scalar(String(override[override.index(after: equals)...])),
                source: "--set",
                to: &configuration
            )
        }
        try validate(configuration)
        return configuration
    }

    /// The YAML file as dotted keys ("input.kind") and raw values.
    static func flatten(yaml text: String, source: String) throws(WorkerConfigurationError) -> [(String, Raw)] {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw WorkerConfigurationError(key: "", source: source, "not valid YAML: \(error)")
        }
        guard let node else { return [] }
        guard case .mapping(let root) = node else {
            throw WorkerConfigurationError(key: "", source: source, "the top level must be a mapping of keys")
        }
        var flat: [(String, Raw)] = []
        func walk(_ mapping: Node.Mapping, prefix: String) throws(WorkerConfigurationError) {
            for (keyNode, value) in mapping {
                guard let name = keyNode.string else {
                    throw WorkerConfigurationError(key: prefix, source: source, "keys must be strings")
                }
                let key = prefix.isEmpty ? name : prefix + "." + name
                switch value {
                case .mapping(let inner): try walk(inner, prefix: key)
                case .sequence(let items):
                    var strings: [String] = []
                    for item in items {
                        guard let scalar = item.string else {
                            throw WorkerConfigurationError(key: key, source: source, "list items must be plain values")
                        }
                        strings.append(scalar)
                    }
                    flat.append((key, .list(strings)))
                case .scalar(let scalar):
                    // `~`/`null` and an empty value both mean "use the default".
                    if scalar.string == "~" || scalar.string == "null" { continue }
                    flat.append((key, .scalar(scalar.string)))
                default: throw WorkerConfigurationError(key: key, source: source, "aliases are not supported")
                }
            }
        }
        try walk(root, prefix: "")
        return flat
    }

    static func apply(
        _ key: String,
        _ value: Raw,
        source: String,
        to configuration: inout WorkerConfiguration
    ) throws(WorkerConfigurationError) {
        guard let setter = Setter.all.first(where: { $0.key == key }) else {
            let known = Setter.all.map(\.key).joined(separator: ", ")
            throw WorkerConfigurationError(key: key, source: source, "unknown key; the keys are \(known)")
        }
        do {
            try setter.set(value, &configuration)
        } catch let message {
            throw WorkerConfigurationError(key: key, source: source, message.text)
        }
    }

    /// Checks that need the whole configuration.
    static func validate(_ configuration: WorkerConfiguration) throws(WorkerConfigurationError) {
        func fail(_ key: String, _ message: String) -> WorkerConfigurationError {
            WorkerConfigurationError(key: key, source: "configuration", message)
        }
        if configuration.input.endpoints.isEmpty { throw fail("input.endpoints", "at least one endpoint is needed") }
        if configuration.output.endpoints.isEmpty { throw fail("output.endpoints", "at least one endpoint is needed") }
        if configuration.input.kind == .sub, configuration.input.topics.isEmpty {
            throw fail("input.topics", "a SUB input with no topics receives nothing")
        }
        let curve = configuration.curve
        if curve.isEnabled {
            let binds =
                configuration.input.endpoints.contains { $0.mode == .bind }
                || configuration.output.endpoints.contains { $0.mode == .bind }
                || configuration.rpc.endpoint?.mode == .bind
            let connects =
                configuration.input.endpoints.contains { $0.mode == .connect }
                || configuration.output.endpoints.contains { $0.mode == .connect }
                || configuration.rpc.endpoint?.mode == .connect || !configuration.replay.endpoints.isEmpty
            if binds, curve.allowedClients.isEmpty {
                throw fail("curve.allowed_clients", "with CURVE on, list the client keys the bound endpoints admit")
            }
            if connects, curve.serverKey.isEmpty {
                throw fail(
                    "curve.server_key",
                    "with CURVE on, the endpoints the worker connects to need the server's public key"
                )
            }
        } else if !curve.serverKey.isEmpty || !curve.allowedClients.isEmpty {
            throw fail("curve.secret_key", "curve.server_key and curve.allowed_clients need curve.secret_key")
        }
        // Wildcard ports (`:*`, `:0`) bind different ports, so only fixed addresses can clash.
        func isWildcard(_ address: String) -> Bool { address.hasSuffix(":*") || address.hasSuffix(":0") }
        let inputs = Set(
            configuration.input.endpoints.filter { $0.mode == .bind && !isWildcard($0.address) }.map(\.address)
        )
        if let shared = configuration.output.endpoints.first(where: { $0.mode == .bind && inputs.contains($0.address) })
        {
            throw fail("output.endpoints", "\(shared.address) is bound by the input too")
        }
    }

    struct Message: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// One key: its name and how a raw value is checked and stored.
    struct Setter: Sendable {
        let key: String
        let set: @Sendable (Raw, inout WorkerConfiguration) throws(Message) -> Void

        static let all: [Setter] = [
            Setter(key: "input.kind") { raw, configuration throws(Message) in
                configuration.input.kind = try choice(raw)
            },
            Setter(key: "input.endpoints") { raw, configuration throws(Message) in
                configuration.input.endpoints = try endpoints(raw, defaultMode: .connect)
            },
            Setter(key: "input.topics") { raw, configuration throws(Message) in
                configuration.input.topics = raw.items
            },
            Setter(key: "input.high_water_mark") { raw, configuration throws(Message) in
                configuration.input.highWaterMark = try integer(raw, 1...10_000_000)
            },
            Setter(key: "input.max_message_bytes") { raw, configuration throws(Message) in
                configuration.input.maxMessageBytes = try integer(raw, 256...(1 << 30))
            },
            Setter(key: "input.max_sequence_jump") { raw, configuration throws(Message) in
                configuration.input.maxSequenceJump = try integer(raw, 0...Int(IntakeTracker.maxSequence))
            },
            Setter(key: "input.max_heartbeat_jump") { raw, configuration throws(Message) in
                configuration.input.maxHeartbeatJump = try integer(raw, 0...Int(IntakeTracker.maxSequence))
            },
            Setter(key: "input.source_idle_ms") { raw, configuration throws(Message) in
                configuration.input.sourceIdle = .milliseconds(try integer(raw, 100...86_400_000))
            },
            Setter(key: "input.shard") { raw, configuration throws(Message) in
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
            Setter(key: "output.kind") { raw, configuration throws(Message) in
                configuration.output.kind = try choice(raw)
            },
            Setter(key: "output.endpoints") { raw, configuration throws(Message) in
                configuration.output.endpoints = try endpoints(raw, defaultMode: .bind)
            },
            Setter(key: "output.high_water_mark") { raw, configuration throws(Message) in
                configuration.output.highWaterMark = try integer(raw, 1...10_000_000)
            },
            Setter(key: "output.ack_timeout_ms") { raw, configuration throws(Message) in
                configuration.output.ackTimeout = .milliseconds(try integer(raw, 100...3_600_000))
            },
            Setter(key: "output.window") { raw, configuration throws(Message) in
                configuration.output.window = try integer(raw, 1...1_000_000)
            },
            Setter(key: "output.max_consumers") { raw, configuration throws(Message) in
                configuration.output.maxConsumers = try integer(raw, 1...100_000)
            },
            Setter(key: "render.threads") { raw, configuration throws(Message) in
                configuration.render.threads = try integer(raw, 0...256)
            },
            Setter(key: "render.queue") { raw, configuration throws(Message) in
                configuration.render.queue = try integer(raw, 1...1_000_000)
            },
            Setter(key: "render.max_parked") { raw, configuration throws(Message) in
                configuration.render.maxParked = try integer(raw, 0...10_000_000)
            },
            Setter(key: "render.locale_cache_bytes") { raw, configuration throws(Message) in
                configuration.render.localeCacheBytes = try integer(raw, 1 << 20...1 << 34)
            },
            Setter(key: "render.prepare_locales") { raw, configuration throws(Message) in
                let locales = raw.items.filter { !$0.isEmpty }
                if let bad = locales.first(where: { !LocaleTag.isWellFormed($0) }) {
                    throw Message("'\(bad)' is not a BCP 47 locale tag")
                }
                configuration.render.prepareLocales = locales
            },
            Setter(key: "render.warm_up") { raw, configuration throws(Message) in
                configuration.render.warmUp = try boolean(raw)
            },
            Setter(key: "checkpoint.path") { raw, configuration throws(Message) in
                configuration.checkpoint.path = try scalar(raw)
            },
            Setter(key: "checkpoint.interval_ms") { raw, configuration throws(Message) in
                configuration.checkpoint.interval = .milliseconds(try integer(raw, 10...3_600_000))
            },
            Setter(key: "checkpoint.failures_before_unhealthy") { raw, configuration throws(Message) in
                configuration.checkpoint.failuresBeforeUnhealthy = try integer(raw, 1...1000)
            },
            Setter(key: "replay.endpoints") { raw, configuration throws(Message) in
                configuration.replay.endpoints = try sourceEndpoints(raw)
            },
            Setter(key: "replay.timeout_ms") { raw, configuration throws(Message) in
                configuration.replay.timeout = .milliseconds(try integer(raw, 10...600_000))
            },
            Setter(key: "replay.attempts") { raw, configuration throws(Message) in
                configuration.replay.attempts = try integer(raw, 1...1000)
            },
            Setter(key: "replay.backoff_ms") { raw, configuration throws(Message) in
                configuration.replay.backoff = .milliseconds(try integer(raw, 1...60_000))
            },
            Setter(key: "replay.batch") { raw, configuration throws(Message) in
                configuration.replay.batch = try integer(raw, 1...100_000)
            },
            Setter(key: "replay.max_connections") { raw, configuration throws(Message) in
                configuration.replay.maxConnections = try integer(raw, 1...10_000)
            },
            Setter(key: "replay.allow_endpoint_change") { raw, configuration throws(Message) in
                configuration.replay.allowEndpointChange = try boolean(raw)
            },
            Setter(key: "rpc.endpoint") { raw, configuration throws(Message) in
                let text = try scalar(raw)
                configuration.rpc.endpoint = try text.isEmpty ? nil : endpoints(.scalar(text), defaultMode: .bind).first
            },
            Setter(key: "rpc.queue") { raw, configuration throws(Message) in
                configuration.rpc.queue = try integer(raw, 1...1_000_000)
            },
            Setter(key: "shutdown.drain_timeout_ms") { raw, configuration throws(Message) in
                configuration.shutdown.drainTimeout = .milliseconds(try integer(raw, 0...3_600_000))
            },
            Setter(key: "log.level") { raw, configuration throws(Message) in
                let text = try scalar(raw).lowercased()
                guard let level = Logger.Level(rawValue: text) else {
                    let levels = Logger.Level.allCases.map(\.rawValue)
                    throw Message("'\(text)' is not one of \(levels.joined(separator: ", "))")
                }
                configuration.log.level = level
            },
            Setter(key: "log.format") { raw, configuration throws(Message) in
                configuration.log.format = try choice(raw)
            },
            Setter(key: "metrics.address") { raw, configuration throws(Message) in
                let address = try scalar(raw)
                guard address.isEmpty || HostAndPort(address) != nil else {
                    throw Message("'\(address)' is not host:port, such as 127.0.0.1:9464 or 0.0.0.0:9464")
                }
                configuration.metrics.address = address
            },
            Setter(key: "tracing.otlp_endpoint") { raw, configuration throws(Message) in
                let text = try scalar(raw)
                guard text.isEmpty || OTLPEndpoint(text) != nil else {
                    throw Message(
                        "'\(text)' is not http://host:port/path, such as http://127.0.0.1:4318/v1/traces "
                            + "(plain HTTP: run the collector beside the worker)"
                    )
                }
                configuration.tracing.otlpEndpoint = text
            },
            Setter(key: "tracing.service_name") { raw, configuration throws(Message) in
                let name = try scalar(raw)
                guard !name.isEmpty else { throw Message("the service name is empty") }
                configuration.tracing.serviceName = name
            },
            Setter(key: "curve.secret_key") { raw, configuration throws(Message) in
                configuration.curve.secretKey = try curveKey(raw)
            },
            Setter(key: "curve.server_key") { raw, configuration throws(Message) in
                configuration.curve.serverKey = try curveKey(raw)
            },
            Setter(key: "curve.allowed_clients") { raw, configuration throws(Message) in
                var keys: [String] = []
                for item in raw.items where !item.isEmpty { keys.append(try curveKey(.scalar(item))) }
                configuration.curve.allowedClients = keys
            },
            Setter(key: "config_dir") { raw, configuration throws(Message) in
                configuration.configDirectory = try scalar(raw)
            },
            Setter(key: "catalog") { raw, configuration throws(Message) in
                configuration.catalog = try scalar(raw)
            },
            Setter(key: "menu") { raw, configuration throws(Message) in
                configuration.menu = try scalar(raw)
            },
            Setter(key: "catalog_check") { raw, configuration throws(Message) in
                configuration.catalogCheck = try choice(raw)
            },
        ]

        init(key: String, set: @escaping @Sendable (Raw, inout WorkerConfiguration) throws(Message) -> Void) {
            self.key = key
            self.set = set
        }

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
