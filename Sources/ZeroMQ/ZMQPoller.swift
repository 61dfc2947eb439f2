import CZeroMQ

/// Waits for readiness on several sockets and file descriptors at once (`zmq_poll`).
///
/// ```swift
/// var poller = ZMQPoller()
/// let orders = poller.register(ordersSocket, for: .readable)
/// let control = poller.register(controlSocket, for: .readable)
/// while try poller.poll(timeout: .seconds(1)) > 0 {
///     if poller.isReadable(orders) { … }
///     if poller.isReadable(control) { … }
/// }
/// ```
///
/// The poller holds its sockets, so it belongs to their owner's thread. Registration order gives
/// each item's ``Item`` handle; polling allocates nothing.
public struct ZMQPoller {
    /// A registered socket or descriptor.
    public struct Item: Hashable, Sendable {
        /// The item's position in registration order.
        public let index: Int
    }

    private var items: [zmq_pollitem_t] = []
    private var sockets: [ZMQSocket?] = []

    /// An empty poller.
    public init() {}

    /// Watches a socket for the given events.
    @discardableResult
    public mutating func register(_ socket: ZMQSocket, for events: ZMQEvents) -> Item {
        items.append(zmq_pollitem_t(socket: socket.handle, fd: -1, events: events.rawValue, revents: 0))
        sockets.append(socket)
        return Item(index: items.count - 1)
    }

    /// Watches a plain file descriptor (a pipe, an `eventfd`, a TCP socket) for the given events.
    @discardableResult
    public mutating func register(fileDescriptor: Int32, for events: ZMQEvents) -> Item {
        items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: events.rawValue, revents: 0))
        sockets.append(nil)
        return Item(index: items.count - 1)
    }

    /// Changes the events watched for an item (for example, add ``ZMQEvents/writable`` while output is pending).
    public mutating func update(_ item: Item, for events: ZMQEvents) {
        items[item.index].events = events.rawValue
    }

    /// Waits until at least one item is ready or `timeout` passes; returns how many items are ready.
    ///
    /// A signal interrupting the wait returns 0 ready items.
    /// - Throws: ``ZMQError``, for example ``ZMQError/isContextTerminated`` after shutdown, or a closed socket.
    @discardableResult
    public mutating func poll(timeout: ZMQTimeout) throws(ZMQError) -> Int {
        for (index, socket) in sockets.enumerated() {
            guard let socket else { continue }
            guard let handle = socket.handle else {
                throw ZMQError(code: ENOTSOCK, operation: "zmq_poll", message: "polled \(socket.type) socket is closed")
            }
            items[index].socket = handle
        }
        let count = items.withUnsafeMutableBufferPointer { buffer in
            zmq_poll(buffer.baseAddress, Int32(buffer.count), Int(timeout.rawMilliseconds))
        }
        if count < 0 {
            let error = ZMQError.last("zmq_poll")
            if error.isInterrupted { return 0 }
            throw error
        }
        return Int(count)
    }

    /// The events an item reported in the last ``poll(timeout:)``.
    public func events(_ item: Item) -> ZMQEvents {
        ZMQEvents(rawValue: items[item.index].revents)
    }

    /// Whether the item could be read from at the last ``poll(timeout:)``.
    public func isReadable(_ item: Item) -> Bool { events(item).contains(.readable) }

    /// Whether the item could be written to at the last ``poll(timeout:)``.
    public func isWritable(_ item: Item) -> Bool { events(item).contains(.writable) }
}
