/// English noun plurals: the lexicon's irregular forms first, then spelling rules.
struct EnglishNouns: Sendable {
    let lexicon: Lexicon

    /// Prepositions inside hyphenated compounds whose first part inflects (*mothers-in-law*).
    /// (*add-ons*, *carry-ons*: particles such as *on* leave the last part to inflect, and so do
    /// French compounds: *vol-au-vents*.)
    private static let compoundPrepositions: Set<Substring> = ["in", "of"]

    /// The plural of a lowercase singular noun.
    func plural(of word: String) -> String { pluralReading(of: word).plural }

    /// The plural of a lowercase singular noun, and whether the lexicon decided it: it lists the
    /// word, or the part of a hyphenated compound that inflects (*mother-in-law*: *mother*).
    /// Otherwise the spelling rules made it.
    func pluralReading(of word: String) -> (plural: String, isListed: Bool) {
        let entry = lexicon.entry(word)
        if let entry {
            if let plural = entry.plural { return (plural.lowercased(), true) }
            if entry.isPluralOnly { return (word, true) }
        }
        if word.utf8.contains(UInt8(ascii: "-")) {
            let parts = word.split(separator: "-", omittingEmptySubsequences: false)
            let head =
                parts.firstIndex(where: { Self.compoundPrepositions.contains($0) }).map { $0 - 1 } ?? parts.count - 1
            guard head >= 0, !parts[head].isEmpty else { return (Self.regularPlural(of: word), entry != nil) }
            var inflected = parts.map(String.init)
            let reading = pluralReading(of: inflected[head])
            inflected[head] = reading.plural
            return (inflected.joined(separator: "-"), entry != nil || reading.isListed)
        }
        return (Self.regularPlural(of: word), entry != nil)
    }

    /// Whether a lowercase word is a plural form: listed, a regular plural of a listed noun, or an
    /// unlisted word ending in a plural *-s* after a consonant (widgets; not bus, glass, iris).
    func isPlural(_ word: String) -> Bool {
        if let entry = lexicon.entry(word) { return entry.isPluralOnly }
        if let (_, kind) = lexicon.entry(forInflectedForm: word) { return kind == .plural }
        if singularCandidate(of: word) != nil { return true }
        guard word.utf8.count > 3, word.endsWith("s"),
            !["ss", "us", "is", "os", "as"].contains(where: { word.endsWith($0) })
        else { return false }
        return true
    }

    /// Whether a word, listed or not, reads as a plural: listed plurals, and unlisted words in
    /// *-s* other than *-ss*, *-us* and *-is* (for phrases whose number must be guessed).
    func looksPlural(_ word: String) -> Bool {
        if lexicon.entry(word) != nil || lexicon.entry(forInflectedForm: word) != nil { return isPlural(word) }
        return word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")
    }

    /// The singular of a plural form the lexicon knows, directly or by a regular ending.
    func singular(of word: String) -> String? {
        if let (entry, kind) = lexicon.entry(forInflectedForm: word), kind == .plural {
            return entry.lemma.lowercased()
        }
        return singularCandidate(of: word)
    }

    private func singularCandidate(of word: String) -> String? {
        guard word.endsWith("s") else { return nil }
        var candidates: [String] = []
        if word.endsWith("ies") { candidates.append(word.droppingLastBytes(3) + "y") }
        if word.endsWith("ves") {
            candidates.append(word.droppingLastBytes(3) + "f")
            candidates.append(word.droppingLastBytes(3) + "fe")
        }
        if word.endsWith("es") { candidates.append(word.droppingLastBytes(2)) }
        candidates.append(word.droppingLastBytes(1))
        return candidates.first { candidate in
            guard let entry = lexicon.entry(candidate), entry.canBeNoun else { return false }
            return plural(of: candidate) == word
        }
    }

    /// Spelling rules for nouns the lexicon does not list.
    static func regularPlural(of word: String) -> String {
        let scalars = word.unicodeScalars
        guard let last = scalars.last else { return word }
        let previous = scalars.count >= 2 ? scalars[scalars.index(scalars.endIndex, offsetBy: -2)] : nil
        // Compounds of nouns that do not change: swordfish, monkfish; nationalities: Japanese.
        // French -ois (chinois, patois) does not change either.
        for suffix in ["fish", "sheep", "deer", "ese", "ois"] where word.endsWith(suffix) && word.count > suffix.count {
            if suffix == "ese", word.endsWith("eese") { break }  // cheese → cheeses
            return word
        }
        // -ch said /k/ (monarch, stomach), -xis (axis → axes), -quy (soliloquy → soliloquies).
        if ["monarch", "stomach", "epoch", "loch", "eunuch", "patriarch", "matriarch", "tech"].contains(where: {
            word.endsWith($0)
        }) {
            return word + "s"
        }
        if word.endsWith("xis") { return word.droppingLastBytes(2) + "es" }
        if word.endsWith("quy") { return word.droppingLastBytes(1) + "ies" }
        if word == "golf" || word == "gulf" || word.endsWith("ottoman") { return word + "s" }
        if word == "fish" || word == "sheep" || word == "deer" { return word }
        // Greek -sis → -ses (analysis, oasis).
        if word.endsWith("sis"), word.count > 4 { return word.droppingLastBytes(2) + "es" }
        // French -eau → -eaux (gâteau, rouleau).
        if word.endsWith("eau") { return word + "x" }
        // -man → -men (barman, fisherman), but not human, German, Roman, shaman.
        if word.endsWith("man"), word.count > 4,
            !["human", "german", "roman", "shaman", "caiman", "talisman"].contains(word)
        {
            return word.droppingLastBytes(3) + "men"
        }
        switch last {
        case "s", "x", "z":
            return word + "es"
        case "h" where previous == "s" || previous == "c":
            return word + "es"
        case "y" where previous.map { !isVowel($0) } ?? false:
            return word.droppingLastBytes(1) + "ies"
        case "f" where previous == "l" || word.endsWith("eaf") || word.endsWith("oaf") || word.endsWith("arf"):
            return word.droppingLastBytes(1) + "ves"
        case "e" where word.endsWith("ife"):
            return word.droppingLastBytes(2) + "ves"
        default:
            return word + "s"
        }
    }

    static func isVowel(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a", "e", "i", "o", "u", "á", "é", "í", "ó", "ú", "à", "è", "â", "ê", "î", "ô", "û": true
        default: false
        }
    }
}
