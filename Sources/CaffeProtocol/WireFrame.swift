/// One frame of a message as a transport carries it: bytes, owned by whatever received them.
///
/// The protocol's message types (``EventMessage``, ``RequestMessage``, ``ResponseMessage``) parse
/// and build frames through this, so they know nothing of the transport: the worker uses libzmq's
/// messages (`ZMQMessage`, in the `CaffeTransport` module, read in place with no copy), tests and
/// fuzzers use ``ByteFrame``.
public protocol WireFrame {
    /// An empty frame (a delimiter).
    init()

    /// A frame holding a copy of `bytes`.
    static func copying(_ bytes: UnsafeRawBufferPointer) throws -> Self

    /// The frame's size in bytes.
    var count: Int { get }

    /// Calls `body` with the frame's bytes, in place.
    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result
}

extension WireFrame {
    /// Whether the frame has no bytes.
    public var isEmpty: Bool { count == 0 }

    /// The frame's bytes as UTF-8 text (invalid sequences replaced).
    public var text: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}

/// A frame that is a byte array: for code and tests that carry frames without a transport.
public struct ByteFrame: WireFrame, Hashable, Sendable {
    public var bytes: [UInt8]

    public init() {
        bytes = []
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A frame holding `text` as UTF-8.
    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    public static func copying(_ bytes: UnsafeRawBufferPointer) -> ByteFrame {
        ByteFrame(Array(bytes))
    }

    public var count: Int { bytes.count }

    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // `Array.withUnsafeBytes` rethrows untyped; keep the caller's error type.
        let result = bytes.withUnsafeBytes { buffer in Swift.Result { () throws(Failure) in try body(buffer) } }
        return try result.get()
    }
}
