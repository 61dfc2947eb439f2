import ServiceLifecycle
import ZeroMQ

/// `caffe proxy`'s queue, forwarder and rpc kinds: libzmq's proxy (``ZMQProxy``, forwarding on a
/// thread of its own from `init`) as a service of the proxy's group. ``run()`` lasts until graceful
/// shutdown or cancellation; ``finish()`` then reads the last counts and stops it.
public final class ForwardingProxy: Service, Sendable {
    public let proxy: ZMQProxy

    /// Forwards between the sockets, already bound or connected (they move to the proxy's thread).
    public init(frontend: sending ZMQSocket, backend: sending ZMQSocket, capture: sending ZMQSocket?) throws(ZMQError) {
        proxy = try ZMQProxy(frontend: frontend, backend: backend, capture: capture)
    }

    /// Returns at graceful shutdown or cancellation; the proxy forwards meanwhile.
    public func run() async {
        try? await gracefulShutdown()
    }

    /// The last counts, then stops forwarding; the error that ended the proxy early, if one did.
    public func finish() -> (ZMQProxyStatistics?, ZMQError?) {
        let statistics = try? proxy.statistics(timeout: .seconds(1))
        return (statistics, proxy.terminate())
    }
}
