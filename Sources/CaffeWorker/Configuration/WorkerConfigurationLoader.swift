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
    public static let keys: [String] = Key.all.map(\.name)

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
        for key in Key.all {
            let variable = environmentVariable(for: key.name)
            if let value = environment[variable] {
                try apply(key.name, .scalar(value), source: variable, to: &configuration)
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
        guard let setter = Key.all.first(where: { $0.name == key }) else {
            let known = Key.all.map(\.name).joined(separator: ", ")
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
        if curve.required, !curve.isEnabled {
            throw fail("curve.secret_key", "curve.required is set and no secret key was given: the worker does not run without CURVE")
        }
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
            if let stranger = configuration.rpc.adminAllowedKeys.first(where: { !curve.allowedClients.contains($0) }) {
                throw fail(
                    "rpc.admin_allowed_keys",
                    "'\(stranger)' is not in curve.allowed_clients: the endpoint would refuse it before Admin could"
                )
            }
        } else if !curve.serverKey.isEmpty || !curve.allowedClients.isEmpty {
            throw fail("curve.secret_key", "curve.server_key and curve.allowed_clients need curve.secret_key")
        } else if !configuration.rpc.adminAllowedKeys.isEmpty {
            throw fail(
                "rpc.admin_allowed_keys",
                "needs CURVE (curve.secret_key): without it no client proves a key"
            )
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
}
