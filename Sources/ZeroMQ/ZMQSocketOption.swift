import CZeroMQ

/// A typed libzmq socket option: its `ZMQ_*` number and how its value is encoded.
///
/// ```swift
/// try socket.set(.sendHighWaterMark, to: 10_000)
/// try socket.set(.linger, to: .seconds(2))
/// let endpoint = try socket.get(.lastEndpoint)
/// ```
public struct ZMQSocketOption<Value>: Sendable, CustomStringConvertible {
    /// The option's number (`ZMQ_SNDHWM`…).
    public let number: Int32
    /// The option's libzmq name, for error messages.
    public let name: String
    let encode: @Sendable (Value) -> ZMQOptionValue
    let decode: @Sendable (ZMQOptionValue) -> Value
    let storage: ZMQOptionValue.Kind

    init(
        _ number: Int32,
        _ name: String,
        _ storage: ZMQOptionValue.Kind,
        encode: @escaping @Sendable (Value) -> ZMQOptionValue,
        decode: @escaping @Sendable (ZMQOptionValue) -> Value
    ) {
        self.number = number
        self.name = name
        self.storage = storage
        self.encode = encode
        self.decode = decode
    }

    public var description: String { name }
}

/// The C-level representation of an option value.
enum ZMQOptionValue {
    case int32(Int32)
    case int64(Int64)
    case bytes([UInt8])

    enum Kind {
        case int32
        case int64
        /// Binary or string value, with the largest size libzmq may return.
        case bytes(capacity: Int)
        /// A NUL-terminated string; the terminator is dropped when read.
        case string(capacity: Int)
    }

    var asInt32: Int32 {
        if case .int32(let value) = self { return value }
        return 0
    }

    var asInt64: Int64 {
        if case .int64(let value) = self { return value }
        return 0
    }

    var asBytes: [UInt8] {
        if case .bytes(let value) = self { return value }
        return []
    }
}

extension ZMQSocketOption where Value == Int32 {
    static func int32(_ number: Int32, _ name: String) -> Self {
        Self(number, name, .int32, encode: { .int32($0) }, decode: { $0.asInt32 })
    }

    /// Messages queued for sending per peer before PUB drops and PUSH/DEALER block (`ZMQ_SNDHWM`, default 1000; 0 = no limit).
    public static var sendHighWaterMark: Self { .int32(ZMQ_SNDHWM, "ZMQ_SNDHWM") }
    /// Messages queued for receiving per peer (`ZMQ_RCVHWM`, default 1000; 0 = no limit).
    public static var receiveHighWaterMark: Self { .int32(ZMQ_RCVHWM, "ZMQ_RCVHWM") }
    /// Maximum network hops for multicast; also a handy integer probe (`ZMQ_MULTICAST_HOPS`).
    public static var multicastHops: Self { .int32(ZMQ_MULTICAST_HOPS, "ZMQ_MULTICAST_HOPS") }
    /// Keepalive probes before the connection is dropped (`ZMQ_TCP_KEEPALIVE_CNT`, -1 = OS default).
    public static var tcpKeepaliveCount: Self { .int32(ZMQ_TCP_KEEPALIVE_CNT, "ZMQ_TCP_KEEPALIVE_CNT") }
    /// Seconds idle before keepalive probes start (`ZMQ_TCP_KEEPALIVE_IDLE`, -1 = OS default).
    public static var tcpKeepaliveIdle: Self { .int32(ZMQ_TCP_KEEPALIVE_IDLE, "ZMQ_TCP_KEEPALIVE_IDLE") }
    /// Seconds between keepalive probes (`ZMQ_TCP_KEEPALIVE_INTVL`, -1 = OS default).
    public static var tcpKeepaliveInterval: Self { .int32(ZMQ_TCP_KEEPALIVE_INTVL, "ZMQ_TCP_KEEPALIVE_INTVL") }
    /// The file descriptor that signals possible readiness (`ZMQ_FD`, read-only); see ``ZMQSocket/fileDescriptor``.
    public static var fileDescriptor: Self { .int32(ZMQ_FD, "ZMQ_FD") }
}

