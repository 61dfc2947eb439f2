import RichText

/// Spanish noun plurals and genders: the lexicon first, then the spelling rules of the RAE's
/// *Ortografía* (2010) and the usual endings for gender.
struct SpanishNouns: Sendable {
    let lexicon: Lexicon

    /// The plural of a lowercase singular noun.
    func plural(of word: String) -> String {
        if let entry = lexicon.entry(word) {
            if let plural = entry.plural { return plural.lowercased() }
            if entry.isPluralOnly { return word }
        }
        return Self.regularPlural(of: word)
    }

    /// Verb stems that make invariable compounds with a plural noun (*sacacorchos*, *abrelatas*, *pasapurés*).
    private static let compoundVerbStems = [
        "abre", "saca", "pasa", "porta", "salva", "casca", "lava", "cubre", "quita", "limpia", "guarda", "para",
        "rompe", "corta", "pela", "exprime", "ralla", "escurre", "cuenta", "posa",
    ]

    /// A verb stem and a plural noun (*sacacorchos*, *escurreplatos*): the same in both numbers.
    static func isInvariableCompound(_ word: String) -> Bool {
        word.endsWith("s") && compoundVerbStems.contains { word.startsWith($0) && word.utf8.count > $0.utf8.count + 2 }
    }

    /// Whether a feminine noun starts with a stressed *a* and so takes *el*/*un* (*el hacha*, *el
    /// área*): a written accent on its first vowel, or two syllables with the first one stressed
    /// by the spelling rules (ending in a vowel, *n* or *s*, no accent mark).
    static func startsWithStressedA(_ word: String) -> Bool {
        let body = word.startsWith("h") ? String(word.dropFirst()) : word
        guard let first = body.unicodeScalars.first else { return false }
        if first == "á" { return true }
        guard first == "a" else { return false }
        let scalars = Array(word.unicodeScalars)
        let nuclei = SpanishSpelling.nuclei(scalars)
        guard nuclei.count == 2, !SpanishSpelling.hasWrittenAccent(word), let last = scalars.last else { return false }
        // The first nucleus must start with the a (a-gua, au-la) and the spelling must stress it.
        return scalars[nuclei[0].lowerBound] == "a" && (SpanishSpelling.isVowel(last) || last == "n" || last == "s")
    }

    /// Plural by spelling: vowel +s, consonant +es, *z* → *ces*, accents dropped or added,
    /// unstressed *-s*/*-x* unchanged, loans ending in other consonants +s.
    static func regularPlural(of word: String) -> String {
        let scalars = word.unicodeScalars
        guard let last = scalars.last else { return word }
        let previous = scalars.count >= 2 ? scalars[scalars.index(scalars.endIndex, offsetBy: -2)] : nil
        let isVowel = SpanishSpelling.isVowel
        if isVowel(last) {
            // Stressed í takes -es (ají → ajíes); every other vowel -s (café → cafés, menú → menús).
            return last == "í" ? word + "es" : word + "s"
        }
        if word.endsWith("ch") { return word + "es" }  // sándwich → sándwiches
        let syllables = SpanishSpelling.syllableCount(word)
        switch last {
        case "s", "x":
            if syllables <= 1 { return word + "es" }  // mes → meses, fax → faxes
            if last == "s",
                compoundVerbStems.contains(where: { word.startsWith($0) && word.utf8.count > $0.utf8.count + 2 })
            {
                return word  // sacacorchos, pasapurés
            }
            if SpanishSpelling.isAccentedOnLastSyllable(word) {
                return SpanishSpelling.removingFinalAccent(word) + "es"  // inglés → ingleses
            }
            return word  // lunes, tórax: unstressed -s/-x do not change
        case "z":
            return word.droppingLastBytes(1) + "ces"  // maíz → maíces
        case "y":
            guard let previous, SpanishSpelling.isVowel(previous) else { return word + "s" }  // sherry → sherrys
            return word + "es"  // rey → reyes, mamey → mameyes (loans such as jersey → jerséis are listed)
        default:
            break
        }
        if let previous, !isVowel(previous) {
            return word + "s"  // iceberg, récord, croissant: loans ending in two consonants
        }
        switch last {
        case "n":
            if SpanishSpelling.isAccentedOnLastSyllable(word) {
                return SpanishSpelling.removingFinalAccent(word) + "es"  // limón → limones
            }
            if syllables >= 2, !SpanishSpelling.hasWrittenAccent(word) {
                return SpanishSpelling.accentingPenultimateSyllable(word) + "es"  // joven → jóvenes
            }
            return word + "es"
        case "l", "r", "d", "j":
            if SpanishSpelling.isAccentedOnLastSyllable(word) {
                return SpanishSpelling.removingFinalAccent(word) + "es"
            }
            return word + "es"
        default:
            return word + "s"  // bistec → bistecs, chef → chefs
        }
    }

