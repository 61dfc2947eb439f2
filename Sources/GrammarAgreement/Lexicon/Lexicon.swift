import Foundation
import RichText
import Synchronization

/// A language's word list: lemmas with their parts of speech, genders and irregular forms.
///
/// Lexicons are tab-separated text files bundled with the module (`Lexicons/<language>.tsv`, each
/// with a README naming its sources and license):
///
/// ```text
/// # lemma<TAB>pos<TAB>gender<TAB>forms        (the gender column only where the language has one)
/// agua	noun	f	flags=elA
/// sándwich	noun	m	pl=sándwiches
/// grande	adjective|noun	-	apocope=gran
/// ```
///
/// Lookups take the lowercase word and allocate nothing; the tables are built once.
public struct Lexicon: Sendable {
    /// The lexicon's name, for messages.
    public let source: String
    /// The tables, shared by copies: grammars keep the lexicon and hand it to their helpers, and a
    /// copy costs one reference count instead of one per table array. Immutable once built.
    private var tables = Tables()

    private final class Tables: Sendable {
        let entries: WordTable<LexiconEntry>
        /// Irregular forms (plurals, feminines, short forms) back to their lemma.
        let forms: WordTable<FormReference>
        /// The most words in a multi-word lemma.
        let longestPhrase: Int
        /// The first words of multi-word lemmas, so phrase lookups are tried only where one can start.
        let phraseStarts: WordTable<Bool>
        /// Tables looked in after these: the bundled lexicon under a catalog's declared terms.
        let base: Tables?
        /// Files compiled from dictionaries, looked in last, a line read per word looked up.
        let compiled: [CompactLexiconTable]

        init(
            entries: WordTable<LexiconEntry> = [:],
            forms: WordTable<FormReference> = [:],
            longestPhrase: Int = 1,
            phraseStarts: WordTable<Bool> = [:],
            base: Tables? = nil,
            compiled: [CompactLexiconTable] = []
        ) {
            self.entries = entries
            self.forms = forms
            self.longestPhrase = max(
                longestPhrase,
                base?.longestPhrase ?? 1,
                compiled.map(\.longestPhrase).max() ?? 1
            )
            self.phraseStarts = phraseStarts
            self.base = base
            self.compiled = compiled
        }

        func entry(_ word: String) -> LexiconEntry? {
            if let found = entries[word] ?? base?.entry(word) { return found }
            for table in compiled { if let found = table.entry(word) { return found } }
            return nil
        }

        func entry(utf8 word: UnsafeBufferPointer<UInt8>) -> LexiconEntry? {
            if let found = entries[utf8: word] ?? base?.entry(utf8: word) { return found }
            guard !compiled.isEmpty else { return nil }
            return entry(String(decoding: word, as: UTF8.self))
        }

        func form(_ word: String) -> FormReference? {
            if let found = forms[word] ?? base?.form(word) { return found }
            for table in compiled {
                if let found = table.form(word) { return FormReference(lemma: found.lemma, kind: found.kind) }
            }
            return nil
        }

        func form(utf8 word: UnsafeBufferPointer<UInt8>) -> FormReference? {
            if let found = forms[utf8: word] ?? base?.form(utf8: word) { return found }
            guard !compiled.isEmpty else { return nil }
            return form(String(decoding: word, as: UTF8.self))
        }

        func startsPhrase(_ word: String) -> Bool {
            phraseStarts.contains(word) || base?.startsPhrase(word) == true
                || compiled.contains { $0.phraseStarts.contains(word) }
        }
    }

    /// Tables being filled while files are read; made into ``Tables`` once.
    private struct Builder {
        var entries = WordTable<LexiconEntry>()
        var forms = WordTable<FormReference>()
        var phraseStarts = WordTable<Bool>()
        var longestPhrase = 1

        /// Adds `entry`; where its lemma is there already (from an earlier file), adds what the
        /// earlier entry lacks: its other parts of speech with their forms. Returns whether it was new.
        mutating func add(_ entry: LexiconEntry) -> Bool {
            let key = entry.lemma.fastLowercased
            if let existing = entries[key] {
                merge(entry, into: existing, key: key)
                return false
            }
            entries[key] = entry
            var words = 1
            var first = Substring(key)
            if key.utf8.contains(0x20) {
                let parts = key.split(separator: " ")
                words = parts.count
                first = parts.first ?? first
            }
            longestPhrase = max(longestPhrase, words)
            if words > 1 { phraseStarts[String(first)] = true }
            func reference(_ form: String?, _ kind: FormKind) {
                guard let form = form?.fastLowercased, form != key, forms[form] == nil else { return }
                forms[form] = FormReference(lemma: key, kind: kind)
            }
            index(entry, key: key)
            return true
        }

