import CZeroMQ
import FoundationEssentials

/// One frame of a ZeroMQ message, wrapping a `zmq_msg_t`.
///
/// Received frames are read in place (``withUnsafeBytes(_:)``) without copying out of libzmq.
/// Sending a ``ZMQMessage`` hands its content to libzmq (`zmq_msg_send`), leaving the message
/// empty, so a message object can be reused for many receives or sends.
///
/// A message belongs to one thread or task at a time, like the socket it came from.
public final class ZMQMessage {
    var raw = zmq_msg_t()

    /// An empty frame (`zmq_msg_init`).
    public init() {
        zmq_msg_init(&raw)
    }

    /// A frame of `count` uninitialised bytes, to be filled through ``withUnsafeMutableBytes(_:)``.
    public init(count: Int) throws(ZMQError) {
        guard count >= 0 else {
            zmq_msg_init(&raw)
            throw ZMQError.invalidArgument("zmq_msg_init_size(\(count))", "a frame cannot have a negative size")
        }
        guard zmq_msg_init_size(&raw, count) == 0 else {
            let error = ZMQError.last("zmq_msg_init_size(\(count))")
            // A failed init leaves `raw` unusable; make it a valid empty frame for `deinit`.
            zmq_msg_init(&raw)
            throw error
        }
    }

    /// A frame holding a copy of `bytes`.
    public convenience init(_ bytes: some ZMQFrameRepresentable) throws(ZMQError) {
        try self.init(copying: bytes)
    }

    private convenience init(copying bytes: some ZMQFrameRepresentable) throws(ZMQError) {
        let count = bytes.withFrameBytes { $0.count }
        try self.init(count: count)
        if count > 0 {
            let destination = zmq_msg_data(&raw)
            bytes.withFrameBytes { source in
                if let base = source.baseAddress { destination?.copyMemory(from: base, byteCount: count) }
            }
        }
    }

    /// A frame that points at `bytes` without copying them; libzmq calls `deallocator` once it no
    /// longer needs them, possibly on one of its I/O threads (`zmq_msg_init_data`).
    ///
    /// Worth it for large payloads; small ones (under a few hundred bytes) are cheaper to copy.
    public init(
        bytesNoCopy bytes: UnsafeRawBufferPointer,
        deallocator: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) throws(ZMQError) {
        let box = Unmanaged.passRetained(DeallocatorBox(bytes: bytes, deallocator: deallocator))
        let rc = zmq_msg_init_data(
            &raw,
            UnsafeMutableRawPointer(mutating: bytes.baseAddress),
            bytes.count,
            { _, hint in
                guard let hint else { return }
                let box = Unmanaged<DeallocatorBox>.fromOpaque(hint).takeRetainedValue()
                box.deallocator(box.bytes)
            },
            box.toOpaque()
        )
        guard rc == 0 else {
            let error = ZMQError.last("zmq_msg_init_data(\(bytes.count))")
            box.release()
            zmq_msg_init(&raw)
            throw error
        }
    }

    deinit {
        zmq_msg_close(&raw)
    }

    /// The frame's size in bytes.
    public var count: Int { zmq_msg_size(&raw) }

    /// Whether the frame has no bytes (such as the delimiter frame of a ROUTER envelope).
    public var isEmpty: Bool { count == 0 }

    /// Whether more frames of the same message follow this received frame (`zmq_msg_more`).
    public var hasMore: Bool { zmq_msg_more(&raw) == 1 }

    /// Calls `body` with the frame's bytes, in place.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let count = zmq_msg_size(&raw)
        let buffer = UnsafeRawBufferPointer(start: count == 0 ? nil : zmq_msg_data(&raw), count: count)
        return try body(buffer)
    }

    /// Calls `body` with the frame's bytes for writing, before the frame is sent.
    public func withUnsafeMutableBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let count = zmq_msg_size(&raw)
        let buffer = UnsafeMutableRawBufferPointer(start: count == 0 ? nil : zmq_msg_data(&raw), count: count)
        return try body(buffer)
    }

    /// A copy of the frame's bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// A copy of the frame's bytes as `Data`.
    public var data: Data { withUnsafeBytes { Data($0) } }

    /// The frame decoded as UTF-8 (invalid sequences become U+FFFD).
    public var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// A metadata property of a received frame (`zmq_msg_gets`): `"Socket-Type"`, `"Routing-Id"`,
    /// `"Peer-Address"`, or `"User-Id"` as set by a ZAP handler such as ``ZMQAuthenticator``.
    public func metadata(_ property: String) -> String? {
        guard let value = zmq_msg_gets(&raw, property) else { return nil }
        return String(cString: value)
    }

    /// The file descriptor of the connection a received frame came over (`ZMQ_SRCFD`), which a
    /// socket monitor's connection events name; `nil` when libzmq does not know it (`inproc://`).
    public var sourceFileDescriptor: Int32? {
        let value = zmq_msg_get(&raw, ZMQ_SRCFD)
        return value >= 0 ? value : nil
    }

    /// A second frame with the same content (`zmq_msg_copy`: large frames share their bytes,
    /// reference-counted, rather than copying them).
    public func copy() throws(ZMQError) -> ZMQMessage {
        let copy = ZMQMessage()
        guard zmq_msg_copy(&copy.raw, &raw) == 0 else { throw ZMQError.last("zmq_msg_copy") }
        return copy
    }
}

extension ZMQMessage: CustomStringConvertible {
    public var description: String {
        let preview = withUnsafeBytes { bytes in
            bytes.prefix(32).map { (0x20..<0x7f).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
        }
        return "ZMQMessage(\(count) bytes: \(preview)\(count > 32 ? "…" : ""))"
    }
}

private final class DeallocatorBox {
    let bytes: UnsafeRawBufferPointer
    let deallocator: @Sendable (UnsafeRawBufferPointer) -> Void

    init(bytes: UnsafeRawBufferPointer, deallocator: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.bytes = bytes
        self.deallocator = deallocator
    }
}
