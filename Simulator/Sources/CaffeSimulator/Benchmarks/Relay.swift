import ZeroMQ

/// The floor `caffe-sim bench pipeline` measures the worker against: a process that receives each
/// event on the same kind of socket, over the same transport, and sends the same number of
/// outputs on the same kind of socket, doing nothing else — its input frames again as a
/// confirmation and a receipt (`[topic][header][body]`, the header kept, so the load's books
/// count them like the worker's).
public enum Relay {
    /// Relays from `input` (PULL, connected) to `output` (PUSH, connected) until the context is
    /// shut down or the process is stopped.
    public static func run(context: ZMQContext, input: String, output: String) throws {
        let pull = try context.socket(.pull)
        try pull.set(.receiveHighWaterMark, to: 10_000)
        try pull.connect(input)
        let push = try context.socket(.push)
        try push.set(.sendHighWaterMark, to: 10_000)
        try push.set(.immediate, to: true)
        try push.connect(output)
        let confirmation = Array("confirmation.relay".utf8)
        let receipt = Array("receipt.relay".utf8)
        let frames = (0..<3).map { _ in ZMQMessage() }
        while true {
            do {
                try relayOne(pull, push, frames, confirmation, receipt)
            } catch {
                if error.isContextTerminated { return }
                throw error
            }
        }
    }

    /// Receives one event and sends it on twice.
    private static func relayOne(
        _ pull: ZMQSocket,
        _ push: ZMQSocket,
        _ frames: [ZMQMessage],
        _ confirmation: [UInt8],
        _ receipt: [UInt8]
    ) throws(ZMQError) {
        _ = try pull.receive(into: frames[0])
        var count = 1
        while frames[count - 1].hasMore, count < 3 {
            _ = try pull.receive(into: frames[count])
            count += 1
        }
        while frames[count - 1].hasMore { _ = try pull.receive() }
        guard count == 3 else { return }
        let header = try frames[1].copy()
        let body = try frames[2].copy()
        try push.send(confirmation, more: true)
        try push.send(frames[1], more: true)
        try push.send(frames[2], more: false)
        try push.send(receipt, more: true)
        try push.send(header, more: true)
        try push.send(body, more: false)
    }
}
