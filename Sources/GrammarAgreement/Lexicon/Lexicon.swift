import Foundation
import RichText

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
    /// copy costs one reference count instead of one per table array. Immutable, so lookups read
    /// them in place; ``add(_:line:)`` makes new tables.
    private var tables = Tables()

    private final class Tables: Sendable {
        let entries: WordTable<LexiconEntry>
        /// Irregular forms (plurals, feminines, short forms) back to their lemma.
        let forms: WordTable<FormReference>
        /// The most words in a multi-word lemma.
        let longestPhrase: Int
        /// The first words of multi-word lemmas, so phrase lookups are tried only where one can start.
        let phraseStarts: WordTable<Bool>

        init(
            entries: WordTable<LexiconEntry> = [:],
            forms: WordTable<FormReference> = [:],
            longestPhrase: Int = 1,
            phraseStarts: WordTable<Bool> = [:]
        ) {
            self.entries = entries
            self.forms = forms
            self.longestPhrase = longestPhrase
            self.phraseStarts = phraseStarts
        }

        /// Holds no words; stands in while ``Lexicon/add(_:line:)`` changes the tables it took out.
        static let placeholder = Tables()
    }

    /// The most words in a multi-word lemma.
    public var longestPhrase: Int { tables.longestPhrase }

    /// What an irregular form is of its lemma.
    public enum FormKind: Hashable, Sendable {
        case plural
        case feminine
        case apocope
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
        self.source = source
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let entry = try Self.entry(
                from: trimmed,
                line: lineNumber,
                source: source,
                hasGenderColumn: hasGenderColumn
            )
            try add(entry, line: lineNumber)
        }
    }

    /// Adds an entry, with its irregular forms.
    ///
    /// - Throws: ``LexiconError`` when the lemma is already present.
    public mutating func add(_ entry: LexiconEntry, line: Int = 0) throws(LexiconError) {
        let key = entry.lemma.lowercased()
        guard tables.entries[key] == nil else {
            throw LexiconError(source: source, line: line, message: "'\(entry.lemma)' is listed twice")
        }
        var entries = tables.entries
        var forms = tables.forms
        var phraseStarts = tables.phraseStarts
        var longestPhrase = tables.longestPhrase
        // Let go of the old tables, so the copies above are the only ones and change in place
        // (unless another copy of the lexicon shares them).
        tables = .placeholder
        entries[key] = entry
        let words = key.split(separator: " ")
        longestPhrase = max(longestPhrase, words.count)
        if words.count > 1, let first = words.first { phraseStarts[String(first)] = true }
        func reference(_ form: String?, _ kind: FormKind) {
            guard let form = form?.lowercased(), form != key, forms[form] == nil else { return }
            forms[form] = FormReference(lemma: key, kind: kind)
        }
        reference(entry.plural, .plural)
        reference(entry.feminine, .feminine)
        reference(entry.apocope, .apocope)
        tables = Tables(entries: entries, forms: forms, longestPhrase: longestPhrase, phraseStarts: phraseStarts)
    }

    /// The entry whose lemma is `word` (lowercase).
    public func entry(_ word: String) -> LexiconEntry? {
        tables.entries[word]
    }

    /// The entry whose lemma has the UTF-8 bytes `word` (lowercase): a part of a longer word, such
    /// as the last part of a compound, looked up without copying it out.
    func entry(utf8 word: UnsafeBufferPointer<UInt8>) -> LexiconEntry? {
        tables.entries[utf8: word]
    }

    /// The entry and form kind when `word` (lowercase) is an irregular form listed in the lexicon.
    public func entry(forInflectedForm word: String) -> (entry: LexiconEntry, kind: FormKind)? {
        guard let reference = tables.forms[word], let entry = tables.entries[reference.lemma] else { return nil }
        return (entry, reference.kind)
    }

    /// ``entry(forInflectedForm:)`` for a form given as UTF-8 bytes.
    func entry(forInflectedFormUTF8 word: UnsafeBufferPointer<UInt8>) -> (entry: LexiconEntry, kind: FormKind)? {
        guard let reference = tables.forms[utf8: word], let entry = tables.entries[reference.lemma] else { return nil }
        return (entry, reference.kind)
    }

    /// Whether a multi-word lemma starts with `word` (lowercase).
    public func startsPhrase(_ word: String) -> Bool { tables.phraseStarts.contains(word) }

    /// Whether the lexicon has `word` (lowercase) as a lemma.
    public func contains(_ word: String) -> Bool { tables.entries.contains(word) }

    /// How many lemmas the lexicon lists.
    public var count: Int { tables.entries.count }

    /// All lemmas (lowercase), for tools and tests.
    public var lemmas: [String] { tables.entries.allKeys }

    // MARK: Reading

    private static func entry(
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
            if gender != "-" {
                guard let value = LexiconEntry.Gender(rawValue: String(gender)) else {
                    throw failure("unknown gender '\(gender)' (m, f, mf, n or -)")
                }
                entry.gender = value
            }
            if entry.canBeNoun, entry.gender == nil {
                throw failure("the noun '\(lemma)' needs a gender")
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
                default: throw failure("unknown flag '\(flag)'")
                }
            }
        default:
            throw failure("unknown key '\(key)'")
        }
    }
}

extension Lexicon {
    /// The lexicon bundled for `language` (`en`, `es`), read once per process.
    ///
    /// - Throws: ``LexiconError`` when the bundled file is missing or malformed.
    public static func bundled(language: String) throws(LexiconError) -> Lexicon {
        try BundledLexicons.shared.lexicon(language: language)
    }
}

/// Bundled lexicons, read on first use.
private final class BundledLexicons: Sendable {
    static let shared = BundledLexicons()

    /// Languages with a bundled lexicon, and whether it has a gender column.
    static let languages: [(code: String, hasGenderColumn: Bool)] = [
        ("en", false), ("es", true), ("fr", true), ("de", true), ("it", true), ("pt", true),
    ]

    private let lexicons: [String: Result<Lexicon, LexiconError>]

    private init() {
        var lexicons: [String: Result<Lexicon, LexiconError>] = [:]
        for (code, hasGenderColumn) in Self.languages {
            lexicons[code] = Self.load(code, hasGenderColumn: hasGenderColumn)
        }
        self.lexicons = lexicons
    }

    func lexicon(language: String) throws(LexiconError) -> Lexicon {
        guard let lexicon = lexicons[language] else {
            throw LexiconError(source: language, line: 0, message: "no lexicon is bundled for '\(language)'")
        }
        return try lexicon.get()
    }

    private static func load(_ language: String, hasGenderColumn: Bool) -> Result<Lexicon, LexiconError> {
        let name = "\(language).tsv"
        guard let url = Bundle.module.url(forResource: language, withExtension: "tsv", subdirectory: "Lexicons")
        else {
            return .failure(LexiconError(source: name, line: 0, message: "missing from the module's resources"))
        }
        do {
            let text = try String(contentsOf: url, encoding: .utf8)
            return Result { () throws(LexiconError) in
                try Lexicon(parsing: text, source: name, hasGenderColumn: hasGenderColumn)
            }
        } catch {
            return .failure(LexiconError(source: name, line: 0, message: "unreadable: \(error)"))
        }
    }
}
