#if canImport(Glibc)
import Glibc
#endif

/// `host:port`, as `metrics.address` takes it (an IPv4 address or `localhost`; port 0 picks a free one).
public struct HostAndPort: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            return nil
        }
        let host = String(text[..<colon])
        var address = in_addr()
        guard host == "localhost" || inet_pton(AF_INET, host, &address) == 1 else { return nil }
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }

    public var description: String { "\(host):\(port)" }
}
