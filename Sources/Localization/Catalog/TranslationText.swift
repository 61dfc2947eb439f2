/// What the text of a translation may hold: anything but a control character other than tab,
/// line feed and carriage return, and a noncharacter (U+FDD0–U+FDEF, U+FFFE, U+FFFF and their
/// counterparts in every plane) — characters no language writes, which XML property lists may not
/// hold and terminals act on.
public enum TranslationText {
    /// The first character of `text` a translation may not hold, if any.
    public static func forbiddenScalar(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            let value = scalar.value
            switch value {
            case 0x09, 0x0A, 0x0D: return false
            case 0..<0x20, 0x7F, 0x80...0x9F, 0xFDD0...0xFDEF: return true
            default: return value & 0xFFFE == 0xFFFE
            }
        }
    }

    /// `U+FFFE, a noncharacter` or `U+0007, a control character`.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return name + (scalar.value < 0xA0 ? ", a control character" : ", a noncharacter")
    }
}
