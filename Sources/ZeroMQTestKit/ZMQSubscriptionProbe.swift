import ZeroMQ

/// Closes PUB/SUB's "slow joiner" window in tests: a subscription takes effect some time after
/// `connect`, and whatever is published before that is dropped by design.
public enum ZMQSubscriptionProbe {
    /// The probe topic used for subscriptions to `topic`: `topic + "probe"`, so it matches the prefix.
    public static func probeTopic(for topic: String) -> String { topic + "probe" }

    /// Publishes `[probe topic]["probe"]` until the subscriber receives one, then drains the probes.
    ///
    /// Bounded by attempts (500 × 10 ms), not by an asserted time.
    /// - Returns: whether the subscription took effect.
    @discardableResult
    public static func awaitSubscription(
        publisher: ZMQSocket,
        subscriber: ZMQSocket,
        topic: String
    ) throws -> Bool {
        let probe = probeTopic(for: topic)
        for _ in 0..<500 {
            try publisher.send(multipart: [probe, "probe"])
            if try subscriber.receiveMultipart(timeout: .milliseconds(10)) != nil {
                while try subscriber.receiveMultipart(timeout: .milliseconds(5)) != nil {}
                return true
            }
        }
        return false
    }
}