extension ZMQSocketOption where Value == Int64 {
    /// The largest inbound message accepted; a peer sending more is disconnected (`ZMQ_MAXMSGSIZE`, -1 = no limit).
    public static var maxMessageSize: Self {
        Self(ZMQ_MAXMSGSIZE, "ZMQ_MAXMSGSIZE", .int64, encode: { .int64($0) }, decode: { $0.asInt64 })
    }
}

extension ZMQSocketOption where Value == Bool {
    static func bool(_ number: Int32, _ name: String) -> Self {
        Self(number, name, .int32, encode: { .int32($0 ? 1 : 0) }, decode: { $0.asInt32 != 0 })
    }

    /// Queue messages only to completed connections, so a PUSH never queues to a peer that is not
    /// there yet (`ZMQ_IMMEDIATE`).
    public static var immediate: Self { .bool(ZMQ_IMMEDIATE, "ZMQ_IMMEDIATE") }
    /// A ROUTER fails with `EHOSTUNREACH` instead of silently dropping unroutable messages
    /// (`ZMQ_ROUTER_MANDATORY`, write-only).
    public static var routerMandatory: Self { .bool(ZMQ_ROUTER_MANDATORY, "ZMQ_ROUTER_MANDATORY") }
    /// Keep only the last message in each queue (`ZMQ_CONFLATE`, write-only; single-frame messages only).
    public static var conflate: Self { .bool(ZMQ_CONFLATE, "ZMQ_CONFLATE") }
    /// Act as the CURVE server: needs ``curveSecretKey`` (`ZMQ_CURVE_SERVER`).
    public static var curveServer: Self { .bool(ZMQ_CURVE_SERVER, "ZMQ_CURVE_SERVER") }
    /// Pass subscription messages of every subscriber to an XPUB, not only new topics (`ZMQ_XPUB_VERBOSE`).
    public static var xpubVerbose: Self { .bool(ZMQ_XPUB_VERBOSE, "ZMQ_XPUB_VERBOSE") }
    /// Pass every unsubscription too, not only a prefix's last (`ZMQ_XPUB_VERBOSER`, libzmq 4.2+):
    /// with ``xpubVerbose``, a count of subscribers that stays true as peers come and go.
    public static var xpubVerboser: Self { .bool(ZMQ_XPUB_VERBOSER, "ZMQ_XPUB_VERBOSER") }
    /// An XPUB whose matching subscriber is at its high-water mark fails the send with `EAGAIN`
    /// instead of dropping the message for that subscriber (`ZMQ_XPUB_NODROP`).
    public static var xpubNoDrop: Self { .bool(ZMQ_XPUB_NODROP, "ZMQ_XPUB_NODROP") }
    /// Use IPv6 as well as IPv4 (`ZMQ_IPV6`).
    public static var ipv6: Self { .bool(ZMQ_IPV6, "ZMQ_IPV6") }
}

extension ZMQSocketOption where Value == ZMQTimeout {
    static func timeout(_ number: Int32, _ name: String) -> Self {
        Self(
            number,
            name,
            .int32,
            encode: { .int32($0.rawMilliseconds) },
            decode: { ZMQTimeout(rawMilliseconds: $0.asInt32) }
        )
    }

    /// How long unsent messages are kept after close (`ZMQ_LINGER`; contexts here default it to zero).
    public static var linger: Self { .timeout(ZMQ_LINGER, "ZMQ_LINGER") }
    /// How long a blocking send waits before failing with `EAGAIN` (`ZMQ_SNDTIMEO`, default infinite).
    public static var sendTimeout: Self { .timeout(ZMQ_SNDTIMEO, "ZMQ_SNDTIMEO") }
    /// How long a blocking receive waits before failing with `EAGAIN` (`ZMQ_RCVTIMEO`, default infinite).
    public static var receiveTimeout: Self { .timeout(ZMQ_RCVTIMEO, "ZMQ_RCVTIMEO") }
}

extension ZMQSocketOption where Value == Duration {
    static func milliseconds(_ number: Int32, _ name: String) -> Self {
        Self(
            number,
            name,
            .int32,
            encode: { .int32(ZMQTimeout($0).rawMilliseconds) },
            decode: { .milliseconds($0.asInt32) }
        )
    }

