/// The rule every id on the wire keeps (`source_id`, `order_id`, `store_id`, `request_id`,
/// `user_id`): ids become map keys, stream keys, topics, checkpoint lines and log fields, so none
/// may hold a character that could join or split them, move a terminal's cursor, or stand for
/// another id (docs/WIRE.md, "Identifiers").
///
/// An id is at most ``maxBytes`` bytes of UTF-8 holding no control character (C0, DEL, C1), no
/// line or paragraph separator (U+2028, U+2029) and no noncharacter (U+FDD0–U+FDEF, U+xFFFE,
/// U+xFFFF). In particular no id holds U+001F, the separator of a ``SourceStream`` key, so a key
/// names one source and one epoch only.
public enum Identifier {
    /// The longest id accepted, in UTF-8 bytes.
    public static let maxBytes = 128

    /// Why `value` is not an acceptable id, or `nil` when it is (an empty id is the caller's
    /// concern: some are optional).
    public static func problem(_ value: String) -> String? {
        var value = value
        return value.withUTF8 { problem(utf8: $0) }
    }

    /// ``problem(_:)`` for the UTF-8 bytes of an id.
    public static func problem(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count <= maxBytes else { return "is \(bytes.count) bytes long; at most \(maxBytes) are accepted" }
        var plain = true
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F { return "holds the control character \(scalarName(UInt32(byte)))" }
            if byte >= 0x80 { plain = false }
        }
        guard !plain else { return nil }
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if let reason = refusal(scalar) { return reason }
        }
        return nil
    }

    /// Why `scalar` may not appear in an id (or in text meant for a terminal or an XML file), if not.
    public static func refusal(_ scalar: Unicode.Scalar) -> String? {
        let value = scalar.value
        switch value {
        case 0..<0x20, 0x7F, 0x80...0x9F: return "holds the control character \(scalarName(value))"
        case 0x2028, 0x2029: return "holds the line or paragraph separator \(scalarName(value))"
        case 0xFDD0...0xFDEF: return "holds the noncharacter \(scalarName(value))"
        case _ where value & 0xFFFE == 0xFFFE: return "holds the noncharacter \(scalarName(value))"
        default: return nil
        }
    }

    /// `U+001F`.
    public static func scalarName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `text` with every character ``refusal(_:)`` refuses written `\u{…}`, for printing ids that
    /// came from elsewhere (a checkpoint, a log) on a terminal.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { refusal($0) != nil }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if refusal(scalar) != nil {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
