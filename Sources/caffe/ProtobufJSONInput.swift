import Foundation
import SwiftProtobuf

/// Why a command could not read a message it was given as protobuf JSON: said in a sentence, not
/// as Foundation's or SwiftProtobuf's error dump.
struct ProtobufJSONInputError: Error, CustomStringConvertible {
    var description: String
}

/// Reading a message in the protobuf JSON mapping from a file or standard input (`-`).
enum ProtobufJSONInput {
    /// The message `T` read from `path`, or a ``ProtobufJSONInputError`` that names the file and
    /// what is wrong with it.
    static func read<T: SwiftProtobuf.Message>(_ type: T.Type, from path: String) throws(ProtobufJSONInputError) -> T {
        let name = path == "-" ? "standard input" : path
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ProtobufJSONInputError(description: "\(name): no such file")
            }
            guard !isDirectory.boolValue else { throw ProtobufJSONInputError(description: "\(name): is a folder") }
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw ProtobufJSONInputError(description: "\(name): cannot be read (permission?)")
            }
            data = contents
        }
        guard !data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw ProtobufJSONInputError(description: "\(name): empty; expected a \(T.protoMessageName) in JSON")
        }
        do {
            return try T(jsonUTF8Data: data)
        } catch let error as JSONDecodingError {
            throw ProtobufJSONInputError(
                description: "\(name): not a \(T.protoMessageName) in protobuf JSON: \(explain(error))"
            )
        } catch {
            throw ProtobufJSONInputError(description: "\(name): not a \(T.protoMessageName): \(error)")
        }
    }

    /// A SwiftProtobuf JSON error in words.
    static func explain(_ error: JSONDecodingError) -> String {
        switch error {
        case .failure, .truncated, .trailingGarbage: "not JSON (or not one JSON object)"
        case .unknownField(let name): "unknown field '\(name)'"
        case .malformedNumber, .numberRange, .leadingZero: "a number is malformed or out of range"
        case .malformedString, .invalidUTF8: "a string is malformed"
        case .malformedBool: "a boolean is malformed"
        case .malformedTimestamp: "a timestamp is not RFC 3339, such as 2026-11-20T06:45:00Z"
        case .malformedDuration: "a duration is malformed, such as 1.5s"
        case .unrecognizedEnumValue: "an enum value is not one of its names"
        case .schemaMismatch, .illegalNull, .malformedMap, .unquotedMapKey, .missingFieldNames:
            "a field has the wrong JSON type"
        default: "\(error)"
        }
    }
}
