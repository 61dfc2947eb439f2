/// CommonMark's character classes (spec 0.31, "Characters and lines").
enum MarkdownCharacters {
    /// Unicode whitespace: Zs, tab, line feed, form feed, carriage return.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\t", "\n", "\u{0C}", "\r", " ": return true
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }

    /// Unicode punctuation: general category P or S (0.31 counts symbols as punctuation).
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIIPunctuation(scalar) }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// `!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~`: what a backslash may escape.
    static func isASCIIPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return true
        default: return false
        }
    }

    static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return false
        }
    }
}
