import CZeroMQ
import CaffeCore
import CaffeProtocol
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Where spans go: an OTLP/HTTP collector URL, `http://host:port/path` (plain HTTP; a collector
/// runs beside the worker, as a sidecar or a node agent).
public struct OTLPEndpoint: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    public var path: String

    /// Reads `http://host[:port][/path]` (port 80 and path `/v1/traces` when left out); `nil` for
    /// anything else, `https://` included.
    public init?(_ text: String) {
        guard text.hasPrefix("http://") else { return nil }
        let rest = text.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        var host = Substring(authority)
        var port: UInt16 = 80
        if let colon = authority.lastIndex(of: ":") {
            guard let number = UInt16(authority[authority.index(after: colon)...]), number > 0 else { return nil }
            port = number
            host = authority[..<colon]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else {
            return nil
        }
        self.host = String(host)
        self.port = port
        self.path = path.isEmpty ? "/v1/traces" : String(path)
    }

    public var description: String { "http://\(host):\(port)\(path)" }
}

/// Sends the spans of traced events to an OpenTelemetry collector as OTLP/HTTP JSON, from a thread
/// of its own: the pipeline hands each event's ``EventSpan`` over (``record(_:)``, a lock and an
/// append), and the thread posts what gathered once a second, or sooner past ``batch`` events.
/// A service of the worker's group, listed before the pipeline so that it stops after it: graceful
/// shutdown (or cancellation) sends what is queued in one last round, then the thread ends.
///
/// Bounded: at most ``capacity`` events wait; past that, and when a post fails, spans are dropped
/// and counted (`caffe_worker_spans_dropped_total`) — tracing never holds up an order.
final class SpanExporter: Service, Sendable {
    static let capacity = 8192
    static let batch = 512

    let endpoint: OTLPEndpoint
    private let serviceName: String
    private let waiting = Mutex<[EventSpan]>([])
    private let dropped = Atomic<UInt64>(0)
    private let stopping = Atomic<Bool>(false)
    private let wakeup = DispatchSemaphore(value: 0)
    private let shard: MetricShard
    private let logger: Logger

    init(endpoint: OTLPEndpoint, serviceName: String, metrics: WorkerMetrics, logger: Logger) {
        self.endpoint = endpoint
        self.serviceName = serviceName
        self.logger = logger
        shard = metrics.makeShard("spans")
    }

    /// Exports until graceful shutdown or cancellation, then sends what is queued and returns.
    func run() async throws {
        await withTaskCancellationOrGracefulShutdownHandler {
            await runOnDedicatedThread(named: "caffe-spans") { self.exportLoop() }
        } onCancelOrGracefulShutdown: {
            self.stop()
        }
    }

    /// Queues one event's spans for export; dropped (and counted) when the queue is full.
    func record(_ span: EventSpan) {
        let count = waiting.withLock { spans -> Int in
            guard spans.count < Self.capacity else { return -1 }
            spans.append(span)
            return spans.count
        }
        if count < 0 {
            dropped.add(4, ordering: .relaxed)  // the event's four spans
        } else if count == Self.batch {
            wakeup.signal()
        }
    }

    /// Asks the thread to send what is queued and stop: one more round of posts, which ends at the
    /// first that fails (each post has 2 s to connect, 2 s to send and 2 s to answer).
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeup.signal()
    }

    private func exportLoop() {
        var generator = SpanIDGenerator()
        var failuresLogged = LogBudget(perSecond: 1, burst: 3)
        while true {
            let last = stopping.load(ordering: .acquiring)
            if !last { _ = wakeup.wait(timeout: .now() + .seconds(1)) }
            let spans = waiting.withLock { spans in
                defer { spans.removeAll(keepingCapacity: true) }
                return spans
            }
            var exported: UInt64 = 0
            var lost = dropped.exchange(0, ordering: .relaxed)
            var failed: UInt64 = 0
            var start = 0
            while start < spans.count {
                let end = min(spans.count, start + Self.batch)
                let body = OTLPTraceJSON.encode(
                    spans[start..<end],
                    serviceName: serviceName,
                    childIDs: &generator
                )
                let spanCount = UInt64(end - start) * 4
                let outcome = HTTPPost.send(body, to: endpoint, contentType: "application/json", timeout: 2)
                if case .success(200..<300) = outcome {
                    exported += spanCount
                } else {
                    failed += 1
                    // The last round, at shutdown, gives up on the rest at the first failure.
                    let given = last ? UInt64(spans.count - start) * 4 : spanCount
                    lost += given
                    if let heldBack = failuresLogged.admit(at: .now) {
                        var metadata: Logger.Metadata = [
                            "endpoint": "\(endpoint)", "spans": "\(given)", "not_logged_before": "\(heldBack)",
                        ]
                        switch outcome {
                        case .success(let status): metadata["status"] = "\(status)"
                        case .failure(let reason): metadata["error"] = "\(reason)"
                        }
                        let refused = if case .success = outcome { true } else { false }
                        logger.warning(
                            refused ? "spans refused by the collector; dropped" : "spans not exported; dropped",
                            metadata: metadata
                        )
                    }
                    if last { break }
                }
                start = end
            }
            if exported + lost + failed > 0 {
                shard.update { counts in
                    counts.spansExported += exported
                    counts.spansDropped += lost
                    counts.spanExportFailures += failed
                }
            }
            if last { return }
        }
    }
}

