import Foundation
import Synchronization

/// A lexicon of whole paradigms, for languages whose nouns and adjectives decline by case (Polish,
/// Russian): each word names a paradigm, the letters to cut from its lemma and the ending of each
/// case form (`Lexicons/README-slavic.md`).
///
/// Read once per language: the hand-written `<language>.tsv` into tables (it wins), the compiled
/// `<language>.dictionary.tsv` as its bytes with a hash index of its lemmas, a line decoded when
/// its word is looked up (as ``CompactLexiconTable`` keeps the other languages' dictionaries): the
/// 85,000 Russian words are indexed at start, not each made into an object.
struct ParadigmLexicon: Sendable {
    /// What a word is.
    enum Kind: Sendable {
        case noun
        case adjective
        /// A past-tense verb or short adjective in the masculine singular, with its feminine:
        /// the form that follows the reader's gender.
        case reader
        /// A verb form whose object follows it in a case (``Entry/governedCase``).
        case governing
    }

    /// A noun's gender as Slavic agreement needs it: Polish's three masculines, Russian animacy.
    enum Gender: Hashable, Sendable {
        /// Polish *m1* (people): *dwaj*/*dwóch kelnerów*, accusative = genitive.
        case masculinePersonal
        /// Polish *m2*, Russian animate masculine: accusative singular = genitive.
        case masculineAnimate
        case masculine
        case feminine
        case neuter
        /// Plural only (*drzwi*, *ножницы*).
        case pluralOnly

        var isMasculine: Bool { self == .masculine || self == .masculineAnimate || self == .masculinePersonal }
    }

    /// Case slots of a noun paradigm (singular then plural, six cases each).
    enum Case: Int, Sendable, CaseIterable {
        case nominative = 0, genitive, dative, accusative, instrumental, locative
    }

    /// Adjective paradigm slots, in the file's order.
    enum AdjectiveSlot: Int, Sendable {
        case masculineNominative = 0, masculineGenitive, masculineDative, masculineInstrumental, masculineLocative
        case neuterNominative
        case feminineNominative, feminineGenitive, feminineDative, feminineAccusative, feminineInstrumental
        case feminineLocative
        case pluralNominativePersonal, pluralNominative, pluralGenitive, pluralDative, pluralInstrumental
        case pluralLocative
    }

    /// How a word's forms are made: cut `cut` characters from the lemma, add each slot's ending.
    struct Paradigm: Sendable {
        var cut: Int
        /// `nil` for a slot the word has no form for.
        var endings: [String?]
    }

    struct Entry: Sendable {
        var kind: Kind
        var lemma: String
        var gender: Gender?
        /// Russian: a noun for a living being (accusative = genitive, in the plural too).
        var isAnimate = false
        /// Another gender the noun is used with (Polish *hamburger* m3 or m2, Russian *латте* n or m).
        var alternativeGenders: [Gender] = []
        /// `nil` for a word that never changes.
        var paradigm: Paradigm?
        /// No plural forms (mass nouns): a phrase that needs one is left as written.
        var isSingularOnly = false
        /// A noun declined as an adjective (*пирожное*): after Russian 2–4 it takes the genitive plural.
        var isAdjectival = false
        /// Reader words: the feminine form.
        var feminine: String?
        /// Governing words: the case of their object.
        var governedCase: Case?
    }

    let source: String
    /// Hand-written entries, and their lemma and nominative-form indexes.
    private var entries: [Entry] = []
    private var lemmas = WordTable<[Int32]>()
    private var nominatives = WordTable<[Int32]>()
    /// The compiled dictionary, looked in after the hand-written entries.
    private var compiled: CompactParadigmTable?

    /// Reads files in the format, each into tables; a lemma and kind an earlier file listed are
    /// skipped in later ones.
    ///
    /// - Throws: ``LexiconError`` for a malformed line.
    init(files: [(text: String, source: String)]) throws(LexiconError) {
        try self.init(handWritten: files, compiled: nil)
    }

