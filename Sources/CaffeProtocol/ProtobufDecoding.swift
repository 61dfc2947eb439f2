import FoundationEssentials
import SwiftProtobuf
import ZeroMQ

extension SwiftProtobuf.Message {
    /// Decodes a frame in place (no copy out of libzmq), within `limit` bytes.
    ///
    /// Unknown fields are kept, so newer senders do not break older receivers.
    static func decode(
        frame: ZMQMessage,
        role: String,
        limit: Int,
        limits: CaffeProtocolLimits
    ) throws(CaffeProtocolError) -> Self {
        let result = frame.withUnsafeBytes { buffer -> Result<Self, CaffeProtocolError> in
            Result { () throws(CaffeProtocolError) in
                try decode(bytes: buffer, role: role, limit: limit, limits: limits)
            }
        }
        return try result.get()
    }

    /// Decodes bytes in place (no copy), within `limit` bytes.
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
    func frame() throws(CaffeProtocolError) -> ZMQMessage {
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
    func frame(capacity: Int = 256) throws(CaffeProtocolError) -> ZMQMessage {
        try makeFrame(singlePassBytes(capacity: capacity))
    }
}

/// A frame holding a copy of `bytes`; allocation failure is reported as a protocol error.
func makeFrame(_ bytes: some ZMQFrameRepresentable) throws(CaffeProtocolError) -> ZMQMessage {
    do {
        return try ZMQMessage(bytes)
    } catch {
        throw CaffeProtocolError(code: .malformed, message: "cannot allocate a frame: \(error)")
    }
}