/// OTLP/HTTP's JSON encoding of `ExportTraceServiceRequest` (opentelemetry-proto's JSON mapping:
/// ids as lowercase hex, times as decimal strings of nanoseconds since 1970, enums as numbers),
/// written straight into bytes.
enum OTLPTraceJSON {
    /// Span kinds (`Span.SpanKind`).
    static let internalKind = 1
    static let producerKind = 4
    static let consumerKind = 5

    /// Four spans per event: `caffe.event` and, under it, `intake`, `render`, `publish`.
    static func encode(
        _ events: ArraySlice<EventSpan>,
        serviceName: String,
        childIDs: inout SpanIDGenerator
    ) -> [UInt8] {
        var json = JSONBytes(capacity: 256 + events.count * 1400)
        json.raw("{\"resourceSpans\":[{\"resource\":{\"attributes\":[")
        json.attribute("service.name", serviceName)
        json.raw(",")
        json.attribute("service.version", CaffeVersion.current)
        json.raw("]},\"scopeSpans\":[{\"scope\":{\"name\":\"caffe.worker\",\"version\":")
        json.string(CaffeVersion.current)
        json.raw("},\"spans\":[")
        var first = true
        for event in events {
            let failed = event.outcome.hasPrefix("dead_letter")
            if !first { json.raw(",") }
            first = false
            json.span(
                event,
                name: "caffe.event",
                kind: consumerKind,
                id: event.spanID,
                parent: event.parent.parentID,
                from: event.admittedAt,
                to: event.publishedAt
            ) { json in
                json.raw(",\"attributes\":[")
                json.attribute("caffe.source_id", event.source)
                json.raw(",{\"key\":\"caffe.sequence\",\"value\":{\"intValue\":\"")
                json.decimal(Int64(truncatingIfNeeded: event.sequence))
                json.raw("\"}},")
                json.attribute("caffe.body_type", event.bodyType)
                json.raw(",")
                json.attribute("caffe.outcome", event.outcome)
                json.raw(",")
                json.attribute("messaging.system", "zeromq")
                if !event.orderID.isEmpty {
                    json.raw(",")
                    json.attribute("caffe.order_id", event.orderID)
                }
                if !event.locale.isEmpty {
                    json.raw(",")
                    json.attribute("caffe.locale", event.locale)
                }
                json.raw("]")
                if failed { json.errorStatus(event.outcome) }
            }
            let stages: [(StaticString, Int, Int64, Int64, Bool)] = [
                ("intake", internalKind, event.admittedAt, event.renderStartedAt, false),
                ("render", internalKind, event.renderStartedAt, event.renderEndedAt, failed),
                ("publish", producerKind, event.renderEndedAt, event.publishedAt, false),
            ]
            for (name, kind, start, end, failed) in stages {
                json.raw(",")
                json.span(
                    event,
                    name: name,
                    kind: kind,
                    id: childIDs.next(),
                    parent: event.spanID,
                    from: start,
                    to: end
                ) {
                    json in
                    if failed { json.errorStatus(event.outcome) }
                }
            }
        }
        json.raw("]}]}]}")
        return json.bytes
    }
}

