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
                plural: entry.plural?.fastLowercased
                    ?? Self.regularPlural(of: lemma, gender: entry.grammaticalGender ?? .masculine),
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
        if word.utf8.contains(UInt8(ascii: "-")), let hyphen = word.lastIndex(of: "-") {
            let part = String(word[word.index(after: hyphen)...])
            guard !part.isEmpty else { return nil }
            return (String(word[...hyphen]), part)
        }
        return Self.firstPart(of: word) { bytes, offset in
            let part = UnsafeBufferPointer(rebasing: bytes[offset...])
            guard let entry = lexicon.entry(utf8: part), entry.canBeNoun,
                !entry.isAmbiguous || entry.partsOfSpeech.first == .noun
            else { return nil }
            let prefix = UnsafeBufferPointer(rebasing: bytes[..<offset])
            // A listed word that ends a letter or two before the part, with no linking element
            // between, marks the true boundary: *Zwiebel|fladen* is not a *Laden*.
            guard !isMisplacedBoundary(prefix) else { return nil }
            return (String(decoding: prefix, as: UTF8.self), String(decoding: part, as: UTF8.self))
        }
    }

    /// The first non-`nil` result of `body` over the places a compound's last part could start, from
    /// the longest part to the shortest: after the word's first scalar, leaving at least
    /// ``shortestCompoundPart`` scalars. `body` gets the word's UTF-8 bytes and the part's offset, so
    /// parts are looked up in place; only the one found becomes a `String`.
    private static func firstPart<Result>(
        of word: String,
        _ body: (UnsafeBufferPointer<UInt8>, Int) -> Result?
    ) -> Result? {
        var word = word
        return word.withUTF8 { bytes in
            let scalarCount = bytes.reduce(0) { $0 + (isScalarStart($1) ? 1 : 0) }
            guard scalarCount > shortestCompoundPart else { return nil }
            var scalar = 0
            for offset in bytes.indices where isScalarStart(bytes[offset]) {
                scalar += 1
                guard scalar > 1 else { continue }
                guard scalar <= scalarCount - shortestCompoundPart + 1 else { break }
                if let result = body(bytes, offset) { return result }
            }
            return nil
        }
    }

    /// Whether a UTF-8 byte starts a scalar (is not a continuation byte, `10xxxxxx`).
    private static func isScalarStart(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }

    /// Linking elements between the parts of a compound (*Erdbeer|en|torte*).
    private static let linkingElements: WordSet = ["s", "n", "e", "es", "en", "er"]

    /// Whether a listed word ends one or two letters before the end of `prefix` (UTF-8), the letters
    /// between being no linking element (*-s*, *-n*, *-e*, *-es*, *-en*, *-er*).
    private func isMisplacedBoundary(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        let scalarCount = prefix.reduce(0) { $0 + (Self.isScalarStart($1) ? 1 : 0) }
        var split = prefix.count
        for extra in 1...2 {
            // Back to the start of the `extra`-th scalar from the end.
            repeat { split -= 1 } while split > 0 && !Self.isScalarStart(prefix[split])
            guard scalarCount > extra + 2 else { continue }
            if Self.linkingElements.contains(utf8: UnsafeBufferPointer(rebasing: prefix[split...])) { continue }
            if let entry = lexicon.entry(utf8: UnsafeBufferPointer(rebasing: prefix[..<split])), entry.canBeNoun {
                return true
            }
        }
        return false
    }

    /// The singular of a written plural, when the lexicon or a compound tells it.
    func singular(of word: String) -> String? {
        if let (entry, kind) = lexicon.entry(forInflectedForm: word), kind == .plural, entry.canBeNoun {
            return entry.lemma.fastLowercased
        }
        if let (prefix, part) = lastCompoundPart(ofPlural: word) { return prefix + part }
        return nil
    }

    private func lastCompoundPart(ofPlural word: String) -> (prefix: String, part: String)? {
        Self.firstPart(of: word) { bytes, offset in
            let part = UnsafeBufferPointer(rebasing: bytes[offset...])
            guard let (entry, kind) = lexicon.entry(forInflectedFormUTF8: part), kind == .plural, entry.canBeNoun
            else { return nil }
            let prefix = UnsafeBufferPointer(rebasing: bytes[..<offset])
            return (String(decoding: prefix, as: UTF8.self), entry.lemma.fastLowercased)
        }
    }

    // MARK: Rules for unlisted nouns

    /// Gender by ending: *-ung*, *-heit*, *-keit*, *-schaft*, *-ion*, *-tät*, *-ik*, *-ei*, *-ie*,
    /// *-enz*, *-anz*, *-ur*, *-a* and most *-e* are feminine; *-chen*, *-lein*, *-ment*, *-um*, *-tum*,
    /// *-ett* neuter; *-ling*, *-ismus*, *-ist*, *-or*, *-eur*, *-ich*, *-ig*, *-o* and the rest masculine.
    static func guessedGender(of word: String) -> Morphology.GrammaticalGender {
        genderEndings.longestMatch(in: word) ?? .masculine
    }

    /// The endings ``guessedGender(of:)`` reads; the longest that fits decides.
    private static let genderEndings = EndingTable<Morphology.GrammaticalGender>([
        ("ung", .feminine), ("heit", .feminine), ("keit", .feminine), ("schaft", .feminine), ("ion", .feminine),
        ("tät", .feminine), ("ik", .feminine), ("ei", .feminine), ("ie", .feminine), ("enz", .feminine),
        ("anz", .feminine), ("ur", .feminine), ("a", .feminine), ("e", .feminine),
        ("chen", .neuter), ("lein", .neuter), ("ment", .neuter), ("um", .neuter), ("tum", .neuter),
        ("ett", .neuter), ("eau", .neuter), ("ee", .masculine), ("ling", .masculine), ("ismus", .masculine),
        ("ist", .masculine), ("or", .masculine), ("eur", .masculine), ("ich", .masculine), ("ig", .masculine),
        ("o", .masculine), ("ier", .masculine), ("ant", .masculine), ("ent", .masculine),
    ])

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
    static func form(
        _ form: String,
        plural: Bool,
        gender: Morphology.GrammaticalGender,
        case grammaticalCase: GermanCase
    )
        -> String
    {
        switch grammaticalCase {
        case .dative where plural:
            return form.endsWith("n") || form.endsWith("s") ? form : form + "n"
        case .genitive where !plural && gender != .feminine:
            if form.endsWith("s") || form.endsWith("ß") || form.endsWith("x") || form.endsWith("z") {
                return form + "es"
            }
            return form + "s"
        default:
            return form
        }
    }
}