        private mutating func index(_ entry: LexiconEntry, key: String) {
            func reference(_ form: String?, _ kind: FormKind) {
                guard let form = form?.fastLowercased, form != key, forms[form] == nil else { return }
                forms[form] = FormReference(lemma: key, kind: kind)
            }
            reference(entry.plural, .plural)
            reference(entry.feminine, .feminine)
            reference(entry.femininePlural, .femininePlural)
            reference(entry.adjectivePlural, .plural)
            reference(entry.apocope, .apocope)
            reference(entry.dativePlural, .dativePlural)
            reference(entry.oblique, .oblique)
        }

        /// A hand-written entry keeps everything it says; a dictionary adds the readings it lacks
        /// (*frappé*, listed as a noun by hand, is also a participle).
        private mutating func merge(_ later: LexiconEntry, into entry: LexiconEntry, key: String) {
            if later.canBeNoun, !entry.canBeNoun {
                entry.hasRegularNounPlural = entry.isInvariable && !later.isInvariable
                entry.partsOfSpeech.append(.noun)
                entry.gender = later.gender
                entry.alternativeGenders = later.alternativeGenders
                if entry.canBeAdjective, let adjectivePlural = entry.plural { entry.adjectivePlural = adjectivePlural }
                entry.plural = later.plural
                entry.isPluralOnly = later.isPluralOnly
                entry.isUncountable = later.isUncountable
                entry.dativePlural = later.dativePlural
                entry.oblique = later.oblique
            }
            if later.canBeNoun, entry.canBeNoun {
                // Case forms a hand-written German noun does not state (Kunde: den Kunden).
                if entry.oblique == nil { entry.oblique = later.oblique }
                if entry.dativePlural == nil, entry.plural == later.plural { entry.dativePlural = later.dativePlural }
            }
            if later.canBeAdjective, !entry.canBeAdjective {
                entry.partsOfSpeech.append(.adjective)
                entry.feminine = entry.feminine ?? later.feminine
                entry.femininePlural = later.femininePlural
                let adjectivePlural = later.adjectivePlural ?? (later.canBeNoun ? nil : later.plural)
                if adjectivePlural != entry.plural { entry.adjectivePlural = adjectivePlural }
                entry.stem = entry.stem ?? later.stem
            }
            index(entry, key: key)
        }

        /// Adds what a dictionary's entry for an existing lemma adds to it (see ``add(_:)``).
        mutating func mergeCompiled(_ entry: LexiconEntry) {
            let key = entry.lemma.fastLowercased
            guard let existing = entries[key] else { return }
            merge(entry, into: existing, key: key)
        }

        func tables(base: Tables? = nil, compiled: [CompactLexiconTable] = []) -> Tables {
            Tables(
                entries: entries,
                forms: forms,
                longestPhrase: longestPhrase,
                phraseStarts: phraseStarts,
                base: base,
                compiled: compiled
            )
        }
    }

    /// The most words in a multi-word lemma.
    public var longestPhrase: Int { tables.longestPhrase }

    /// What a listed form is of its lemma.
    public enum FormKind: Hashable, Sendable {
        case plural
        case feminine
        case femininePlural
        case apocope
        case dativePlural
        case oblique
    }

    private struct FormReference: Hashable, Sendable {
        var lemma: String
        var kind: FormKind
    }

    /// An empty lexicon: every word goes through the rules.
    public init(source: String = "empty") {
        self.source = source
    }

    /// Reads a lexicon in the tab-separated format.
    ///
    /// - Parameters:
    ///   - text: the file's content.
    ///   - source: a name for error messages.
    ///   - hasGenderColumn: whether the third column is a gender (`m`, `f`, `mf`, `-`).
    /// - Throws: ``LexiconError`` for the first malformed line.
    public init(parsing text: String, source: String, hasGenderColumn: Bool) throws(LexiconError) {
        try self.init(files: [(text, source)], hasGenderColumn: hasGenderColumn)
    }

