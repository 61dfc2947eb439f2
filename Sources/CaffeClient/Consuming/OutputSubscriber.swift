import CaffeProtocol
import CaffeTransport
import ZeroMQ

/// Receives a worker's published outputs (`output.kind: pub`): a SUB connected to one or more
/// workers' output endpoints, subscribed to topic prefixes (`confirmation.es-`, `receipt.`,
/// `dead-letter`; all by default), returning each output not seen before (docs/WIRE.md
/// "De-duplication": several workers rendering one stream, or a worker that restarted, repeat
/// outputs).
///
/// ```swift
/// let outputs = try OutputSubscriber(endpoints: [">tcp://127.0.0.1:5561"], topics: ["confirmation."], context: context)
/// while let event = try await outputs.receive(timeout: .seconds(5)) {
///     if case .confirmation(let confirmation) = event.body { print(confirmation.summary.plain) }
/// }
/// ```
///
/// With PUB/SUB an output sent before the subscription reached the worker is not seen: use the
/// acknowledged output (``AckedConsumer``) for outputs that must not be lost.
public final class OutputSubscriber {
    /// The socket outputs arrive on.
    public let socket: ZMQSocket
    /// Outputs skipped as repeats, and messages that were not output events.
    public var repeats: Int { deduplicator?.repeats ?? 0 }
    public private(set) var unreadable = 0
    private var deduplicator: OutputDeduplicator?

    /// A SUB attached to each of `endpoints` (`>…` or bare: connect; `@…`: bind), subscribed to
    /// `topics`; `deduplicate` remembers that many output keys (0: every output is returned);
    /// `curve` for workers that run CURVE.
    public init(
        endpoints: [String],
        topics: [String] = [""],
        deduplicate: Int = 1_000_000,
        curve: CurveCredentials? = nil,
        context: ZMQContext
    ) throws(CaffeClientError) {
        var parsed: [CaffeEndpoint] = []
        for text in endpoints {
            guard let endpoint = CaffeEndpoint(parsing: text, defaultMode: .connect) else { throw .badEndpoint(text) }
            parsed.append(endpoint)
        }
        deduplicator = deduplicate > 0 ? OutputDeduplicator(capacity: deduplicate) : nil
        do {
            socket = try context.socket(.sub)
            try socket.set(.receiveHighWaterMark, to: 100_000)
            try curve?.secure(socket)
            for topic in topics { try socket.subscribe(topic) }
            for endpoint in parsed { try socket.attach(endpoint) }
        } catch {
            throw .transport(error)
        }
    }

    deinit { socket.close(linger: .zero) }

    /// Closes the socket (a SUB sends nothing: `linger` only matters for its subscriptions).
    public func close(linger: Duration = .zero) {
        socket.close(linger: ZMQTimeout(linger))
    }

    /// The next output not seen before, or `nil` when none came within `timeout`.
    public func receive(timeout: Duration) async throws(CaffeClientError) -> OutputEvent? {
        let until = ContinuousClock.now + timeout
        while true {
            let left = until - ContinuousClock.now
            guard left > .zero else { return nil }
            let frames: [ZMQMessage]?
            do {
                frames = try await socket.receiveMultipart(timeout: left)
            } catch {
                throw .transport(error as? ZMQError ?? ZMQError(code: 0, operation: "receive", message: "\(error)"))
            }
            guard let frames else { return nil }
            guard let event = try? OutputEvent(frames: frames) else {
                unreadable += 1
                continue
            }
            if deduplicator?.isFirst(event.key) == false { continue }
            return event
        }
    }
}
