import FoundationEssentials
import SwiftProtobuf

extension SwiftProtobuf.Message {
    /// Decodes a frame in place (no copy out of libzmq), within `limit` bytes.
    ///
    /// Unknown fields are kept, so newer senders do not break older receivers.
    static func decode(
        frame: some WireFrame,
        role: String,
        limit: Int,
        limits: CaffeProtocolLimits
    ) throws(CaffeProtocolError) -> Self {
        try frame.withUnsafeBytes { buffer throws(CaffeProtocolError) in
            try decode(bytes: buffer, role: role, limit: limit, limits: limits)
        }
    }

    /// Decodes bytes in place (no copy), within `limit` bytes.
    @usableFromInline
    static func decode(
        bytes buffer: UnsafeRawBufferPointer,
        role: String,
        limit: Int,
        limits: CaffeProtocolLimits
    ) throws(CaffeProtocolError) -> Self {
        guard buffer.count <= limit else {
            throw CaffeProtocolError(
                code: .frameTooLarge,
                message: "\(role) frame of \(buffer.count) bytes exceeds the limit of \(limit)"
            )
        }
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = limits.messageDepthLimit
        let result = Result<Self, any Error> {
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return try Self(serializedBytes: [UInt8](), options: options)
            }
            let bytes = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base),
                count: buffer.count,
                deallocator: .none
            )
            return try Self(serializedBytes: bytes, options: options)
        }
        switch result {
        case .success(let message):
            return message
        case .failure(let error):
            throw CaffeProtocolError(
                code: .malformed,
                message: "\(role) is not a valid \(Self.protoMessageName): \(error)"
            )
        }
    }

    /// The message's binary encoding as a frame.
    func frame<Frame: WireFrame>() throws(CaffeProtocolError) -> Frame {
        let bytes: [UInt8]
        do {
            bytes = try serializedBytes()
        } catch {
            throw CaffeProtocolError(code: .malformed, message: "cannot encode \(Self.protoMessageName): \(error)")
        }
        return try makeFrame(bytes)
    }
}

extension SwiftProtobuf.Message where Self: SinglePassEncodable {
    /// The message's binary encoding as a frame, written by ``ProtobufWriter`` in one pass.
    func frame<Frame: WireFrame>(capacity: Int = 256) throws(CaffeProtocolError) -> Frame {
        try makeFrame(singlePassBytes(capacity: capacity))
    }
}

/// A frame holding a copy of `bytes`.
func makeFrame<Frame: WireFrame>(_ bytes: UnsafeRawBufferPointer) throws(CaffeProtocolError) -> Frame {
    try allocating { try Frame.copying(bytes) }
}

/// A frame holding a copy of `bytes`.
func makeFrame<Frame: WireFrame>(_ bytes: [UInt8]) throws(CaffeProtocolError) -> Frame {
    try allocating { try bytes.withUnsafeBytes { try Frame.copying($0) } }
}

/// A frame holding `text` as UTF-8.
func makeFrame<Frame: WireFrame>(text: String) throws(CaffeProtocolError) -> Frame {
    try allocating {
        var text = text
        return try text.withUTF8 { try Frame.copying(UnsafeRawBufferPointer($0)) }
    }
}

/// A frame holding a copy of `frame`'s bytes.
func makeFrame<Frame: WireFrame>(copyOf frame: Frame) throws(CaffeProtocolError) -> Frame {
    try frame.withUnsafeBytes { bytes throws(CaffeProtocolError) in try makeFrame(bytes) }
}

/// What `make` returns; a frame it cannot allocate is reported as a protocol error.
private func allocating<Frame>(_ make: () throws -> Frame) throws(CaffeProtocolError) -> Frame {
    do {
        return try make()
    } catch {
        throw CaffeProtocolError(code: .malformed, message: "cannot allocate a frame: \(error)")
    }
}
