#if canImport(Glibc)
import Glibc
#endif

/// Why the worker (or the proxy's operations endpoint) could not start, or stopped: what kind of
/// failure (``code``), what happened in words, the configuration key at fault when there is one,
/// and the error underneath (``cause``), kept as it was thrown rather than flattened into text.
///
/// The shape of grpc-swift's `RPCError` and swift-service-lifecycle's `ServiceGroupError`: a code
/// to branch on, a message for people, the cause for whoever needs the details.
///
/// ```swift
/// do {
///     try await worker.run()
/// } catch let error as WorkerError where error.code == .endpoint {
///     print(error.key ?? "", error.cause ?? error)   // "input.endpoints", zmq_bind(…): Address already in use
/// }
/// ```
public struct WorkerError: Error, Sendable, CustomStringConvertible {
    /// A kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name (`endpoint`), for logs and scripts.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The name.
        public var description: String { name }

        /// A configuration value the worker cannot use (``WorkerError/key`` names it).
        public static let configuration = Code("configuration")
        /// The catalog or the menu did not load on reload (at start they are refused before the
        /// worker exists, as a `CoreConfigurationError`).
        public static let catalog = Code("catalog")
        /// The checkpoint could not be read, or the final one not written.
        public static let checkpoint = Code("checkpoint")
        /// A socket could not be made, bound or connected (ZeroMQ or the HTTP endpoint).
        public static let endpoint = Code("endpoint")
        /// CURVE keys or the ZAP authenticator.
        public static let security = Code("security")
        /// A stage failed while running (its socket broke).
        public static let stageFailed = Code("stage-failed")
    }

    /// What kind of failure.
    public var code: Code
    /// What happened, for people.
    public var message: String
    /// The configuration key at fault (`input.endpoints`, `metrics.address`), when there is one.
    public var key: String?
    /// The error underneath (`ZMQError`, `Checkpoint.Problem`, `CoreConfigurationError`,
    /// ``SystemCallError``…).
    public var cause: (any Error)?

    /// A failure of kind `code`, about `key` when there is one, with the error underneath.
    public init(_ code: Code, _ message: String, key: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.key = key
        self.cause = cause
    }

    /// `key: message: cause`, as the command line prints it.
    public var description: String {
        [key, message, cause.map { "\($0)" }].compactMap { $0 }.joined(separator: ": ")
    }
}

/// A system call that failed, with its `errno`: `bind: Address already in use (errno 98)`.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call (`bind`, `listen`).
    public var call: String
    /// Its `errno`.
    public var code: Int32

    /// The calling thread's `errno` for `call`, which just failed.
    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// `call: strerror (errno N)`.
    public var description: String { "\(call): \(String(cString: strerror(code))) (errno \(code))" }
}
