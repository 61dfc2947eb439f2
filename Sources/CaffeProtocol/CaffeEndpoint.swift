/// A ZeroMQ endpoint and whether a socket binds it or connects to it, written as CZMQ writes them:
/// `@tcp://…` binds, `>tcp://…` connects, and without a prefix the role's default applies (a
/// worker's inputs connect and its outputs bind; a client connects). The only reader of the syntax:
/// the worker's configuration, `CaffeClient`, `caffe proxy`, `caffe-sim` and the tests parse with it,
/// and `ZMQSocket.attach(_:)` (CaffeTransport) binds or connects a socket by it.
public struct CaffeEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// Whether the socket binds the address (`@`) or connects to it (`>`).
    public enum Mode: String, Hashable, Sendable {
        case bind, connect
    }

    /// How the address is attached.
    public var mode: Mode
    /// The address with its transport: `tcp://127.0.0.1:5560`, `ipc:///run/caffe/in`.
    public var address: String

    /// The transports libzmq knows an address by.
    public static let transports = ["tcp://", "ipc://", "inproc://", "pgm://", "epgm://", "vmci://"]

    /// An endpoint that binds or connects `address`.
    public init(_ mode: Mode, _ address: String) {
        self.mode = mode
        self.address = address
    }

    /// Reads `@addr`, `>addr` or `addr` (taking `defaultMode`); `nil` when no transport is named.
    public init?(parsing text: String, defaultMode: Mode) {
        var address = Substring(text.trimmingPrefixAndSuffixSpaces())
        var mode = defaultMode
        if address.hasPrefix("@") {
            mode = .bind
            address = address.dropFirst()
        } else if address.hasPrefix(">") {
            mode = .connect
            address = address.dropFirst()
        }
        guard Self.transports.contains(where: { address.hasPrefix($0) }), address.count > 8 else { return nil }
        self.mode = mode
        self.address = String(address)
    }

    /// Reads `text` as ``init(parsing:defaultMode:)`` does, throwing a message that names it.
    public static func parse(_ text: String, defaultMode: Mode) throws(InvalidEndpoint) -> CaffeEndpoint {
        guard let endpoint = CaffeEndpoint(parsing: text, defaultMode: defaultMode) else { throw InvalidEndpoint(text) }
        return endpoint
    }

    /// `@address` or `>address`, as the configuration writes it.
    public var description: String { (mode == .bind ? "@" : ">") + address }
}

/// Text that is not an endpoint: no transport (`tcp://`, `ipc://`, `inproc://`…) after the optional
/// `@` or `>`.
public struct InvalidEndpoint: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String

    public init(_ text: String) { self.text = text }

    public var description: String {
        "'\(text)' is not an endpoint: write @tcp://host:port to bind, >tcp://host:port to connect (or ipc://, inproc://)"
    }
}

extension String {
    fileprivate func trimmingPrefixAndSuffixSpaces() -> Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
