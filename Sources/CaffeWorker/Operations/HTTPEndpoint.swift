import CaffeBooks
import CaffeProtocol
import Foundation
import ServiceLifecycle
import Synchronization
import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server for operations endpoints (`/metrics`, `/healthz`): `GET` and `HEAD`,
/// one request per connection, every connection served at once by one thread in one `poll`
/// loop, so connections that never send a request cannot make a health probe wait. Each
/// connection has 2 s to send its request head (8 KiB at most); at ``maxConnections`` (an eighth
/// of the process's descriptor limit, at most 256: the rest stay for checkpoints, replay and the
/// sockets) the oldest connection still reading its head is closed to make room. When `accept`
/// finds no descriptor left, the listener rests for 100 ms rather than spinning.
final class HTTPEndpoint: Service {
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
    private let handler: @Sendable (String) -> Response
    private let stop: ThreadStop
    private var control: ZMQWakeup { stop.wakeup }

    /// Connections served at once: an eighth of the descriptor limit, 16 to 256.
    static var maxConnections: Int { DescriptorLimit.operationsConnections() }
    /// How long a connection may take to send its request head.
    static let headTimeout = Duration.seconds(2)

    /// Listens on `address`; ``run()`` serves each `GET` path with `handler`. `key` is the setting
    /// that named the address, for errors (`metrics.address`, `--metrics-address`).
    init(
        address: HostAndPort,
        key: String = "metrics.address",
        handler: @escaping @Sendable (String) -> Response
    ) throws(WorkerError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else {
            throw WorkerError(.endpoint, "cannot make a socket", key: key, cause: SystemCallError("socket"))
        }
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
        guard bound == 0, listen(socket, 1024) == 0 else {
            let cause = SystemCallError(bound == 0 ? "listen" : "bind")
            close(socket)
            throw WorkerError(.endpoint, "cannot listen on \(address)", key: key, cause: cause)
        }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        var resolved = address
        resolved.port = UInt16(bigEndian: actual.sin_port)
        self.address = resolved
        listener = socket
        self.handler = handler
        do {
            stop = try ThreadStop()
        } catch {
            close(socket)
            throw WorkerError(
                .endpoint,
                "cannot make the endpoint's wake-up pipe",
                key: key,
                cause: error
            )
        }
    }

    func run() async throws {
        await runThreadService(named: "caffe-http", stop: stop) { self.serve() }
    }


    /// Ends ``serveUntilStopped()``.
    func requestStop() { stop.post(.abandon) }

    /// One connection's progress.
    private struct Connection {
        let descriptor: Int32
        let deadline: ContinuousClock.Instant
        var head: [UInt8] = []
        /// The response, once the head is read, and how much of it is written.
        var response: [UInt8]?
        var written = 0

        /// Done: the response is written, or the connection failed (`written` is -1).
        var isFinished: Bool {
            written < 0 || (response.map { written >= $0.count } ?? false)
        }
    }

    private func serve() {
        let maxConnections = Self.maxConnections
        var listenerRestsUntil: ContinuousClock.Instant?
        var connections: [Connection] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer {
            for connection in connections { close(connection.descriptor) }
            close(listener)
        }
        while !stop.isRequested {
            if let until = listenerRestsUntil, ContinuousClock.now >= until { listenerRestsUntil = nil }
            var descriptors = [
                pollfd(fd: listenerRestsUntil == nil ? listener : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: control.fileDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            for connection in connections {
                let events = connection.response == nil ? POLLIN : POLLOUT
                descriptors.append(pollfd(fd: connection.descriptor, events: Int16(events), revents: 0))
            }
            let now = ContinuousClock.now
            let nearest =
                (connections.map(\.deadline) + [listenerRestsUntil].compactMap { $0 }).min().map {
                    max(.zero, $0 - now)
                }
                ?? .seconds(1)
            let timeout = Int32(min(1000, max(1, nearest.components.seconds * 1000 + 1)))
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if descriptors[1].revents != 0 { control.drain() }

            var kept: [Connection] = []
            kept.reserveCapacity(connections.count)
            for (index, var connection) in connections.enumerated() {
                let revents = descriptors[index + 2].revents
                if revents != 0 { progress(&connection, chunk: &chunk) }
                if connection.isFinished || ContinuousClock.now > connection.deadline {
                    close(connection.descriptor)
                } else {
                    kept.append(connection)
                }
            }
            connections = kept
            if descriptors[0].revents != 0, !accept(into: &connections, limit: maxConnections) {
                listenerRestsUntil = .now + .milliseconds(100)
            }
        }
    }

    /// Accepts every waiting connection, making room by closing the oldest unfinished ones;
    /// `false` when the process has no descriptor left to accept with.
    private func accept(into connections: inout [Connection], limit: Int) -> Bool {
        while true {
            let descriptor = Glibc.accept(listener, nil, nil)
            guard descriptor >= 0 else { return errno != EMFILE && errno != ENFILE }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            if connections.count >= limit {
                let oldest = connections.removeFirst()
                close(oldest.descriptor)
            }
            connections.append(Connection(descriptor: descriptor, deadline: .now + Self.headTimeout))
        }
    }

    /// Reads what the connection sent, or writes what is left of its response.
    private func progress(_ connection: inout Connection, chunk: inout [UInt8]) {
        if connection.response == nil {
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
                if count == 0 {
                    connection.written = -1
                    return
                }
                guard count > 0 else {
                    if errno != EAGAIN && errno != EWOULDBLOCK { connection.written = -1 }
                    break
                }
                connection.head += chunk[..<count]
                if Self.hasEndOfHead(connection.head) || connection.head.count >= 8192 { break }
            }
            guard Self.hasEndOfHead(connection.head) || connection.head.count >= 8192 else { return }
            connection.response = respond(to: connection.head)
        }
        guard let response = connection.response else { return }
        while connection.written < response.count {
            let count = response[connection.written...].withUnsafeBytes {
                send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else {
                if errno != EAGAIN && errno != EWOULDBLOCK { connection.written = -1 }
                return
            }
            connection.written += count
        }
    }

    /// The bytes of the response to a request head.
    private func respond(to head: [UInt8]) -> [UInt8] {
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
        return Array(header.utf8) + (parts.first == "HEAD" ? [] : response.body)
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
