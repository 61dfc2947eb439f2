import CaffeBooks
import Foundation
import ZeroMQ

/// CURVE for every endpoint of a worker: the sockets it binds are CURVE servers admitting only the
/// configured client keys (through a ZAP authenticator on the worker's context, which counts the
/// refused handshakes); the sockets it connects are CURVE clients of `curve.server_key`.
final class WorkerSecurity: Sendable {
    let keys: ZMQCurveKeyPair
    let serverKey: ZMQCurveKey?
    private let authenticator: ZMQAuthenticator

    init(_ curve: WorkerConfiguration.Curve, context: ZMQContext) throws(ZMQError) {
        keys = try ZMQCurveKeyPair(secretKey: ZMQCurveKey(z85: curve.secretKey))
        serverKey = try curve.serverKey.isEmpty ? nil : ZMQCurveKey(z85: curve.serverKey)
        var allowed: Set<ZMQCurveKey> = []
        for key in curve.allowedClients { allowed.insert(try ZMQCurveKey(z85: key)) }
        authenticator = try ZMQAuthenticator(context: context, allowedClientKeys: allowed)
    }

    /// Handshakes refused so far (unknown client key, or no CURVE at all).
    var refused: Int { authenticator.refused }

    /// Makes `socket` a CURVE server (it binds) or client (it connects). Call before binding or connecting.
    ///
    /// - Throws: `EINVAL` for a client when no server key is configured: with CURVE on, the
    ///   worker never connects in plain text (for example to a replay endpoint a source announced).
    func secure(_ socket: ZMQSocket, asServer: Bool) throws(ZMQError) {
        if asServer {
            try socket.makeCurveServer(keys: keys, authenticator: authenticator)
        } else if let serverKey {
            try socket.makeCurveClient(keys: keys, serverKey: serverKey)
        } else {
            throw ZMQError(
                code: EINVAL,
                operation: "curve",
                message: "CURVE is on but curve.server_key is empty; not connecting in plain text"
            )
        }
    }

    /// Stops the authenticator; call once every secured socket is closed.
    func stop() { authenticator.stop() }
}
