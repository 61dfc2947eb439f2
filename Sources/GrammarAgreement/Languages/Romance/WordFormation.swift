import RichText

/// A suffix that makes a new noun from one the lexicon lists, and decides its gender and plural:
/// Portuguese *-inha* (*queijada* → *queijadinha*, feminine, *-inhas*), Italian *-ina* (*cassata* →
/// *cassatina*, *-ine*).
struct DerivingSuffix: Sendable {
    /// The singular ending (*inha*).
    var singular: String
    /// The plural ending (*inhas*).
    var plural: String
    var gender: Morphology.GrammaticalGender
    /// The endings the base has where the suffix stands: *queijad-a* → *queijad-inha* takes `a`;
    /// `""` for a suffix added to the whole word (Portuguese *-zinho*: *pão* → *pãozinho*).
    var baseEndings: [String]
    /// Whether the plural is the base's plural with the suffix after it (Portuguese *-zinho*:
    /// *pastéis* → *pasteizinhos*, *pães* → *pãezinhos*) rather than the stem + `plural`.
    var pluralFromBase = false
}

/// A noun made by a ``DerivingSuffix`` from a listed base: its forms as agreement writes them.
struct DerivedNoun: Sendable, Equatable {
    var singular: String
    var plural: String
    var gender: Morphology.GrammaticalGender
    var isWrittenPlural: Bool
}

/// A language's diminutive and augmentative suffixes (README-<code>.md, *Word formation*), read
/// backwards: a word the lexicon does not list is taken apart into a listed base and a suffix, and
/// the suffix gives its gender and plural. Nothing is derived from a base the lexicon does not
/// list, so a word that only looks derived stays unknown.
struct WordFormation: Sendable {
    var suffixes: [DerivingSuffix]
    /// Spelling changes at the seam, as (derived stem's ending, base stem's ending): Portuguese
    /// *rosc-a* → *rosqu-inha* is (`qu`, `c`).
    var seams: [(derived: String, base: String)]
    /// The shortest stem a suffix leaves, so *-ina* is not read into a three-letter word.
    var minimumStem = 3

    static let none = WordFormation(suffixes: [], seams: [])

    /// Longer words (in UTF-8 bytes) are read by no rule: no menu word is this long, and the rules'
    /// searches grow with the length.
    static let longestWord = 40

    /// The noun `word` (lowercase) is, taken apart into a stem and a suffix whose base `isBase`
    /// accepts, trying suffixes in order; `pluralOf` and `singularOf` give a listed noun's plural and
    /// a listed plural's singular (for suffixes built on the plural).
    func derivation(
        of word: String,
        isBase: (String) -> Bool,
        pluralOf: (String) -> String?,
        singularOf: (String) -> String?
    ) -> DerivedNoun? {
        guard word.utf8.count <= Self.longestWord else { return nil }
        for suffix in suffixes {
            for (ending, isPlural) in [(suffix.singular, false), (suffix.plural, true)] where word.endsWith(ending) {
                let stem = word.droppingLastBytes(ending.utf8.count)
                guard stem.count >= minimumStem else { continue }
                if let derived = derive(stem, suffix: suffix, isPlural: isPlural, isBase, pluralOf, singularOf) {
                    return derived
                }
            }
        }
        return nil
    }

    private func derive(
        _ stem: String,
        suffix: DerivingSuffix,
        isPlural: Bool,
        _ isBase: (String) -> Bool,
        _ pluralOf: (String) -> String?,
        _ singularOf: (String) -> String?
    ) -> DerivedNoun? {
        if suffix.pluralFromBase {
            // pão-zinho / pãe-zinhos: the singular stem is the base; the plural stem is the base's
            // plural without its -s (and without the acute accent the suffix takes the stress from).
            let base: String?
            if isPlural {
                base = Self.accented(stem + "s").lazy.compactMap(singularOf).first
            } else {
                base = Self.accented(stem).first(where: isBase)
            }
            guard let base, let plural = pluralOf(base), plural.endsWith("s") else { return nil }
            let pluralStem = Self.withoutAcute(plural.droppingLastBytes(1))
            let singularStem = Self.withoutAcute(base)
            return DerivedNoun(
                singular: singularStem + suffix.singular,
                plural: pluralStem + suffix.plural,
                gender: suffix.gender,
                isWrittenPlural: isPlural
            )
        }
        for stemVariant in stems(of: stem) {
            for ending in suffix.baseEndings where isBase(stemVariant + ending) {
                return DerivedNoun(
                    singular: stem + suffix.singular,
                    plural: stem + suffix.plural,
                    gender: suffix.gender,
                    isWrittenPlural: isPlural
                )
            }
        }
        return nil
    }

    /// The stem as written and as the base spells it across the seam (*rosqu* → *rosc*).
    private func stems(of stem: String) -> [String] {
        var variants = [stem]
        for seam in seams where stem.endsWith(seam.derived) {
            variants.append(stem.droppingLastBytes(seam.derived.utf8.count) + seam.base)
        }
        return variants
    }

    private static let acute: [Character: [Character]] = [
        "a": ["á", "â"], "e": ["é", "ê"], "i": ["í"], "o": ["ó", "ô"], "u": ["ú"],
    ]
    private static let plain: [Character: Character] = [
        "á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "â": "a", "ê": "e", "ô": "o",
    ]

    /// The word, then the word with its last vowel accented (*cafe* → *café*, *pasteis* → *pastéis*).
    static func accented(_ word: String) -> [String] {
        var variants = [word]
        var characters = Array(word)
        guard let last = characters.lastIndex(where: { acute[$0] != nil }) else { return variants }
        for mark in acute[characters[last]]! {
            characters[last] = mark
            variants.append(String(characters))
        }
        return variants
    }

    /// The word without acute and circumflex accents (tildes stay: *pães* → *pãe-*).
    static func withoutAcute(_ word: String) -> String {
        String(word.map { plain[$0] ?? $0 })
    }
}
