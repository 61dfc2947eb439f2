import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on loopback that takes POSTs, keeps them (path, content type and body, or
/// only their count and size) and answers each with `status`: an OpenTelemetry collector for the
/// worker's spans in `caffe-sim bench worker --traced` and in tests. One connection at a time.
public final class HTTPReceiver: @unchecked Sendable {
    public struct Request: Sendable {
        public var path: String
        public var contentType: String
        public var body: [UInt8]
    }

    /// The port listened on (127.0.0.1).
    public let port: UInt16
    /// The requests received, bodies included when ``keepsBodies``.
    public let requests = Mutex<[Request]>([])
    /// Bytes of request bodies received.
    public let bodyBytes = Atomic<Int>(0)
    public let keepsBodies: Bool
    private let status: Int
    private let listener: Int32
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on a free port of 127.0.0.1 and answers every request with `status`.
    public init(status: Int = 200, keepsBodies: Bool = true) throws {
        self.status = status
        self.keepsBodies = keepsBodies
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, raw, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in
            serve()
            finished.signal()
        }.start()
    }

    /// The bodies received so far, as text.
    public var bodies: [String] { requests.withLock { $0.map { String(decoding: $0.body, as: UTF8.self) } } }

    /// Stops listening and waits for the serving thread.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }

    private func serve() {
        while !stopping.load(ordering: .acquiring) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if var request = read(connection) {
                bodyBytes.add(request.body.count, ordering: .relaxed)
                if !keepsBodies { request.body = [] }
                requests.withLock { $0.append(request) }
                let answer = "HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                _ = Array(answer.utf8).withUnsafeBytes {
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            }
            close(connection)
        }
    }

    /// Reads one request: head, then as many body bytes as Content-Length says.
    private func read(_ connection: Int32) -> Request? {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var expected = Int.max
        while data.count < expected {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            data += chunk[..<count]
            if headEnd == nil, let end = data.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                headEnd = end
                let head = String(decoding: data[..<end], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end + length
            }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: data[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let type =
            lines.first { $0.lowercased().hasPrefix("content-type:") }
            .map { $0.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces) } ?? ""
        return Request(path: path, contentType: type, body: Array(data[headEnd...]))
    }
}
