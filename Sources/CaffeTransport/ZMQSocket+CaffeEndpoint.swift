import CaffeProtocol
import ZeroMQ

extension ZMQSocket {
    /// Binds or connects the socket as `endpoint` says; returns the address attached (a bound
    /// wildcard port resolved: `tcp://127.0.0.1:*` comes back as `tcp://127.0.0.1:41234`).
    @discardableResult
    public func attach(_ endpoint: CaffeEndpoint) throws(ZMQError) -> String {
        switch endpoint.mode {
        case .bind:
            return try bind(endpoint.address)
        case .connect:
            try connect(endpoint.address)
            return endpoint.address
        }
    }

    /// Reads `text` (`@addr` binds, `>addr` connects, a bare address takes `defaultMode`) and
    /// attaches the socket by it; returns the address attached.
    @discardableResult
    public func attach(_ text: String, defaultMode: CaffeEndpoint.Mode) throws -> String {
        try attach(CaffeEndpoint.parse(text, defaultMode: defaultMode))
    }
}