    /// Reads several files as one lexicon, the first file's entry winning where two list a lemma: a
    /// hand-written file before one compiled from dictionaries. Within one file a lemma is listed once.
    ///
    /// - Throws: ``LexiconError`` for the first malformed line or a lemma listed twice in one file.
    public init(files: [(text: String, source: String)], hasGenderColumn: Bool) throws(LexiconError) {
        self.source = files.map(\.source).joined(separator: " + ")
        var builder = Builder()
        // Files after the first are compiled from dictionaries: indexed, read a line per lookup.
        var compiled: [CompactLexiconTable] = []
        for (text, name) in files.dropFirst() {
            compiled.append(try CompactLexiconTable(text: text, source: name, hasGenderColumn: hasGenderColumn))
        }
        for (fileIndex, (text, name)) in files.prefix(1).enumerated() {
            var lemmas = WordTable<Bool>()
            var lineNumber = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lineNumber += 1
                let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                let entry = try Self.entry(
                    from: trimmed,
                    line: lineNumber,
                    source: name,
                    hasGenderColumn: hasGenderColumn
                )
                let key = entry.lemma.fastLowercased
                guard lemmas[key] == nil else {
                    throw LexiconError(source: name, line: lineNumber, message: "'\(entry.lemma)' is listed twice")
                }
                lemmas[key] = true
                entry.isCompiled = fileIndex > 0
                _ = builder.add(entry)
            }
        }
        // A hand-written entry gains the readings a dictionary adds (a merge, as in ``Builder``).
        for key in builder.entries.allKeys {
            for table in compiled {
                if let entry = table.entry(key) { builder.mergeCompiled(entry) }
            }
        }
        tables = builder.tables(compiled: compiled)
        compiledCount =
            compiled.reduce(0) { $0 + $1.count }
            - builder.entries.allKeys.filter { key in compiled.contains { $0.entry(key) != nil } }.count
    }

    /// This lexicon with `entries` looked up first: terms a catalog declares over the bundled words.
    public func overlaid(with entries: [LexiconEntry], source: String) -> Lexicon {
        guard !entries.isEmpty else { return self }
        var builder = Builder()
        for entry in entries { _ = builder.add(entry) }
        var lexicon = Lexicon(source: "\(source) + \(self.source)")
        lexicon.tables = builder.tables(base: tables)
        return lexicon
    }

    /// Adds an entry, with its irregular forms.
    ///
    /// - Throws: ``LexiconError`` when the lemma is already present.
    public mutating func add(_ entry: LexiconEntry, line: Int = 0) throws(LexiconError) {
        guard tables.entry(entry.lemma.fastLowercased) == nil else {
            throw LexiconError(source: source, line: line, message: "'\(entry.lemma)' is listed twice")
        }
        var builder = Builder()
        builder.add(entry)
        tables = builder.tables(base: tables)
    }

    /// The entry whose lemma is `word` (lowercase).
    public func entry(_ word: String) -> LexiconEntry? {
        tables.entry(word)
    }

    /// The entry whose lemma has the UTF-8 bytes `word` (lowercase): a part of a longer word, such
    /// as the last part of a compound, looked up without copying it out.
    func entry(utf8 word: UnsafeBufferPointer<UInt8>) -> LexiconEntry? {
        tables.entry(utf8: word)
    }

    /// The entry and form kind when `word` (lowercase) is an irregular form listed in the lexicon.
    public func entry(forInflectedForm word: String) -> (entry: LexiconEntry, kind: FormKind)? {
        guard let reference = tables.form(word), let entry = tables.entry(reference.lemma) else { return nil }
        return (entry, reference.kind)
    }

    /// ``entry(forInflectedForm:)`` for a form given as UTF-8 bytes.
    func entry(forInflectedFormUTF8 word: UnsafeBufferPointer<UInt8>) -> (entry: LexiconEntry, kind: FormKind)? {
        guard let reference = tables.form(utf8: word), let entry = tables.entry(reference.lemma) else { return nil }
        return (entry, reference.kind)
    }

    /// Whether a multi-word lemma starts with `word` (lowercase).
    public func startsPhrase(_ word: String) -> Bool { tables.startsPhrase(word) }

    /// Whether the lexicon has `word` (lowercase) as a lemma.
    public func contains(_ word: String) -> Bool { tables.entry(word) != nil }

    /// Lemmas only the compiled files list (the others are counted with the hand-written ones).
    private var compiledCount = 0

    /// How many lemmas the lexicon lists.
    public var count: Int {
        var count = compiledCount
        var current: Tables? = tables
        while let level = current {
            count += level.entries.count
            current = level.base
        }
        return count
    }

    /// All lemmas (lowercase), for tools and tests.
    public var lemmas: [String] {
        var lemmas: [String] = []
        var current: Tables? = tables
        var seen = Set<String>()
        while let level = current {
            lemmas += level.entries.allKeys
            seen.formUnion(level.entries.allKeys)
            for table in level.compiled { lemmas += table.lemmas.filter { !seen.contains($0) } }
            current = level.base
        }
        return lemmas
    }

    // MARK: Reading

    static func entry(
        from line: Substring,
        line number: Int,
        source: String,
        hasGenderColumn: Bool
    ) throws(LexiconError) -> LexiconEntry {
        func failure(_ message: String) -> LexiconError {
            LexiconError(source: source, line: number, message: message)
        }
        let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
        let expected = hasGenderColumn ? 4 : 3
        guard columns.count >= expected - 1, columns.count <= expected else {
            throw failure("expected \(expected - 1) or \(expected) tab-separated columns, found \(columns.count)")
        }
        let lemma = String(columns[0])
        guard !lemma.isEmpty, lemma == lemma.trimmingCharacters(in: .whitespaces) else {
            throw failure("the lemma is empty or has surrounding spaces")
        }
        var partsOfSpeech: [RichText.Morphology.PartOfSpeech] = []
        for name in columns[1].split(separator: "|") {
            guard let part = RichText.Morphology.PartOfSpeech(rawValue: String(name)) else {
                throw failure("unknown part of speech '\(name)'")
            }
            partsOfSpeech.append(part)
        }
        guard !partsOfSpeech.isEmpty else { throw failure("no part of speech") }
        var entry = LexiconEntry(lemma: lemma, partsOfSpeech: partsOfSpeech)
        var formsColumn = 2
        if hasGenderColumn {
            formsColumn = 3
            let gender = columns[2]
            if gender == "?" {
                guard entry.canBeNoun else { throw failure("only a noun can have an unknown gender (?)") }
            } else if gender != "-" {
                if let value = LexiconEntry.Gender(rawValue: String(gender)) {
                    entry.gender = value
                } else {
                    // Several genders, the usual one first: nm (das, der Cookie), fm.
                    var genders: [LexiconEntry.Gender] = []
                    for letter in gender {
                        guard let value = LexiconEntry.Gender(rawValue: String(letter)), !genders.contains(value)
                        else { throw failure("unknown gender '\(gender)' (m, f, n, several of them, ? or -)") }
                        genders.append(value)
                    }
                    entry.gender = genders.first
                    entry.alternativeGenders = Array(genders.dropFirst())
                }
            } else if entry.canBeNoun {
                throw failure("the noun '\(lemma)' needs a gender (m, f, n, several, or ? when unknown)")
            }
        }
        if columns.count > formsColumn {
            for field in columns[formsColumn].split(separator: ";") where !field.isEmpty {
                try apply(field, to: &entry, failure: failure)
            }
        }
        return entry
    }

    private static func apply(
        _ field: Substring,
        to entry: inout LexiconEntry,
        failure: (String) -> LexiconError
    ) throws(LexiconError) {
        guard let equals = field.firstIndex(of: "=") else { throw failure("'\(field)' is not key=value") }
        let key = field[..<equals].trimmingCharacters(in: .whitespaces)
        let value = field[field.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw failure("'\(key)' has no value") }
        switch key {
        case "pl":
            if value == "-" {
                entry.isUncountable = true
                entry.plural = entry.lemma
            } else {
                entry.plural = value
            }
        case "f": entry.feminine = value
        case "fpl": entry.femininePlural = value
        case "apl": entry.adjectivePlural = value
        case "dpl": entry.dativePlural = value
        case "obl": entry.oblique = value
        case "apocope": entry.apocope = value
        case "stem": entry.stem = value
        case "article":
            guard value == "a" || value == "an" else { throw failure("article must be 'a' or 'an'") }
            entry.article = value
        case "number":
            guard value == "plural" else { throw failure("number must be 'plural'") }
            entry.isPluralOnly = true
        case "flags":
            for flag in value.split(separator: ",") {
                switch flag.trimmingCharacters(in: .whitespaces) {
                case "elA": entry.takesMasculineArticle = true
                case "invariable": entry.isInvariable = true
                case "genderInvariable": if entry.feminine == nil { entry.feminine = entry.lemma }
                case "aspirated": entry.isAspirated = true
                case "feminineInPlural": entry.isFeminineInPlural = true
                default: throw failure("unknown flag '\(flag)'")
                }
            }
        default:
            throw failure("unknown key '\(key)'")
        }
    }
}

