import RichText

/// German nouns as the lexicon knows them: gender, plural, dative plural and a weak noun's
/// oblique singular, from the noun's entry or, for a compound the lexicon does not list, from its
/// last part when the first part is made of known words too (*Erdbeer|torte* is a *Torte*;
/// *Snor|kette* is nothing). A noun neither gives is not known: agreement leaves it as written.
struct GermanNouns: Sendable {
    let lexicon: Lexicon
    /// First parts of listed compounds that are no word themselves (*Spätzle|presse*):
    /// `Lexicons/de.modifiers.txt`, compiled from the lexicon by `Scripts/lexicons`.
    let modifiers: WordSet?

    let loans = EnglishLoans()

    init(lexicon: Lexicon, modifiers: WordSet? = Lexicon.bundledWords("de.modifiers")) {
        self.lexicon = lexicon
        self.modifiers = modifiers
    }

    /// A noun the lexicon does not list whose forms German grammar gives: a diminutive in *-chen*
    /// or *-lein*, neuter with no plural ending (*Quarkkeulchen*, *Törtlein*); a loan ending in a
    /// full vowel other than *-e*, *-a* (*Negroni*, *Frappé*, *Affogato*: *-s*), or an English noun
    /// (*Shake*, *Bagel*: *-s*), whose gender is not known.
    func ruleReading(of word: String) -> Reading? {
        guard word.count > 4, word.utf8.count <= WordFormation.longestWord, !word.contains(" ") else { return nil }
        if word.endsWith("chen") || word.endsWith("lein") {
            return Reading(
                gender: .neuter,
                singular: word,
                plural: word,
                dativePlural: word,
                isByRule: true
            )
        }
        let loan =
            ["o", "i", "y", "u", "é", "ó", "á"].contains { word.endsWith($0) } || loans.isCountableNoun(word)
        guard loan else { return nil }
        let plural = word.endsWith("s") || word.endsWith("x") || word.endsWith("z") ? word : word + "s"
        return Reading(
            gender: .masculine,
            singular: word,
            plural: plural,
            dativePlural: plural,
            isGenderKnown: false,
            isByRule: true
        )
    }

    /// Parts shorter than this are not taken for the last part of a compound (*Ei* stays whole).
    private static let shortestCompoundPart = 3

    /// A noun's forms, lowercase, and its gender.
    struct Reading: Sendable {
        var gender: Morphology.GrammaticalGender
        var singular: String
        /// Equal to the singular for zero plurals (*Becher*).
        var plural: String
        var dativePlural: String
        /// A weak noun's accusative, dative and genitive singular (*Kunden*).
        var oblique: String?
        var entry: LexiconEntry?
        /// Whether the word was written in the plural.
        var isWrittenPlural = false
        /// Whether `gender` is the noun's: `false` for a loan the rules read (its plural takes no
        /// gender, its singular's determiners and adjectives stay as written).
        var isGenderKnown = true
        /// Whether the forms come from the rules (a diminutive, a loan), not the lexicon.
        var isByRule = false

        var isUncountable: Bool { entry?.isUncountable == true }

        /// The noun's form in a case: the dative plural as listed or made, a weak noun's oblique
        /// singular; the genitive singular of other masculines and neuters adds *-s* (*-es* after
        /// *s*, *ß*, *x*, *z*).
        func form(plural isPlural: Bool, case grammaticalCase: GermanCase) -> String {
            if isPlural { return grammaticalCase == .dative ? dativePlural : plural }
            if grammaticalCase != .nominative, let oblique { return oblique }
            guard grammaticalCase == .genitive, gender != .feminine else { return singular }
            if singular.endsWith("s") || singular.endsWith("ß") || singular.endsWith("x") || singular.endsWith("z") {
                return singular + "es"
            }
            return singular + "s"
        }
    }

    /// The dative plural the format gives by default: the plural with *-n* when it ends in *-e*,
    /// *-l* or *-r* (*Keksen*, *Äpfeln*, *Bechern*); others (*-n*, *-s*, loans in *-i*, *-z*) as they are.
    static func defaultDativePlural(of plural: String) -> String {
        plural.endsWith("e") || plural.endsWith("l") || plural.endsWith("r") ? plural + "n" : plural
    }

    /// How the lexicon reads a lowercase word as a noun: a listed noun, a listed plural, or a
    /// compound whose last part is listed; `nil` when it does not know the word.
    func reading(of word: String) -> Reading? {
        if let entry = lexicon.entry(word), entry.canBeNoun {
            var reading = Self.reading(entry, lemma: word)
            reading.isWrittenPlural = entry.isPluralOnly
            return reading
        }
        if let (entry, kind) = lexicon.entry(forInflectedForm: word), entry.canBeNoun,
            kind == .plural || kind == .dativePlural
        {
            var reading = Self.reading(entry, lemma: entry.lemma.fastLowercased)
            reading.isWrittenPlural = true
            return reading
        }
        if let (prefix, part) = lastCompoundPart(of: word), let last = reading(of: part) {
            return Reading(
                gender: last.gender,
                singular: prefix + last.singular,
                plural: prefix + last.plural,
                dativePlural: prefix + last.dativePlural,
                oblique: last.oblique.map { prefix + $0 },
                entry: last.entry,
                isWrittenPlural: last.isWrittenPlural
            )
        }
        return nil
    }

