import CaffeBooks
import ZeroMQ

/// Counts what happens to a socket's connections: refused handshakes (on a CURVE endpoint: no
/// CURVE, a wrong key or mechanism, a client the allow-list refuses) and ended connections, whose
/// file descriptors the acknowledged output uses to forget consumers that left.
/// Read by the thread that owns the socket, through its poller.
final class SocketWatch {
    private let monitor: ZMQSocketMonitor
    /// Whether ended connections are counted (`caffe_worker_input_disconnects_total`).
    let countsDisconnects: Bool

    init(_ socket: ZMQSocket, countsDisconnects: Bool) throws(ZMQError) {
        self.countsDisconnects = countsDisconnects
        monitor = try ZMQSocketMonitor(
            socket,
            events: [.handshakeFailedNoDetail, .handshakeFailedProtocol, .handshakeFailedAuth, .disconnected]
        )
    }

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
        while let event = try? monitor.receive(timeout: .zero) {
            if event.kind.contains(.disconnected) {
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