extension Lexicon {
    /// The lexicon bundled for `language` (`en`, `es`), read once per process. For Polish and
    /// Russian it is empty: their words are in a paradigm lexicon the grammar reads; this one holds
    /// what a catalog declares over it.
    ///
    /// - Throws: ``LexiconError`` when the bundled file is missing or malformed.
    public static func bundled(language: String) throws(LexiconError) -> Lexicon {
        try BundledLexicons.shared.lexicon(language: language)
    }
}

extension Lexicon {
    /// A bundled list of words, one per line (`Lexicons/<name>.txt`, `#` lines are comments), read
    /// once: what a language's rules are checked against (Spanish plurals); `nil` when absent.
    static func bundledWords(_ name: String) -> WordSet? {
        BundledWordLists.shared.words(name)
    }
}

private final class BundledWordLists: Sendable {
    static let shared = BundledWordLists()
    private let lists = Mutex<[String: WordSet?]>([:])

    func words(_ name: String) -> WordSet? {
        if let loaded = lists.withLock({ $0[name] }) { return loaded }
        var words: WordSet?
        if let url = Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Lexicons"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        {
            words = WordSet(text.split(separator: "\n").lazy.filter { !$0.hasPrefix("#") }.map(String.init))
        }
        lists.withLock { $0[name] = words }
        return words
    }
}

