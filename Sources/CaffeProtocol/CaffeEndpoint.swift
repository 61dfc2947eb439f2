/// A ZeroMQ endpoint and whether a socket binds it or connects to it, written as CZMQ writes them:
/// `@tcp://…` binds, `>tcp://…` connects, and without a prefix the role's default applies (a
/// worker's inputs connect and its outputs bind; a client connects). The worker's configuration,
/// `CaffeClient`, `caffe health` and `caffe redrive` parse with it (`caffe proxy` and `caffe-sim`
/// still read the syntax themselves, until they move onto `CaffeClient`).
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

    /// `@address` or `>address`, as the configuration writes it.
    public var description: String { (mode == .bind ? "@" : ">") + address }
}

extension String {
    fileprivate func trimmingPrefixAndSuffixSpaces() -> Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
