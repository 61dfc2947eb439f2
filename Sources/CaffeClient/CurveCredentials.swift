import ZeroMQ

/// What a client needs to reach a worker that runs CURVE (`curve.secret_key` set): its own key
/// pair, whose public key the worker's `curve.allowed_clients` must list (and `rpc.admin_allowed_keys`
/// for the Admin methods, when it restricts them), and the worker's public key
/// (docs/WIRE.md "Security").
public struct CurveCredentials: Sendable {
    /// The client's key pair (`caffe keygen` makes one).
    public var keys: ZMQCurveKeyPair
    /// The worker's public key.
    public var serverKey: ZMQCurveKey

    public init(keys: ZMQCurveKeyPair, serverKey: ZMQCurveKey) {
        self.keys = keys
        self.serverKey = serverKey
    }

    /// Makes `socket` a CURVE client with these keys (before it connects).
    func secure(_ socket: ZMQSocket) throws(ZMQError) {
        try socket.makeCurveClient(keys: keys, serverKey: serverKey)
    }
}
