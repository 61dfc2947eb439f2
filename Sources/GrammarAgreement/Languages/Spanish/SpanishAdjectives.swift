import RichText

/// Spanish adjective forms: gender and number from the masculine singular, and the short forms
/// before a singular noun (*buen café*, *gran ensalada*).
struct SpanishAdjectives: Sendable {
    let lexicon: Lexicon

    /// Comparatives in *-or* that keep one form for both genders (*la mejor tarta*).
    private static let genderInvariableComparatives: WordSet = [
        "mayor", "menor", "mejor", "peor", "superior", "inferior", "exterior", "interior", "anterior",
        "posterior", "ulterior",
    ]
    /// Short forms that serve both genders (*gran ensalada*, *cualquier bebida*).
    private static let sharedApocopes: WordSet = ["gran", "cualquier"]

    /// The masculine singular of a written adjective, and its lexicon entry when listed.
    func lemma(of word: String) -> (lemma: String, entry: LexiconEntry?) {
        if let entry = lexicon.entry(word), entry.canBeAdjective { return (word, entry) }
        if let (entry, _) = lexicon.entry(forInflectedForm: word), entry.canBeAdjective {
            return (entry.lemma.lowercased(), entry)
        }
        var candidates: [String] = []
        if word.endsWith("as") { candidates.append(word.droppingLastBytes(2) + "o") }
        if word.endsWith("os") || word.endsWith("a") {
            candidates.append(word.droppingLastBytes(word.endsWith("os") ? 2 : 1) + "o")
        }
        if word.endsWith("es") {
            let stem = word.droppingLastBytes(2)
            candidates += [stem + "e", stem, SpanishSpelling.accentingLastSyllable(stem)]
            if stem.endsWith("c") { candidates.append(stem.droppingLastBytes(1) + "z") }
        }
        if word.endsWith("s") { candidates.append(word.droppingLastBytes(1)) }
        for candidate in candidates {
            if let entry = lexicon.entry(candidate), entry.canBeAdjective,
                form(of: candidate, entry: entry).contains(word)
            {
                return (candidate, entry)
            }
        }
        return (word, nil)
    }

    /// All four forms, to check a guessed lemma.
    private func form(of lemma: String, entry: LexiconEntry?) -> [String] {
        [Morphology.GrammaticalGender.masculine, .feminine].flatMap { gender in
            [Morphology.GrammaticalNumber.singular, .plural].map { number in
                form(of: lemma, entry: entry, features: GrammaticalFeatures(gender: gender, number: number))
            }
        }
    }

    /// The form of an adjective for `features`; `beforeNoun` asks for the short form where there is one.
    func form(
        of lemma: String,
        entry: LexiconEntry?,
        features: GrammaticalFeatures,
        beforeNoun: Bool = false
    ) -> String {
        if entry?.isInvariable == true { return lemma }
        let feminine = features.gender == .feminine
        if beforeNoun, !features.isPlural, let apocope = entry?.apocope?.lowercased(),
            !feminine || Self.sharedApocopes.contains(apocope)
        {
            return apocope
        }
        let singular = feminine ? (entry?.feminine?.lowercased() ?? Self.feminine(of: lemma)) : lemma
        guard features.isPlural else { return singular }
        return SpanishNouns.regularPlural(of: singular)
    }

    /// The feminine by ending: *-o* → *-a*; *-or*, *-ón*, *-án*, *-ín*, *-és*, *-ol* add *-a*
    /// (losing the accent); everything else (*-e*, *-a*, other consonants) is shared.
    static func feminine(of lemma: String) -> String {
        if lemma.endsWith("o") { return lemma.droppingLastBytes(1) + "a" }
        if lemma.endsWith("or") {
            return genderInvariableComparatives.contains(lemma) ? lemma : lemma + "a"
        }
        for ending in ["ón", "án", "ín", "és"] where lemma.endsWith(ending) {
            return SpanishSpelling.removingFinalAccent(lemma) + "a"
        }
        if lemma.endsWith("ol") { return lemma + "a" }  // español → española
        return lemma
    }

    /// Endings that mark an unknown word after a noun as an adjective (*cortado*, *casero*,
    /// *picante*, *especial*, *integral*).
    private static let adjectiveEndings = [
        "ado", "ada", "ido", "ida", "oso", "osa", "ivo", "iva", "ico", "ica", "al", "ble", "ante", "ente",
        "iente", "ar", "ense", "és", "esa", "ano", "ana", "ino", "ina", "eño", "eña", "il", "ísimo", "ero", "era",
        "ito", "ita", "udo", "uda", "ón", "ona", "iz", "dor", "dora", "az", "oz", "or", "ín", "ol", "í", "ú",
    ]

    /// Whether an unknown word looks like an adjective: the masculine base (*-o*), *-e* (*verde*,
    /// *dulce*: after a noun these are adjectives far more often than nouns in apposition), or a
    /// typical ending.
    static func looksLikeAdjective(_ word: String) -> Bool {
        word.endsWith("o") || word.endsWith("os") || word.endsWith("e")
            || adjectiveEndings.contains { word.endsWith($0) }
    }
}
