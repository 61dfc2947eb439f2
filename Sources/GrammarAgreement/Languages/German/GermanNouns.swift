import RichText

/// German noun gender and plurals: the lexicon first, then the last part of a compound
/// (*Erdbeer|torte* is a *Torte*), then the endings that predict them (Duden, *Grammatik*, the
/// plural classes *-e*, *-(e)n*, *-er*, *-s* and none).
struct GermanNouns: Sendable {
    let lexicon: Lexicon

    /// Parts shorter than this are not taken for the last part of a compound (*Ei* stays whole).
    private static let shortestCompoundPart = 3

    /// What a noun's agreement needs: its gender and plural.
    struct Reading: Sendable {
        var gender: Morphology.GrammaticalGender
        /// Lowercase plural; equal to the lemma for zero plurals (*Becher*).
        var plural: String
        var entry: LexiconEntry?
    }

    /// The gender and plural of a lowercase singular noun.
    func reading(of lemma: String) -> Reading {
        if let entry = lexicon.entry(lemma), entry.canBeNoun {
            return Reading(
                gender: entry.grammaticalGender ?? .masculine,
                plural: entry.plural?.lowercased() ?? Self.regularPlural(of: lemma, gender: entry.grammaticalGender ?? .masculine),
                entry: entry
            )
        }
        if let (prefix, part) = lastCompoundPart(of: lemma) {
            let reading = reading(of: part)
            return Reading(gender: reading.gender, plural: prefix + reading.plural, entry: reading.entry)
        }
        let gender = Self.guessedGender(of: lemma)
        return Reading(gender: gender, plural: Self.regularPlural(of: lemma, gender: gender), entry: nil)
    }

    /// The longest listed noun ending the word, and what comes before it: *kaffeebecher* →
    /// (*kaffee*, *becher*); *cappuccino-becher* → (*cappuccino-*, *becher*).
    func lastCompoundPart(of word: String) -> (prefix: String, part: String)? {
        if let hyphen = word.lastIndex(of: "-") {
            let part = String(word[word.index(after: hyphen)...])
            guard !part.isEmpty else { return nil }
            return (String(word[...hyphen]), part)
        }
        let scalars = Array(word.unicodeScalars)
        guard scalars.count > Self.shortestCompoundPart else { return nil }
        for start in 1...(scalars.count - Self.shortestCompoundPart) {
            let part = String(String.UnicodeScalarView(scalars[start...]))
            if let entry = lexicon.entry(part), entry.canBeNoun, !entry.isAmbiguous || entry.partsOfSpeech.first == .noun {
                let prefix = String(String.UnicodeScalarView(scalars[..<start]))
                // A listed word that ends a letter or two before the part, with no linking element
                // between, marks the true boundary: *Zwiebel|fladen* is not a *Laden*.
                guard !isMisplacedBoundary(prefix) else { continue }
                return (prefix, part)
            }
        }
        return nil
    }

    /// Whether a listed word ends one or two letters before the end of `prefix`, the letters
    /// between being no linking element (*-s*, *-n*, *-e*, *-es*, *-en*, *-er*).
    private func isMisplacedBoundary(_ prefix: String) -> Bool {
        let scalars = Array(prefix.unicodeScalars)
        for extra in 1...2 where scalars.count > extra + 2 {
            let head = String(String.UnicodeScalarView(scalars.dropLast(extra)))
            let between = String(String.UnicodeScalarView(scalars.suffix(extra)))
            if ["s", "n", "e", "es", "en", "er"].contains(between) { continue }
            if let entry = lexicon.entry(head), entry.canBeNoun { return true }
        }
        return false
    }

    /// The singular of a written plural, when the lexicon or a compound tells it.
    func singular(of word: String) -> String? {
        if let (entry, kind) = lexicon.entry(forInflectedForm: word), kind == .plural, entry.canBeNoun {
            return entry.lemma.lowercased()
        }
        if let (prefix, part) = lastCompoundPart(ofPlural: word) { return prefix + part }
        return nil
    }

    private func lastCompoundPart(ofPlural word: String) -> (prefix: String, part: String)? {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count > Self.shortestCompoundPart else { return nil }
        for start in 1...(scalars.count - Self.shortestCompoundPart) {
            let tail = String(String.UnicodeScalarView(scalars[start...]))
            if let (entry, kind) = lexicon.entry(forInflectedForm: tail), kind == .plural, entry.canBeNoun {
                return (String(String.UnicodeScalarView(scalars[..<start])), entry.lemma.lowercased())
            }
        }
        return nil
    }

