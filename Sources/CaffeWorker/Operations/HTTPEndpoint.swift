import Foundation
import Synchronization

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

/// A minimal HTTP/1.1 server for operations endpoints (`/metrics`, `/healthz`): one thread, one
/// short request per connection, `GET` only. Enough for a Prometheus scraper and a load balancer's
/// health check, without an HTTP stack in the worker.
final class HTTPEndpoint: Sendable {
    /// An answer: status code, content type and body.
    struct Response: Sendable {
        var status: Int
        var contentType: String
        var body: [UInt8]

        static func text(_ status: Int, _ text: String) -> Response {
            Response(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
        }
    }

    /// The address actually listened on (port 0 resolved).
    let address: HostAndPort
    private let listener: Int32
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on `address` and serves each `GET` path with `handler` on a thread of its own.
    init(address: HostAndPort, handler: @escaping @Sendable (String) -> Response) throws(WorkerError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw WorkerError("metrics: socket() failed: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw WorkerError("metrics: cannot listen on \(address): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        var resolved = address
        resolved.port = UInt16(bigEndian: actual.sin_port)
        self.address = resolved
        listener = socket
        let thread = Thread { [self] in
            serve(handler)
            finished.signal()
        }
        thread.name = "caffe-http"
        thread.start()
    }

    /// Stops accepting and waits for the serving thread to end.
    func stop() {
        guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }

    private func serve(_ handler: (String) -> Response) {
        while running.load(ordering: .relaxed) {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            answer(connection, handler)
            close(connection)
        }
    }

    /// Reads the request head (up to 8 KiB, 2 s) and writes one response.
    private func answer(_ connection: Int32, _ handler: (String) -> Response) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        // 2 s for the whole head, however slowly it trickles in.
        let deadline = ContinuousClock.now + .seconds(2)
        while head.count < 8192, !Self.hasEndOfHead(head) {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { break }
            var readable = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&readable, 1, Int32(max(1, remaining.wholeMilliseconds))) > 0 else { break }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            head += chunk[..<count]
        }
        let requestLine = String(decoding: head.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        let response: Response
        if parts.count < 2 || !Self.hasEndOfHead(head) {
            response = .text(400, "bad request\n")
        } else if parts[0] != "GET" && parts[0] != "HEAD" {
            response = .text(405, "only GET\n")
        } else {
            let path = parts[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
            response = handler(path)
        }
        let reason =
            [200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"][
                response.status
            ] ?? "Status"
        let header =
            "HTTP/1.1 \(response.status) \(reason)\r\nContent-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(header.utf8) + (parts.first == "HEAD" ? [] : response.body)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            sent += count
        }
    }

    private static func hasEndOfHead(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return true
        }
        return false
    }
}

/// A plain HTTP GET on loopback for probes, tests and the demo: status and body, or `nil` when
/// nothing answers.
public enum HTTPProbe {
    public static func get(_ address: HostAndPort, _ path: String) -> (status: Int, body: String)? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = address.port.bigEndian
        inet_pton(AF_INET, address.host, &target.sin_addr)
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
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
}