/// Bundled lexicons, each read the first time its language is asked for: the hand-written
/// `<language>.tsv`, then the `<language>.dictionary.tsv` compiled from dictionaries
/// (`Scripts/lexicons`), where there is one.
private final class BundledLexicons: Sendable {
    static let shared = BundledLexicons()

    /// Languages with a bundled lexicon, and whether it has a gender column.
    static let languages: [String: Bool] = [
        "en": false, "es": true, "fr": true, "de": true, "it": true, "pt": true, "pl": true, "ru": true,
    ]

    private let lexicons = Mutex<[String: Result<Lexicon, LexiconError>]>([:])
    /// Held while a language's files are read, so two threads asking at once read them once.
    private let loading = Mutex<Void>(())

    func lexicon(language: String) throws(LexiconError) -> Lexicon {
        if let loaded = lexicons.withLock({ $0[language] }) { return try loaded.get() }
        guard let hasGenderColumn = Self.languages[language] else {
            throw LexiconError(source: language, line: 0, message: "no lexicon is bundled for '\(language)'")
        }
        let result = loading.withLock { _ in
            if let loaded = lexicons.withLock({ $0[language] }) { return loaded }
            let result = Self.load(language, hasGenderColumn: hasGenderColumn)
            lexicons.withLock { $0[language] = result }
            return result
        }
        return try result.get()
    }

    /// Languages whose words are in a ``ParadigmLexicon``: their `Lexicon` holds only what a
    /// catalog declares, over nothing bundled.
    static let paradigmLanguages: Set<String> = ["pl", "ru"]

    private static func load(_ language: String, hasGenderColumn: Bool) -> Result<Lexicon, LexiconError> {
        if paradigmLanguages.contains(language) {
            return Result { () throws(LexiconError) in try Lexicon(files: [], hasGenderColumn: true) }
        }
        var files: [(text: String, source: String)] = []
        for (resource, required) in [(language, true), ("\(language).dictionary", false)] {
            let name = "\(resource).tsv"
            guard let url = Bundle.module.url(forResource: resource, withExtension: "tsv", subdirectory: "Lexicons")
            else {
                if required {
                    return .failure(LexiconError(source: name, line: 0, message: "missing from the module's resources"))
                }
                continue
            }
            do {
                files.append((try String(contentsOf: url, encoding: .utf8), name))
            } catch {
                return .failure(LexiconError(source: name, line: 0, message: "unreadable: \(error)"))
            }
        }
        return Result { () throws(LexiconError) in try Lexicon(files: files, hasGenderColumn: hasGenderColumn) }
    }
}
