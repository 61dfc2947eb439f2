import CaffeProtocol

/// The localization-QA pseudo-locales, applied to text rendered in a base locale the way
/// pseudo-localization tools do it, so layouts can be checked before real translations exist:
///
/// - `en-XA` (accented and expanded): every ASCII letter gets an accented look-alike, the text is
///   bracketed, and filler words make it about 40% longer — longer languages and missing-glyph
///   problems show up in English.
/// - `ar-XB` (right to left): the English text forced right to left with RLO … PDF, so mirrored
///   layouts and bidi handling show up without reading Arabic.
public enum PseudoLocale: String, CaseIterable, Sendable {
    case accented = "en-XA"
    case rightToLeft = "ar-XB"

    /// The real locale the text is rendered in before the transformation.
    public var base: String { "en-US" }

    /// `text` pseudo-localized, run by run (so the runs' attributes, such as the orange weekday,
    /// stay on their text).
    public func transform(_ text: Caffe_V1_StyledText) -> Caffe_V1_StyledText {
        var result = text
        switch self {
        case .accented:
            for index in result.runs.indices { result.runs[index].text = Self.accent(result.runs[index].text) }
            let length = text.plain.count
            let filler = Self.filler(count: (length * 2 + 4) / 5)
            var open = Caffe_V1_AttributedRun()
            open.text = "["
            var close = Caffe_V1_AttributedRun()
            close.text = (filler.isEmpty ? "" : " " + filler) + "]"
            result.runs = [open] + result.runs + [close]
        case .rightToLeft:
            var open = Caffe_V1_AttributedRun()
            open.text = "\u{202E}"
            var close = Caffe_V1_AttributedRun()
            close.text = "\u{202C}"
            result.runs = [open] + result.runs + [close]
        }
        result.plain = result.runs.map(\.text).joined()
        return result
    }

    static let accents: [Character: Character] = [
        "a": "á", "b": "ƀ", "c": "ç", "d": "ð", "e": "é", "f": "ƒ", "g": "ĝ", "h": "ĥ", "i": "î", "j": "ĵ",
        "k": "ķ", "l": "ļ", "m": "ɱ", "n": "ñ", "o": "ö", "p": "þ", "q": "ǫ", "r": "ŕ", "s": "š", "t": "ţ",
        "u": "û", "v": "ṽ", "w": "ŵ", "x": "ẋ", "y": "ý", "z": "ž", "A": "Å", "B": "Ɓ", "C": "Ç", "D": "Ð",
        "E": "É", "F": "Ƒ", "G": "Ĝ", "H": "Ĥ", "I": "Î", "J": "Ĵ", "K": "Ķ", "L": "Ļ", "M": "Ṁ", "N": "Ñ",
        "O": "Ö", "P": "Þ", "Q": "Ǫ", "R": "Ŕ", "S": "Š", "T": "Ţ", "U": "Û", "V": "Ṽ", "W": "Ŵ", "X": "Ẋ",
        "Y": "Ý", "Z": "Ž",
    ]

    static func accent(_ text: String) -> String { String(text.map { accents[$0] ?? $0 }) }

    /// "one two three …" cut to `count` characters.
    static func filler(count: Int) -> String {
        let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        var text = ""
        var index = 0
        while text.count < count {
            text += (text.isEmpty ? "" : " ") + words[index % words.count]
            index += 1
        }
        return String(text.prefix(count))
    }
}
