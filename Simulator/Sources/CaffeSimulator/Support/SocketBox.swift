import ZeroMQ

/// A socket handed to the thread that will own it.
final class SocketBox: @unchecked Sendable {
    let socket: ZMQSocket
    init(_ socket: ZMQSocket) { self.socket = socket }
}
