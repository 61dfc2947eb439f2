import CaffeBooks
import ZeroMQ

/// Counts what happens to a socket's connections: refused handshakes (on a CURVE endpoint: no
/// CURVE, a wrong key or mechanism, a client the allow-list refuses) and ended connections, whose
/// file descriptors the acknowledged output uses to forget consumers that left; and, for the
/// endpoints the socket connects to, whether each has a connection now (the input's part of
/// readiness). Read by the thread that owns the socket, through its poller.
final class SocketWatch {
    private let monitor: ZMQSocketMonitor
    /// Whether ended connections are counted (`caffe_worker_input_disconnects_total`).
    let countsDisconnects: Bool
    /// Live connections per endpoint the socket connects to.
    private var live: [String: Int]
    /// Told ``isConnected`` at start and whenever it changes.
    private let connectionChanged: (@Sendable (Bool) -> Void)?

    /// Watches `socket`; made before the socket connects to `connecting`, so no connection
    /// is missed. `connectionChanged` hears ``isConnected`` now and at each change.
    init(
        _ socket: ZMQSocket,
        countsDisconnects: Bool,
        connecting: [String] = [],
        connectionChanged: (@Sendable (Bool) -> Void)? = nil
    ) throws(ZMQError) {
        self.countsDisconnects = countsDisconnects
        live = Dictionary(connecting.map { ($0, 0) }, uniquingKeysWith: { first, _ in first })
        self.connectionChanged = connectionChanged
        connectionChanged?(live.isEmpty)
        var events: ZMQMonitorEventKind = [
            .handshakeFailedNoDetail, .handshakeFailedProtocol, .handshakeFailedAuth, .disconnected,
        ]
        if !connecting.isEmpty { events.insert(.connected) }
        monitor = try ZMQSocketMonitor(socket, events: events)
    }

    /// Every endpoint the socket connects to has a connection (true when it connects to none).
    var isConnected: Bool { live.values.allSatisfy { $0 > 0 } }

    /// The socket to poll for events.
    var socket: ZMQSocket { monitor.eventSocket }

    /// What one drain found.
    struct Events {
        var handshakeFailures: UInt64 = 0
        /// Ended connections (0 unless ``countsDisconnects``).
        var disconnects: UInt64 = 0
        /// The file descriptors of the connections that ended.
        var closed: [Int32] = []
    }

    /// Reads every event waiting.
    func drain() -> Events {
        var events = Events()
        let wasConnected = isConnected
        defer { if isConnected != wasConnected { connectionChanged?(isConnected) } }
        while let event = try? monitor.receive(timeout: .zero) {
            if event.kind.contains(.connected) {
                if let count = live[event.endpoint] { live[event.endpoint] = count + 1 }
            } else if event.kind.contains(.disconnected) {
                if let count = live[event.endpoint] { live[event.endpoint] = max(0, count - 1) }
                if countsDisconnects { events.disconnects += 1 }
                events.closed.append(Int32(bitPattern: event.value))
            } else {
                events.handshakeFailures += 1
            }
        }
        return events
    }

    func stop() { monitor.stop() }
}