    /// Interval between ZMTP heartbeat PINGs; zero disables them (`ZMQ_HEARTBEAT_IVL`).
    public static var heartbeatInterval: Self { .milliseconds(ZMQ_HEARTBEAT_IVL, "ZMQ_HEARTBEAT_IVL") }
    /// How long to wait for traffic after a PING before closing the connection (`ZMQ_HEARTBEAT_TIMEOUT`).
    public static var heartbeatTimeout: Self { .milliseconds(ZMQ_HEARTBEAT_TIMEOUT, "ZMQ_HEARTBEAT_TIMEOUT") }
    /// How long the peer should wait for traffic before timing the connection out, sent in PINGs
    /// (`ZMQ_HEARTBEAT_TTL`, 100 ms resolution).
    public static var heartbeatTimeToLive: Self { .milliseconds(ZMQ_HEARTBEAT_TTL, "ZMQ_HEARTBEAT_TTL") }
    /// First wait before reconnecting a dropped connection (`ZMQ_RECONNECT_IVL`, default 100 ms).
    public static var reconnectInterval: Self { .milliseconds(ZMQ_RECONNECT_IVL, "ZMQ_RECONNECT_IVL") }
    /// Upper bound of the exponential reconnect back-off; zero keeps ``reconnectInterval`` fixed
    /// (`ZMQ_RECONNECT_IVL_MAX`).
    public static var reconnectIntervalMax: Self { .milliseconds(ZMQ_RECONNECT_IVL_MAX, "ZMQ_RECONNECT_IVL_MAX") }
}

/// The `ZMQ_TCP_KEEPALIVE` setting.
public enum ZMQTCPKeepalive: Int32, Sendable {
    /// Leave the operating system's setting (`-1`).
    case systemDefault = -1
    /// Turn `SO_KEEPALIVE` off.
    case disabled = 0
    /// Turn `SO_KEEPALIVE` on.
    case enabled = 1
}

extension ZMQSocketOption where Value == ZMQTCPKeepalive {
    /// TCP keepalive on the socket's connections (`ZMQ_TCP_KEEPALIVE`).
    public static var tcpKeepalive: Self {
        Self(
            ZMQ_TCP_KEEPALIVE,
            "ZMQ_TCP_KEEPALIVE",
            .int32,
            encode: { .int32($0.rawValue) },
            decode: { ZMQTCPKeepalive(rawValue: $0.asInt32) ?? .systemDefault }
        )
    }
}

extension ZMQSocketOption where Value == [UInt8] {
    static func bytes(_ number: Int32, _ name: String, capacity: Int) -> Self {
        Self(number, name, .bytes(capacity: capacity), encode: { .bytes($0) }, decode: { $0.asBytes })
    }

    /// The identity a ROUTER peer sees for this socket, 1–255 bytes not starting with 0 (`ZMQ_ROUTING_ID`).
    public static var routingID: Self { .bytes(ZMQ_ROUTING_ID, "ZMQ_ROUTING_ID", capacity: 255) }
    /// Add a topic prefix to a SUB socket (`ZMQ_SUBSCRIBE`, write-only); see ``ZMQSocket/subscribe(_:)``.
    public static var subscribe: Self { .bytes(ZMQ_SUBSCRIBE, "ZMQ_SUBSCRIBE", capacity: 0) }
    /// Remove a topic prefix from a SUB socket (`ZMQ_UNSUBSCRIBE`, write-only).
    public static var unsubscribe: Self { .bytes(ZMQ_UNSUBSCRIBE, "ZMQ_UNSUBSCRIBE", capacity: 0) }
}

extension ZMQSocketOption where Value == String {
    static func string(_ number: Int32, _ name: String, capacity: Int) -> Self {
        Self(
            number,
            name,
            .string(capacity: capacity),
            encode: { .bytes(Array($0.utf8)) },
            decode: { String(decoding: $0.asBytes, as: UTF8.self) }
        )
    }

    /// The endpoint last bound or connected, wildcards resolved (`ZMQ_LAST_ENDPOINT`, read-only).
    public static var lastEndpoint: Self { .string(ZMQ_LAST_ENDPOINT, "ZMQ_LAST_ENDPOINT", capacity: 1024) }
    /// The ZAP domain sent to the authentication handler (`ZMQ_ZAP_DOMAIN`).
    public static var zapDomain: Self { .string(ZMQ_ZAP_DOMAIN, "ZMQ_ZAP_DOMAIN", capacity: 256) }
}

