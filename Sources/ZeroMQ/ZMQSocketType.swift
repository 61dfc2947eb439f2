import CZeroMQ

/// The socket types of libzmq 4.3 that are not draft API.
public enum ZMQSocketType: Int32, CaseIterable, Sendable, CustomStringConvertible {
    /// Exclusive pair, one peer (`ZMQ_PAIR`).
    case pair = 0
    /// Publisher: fans out to subscribers, drops at the high-water mark (`ZMQ_PUB`).
    case pub = 1
    /// Subscriber: receives messages matching its topic prefixes (`ZMQ_SUB`).
    case sub = 2
    /// Strict request/reply client (`ZMQ_REQ`).
    case req = 3
    /// Strict request/reply server (`ZMQ_REP`).
    case rep = 4
    /// Asynchronous request client, round-robin to peers (`ZMQ_DEALER`).
    case dealer = 5
    /// Asynchronous reply server that prefixes each message with the peer's routing id (`ZMQ_ROUTER`).
    case router = 6
    /// Pipeline sink, fair-queued (`ZMQ_PULL`).
    case pull = 7
    /// Pipeline source, round-robin, blocks at the high-water mark (`ZMQ_PUSH`).
    case push = 8
    /// Publisher that also receives subscription messages (`ZMQ_XPUB`).
    case xpub = 9
    /// Subscriber that sends subscriptions as messages (`ZMQ_XSUB`).
    case xsub = 10
    /// Raw TCP peer: each message is `[routing id][bytes]` (`ZMQ_STREAM`).
    case stream = 11

    public var description: String {
        switch self {
        case .pair: "PAIR"
        case .pub: "PUB"
        case .sub: "SUB"
        case .req: "REQ"
        case .rep: "REP"
        case .dealer: "DEALER"
        case .router: "ROUTER"
        case .pull: "PULL"
        case .push: "PUSH"
        case .xpub: "XPUB"
        case .xsub: "XSUB"
        case .stream: "STREAM"
        }
    }
}

/// Readiness flags, as `ZMQ_EVENTS` reports them and `zmq_poll` takes and returns them.
public struct ZMQEvents: OptionSet, Hashable, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// At least one message can be received without blocking (`ZMQ_POLLIN`).
    public static let readable = ZMQEvents(rawValue: Int16(ZMQ_POLLIN))
    /// At least one message can be sent without blocking (`ZMQ_POLLOUT`).
    public static let writable = ZMQEvents(rawValue: Int16(ZMQ_POLLOUT))
    /// An error condition on a polled file descriptor (`ZMQ_POLLERR`).
    public static let error = ZMQEvents(rawValue: Int16(ZMQ_POLLERR))
}