    private static func reading(_ entry: LexiconEntry, lemma: String) -> Reading {
        let plural = entry.plural?.fastLowercased ?? lemma
        return Reading(
            gender: entry.grammaticalGender ?? .masculine,
            singular: lemma,
            plural: plural,
            dativePlural: entry.dativePlural?.fastLowercased ?? defaultDativePlural(of: plural),
            oblique: entry.oblique?.fastLowercased,
            entry: entry
        )
    }

    /// The longest listed noun ending the word, and what comes before it: *kaffeebecher* →
    /// (*kaffee*, *becher*); *cappuccino-becher* → (*cappuccino-*, *becher*).
    func lastCompoundPart(of word: String) -> (prefix: String, part: String)? {
        if word.utf8.contains(UInt8(ascii: "-")), let hyphen = word.lastIndex(of: "-") {
            let part = String(word[word.index(after: hyphen)...])
            guard !part.isEmpty else { return nil }
            return (String(word[...hyphen]), part)
        }
        let found: (prefix: String, part: String, isKnown: Bool)? = Self.firstPart(of: word) { bytes, offset in
            let part = UnsafeBufferPointer(rebasing: bytes[offset...])
            // The part as a listed noun, or a listed plural of one (Laugen|stangen).
            let listed =
                lexicon.entry(utf8: part)
                ?? lexicon.entry(forInflectedFormUTF8: part).flatMap { $0.kind == .plural ? $0.entry : nil }
            guard let entry = listed, entry.canBeNoun,
                !entry.isAmbiguous || entry.partsOfSpeech.first == .noun
            else { return nil }
            let prefix = UnsafeBufferPointer(rebasing: bytes[..<offset])
            // A listed word that ends a letter or two before the part, with no linking element
            // between, marks the true boundary: *Zwiebel|fladen* is not a *Laden*.
            guard !isMisplacedBoundary(prefix) else { return nil }
            let modifier = String(decoding: prefix, as: UTF8.self)
            return (modifier, String(decoding: part, as: UTF8.self), isKnownModifier(modifier))
        }
        // What comes before the longest listed part must be words too: *Snor|kette* is no compound
        // of *Kette*, and a shorter part is no way out (*Schnurzel|tasse* is not *Schnur|zelt|asse*).
        guard let found, found.isKnown else { return nil }
        return (found.prefix, found.part)
    }

    /// Linking elements and the endings a first part drops (*Erdbeer|torte* from *Erdbeere*,
    /// *Back|ofen* from *Backen*), for ``isKnownModifier(_:depth:)``.
    private static let modifierLinks = ["s", "n", "e", "es", "en", "er", "ns", "ens"]
    private static let droppedEndings = ["e", "en", "n"]

    /// Whether the first part of a compound (lowercase, before its last part) is made of words the
    /// lexicon knows: a listed word or form of one (*Kaffee|becher*, *Voll|korn*), one with a
    /// linking element (*Laugen|brezel*, *Geburts|tag*), a noun that drops its *-e* or *-en*
    /// (*Erdbeer|torte*, *Brat|wurst* from *Braten*), the first part of listed compounds
    /// (*Spätzle|pfanne*: ``modifiers``), or two or three such parts of at least three letters
    /// (*Vollkorn|brötchen*). An invented word is none of these, so *Snorkette* is not
    /// read as a *Kette*: it is left as written.
    func isKnownModifier(_ modifier: String, depth: Int = 0) -> Bool {
        func listed(_ word: String) -> Bool {
            word.count >= 2 && (lexicon.entry(word) != nil || lexicon.entry(forInflectedForm: word) != nil)
        }
        // A single letter is no word, whatever it could be the stem of (G|roß is no compound).
        guard modifier.unicodeScalars.count >= 2 else { return false }
        if listed(modifier) || modifiers?.contains(modifier) == true { return true }
        for link in Self.modifierLinks where modifier.endsWith(link) {
            if listed(modifier.droppingLastBytes(link.utf8.count)) { return true }
        }
        if Self.droppedEndings.contains(where: { listed(modifier + $0) }) { return true }
        guard depth < 2 else { return false }
        let scalars = Array(modifier.unicodeScalars)
        guard scalars.count >= 6 else { return false }
        for split in 3...(scalars.count - 3) {
            let first = String(String.UnicodeScalarView(scalars[..<split]))
            let rest = String(String.UnicodeScalarView(scalars[split...]))
            if isKnownModifier(first, depth: 2), isKnownModifier(rest, depth: depth + 1) { return true }
        }
        return false
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

    /// Whether the word is a listed noun's plural (itself, or the last part of a compound).
    func isPlural(_ word: String) -> Bool {
        reading(of: word)?.isWrittenPlural == true
    }
}