    /// Reads `handWritten` into tables and indexes `compiled` (a dictionary file) for lookups.
    init(handWritten: [(text: String, source: String)], compiled: (text: String, source: String)?)
        throws(LexiconError)
    {
        source = (handWritten.map(\.source) + (compiled.map { [$0.source] } ?? [])).joined(separator: " + ")
        if let compiled { self.compiled = try CompactParadigmTable(text: compiled.text, source: compiled.source) }
        var seen = Set<String>()
        // Entries declined like another word (like:стол), resolved once every file is read.
        var declinedLike: [(entry: Entry, model: String, failure: LexiconError)] = []
        for (text, name) in handWritten {
            var local: [Int: Paradigm] = [:]
            var lineNumber = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lineNumber += 1
                if line.isEmpty || line.hasPrefix("#") { continue }
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                func failure(_ message: String) -> LexiconError {
                    LexiconError(source: name, line: lineNumber, message: message)
                }
                if line.hasPrefix("=") {
                    let (id, paradigm) = try Self.paradigm(columns, failure)
                    local[id] = paradigm
                    continue
                }
                guard let lemma = columns.first?.precomposedStringWithCanonicalMapping.fastLowercased,
                    columns.count >= 2, seen.insert("\(columns[1]) \(lemma)").inserted
                else { continue }
                let (entry, model) = try Self.entry(columns, paradigms: { local[$0] }, failure)
                if let model {
                    declinedLike.append(
                        (entry, model, failure("no \(columns[1]) '\(model)' to decline '\(lemma)' like"))
                    )
                } else {
                    add(entry)
                }
            }
        }
        for (pending, model, failure) in declinedLike {
            var entry = pending
            guard let found = self.entry(lemma: model, kind: entry.kind), let paradigm = found.paradigm else {
                throw failure
            }
            // The word must end as the model does where the paradigm cuts: круассан like стол (cut
            // 0), веганский like русский (both -ий).
            guard entry.lemma.hasSuffix(String(model.suffix(paradigm.cut))) else {
                throw LexiconError(
                    source: failure.source,
                    line: failure.line,
                    message:
                        "'\(entry.lemma)' does not end like '\(model)' (-\(model.suffix(paradigm.cut))): no forms by it"
                )
            }
            entry.paradigm = paradigm
            add(entry)
        }
    }

    /// A paradigm line: `=id<TAB>cut<TAB>endings`.
    fileprivate static func paradigm(
        _ columns: [String],
        _ failure: (String) -> LexiconError
    ) throws(LexiconError) -> (Int, Paradigm) {
        guard columns.count == 3, let id = Int(columns[0].dropFirst()), let cut = Int(columns[1]) else {
            throw failure("a paradigm line is =id<TAB>cut<TAB>endings")
        }
        let endings = columns[2].split(separator: ",", omittingEmptySubsequences: false).map {
            $0 == "-" ? nil : String($0)
        }
        guard endings.count == 12 || endings.count == 18 else {
            throw failure("a paradigm has 12 (noun) or 18 (adjective) endings, not \(endings.count)")
        }
        return (id, Paradigm(cut: cut, endings: endings))
    }

    /// A word line; with the lemma of the word it is declined like (`like:`), to be resolved.
    fileprivate static func entry(
        _ columns: [String],
        paradigms: (Int) -> Paradigm?,
        _ failure: (String) -> LexiconError
    ) throws(LexiconError) -> (Entry, like: String?) {
        guard columns.count == 4 || columns.count == 5 else {
            throw failure("expected lemma<TAB>kind<TAB>gender<TAB>paradigm[<TAB>flags]")
        }
        let lemma = columns[0].precomposedStringWithCanonicalMapping.fastLowercased
        var entry: Entry
        switch columns[1] {
        case "noun": entry = Entry(kind: .noun, lemma: lemma)
        case "adjective": entry = Entry(kind: .adjective, lemma: lemma)
        case "reader": entry = Entry(kind: .reader, lemma: lemma, feminine: columns[3])
        case "governing":
            let cases: [String: Case] = [
                "nom": .nominative, "gen": .genitive, "dat": .dative, "acc": .accusative, "ins": .instrumental,
                "loc": .locative,
            ]
            guard let governed = cases[columns[3]] else { throw failure("unknown case '\(columns[3])'") }
            entry = Entry(kind: .governing, lemma: lemma, governedCase: governed)
        default: throw failure("unknown kind '\(columns[1])'")
        }
        if entry.kind == .noun { (entry.gender, entry.isAnimate) = try gender(columns[2], failure) }
        var model: String?
        if entry.kind == .noun || entry.kind == .adjective {
            let column = columns[3]
            if column.hasPrefix("like:") {
                model = String(column.dropFirst(5))
            } else if column == "indecl" {
                entry.paradigm = nil
            } else if let id = Int(column), let paradigm = paradigms(id) {
                entry.paradigm = paradigm
            } else if column.contains(",") {
                // Forms written out (hand-written entries): the whole lemma is cut.
                let forms = column.split(separator: ",", omittingEmptySubsequences: false).map {
                    $0 == "-" ? nil : String($0)
                }
                guard forms.count == (entry.kind == .noun ? 12 : 18) else {
                    throw failure("\(forms.count) forms; a noun has 12, an adjective 18")
                }
                entry.paradigm = Paradigm(cut: lemma.count, endings: forms)
            } else {
                throw failure("unknown paradigm '\(column)'")
            }
        }
        if columns.count == 5 {
            for flag in columns[4].split(separator: ",") {
                switch flag {
                case "pt": break  // the gender column says so too (p)
                case "st": entry.isSingularOnly = true
                case "adjectival": entry.isAdjectival = true
                case "gender-varies": break
                default:
                    guard flag.hasPrefix("also-") else { throw failure("unknown flag '\(flag)'") }
                    entry.alternativeGenders.append(try gender(String(flag.dropFirst(5)), failure).0)
                }
            }
        }
        return (entry, model)
    }

    private static func gender(
        _ code: String,
        _ failure: (String) -> LexiconError
    ) throws(LexiconError) -> (Gender, Bool) {
        switch code {
        case "m1": (.masculinePersonal, true)
        case "m2", "ma": (.masculineAnimate, true)
        case "m3", "m": (.masculine, false)
        case "f": (.feminine, false)
        case "fa": (.feminine, true)
        case "n": (.neuter, false)
        case "na": (.neuter, true)
        case "p": (.pluralOnly, false)
        default: throw failure("unknown gender '\(code)'")
        }
    }

    private mutating func add(_ entry: Entry) {
        let index = Int32(entries.count)
        entries.append(entry)
        lemmas[entry.lemma] = (lemmas[entry.lemma] ?? []) + [index]
        for form in Self.nominativeForms(of: entry) where form != entry.lemma {
            let listed = nominatives[form] ?? []
            if !listed.contains(index) { nominatives[form] = listed + [index] }
        }
    }

    /// The nominative forms a word may be written in besides its lemma: an adjective's neuter,
    /// feminine and plurals, a noun's plural, a reader word's feminine.
    fileprivate static func nominativeForms(of entry: Entry) -> [String] {
        switch entry.kind {
        case .noun: [noun(entry, .nominative, plural: true)].compactMap { $0 }
        case .adjective:
            [AdjectiveSlot.neuterNominative, .feminineNominative, .pluralNominative, .pluralNominativePersonal]
                .compactMap { adjective(entry, $0) }
        case .reader: [entry.feminine].compactMap { $0 }
        case .governing: []
        }
    }

    /// The first entry of `kind` whose lemma is `word` (lowercase), else whose nominative form it is.
    func entry(_ word: String, kind: Kind) -> Entry? {
        entry(lemma: word, kind: kind) ?? entry(nominative: word, kind: kind)
    }

    /// The first entry of `kind` whose lemma is `word` (lowercase).
    func entry(lemma word: String, kind: Kind) -> Entry? {
        if let indices = lemmas[word] {
            for index in indices where entries[Int(index)].kind == kind { return entries[Int(index)] }
        }
        return compiled?.entries(lemma: word).first { $0.kind == kind }
    }

    /// The first entry of `kind` with `word` (lowercase) as a nominative form other than its lemma.
    func entry(nominative word: String, kind: Kind) -> Entry? {
        if let indices = nominatives[word] {
            for index in indices where entries[Int(index)].kind == kind { return entries[Int(index)] }
        }
        return compiled?.entry(nominative: word, kind: kind)
    }

    /// Whether `word` (lowercase) is a lemma of `kind`.
    func isLemma(_ word: String, kind: Kind) -> Bool { entry(lemma: word, kind: kind) != nil }

    /// Entries whose lemma is `word` (lowercase), hand-written first.
    func entries(lemma word: String) -> [Entry] {
        guard let indices = lemmas[word] else { return compiled?.entries(lemma: word) ?? [] }
        return indices.map { entries[Int($0)] } + (compiled?.entries(lemma: word) ?? [])
    }

    /// The noun's form in `grammaticalCase` and number, `nil` when it has none.
    func noun(_ entry: Entry, _ grammaticalCase: Case, plural: Bool) -> String? {
        Self.noun(entry, grammaticalCase, plural: plural)
    }

    /// The adjective's form in `slot`.
    func adjective(_ entry: Entry, _ slot: AdjectiveSlot) -> String? { Self.adjective(entry, slot) }

    fileprivate static func noun(_ entry: Entry, _ grammaticalCase: Case, plural: Bool) -> String? {
        if entry.isSingularOnly, plural { return nil }
        return form(entry, slot: grammaticalCase.rawValue + (plural ? 6 : 0))
    }

    fileprivate static func adjective(_ entry: Entry, _ slot: AdjectiveSlot) -> String? {
        form(entry, slot: slot.rawValue)
    }

    private static func form(_ entry: Entry, slot: Int) -> String? {
        guard let paradigm = entry.paradigm else { return entry.lemma }
        guard slot < paradigm.endings.count, let ending = paradigm.endings[slot] else { return nil }
        guard paradigm.cut > 0 else { return entry.lemma + ending }
        return String(entry.lemma.dropLast(paradigm.cut)) + ending
    }

    /// The number of words listed by hand and in the dictionary.
    var count: Int { entries.count + (compiled?.count ?? 0) }
}

