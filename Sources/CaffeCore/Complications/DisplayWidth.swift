/// How many columns text takes on a fixed-width display: one per character, two for wide East
/// Asian characters (Unicode's East Asian Width W and F), none for invisible format characters
/// (bidi marks and isolates, joiners).
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        // Printable ASCII: one column per byte, every byte its own character.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var width = 0
        for character in text {
            guard let scalar = character.unicodeScalars.first else { continue }
            width += columns(scalar.value)
        }
        return width
    }

    static func columns(_ value: UInt32) -> Int {
        switch value {
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0x061C, 0xFEFF: 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            2
        default: 1
        }
    }
}
