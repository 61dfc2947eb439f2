import CaffeBooks
import ZeroMQ

/// A pipeline's output when the worker runs several (`input.pipelines`): each rendered event goes
/// over an `inproc://` PAIR to the ``PipelineHub``, which owns the worker's output socket and
/// offers it to the real channel there; what that channel completes (sent, or acknowledged) comes
/// back on the same PAIR. The pipeline checkpoints an input only when the hub says so, so the
/// meaning of "done" is the output kind's, as with one pipeline.
///
/// A message to the hub is one multipart message: a ref frame (``RelayedFrames``), then the three
/// frames of each output. A message from the hub is one frame listing completed refs.
final class RelayedChannel: OutputChannel {
    let socket: ZMQSocket
    private var isBlocked = false
    private var completed: [SequenceRef] = []
    /// Sequences offered and not completed yet.
    private var outstanding: UInt64 = 0

    init(socket: ZMQSocket) {
        self.socket = socket
    }

    var interest: ZMQEvents { isBlocked ? [.readable, .writable] : .readable }
    var nextDeadline: ContinuousClock.Instant? { nil }
    var isSettled: Bool { outstanding == 0 }

    func offer(_ event: inout RenderedEvent, at now: ContinuousClock.Instant, counts: inout WorkerCounts)
        throws(ZMQError)
        -> Bool
    {
        let more = event.outputs.count > event.nextOutput
        guard try socket.send(RelayedFrames.frame(for: event.ref), more: more, timeout: .zero) else {
            isBlocked = true
            return false
        }
        isBlocked = false
        // libzmq takes a message's later frames once it took the first.
        while event.nextOutput < event.outputs.count {
            let output = event.outputs[event.nextOutput]
            event.nextOutput += 1
            try socket.send(output.topic, more: true)
            try socket.send(output.header, more: true)
            try socket.send(output.body, more: event.nextOutput < event.outputs.count)
        }
        if let ref = event.ref { outstanding += UInt64(ref.sequences.count) }
        return true
    }

    func service(at now: ContinuousClock.Instant, counts: inout WorkerCounts) throws(ZMQError) {
        while let frames = try socket.tryReceiveMultipart() {
            for frame in frames {
                RelayedFrames.forEachRef(inCompletions: frame) { ref in
                    outstanding -= min(outstanding, UInt64(ref.sequences.count))
                    completed.append(ref)
                }
            }
        }
    }

    func takeCompleted() -> [SequenceRef] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }
}

/// How a ``SequenceRef`` crosses between a pipeline and the hub. An event's ref frame: `0` for no
/// ref, or `1`, the range's bounds (little-endian 64-bit) and the source key's UTF-8 bytes. A
/// completions frame: `2`, then per ref the two bounds, the key's length (32-bit) and its bytes.
enum RelayedFrames {
    static func frame(for ref: SequenceRef?) -> ZMQMessage {
        guard let ref else { return (try? ZMQMessage([UInt8(0)])) ?? ZMQMessage() }
        // Written straight into the frame: one allocation per event, not an array and a copy.
        var source = ref.source
        return source.withUTF8 { utf8 in
            guard let frame = try? ZMQMessage(count: 17 + utf8.count) else { return ZMQMessage() }
            frame.withUnsafeMutableBytes { bytes in
                bytes[0] = 1
                bytes.storeBytes(of: ref.sequences.lowerBound.littleEndian, toByteOffset: 1, as: UInt64.self)
                bytes.storeBytes(of: ref.sequences.upperBound.littleEndian, toByteOffset: 9, as: UInt64.self)
                UnsafeMutableRawBufferPointer(rebasing: bytes[17...]).copyMemory(from: UnsafeRawBufferPointer(utf8))
            }
            return frame
        }
    }

    /// The ref an event's frame carries; `nil` for `0` or a frame that is not one.
    static func ref(in frame: ZMQMessage) -> SequenceRef? {
        frame.withUnsafeBytes { bytes -> SequenceRef? in
            guard bytes.count >= 17, bytes[0] == 1, let range = range(in: bytes, at: 1) else { return nil }
            return SequenceRef(
                source: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[17...]), as: UTF8.self),
                sequences: range
            )
        }
    }

    /// One frame listing `refs`.
    static func completions(_ refs: [SequenceRef]) -> ZMQMessage {
        var bytes: [UInt8] = [2]
        bytes.reserveCapacity(1 + refs.reduce(0) { $0 + 20 + $1.source.utf8.count })
        for ref in refs {
            append(ref.sequences, to: &bytes)
            withUnsafeBytes(of: UInt32(ref.source.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: ref.source.utf8)
        }
        return (try? ZMQMessage(bytes)) ?? ZMQMessage()
    }

    /// Calls `body` with each ref a completions frame lists, until the first that does not parse.
    static func forEachRef(inCompletions frame: ZMQMessage, _ body: (SequenceRef) -> Void) {
        frame.withUnsafeBytes { bytes in
            guard bytes.first == 2 else { return }
            var offset = 1
            while offset + 20 <= bytes.count, let range = range(in: bytes, at: offset) {
                let length = Int(
                    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self))
                )
                let start = offset + 20
                guard length <= bytes.count - start else { return }
                let source = String(
                    decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<start + length]),
                    as: UTF8.self
                )
                body(SequenceRef(source: source, sequences: range))
                offset = start + length
            }
        }
    }

    private static func append(_ range: ClosedRange<UInt64>, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: range.lowerBound.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: range.upperBound.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func range(in bytes: UnsafeRawBufferPointer, at offset: Int) -> ClosedRange<UInt64>? {
        let lower = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        let upper = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        return lower <= upper ? lower...upper : nil
    }
}