/// A compiled paradigm dictionary kept as its bytes: its paradigms read, its lemmas hashed to the
/// first of their lines (the file is sorted, so a lemma's lines are together), a word's lines
/// decoded when it is looked up and kept.
final class CompactParadigmTable: Sendable {
    typealias Entry = ParadigmLexicon.Entry

    private let bytes: [UInt8]
    private let source: String
    private let paradigms: [Int: ParadigmLexicon.Paradigm]
    /// Lemma index: each slot holds a lemma's first line start + 1 (0: empty).
    private let slots: [UInt32]
    private let hashes: [UInt32]
    /// Nominative endings (a feminine's *-ая*, a plural's *-e*) to the endings lemmas of that
    /// paradigm have: how a nominative form finds its lemma without an index of every form.
    private let lemmaEndings: [String: [String]]
    private let longestEnding: Int
    /// Reader words' feminines to their masculine lemmas.
    private let readerByFeminine: WordTable<String>
    let count: Int
    private let made = Mutex<[UInt32: [Entry]]>([:])

    /// Decoded words kept at most; beyond, the cache starts over.
    static let cacheLimit = 16_384

    init(text: String, source: String) throws(LexiconError) {
        self.source = source
        bytes = Array(text.utf8)
        var paradigms: [Int: ParadigmLexicon.Paradigm] = [:]
        var firstLines: [(start: Int, lemmaEnd: Int)] = []
        var previousLemma: ArraySlice<UInt8> = []
        var readers = WordTable<String>()
        var lineNumber = 0
        var start = 0
        var words = 0
        let reader = Array("reader\t-\t".utf8)
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            defer { start = end + 1 }
            guard end > start, bytes[start] != 0x23 else { continue }
            if bytes[start] == 0x3D {  // "="
                let line = String(decoding: bytes[start..<end], as: UTF8.self)
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let (id, paradigm) = try ParadigmLexicon.paradigm(columns) { message in
                    LexiconError(source: source, line: lineNumber, message: message)
                }
                paradigms[id] = paradigm
                continue
            }
            var tab = start
            while tab < end, bytes[tab] != 0x09 { tab += 1 }
            guard tab < end else {
                throw LexiconError(source: source, line: lineNumber, message: "a line without columns")
            }
            words += 1
            // A reader word's feminine (заказала → заказал), indexed: it has no paradigm to derive it by.
            if tab + 1 + reader.count < end, bytes[(tab + 1)..<(tab + 1 + reader.count)].elementsEqual(reader) {
                let feminine = String(decoding: bytes[(tab + 1 + reader.count)..<end], as: UTF8.self)
                if readers[feminine] == nil { readers[feminine] = String(decoding: bytes[start..<tab], as: UTF8.self) }
            }
            if bytes[start..<tab] != previousLemma {
                firstLines.append((start, tab))
                previousLemma = bytes[start..<tab]
            }
        }
        var slots = [UInt32](repeating: 0, count: Self.tableSize(for: firstLines.count))
        var hashes = [UInt32](repeating: 0, count: slots.count)
        let mask = slots.count - 1
        bytes.withUnsafeBufferPointer { all in
            for line in firstLines {
                let hash = Self.hash(UnsafeBufferPointer(rebasing: all[line.start..<line.lemmaEnd]))
                var slot = Int(hash) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = UInt32(line.start + 1)
                hashes[slot] = hash
            }
        }
        var endings: [String: Set<String>] = [:]
        for paradigm in paradigms.values {
            // The lemma is the first slot's form (a noun's nominative singular, or its plural for
            // a noun used only in it; an adjective's masculine).
            let nominativeSlots =
                paradigm.endings.count == 12
                ? [6]
                : [
                    ParadigmLexicon.AdjectiveSlot.neuterNominative, .feminineNominative, .pluralNominative,
                    .pluralNominativePersonal,
                ].map(\.rawValue)
            guard let lemmaEnding = paradigm.endings[0] else { continue }
            for slot in nominativeSlots {
                guard let ending = paradigm.endings[slot], ending != lemmaEnding else { continue }
                endings[ending, default: []].insert(lemmaEnding)
            }
        }
        lemmaEndings = endings.mapValues { Array($0).sorted() }
        longestEnding = endings.keys.map(\.count).max() ?? 0
        self.paradigms = paradigms
        readerByFeminine = readers
        self.slots = slots
        self.hashes = hashes
        count = words
    }

    /// The entries of `word` (lowercase), every kind, in file order.
    func entries(lemma word: String) -> [Entry] {
        guard let start = firstLine(of: word) else { return [] }
        if let known = made.withLock({ $0[UInt32(start)] }) { return known }
        var decoded: [Entry] = []
        var lineStart = start
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let line = String(decoding: bytes[lineStart..<end], as: UTF8.self)
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.first == word else { break }
            if let (entry, like) = try? ParadigmLexicon.entry(
                columns,
                paradigms: { self.paradigms[$0] },
                { message in
                    LexiconError(source: self.source, line: 0, message: message)
                }
            ), like == nil {
                decoded.append(entry)
            }
            lineStart = end + 1
        }
        return made.withLock { cache in
            if let raced = cache[UInt32(start)] { return raced }
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[UInt32(start)] = decoded
            return decoded
        }
    }

    /// The entry of `kind` of which `word` (lowercase) is a nominative form other than the lemma:
    /// the word's ending is replaced by each lemma ending the paradigms pair with it, and a lemma
    /// found so counts only if its paradigm gives `word`.
    func entry(nominative word: String, kind: ParadigmLexicon.Kind) -> Entry? {
        let key = NominativeKey(word: word, kind: kind)
        if let known = nominativesFound.withLock({ $0[key] }) { return known }
        let found = searchNominative(word, kind: kind)
        nominativesFound.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = .some(found)
        }
        return found
    }

    private struct NominativeKey: Hashable {
        var word: String
        var kind: ParadigmLexicon.Kind
    }

    /// Nominative lookups made so far, what they found or that they found nothing.
    private let nominativesFound = Mutex<[NominativeKey: Entry?]>([:])

    private func searchNominative(_ word: String, kind: ParadigmLexicon.Kind) -> Entry? {
        if kind == .reader {
            return readerByFeminine[word].flatMap { lemma in entries(lemma: lemma).first { $0.kind == .reader } }
        }
        let characters = Array(word)
        guard characters.count > 1 else { return nil }
        for length in 0...min(longestEnding, characters.count - 1) {
            let ending = String(characters[(characters.count - length)...])
            guard let candidates = lemmaEndings[ending] else { continue }
            let stem = String(characters[..<(characters.count - length)])
            for lemmaEnding in candidates {
                for entry in entries(lemma: stem + lemmaEnding) where entry.kind == kind {
                    if ParadigmLexicon.nominativeForms(of: entry).contains(word) { return entry }
                }
            }
        }
        return nil
    }

    private func firstLine(of word: String) -> Int? {
        var key = word
        return key.withUTF8 { utf8 in
            let hash = Self.hash(utf8)
            let mask = slots.count - 1
            var slot = Int(hash) & mask
            while slots[slot] != 0 {
                if hashes[slot] == hash {
                    let start = Int(slots[slot] - 1)
                    var matches = start + utf8.count <= bytes.count
                    var index = 0
                    while matches, index < utf8.count {
                        matches = bytes[start + index] == utf8[index]
                        index += 1
                    }
                    if matches, start + utf8.count < bytes.count, bytes[start + utf8.count] == 0x09 { return start }
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    private static func tableSize(for count: Int) -> Int {
        var size = 16
        while size < count * 2 { size <<= 1 }
        return size
    }

    /// FNV-1a over the bytes, as ``WordTable`` hashes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}

extension ParadigmLexicon {
    /// The paradigm lexicon bundled for `language` (`pl`, `ru`), read once per process.
    static func bundled(language: String) throws(LexiconError) -> ParadigmLexicon {
        try BundledParadigmLexicons.shared.lexicon(language: language)
    }
}

private final class BundledParadigmLexicons: Sendable {
    static let shared = BundledParadigmLexicons()
    private let lexicons = Mutex<[String: Result<ParadigmLexicon, LexiconError>]>([:])
    private let loading = Mutex<Void>(())

    func lexicon(language: String) throws(LexiconError) -> ParadigmLexicon {
        if let loaded = lexicons.withLock({ $0[language] }) { return try loaded.get() }
        let result = loading.withLock { _ in
            if let loaded = lexicons.withLock({ $0[language] }) { return loaded }
            let result = Self.load(language)
            lexicons.withLock { $0[language] = result }
            return result
        }
        return try result.get()
    }

    private static func load(_ language: String) -> Result<ParadigmLexicon, LexiconError> {
        var files: [(text: String, source: String)] = []
        for resource in [language, "\(language).dictionary"] {
            let name = "\(resource).tsv"
            guard let url = Bundle.module.url(forResource: resource, withExtension: "tsv", subdirectory: "Lexicons"),
                let text = try? String(contentsOf: url, encoding: .utf8)
            else {
                return .failure(LexiconError(source: name, line: 0, message: "missing from the module's resources"))
            }
            files.append((text, name))
        }
        return Result { () throws(LexiconError) in
            try ParadigmLexicon(handWritten: [files[0]], compiled: files[1])
        }
    }
}
