import CZeroMQ

/// A kind of socket lifecycle event reported by `zmq_socket_monitor`.
public struct ZMQMonitorEventKind: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A connection to a peer was made (value: the file descriptor).
    public static let connected = Self(rawValue: UInt16(ZMQ_EVENT_CONNECTED))
    /// A connect attempt is pending (value: errno).
    public static let connectDelayed = Self(rawValue: UInt16(ZMQ_EVENT_CONNECT_DELAYED))
    /// A connect attempt is being retried (value: the reconnect interval in ms).
    public static let connectRetried = Self(rawValue: UInt16(ZMQ_EVENT_CONNECT_RETRIED))
    /// The socket is listening on the endpoint (value: the file descriptor).
    public static let listening = Self(rawValue: UInt16(ZMQ_EVENT_LISTENING))
    /// Binding failed (value: errno).
    public static let bindFailed = Self(rawValue: UInt16(ZMQ_EVENT_BIND_FAILED))
    /// A peer connected to a bound endpoint (value: the file descriptor).
    public static let accepted = Self(rawValue: UInt16(ZMQ_EVENT_ACCEPTED))
    /// Accepting a peer failed (value: errno).
    public static let acceptFailed = Self(rawValue: UInt16(ZMQ_EVENT_ACCEPT_FAILED))
    /// A connection's descriptor was closed (value: the file descriptor).
    public static let closed = Self(rawValue: UInt16(ZMQ_EVENT_CLOSED))
    /// Closing a descriptor failed (value: errno).
    public static let closeFailed = Self(rawValue: UInt16(ZMQ_EVENT_CLOSE_FAILED))
    /// A peer went away (value: the file descriptor).
    public static let disconnected = Self(rawValue: UInt16(ZMQ_EVENT_DISCONNECTED))
    /// Monitoring ended; no further events follow.
    public static let monitorStopped = Self(rawValue: UInt16(ZMQ_EVENT_MONITOR_STOPPED))
    /// The ZMTP handshake failed without more detail (value: errno).
    public static let handshakeFailedNoDetail = Self(rawValue: UInt16(ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL))
    /// The ZMTP handshake, including any security mechanism, completed.
    public static let handshakeSucceeded = Self(rawValue: UInt16(ZMQ_EVENT_HANDSHAKE_SUCCEEDED))
    /// The handshake failed on a protocol error (value: a `ZMQ_PROTOCOL_ERROR_*` code).
    public static let handshakeFailedProtocol = Self(rawValue: UInt16(ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL))
    /// The handshake failed on authentication: a ZAP handler refused the peer (value: the ZAP status, e.g. 400).
    public static let handshakeFailedAuth = Self(rawValue: UInt16(ZMQ_EVENT_HANDSHAKE_FAILED_AUTH))

    /// Every event.
    public static let all = Self(rawValue: UInt16(ZMQ_EVENT_ALL))

    private static let names: [(Self, String)] = [
        (.connected, "connected"), (.connectDelayed, "connectDelayed"), (.connectRetried, "connectRetried"),
        (.listening, "listening"), (.bindFailed, "bindFailed"), (.accepted, "accepted"),
        (.acceptFailed, "acceptFailed"), (.closed, "closed"), (.closeFailed, "closeFailed"),
        (.disconnected, "disconnected"), (.monitorStopped, "monitorStopped"),
        (.handshakeFailedNoDetail, "handshakeFailedNoDetail"), (.handshakeSucceeded, "handshakeSucceeded"),
        (.handshakeFailedProtocol, "handshakeFailedProtocol"), (.handshakeFailedAuth, "handshakeFailedAuth"),
    ]

    public var description: String {
        let known = Self.names.filter { contains($0.0) }.map(\.1)
        return known.isEmpty ? "event(0x\(String(rawValue, radix: 16)))" : known.joined(separator: "|")
    }
}

/// One socket lifecycle event.
public struct ZMQMonitorEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public let kind: ZMQMonitorEventKind
    /// The event's value: a file descriptor, an errno, an interval or a status, depending on ``kind``.
    public let value: UInt32
    /// The endpoint the event concerns.
    public let endpoint: String

    public var description: String { "\(kind)(\(value)) \(endpoint)" }
}

/// Reads lifecycle events (connected, disconnected, handshake succeeded or failed…) of one socket.
///
/// Created by the socket's owner, on the owner's thread, and read there:
///
/// ```swift
/// let monitor = try ZMQSocketMonitor(socket, events: [.handshakeSucceeded, .handshakeFailedAuth])
/// try socket.connect(endpoint)
/// let event = try monitor.receive(timeout: .seconds(2))
/// ```
///
/// libzmq publishes the events on an internal `inproc://` PAIR socket; this type owns the reading end.
public final class ZMQSocketMonitor {
    private let pair: ZMQSocket
    private weak var socket: ZMQSocket?

    /// Starts monitoring `socket` for `events` (`zmq_socket_monitor`).
    public init(_ socket: ZMQSocket, events: ZMQMonitorEventKind = .all) throws(ZMQError) {
        let endpoint = ZMQInprocName.make("monitor")
        let handle = try socket.open("zmq_socket_monitor(\(endpoint))")
        guard zmq_socket_monitor(handle, endpoint, Int32(events.rawValue)) == 0 else {
            throw ZMQError.last("zmq_socket_monitor(\(endpoint))")
        }
        let pair = try socket.context.socket(.pair)
        try pair.connect(endpoint)
        self.pair = pair
        self.socket = socket
    }

    deinit {
        stop()
    }

    /// The reading end, for a ``ZMQPoller``: readable when an event waits.
    public var eventSocket: ZMQSocket { pair }

    /// Receives the next event, waiting at most `timeout`; `nil` if none came in time.
    public func receive(timeout: ZMQTimeout = .infinite) throws(ZMQError) -> ZMQMonitorEvent? {
        guard let frames = try pair.receiveMultipart(timeout: timeout) else { return nil }
        guard frames.count == 2, frames[0].count == 6 else {
            throw ZMQError.invalidArgument("zmq_socket_monitor", "unexpected monitor message of \(frames.count) frames")
        }
        let (kind, value) = frames[0].withUnsafeBytes { bytes in
            (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt16.self),
                bytes.loadUnaligned(fromByteOffset: 2, as: UInt32.self)
            )
        }
        return ZMQMonitorEvent(kind: ZMQMonitorEventKind(rawValue: kind), value: value, endpoint: frames[1].string)
    }

    /// Receives events until one of `kinds` arrives, returning it; `nil` if `timeout` passes first.
    public func wait(for kinds: ZMQMonitorEventKind, timeout: ZMQTimeout) throws(ZMQError) -> ZMQMonitorEvent? {
        let deadline = ContinuousClock.Instant.deadline(after: .milliseconds(timeout.rawMilliseconds))
        while true {
            let remaining: ZMQTimeout =
                timeout == .infinite ? .infinite : ZMQTimeout(ContinuousClock.now.duration(to: deadline))
            guard remaining != .zero || timeout == .zero else { return nil }
            guard let event = try receive(timeout: remaining) else { return nil }
            if !event.kind.isDisjoint(with: kinds) { return event }
        }
    }

    /// Stops monitoring and closes the reading end. Called on release as well.
    public func stop() {
        if let handle = socket?.handle {
            zmq_socket_monitor(handle, nil, 0)
        }
        pair.close()
    }
}
