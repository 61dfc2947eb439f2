import CaffeBooks
import CaffeProtocol
import Logging
import ZeroMQ

/// The DEALERs the intake asks sources' replay endpoints through: made on first use, at most
/// ``capacity`` open (the least recently used one with no request outstanding is closed to make
/// room), and closed after ``idleTimeout`` without use. Endpoints come from configuration or
/// from event metadata, which anyone can write; without these bounds a thousand sources naming a
/// thousand endpoints would hold a thousand sockets and their file descriptors for ever.
///
/// Scheduled fairly: configured endpoints always get a connection; endpoints that have answered
/// before, or whose source has an established stream, may take any free place; endpoints of new
/// sources that never answered share at most half the places, so a flood of bogus endpoints
/// cannot keep a real source's gap waiting.
struct ReplayConnections {
    struct Connection {
        let socket: ZMQSocket
        var lastUsed: ContinuousClock.Instant
        /// Gaps (request ids) asked for here and not settled.
        var outstanding: Set<String>
        /// Whether it took a place reserved to neither established nor trusted endpoints.
        var isNewcomer: Bool
    }

    /// Endpoints that have answered a request (the most recent ``maxResponsive``).
    private(set) var responsive = RecentSet<String>(capacity: maxResponsive)
    static let maxResponsive = 4096

    let capacity: Int
    let idleTimeout: Duration
    private(set) var connections: [String: Connection] = [:]
    /// Bumped whenever a socket is opened or closed, so the poller knows to rebuild.
    private(set) var version = 0

    init(capacity: Int, idleTimeout: Duration) {
        self.capacity = max(1, capacity)
        self.idleTimeout = idleTimeout
    }

    /// The socket for a request `id` to `endpoint`, connected now if needed with `open`; `nil`
    /// when every open socket has a request outstanding and there is no room (`trusted`
    /// endpoints, from configuration, always get one).
    mutating func socket(
        for endpoint: String,
        id: String,
        standing: ReplayStanding,
        at now: ContinuousClock.Instant,
        open: () throws(ZMQError) -> ZMQSocket
    ) throws(ZMQError) -> ZMQSocket? {
        if var connection = connections[endpoint] {
            connection.lastUsed = now
            connection.outstanding.insert(id)
            connections[endpoint] = connection
            return connection.socket
        }
        let standing = responsive.contains(endpoint) && standing == .newcomer ? .established : standing
        // Configured endpoints are trusted and not counted; announced ones share the capacity,
        // newcomers half of it.
        if standing != .trusted {
            let newcomers = connections.values.filter(\.isNewcomer).count
            if standing == .newcomer, newcomers >= max(1, capacity / 2) {
                guard let oldest = idleOldest(newcomersOnly: true) else { return nil }
                close(oldest)
            } else if connections.count >= capacity {
                guard let oldest = idleOldest(newcomersOnly: false) else { return nil }
                close(oldest)
            }
        }
        let socket = try open()
        connections[endpoint] = Connection(
            socket: socket,
            lastUsed: now,
            outstanding: [id],
            isNewcomer: standing == .newcomer
        )
        version += 1
        return socket
    }

    /// The least recently used connection with nothing outstanding (a newcomer's, when asked).
    private func idleOldest(newcomersOnly: Bool) -> String? {
        connections.filter { $0.value.outstanding.isEmpty && (!newcomersOnly || $0.value.isNewcomer) }
            .min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
    }

    /// `endpoint` answered a request: it is established from now on.
    mutating func answered(_ endpoint: String) {
        responsive.insert(endpoint)
    }

    /// The gap `id` asked for at `endpoint` is answered or given up.
    mutating func settled(_ endpoint: String, id: String) {
        guard var connection = connections[endpoint] else { return }
        connection.outstanding.remove(id)
        connections[endpoint] = connection
    }

    /// Closes connections unused for ``idleTimeout`` with nothing outstanding.
    mutating func closeIdle(at now: ContinuousClock.Instant) {
        for (endpoint, connection) in connections
        where connection.outstanding.isEmpty && now - connection.lastUsed > idleTimeout {
            close(endpoint)
        }
    }

    /// When ``closeIdle(at:)`` next has something to do.
    var nextIdleCheck: ContinuousClock.Instant? {
        connections.values.filter { $0.outstanding.isEmpty }.map(\.lastUsed).min().map { $0 + idleTimeout }
    }

    mutating func close(_ endpoint: String) {
        guard let connection = connections.removeValue(forKey: endpoint) else { return }
        connection.socket.close(linger: .milliseconds(0))
        version += 1
    }

    mutating func closeAll() {
        for endpoint in Array(connections.keys) { close(endpoint) }
    }
}
