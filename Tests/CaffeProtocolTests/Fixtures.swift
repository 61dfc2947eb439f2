// Caffe — CaffeProtocol tests.
//
// Shared helpers: frames over plain bytes, a tiny protobuf wire-format walker and a
// deterministic pseudo-random generator for the hostile-bytes corpus (messages: CaffeProtocolFixtures).
import CaffeProtocol
import FoundationEssentials
import SwiftProtobuf
import Testing

/// The protocol's messages over plain byte frames, as a transport would carry them.
typealias EventFrames = EventMessage<ByteFrame>
typealias RequestFrames = RequestMessage<ByteFrame>
typealias ResponseFrames = ResponseMessage<ByteFrame>

/// A frame holding a copy of `bytes`.
func frame(_ bytes: [UInt8]) throws -> ByteFrame { ByteFrame(bytes) }

/// A frame holding `string`'s UTF-8.
func frame(_ string: String) throws -> ByteFrame { ByteFrame(string) }

/// The binary encoding of `message`.
func wire(_ message: some SwiftProtobuf.Message) throws -> [UInt8] { try message.serializedBytes() }

/// Evaluates `body` and returns the protocol error it threw, or `nil`.
///
/// An autoclosure, because Swift 6.3 infers `any Error` for a closure literal passed where a
/// generic `throws(CaffeProtocolError)` closure is expected.
func protocolError<T>(_ body: @autoclosure () throws(CaffeProtocolError) -> T) -> CaffeProtocolError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The protocol error `body` throws; records an issue and throws if it throws none.
///
/// Keeps typed-throws closures out of `#expect`/`#require`, whose expansion loses the thrown type.
func failure<T>(
    _ body: @autoclosure () throws(CaffeProtocolError) -> T,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> CaffeProtocolError {
    let error = protocolError(try body())
    return try #require(error, "expected a CaffeProtocolError", sourceLocation: sourceLocation)
}

/// The error `message.validate()` throws, or `nil` when the message is valid.
func validationError(of message: some CaffeValidatable) -> CaffeProtocolError? {
    do {
        try message.validate()
        return nil
    } catch {
        return error
    }
}

/// The error `message.validate()` throws; records an issue and throws if the message is valid.
func invalidity(
    of message: some CaffeValidatable,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> CaffeProtocolError {
    let error = validationError(of: message)
    return try #require(error, "expected a validation error", sourceLocation: sourceLocation)
}

/// A minimal reader of the protobuf wire format, independent of SwiftProtobuf.
enum Wire {
    /// The varint encoding of `value`.
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
        return bytes
    }

    /// A field tag.
    static func tag(_ field: UInt64, wireType: UInt64) -> [UInt8] { varint(field << 3 | wireType) }

    /// The end offsets of the top-level fields of a well-formed message (varint, 64-bit,
    /// length-delimited and 32-bit fields only).
    static func fieldEnds(_ bytes: [UInt8]) -> [Int] {
        var index = 0
        var ends: [Int] = []
        func readVarint() -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }
        while index < bytes.count {
            let key = readVarint()
            switch key & 7 {
            case 0: _ = readVarint()
            case 1: index += 8
            case 2: index += Int(readVarint())
            case 5: index += 4
            default: preconditionFailure("groups are not expected in fixtures")
            }
            ends.append(index)
        }
        return ends
    }
}