/// A JSON document being written as UTF-8 bytes.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `text` as a JSON string, quoted and escaped.
    mutating func string(_ text: String) {
        bytes.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5c:
                bytes.append(0x5c)
                bytes.append(byte)
            case 0..<0x20:
                bytes.append(contentsOf: [
                    0x5c, 0x75, 0x30, 0x30, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 15)],
                ])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    /// 16 lowercase hex digits.
    mutating func hex(_ value: UInt64) {
        for shift in stride(from: 60, through: 0, by: -4) {
            bytes.append(Self.hexDigits[Int((value >> UInt64(shift)) & 15)])
        }
    }

    mutating func decimal(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func attribute(_ key: StaticString, _ value: String) {
        raw("{\"key\":\"")
        raw(key)
        raw("\",\"value\":{\"stringValue\":")
        string(value)
        raw("}}")
    }

    mutating func errorStatus(_ message: String) {
        raw(",\"status\":{\"code\":2,\"message\":")
        string(message)
        raw("}")
    }

    /// One span object; `more` writes fields after the times (attributes, status).
    mutating func span(
        _ event: EventSpan,
        name: StaticString,
        kind: Int,
        id: UInt64,
        parent: UInt64,
        from start: Int64,
        to end: Int64,
        more: (inout JSONBytes) -> Void
    ) {
        raw("{\"traceId\":\"")
        hex(event.parent.traceIDHigh)
        hex(event.parent.traceIDLow)
        raw("\",\"spanId\":\"")
        hex(id)
        raw("\",\"parentSpanId\":\"")
        hex(parent)
        raw("\",\"name\":\"")
        raw(name)
        raw("\",\"kind\":")
        decimal(Int64(kind))
        raw(",\"startTimeUnixNano\":\"")
        decimal(max(0, start))
        raw("\",\"endTimeUnixNano\":\"")
        decimal(max(start, end))
        raw("\"")
        more(&self)
        raw("}")
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

/// One HTTP/1.1 POST over a new connection (`Connection: close`): the status code, or why there
/// is none. Names are resolved with `getaddrinfo` (IPv4 and IPv6).
enum HTTPPost {
    static func send(
        _ body: [UInt8],
        to endpoint: OTLPEndpoint,
        contentType: String,
        timeout seconds: Int
    ) -> Result<Int, HTTPPostError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(endpoint.host, "\(endpoint.port)", &hints, &found)
        guard resolved == 0, let first = found else {
            return .failure(
                HTTPPostError("cannot resolve \(endpoint.host): \(String(cString: gai_strerror(resolved)))")
            )
        }
        defer { freeaddrinfo(first) }
        var descriptor: Int32 = -1
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        var lastError = "no address"
        while let address = candidate {
            let attempt = socket(
                address.pointee.ai_family,
                address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                0
            )
            if attempt >= 0 {
                var timeout = timeval(tv_sec: seconds, tv_usec: 0)
                setsockopt(attempt, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(attempt, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                if connect(attempt, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                    descriptor = attempt
                    break
                }
                lastError = String(cString: strerror(errno))
                close(attempt)
            }
            candidate = address.pointee.ai_next
        }
        guard descriptor >= 0 else { return .failure(HTTPPostError("cannot connect to \(endpoint): \(lastError)")) }
        defer { close(descriptor) }
        let head =
            "POST \(endpoint.path) HTTP/1.1\r\nHost: \(endpoint.host):\(endpoint.port)\r\n"
            + "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        for part in [Array(head.utf8), body] {
            var offset = 0
            while offset < part.count {
                let sent = part.withUnsafeBytes { bytes in
                    Glibc.send(
                        descriptor,
                        bytes.baseAddress.map { $0 + offset },
                        bytes.count - offset,
                        Int32(MSG_NOSIGNAL)
                    )
                }
                guard sent > 0 else {
                    return .failure(HTTPPostError("sending to \(endpoint) failed: \(String(cString: strerror(errno)))"))
                }
                offset += sent
            }
        }
        // The status line is all that is read: "HTTP/1.1 200 OK".
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        // A collector that trickles bytes gets `seconds` in all to say its status line.
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !response.contains(0x0a), ContinuousClock.now < deadline {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            response += chunk[..<count]
        }
        let line = String(decoding: response.prefix { $0 != 0x0d && $0 != 0x0a }, as: UTF8.self)
        guard line.hasPrefix("HTTP/"), let status = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else {
            return .failure(HTTPPostError("no HTTP status from \(endpoint) within \(seconds) s"))
        }
        return .success(status)
    }
}

/// Why a POST got no status.
struct HTTPPostError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