    // MARK: Rules for unlisted nouns

    /// Gender by ending: *-ung*, *-heit*, *-keit*, *-schaft*, *-ion*, *-tät*, *-ik*, *-ei*, *-ie*,
    /// *-enz*, *-anz*, *-ur*, *-a* and most *-e* are feminine; *-chen*, *-lein*, *-ment*, *-um*, *-tum*,
    /// *-ett* neuter; *-ling*, *-ismus*, *-ist*, *-or*, *-eur*, *-ich*, *-ig*, *-o* and the rest masculine.
    static func guessedGender(of word: String) -> Morphology.GrammaticalGender {
        let endings: [(String, Morphology.GrammaticalGender)] = [
            ("ung", .feminine), ("heit", .feminine), ("keit", .feminine), ("schaft", .feminine), ("ion", .feminine),
            ("tät", .feminine), ("ik", .feminine), ("ei", .feminine), ("ie", .feminine), ("enz", .feminine),
            ("anz", .feminine), ("ur", .feminine), ("a", .feminine), ("e", .feminine),
            ("chen", .neuter), ("lein", .neuter), ("ment", .neuter), ("um", .neuter), ("tum", .neuter),
            ("ett", .neuter), ("eau", .neuter), ("ee", .masculine), ("ling", .masculine), ("ismus", .masculine),
            ("ist", .masculine), ("or", .masculine), ("eur", .masculine), ("ich", .masculine), ("ig", .masculine),
            ("o", .masculine), ("ier", .masculine), ("ant", .masculine), ("ent", .masculine),
        ]
        var best: (length: Int, gender: Morphology.GrammaticalGender)?
        for (ending, gender) in endings where word.endsWith(ending) && ending.count > (best?.length ?? 0) {
            best = (ending.count, gender)
        }
        return best?.gender ?? .masculine
    }

    /// The plural by gender and ending: *-e* → *-en*; feminines *-en* (*-in* → *-innen*, *-el*/*-er* →
    /// *-n*); masculines and neuters in *-er*, *-el*, *-en*, *-chen*, *-lein* take none; *-um* → *-en*;
    /// a final vowel other than *-e* (and *-ee*) takes *-s* (*Espressos*, *Müslis*, *Pürees*); the rest
    /// of the masculines and neuters take *-e*. Umlaut plurals (*Gläser*, *Würste*) are listed.
    static func regularPlural(of word: String, gender: Morphology.GrammaticalGender) -> String {
        if word.endsWith("ee") { return word + "s" }
        if word.endsWith("e") { return word + "n" }
        if let last = word.unicodeScalars.last, "aiouyéáü".unicodeScalars.contains(last) { return word + "s" }
        if gender == .feminine {
            if word.endsWith("in") { return word + "nen" }
            if word.endsWith("el") || word.endsWith("er") { return word + "n" }
            return word + "en"
        }
        // -er, -el, -en as an unstressed second syllable take no ending; Bier, Tier are one syllable.
        for ending in ["er", "el", "en", "chen", "lein"] where word.endsWith(ending) && syllableCount(word) > 1 {
            return word
        }
        if word.endsWith("um") { return word.droppingLastBytes(2) + "en" }
        if word.endsWith("ismus") { return word.droppingLastBytes(2) + "en" }
        return word + "e"
    }

    /// Vowel groups, a count of syllables good enough for plural endings (*Bier* 1, *Becher* 2).
    static func syllableCount(_ word: String) -> Int {
        var count = 0
        var inVowel = false
        for scalar in word.unicodeScalars {
            let isVowel = "aeiouyäöü".unicodeScalars.contains(scalar)
            if isVowel, !inVowel { count += 1 }
            inVowel = isVowel
        }
        return count
    }

    /// A noun's form in a case: dative plural adds *-n* (not after *-n* or *-s*); the genitive
    /// singular of masculines and neuters adds *-s* (*-es* after *s*, *ß*, *x*, *z*).
    static func form(_ form: String, plural: Bool, gender: Morphology.GrammaticalGender, case grammaticalCase: GermanCase)
        -> String
    {
        switch grammaticalCase {
        case .dative where plural:
            return form.endsWith("n") || form.endsWith("s") ? form : form + "n"
        case .genitive where !plural && gender != .feminine:
            if form.endsWith("s") || form.endsWith("ß") || form.endsWith("x") || form.endsWith("z") { return form + "es" }
            return form + "s"
        default:
            return form
        }
    }
}
