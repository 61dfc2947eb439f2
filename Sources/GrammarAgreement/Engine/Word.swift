import Localization
import RichText

/// A word or number of an agreement span, and the form the language rules choose for it.
struct Word: Sendable {
    /// As written.
    var text: String
    /// `text` lowercased, for lexicon lookups.
    var lower: String
    /// Where the word is, in the document's plain text.
    var utf8Range: Range<Int>
    /// The raw value, when the word is a number (a numeric argument or digits in the text).
    var number: FormatArgument?
    /// The 1-based format argument the word came from.
    var argument: Int?
    /// For a number, the grammatical number its plural category gives (set by the engine): each
    /// noun joined by a conjunction takes its own (*2 Espressos und 1 Waffel*).
    var grammaticalNumber: Morphology.GrammaticalNumber?
    /// A `morphology` attribute on exactly this word.
    var hint: Morphology?
    /// The chosen form; `nil` keeps the word as written.
    var replacement: String?
    /// Whether the chosen form is written against the next word, without the space between them:
    /// an elided article or preposition (French *l'eau*, *d'orange*; Italian *un'aranciata*).
    var elides = false

    var isNumber: Bool { number != nil }

    /// The word as it will be shown.
    var current: String { replacement ?? text }

    /// The lowercase form as it will be shown.
    var currentLower: String { replacement?.fastLowercased ?? lower }

    /// Sets the word to `lowercaseForm`, keeping the capitalisation it was written with.
    mutating func set(_ lowercaseForm: String) {
        // Most words are written in lowercase: then the form is used as it is.
        let cased = text == lower ? lowercaseForm : CasePattern(of: text).apply(to: lowercaseForm, original: text)
        replacement = cased == text ? nil : cased
    }
}

/// The words of one span, with what was said about the span as a whole.
struct Phrase: Sendable {
    var words: [Word]
    /// A `morphology` attribute covering several words: the phrase's head's properties.
    var hint: Morphology?
    /// What inflecting the span found (set by the engine).
    var analysis: PhraseAnalysis?
    /// Text replacing the whole span: the inflection alternative (set by the engine).
    var alternative: String?
}

/// How a word was capitalised, so an inflected form can be written the same way.
enum CasePattern {
    case lower
    case capitalized
    case upper
    case mixed

    init(of word: String) {
        // ASCII words (most) are classified from their bytes, without Unicode property lookups.
        if word.isASCII {
            self.init(
                letters: word.utf8.lazy.compactMap { byte -> Bool? in
                    (0x41...0x5A).contains(byte) ? true : (0x61...0x7A).contains(byte) ? false : nil
                }
            )
        } else {
            self.init(
                letters: word.unicodeScalars.lazy.compactMap { scalar -> Bool? in
                    guard scalar.properties.isAlphabetic else { return nil }
                    return scalar.properties.isUppercase ? true : scalar.properties.isLowercase ? false : nil
                }
            )
        }
    }

    /// The pattern of a word's cased letters, each `true` when uppercase.
    private init(letters: some Sequence<Bool>) {
        var hasLower = false
        var hasUpper = false
        var firstIsUpper = false
        var upperAfterFirst = false
        var isFirst = true
        for upper in letters {
            if upper { hasUpper = true } else { hasLower = true }
            if isFirst {
                firstIsUpper = upper
                isFirst = false
            } else if upper {
                upperAfterFirst = true
            }
        }
        if !hasUpper {
            self = .lower
        } else if !hasLower {
            self = .upper
        } else if firstIsUpper && !upperAfterFirst {
            self = .capitalized
        } else {
            self = .mixed
        }
    }

    /// `form` (lowercase) written in this pattern; mixed case keeps the original's letters where
    /// the form shares its beginning (*iPad* → *iPads*).
    func apply(to form: String, original: String) -> String {
        switch self {
        case .lower: return form
        case .upper:
            // A short all-capital word without vowels is an initialism: BLT → BLTs.
            if original.count <= 4, !original.lowercased().contains(where: { "aeiou".contains($0) }),
                form.hasPrefix(original.lowercased())
            {
                return original + form.dropFirst(original.count)
            }
            return form.uppercased()
        case .capitalized:
            guard let first = form.first else { return form }
            return first.uppercased() + form.dropFirst()
        case .mixed:
            let lowerOriginal = original.lowercased()
            var shared = 0
            for (a, b) in zip(lowerOriginal, form) {
                guard a == b else { break }
                shared += 1
            }
            return String(original.prefix(shared)) + form.dropFirst(shared)
        }
    }
}
