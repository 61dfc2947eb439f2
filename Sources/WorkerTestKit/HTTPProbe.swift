import CaffeProtocol
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain HTTP GET on loopback, for tests, the simulator's demo and its chaos suite: status and
/// body, or `nil` when nothing answers (5 s at most). Not for the product: the worker serves HTTP,
/// it never asks.
public enum HTTPProbe {
    /// `GET path` on `address`: the status and body, or `nil` when nothing answered.
    public static func get(_ address: HostAndPort, _ path: String) -> (status: Int, body: String)? {
        guard let descriptor = connection(to: address) else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            response += chunk[..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let status = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return (status, text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// A TCP connection to `address` (IPv4), its descriptor for the caller to close; `nil` when
    /// none could be made. Also what the chaos suite holds idle against an endpoint.
    public static func connection(to address: HostAndPort) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = address.port.bigEndian
        inet_pton(AF_INET, address.host, &target.sin_addr)
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