    /// The singular of a plural form: listed, or a regular plural of a listed noun.
    func singular(of word: String) -> String? {
        if let (entry, kind) = lexicon.entry(forInflectedForm: word), kind == .plural {
            return entry.lemma.lowercased()
        }
        guard word.endsWith("s") else { return nil }
        var candidates: [String] = []
        if word.endsWith("ces") { candidates.append(word.droppingLastBytes(3) + "z") }
        if word.endsWith("es") {
            let stem = word.droppingLastBytes(2)
            candidates += [stem, SpanishSpelling.accentingLastSyllable(stem), SpanishSpelling.removingAccents(stem)]
        }
        candidates.append(word.droppingLastBytes(1))
        return candidates.first { candidate in
            guard candidate != word, let entry = lexicon.entry(candidate), entry.canBeNoun else { return false }
            return plural(of: candidate) == word
        }
    }

    /// Whether a lowercase noun is written in the plural.
    func isPlural(_ word: String) -> Bool {
        if let entry = lexicon.entry(word) { return entry.isPluralOnly }
        if singular(of: word) != nil { return true }
        if Self.isInvariableCompound(word) { return false }
        // Unknown words: -as and -os are plural endings (lunes-like words end in -es or -is).
        return (word.endsWith("as") || word.endsWith("os")) && SpanishSpelling.syllableCount(word) >= 2
    }

    /// A singular for an unknown plural: `-s` dropped (*-as*/*-os*); a word not ending in *s* is
    /// returned as written.
    func guessedSingular(of word: String) -> String {
        if let singular = singular(of: word) { return singular }
        return word.endsWith("s") ? word.droppingLastBytes(1) : word
    }

    /// The gender of a lowercase singular noun: the lexicon's, or the one its ending suggests.
    func gender(of word: String) -> Morphology.GrammaticalGender {
        switch lexicon.entry(word)?.gender {
        case .feminine: .feminine
        case .masculine, .common, .neuter: .masculine
        case nil: Self.guessedGender(of: word)
        }
    }

    /// Gender by ending, for nouns the lexicon does not list: *-a*, *-ción*, *-sión*, *-dad*, *-tad*,
    /// *-tud*, *-umbre*, *-ie*, *-sis*, *-itis*, *-triz* are feminine; the rest masculine.
    static func guessedGender(of word: String) -> Morphology.GrammaticalGender {
        let feminineEndings = [
            "ción", "sión", "xión", "dad", "tad", "tud", "umbre", "ie", "sis", "itis", "triz", "ez", "ud", "ión",
        ]
        let masculineEndings = ["aje", "or", "án", "ón", "és", "ambre", "pez", "jerez"]
        // The longest matching ending decides (-ción beats -ón, -sis beats -s).
        var best: (length: Int, gender: Morphology.GrammaticalGender)?
        for ending in feminineEndings where word.endsWith(ending) && ending.count > (best?.length ?? 0) {
            best = (ending.count, .feminine)
        }
        for ending in masculineEndings where word.endsWith(ending) && ending.count > (best?.length ?? 0) {
            best = (ending.count, .masculine)
        }
        if let best { return best.gender }
        // Greek -ma nouns are masculine (problema, tema) only where the lexicon says so: the
        // common food words in -ma (crema, yema, lima) are feminine like other -a nouns.
        return word.endsWith("a") ? .feminine : .masculine
    }
}
