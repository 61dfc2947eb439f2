import ZeroMQ

/// Counts what happens to a socket's connections: refused handshakes (on a CURVE endpoint: no
/// CURVE, a wrong key or mechanism, a client the allow-list refuses) and ended connections.
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

    /// Reads every event waiting; returns how many handshakes failed and connections ended.
    func drain() -> (handshakeFailures: UInt64, disconnects: UInt64) {
        var failures: UInt64 = 0
        var disconnects: UInt64 = 0
        while let event = try? monitor.receive(timeout: .zero) {
            if event.kind.contains(.disconnected) {
                disconnects += 1
            } else {
                failures += 1
            }
        }
        return (failures, countsDisconnects ? disconnects : 0)
    }

    func stop() { monitor.stop() }
}