extension ZMQSocketOption where Value == ZMQCurveKey {
    static func curveKey(_ number: Int32, _ name: String) -> Self {
        Self(
            number,
            name,
            .bytes(capacity: 32),
            encode: { .bytes($0.bytes) },
            decode: { (try? ZMQCurveKey(bytes: $0.asBytes)) ?? ZMQCurveKey.zero }
        )
    }

    /// This socket's long-term public key (`ZMQ_CURVE_PUBLICKEY`).
    public static var curvePublicKey: Self { .curveKey(ZMQ_CURVE_PUBLICKEY, "ZMQ_CURVE_PUBLICKEY") }
    /// This socket's long-term secret key (`ZMQ_CURVE_SECRETKEY`).
    public static var curveSecretKey: Self { .curveKey(ZMQ_CURVE_SECRETKEY, "ZMQ_CURVE_SECRETKEY") }
    /// The server's public key, set on a CURVE client (`ZMQ_CURVE_SERVERKEY`).
    public static var curveServerKey: Self { .curveKey(ZMQ_CURVE_SERVERKEY, "ZMQ_CURVE_SERVERKEY") }
}

extension ZMQSocketOption where Value == ZMQEvents {
    /// What the socket can do without blocking (`ZMQ_EVENTS`, read-only); see ``ZMQSocket/events``.
    public static var events: Self {
        Self(
            ZMQ_EVENTS,
            "ZMQ_EVENTS",
            .int32,
            encode: { .int32(Int32($0.rawValue)) },
            decode: { ZMQEvents(rawValue: Int16(truncatingIfNeeded: $0.asInt32)) }
        )
    }
}

extension ZMQSocketOption where Value == ZMQSocketType? {
    /// The socket's type as libzmq reports it (`ZMQ_TYPE`, read-only).
    public static var socketType: Self {
        Self(
            ZMQ_TYPE,
            "ZMQ_TYPE",
            .int32,
            encode: { .int32($0?.rawValue ?? -1) },
            decode: { ZMQSocketType(rawValue: $0.asInt32) }
        )
    }
}

extension ZMQSocket {
    /// Sets a socket option (`zmq_setsockopt`).
    public func set<Value>(_ option: ZMQSocketOption<Value>, to value: Value) throws(ZMQError) {
        let operation = "zmq_setsockopt(\(option.name))"
        let handle = try open(operation)
        let rc: Int32
        switch option.encode(value) {
        case .int32(var raw):
            rc = zmq_setsockopt(handle, option.number, &raw, MemoryLayout<Int32>.size)
        case .int64(var raw):
            rc = zmq_setsockopt(handle, option.number, &raw, MemoryLayout<Int64>.size)
        case .bytes(let raw):
            rc = raw.withUnsafeBytes { zmq_setsockopt(handle, option.number, $0.baseAddress, $0.count) }
        }
        guard rc == 0 else { throw ZMQError.last(operation) }
    }

    /// Reads a socket option (`zmq_getsockopt`).
    public func get<Value>(_ option: ZMQSocketOption<Value>) throws(ZMQError) -> Value {
        let operation = "zmq_getsockopt(\(option.name))"
        let handle = try open(operation)
        let raw: ZMQOptionValue
        switch option.storage {
        case .int32:
            var value: Int32 = 0
            var size = MemoryLayout<Int32>.size
            guard zmq_getsockopt(handle, option.number, &value, &size) == 0 else { throw ZMQError.last(operation) }
            raw = .int32(value)
        case .int64:
            var value: Int64 = 0
            var size = MemoryLayout<Int64>.size
            guard zmq_getsockopt(handle, option.number, &value, &size) == 0 else { throw ZMQError.last(operation) }
            raw = .int64(value)
        case .bytes(let capacity), .string(let capacity):
            var buffer = [UInt8](repeating: 0, count: max(capacity, 1))
            var size = buffer.count
            let rc = buffer.withUnsafeMutableBytes { zmq_getsockopt(handle, option.number, $0.baseAddress, &size) }
            guard rc == 0 else { throw ZMQError.last(operation) }
            var value = Array(buffer.prefix(size))
            if case .string = option.storage, value.last == 0 { value.removeLast() }
            raw = .bytes(value)
        }
        return option.decode(raw)
    }
}
