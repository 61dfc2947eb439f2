import Foundation
import Localization
import RichText

/// A term a catalog declares for agreement: a menu item's name with the gender and plural its
/// translator gave, used before any lexicon.
///
/// A translator declares a term in the table that holds the names (Caffe's `Menu`), in the formats
/// Apple's tools already write:
/// - the gender (and part of speech) as Apple's `morphology` attribute on the name:
///   `"flat_white" = "^[Flat White](morphology: {grammaticalGender: 'masculine', partOfSpeech: 'noun'})";`
/// - the plural as the entry's plural variations (`.xcstrings` *Vary by Plural*, or a `.stringsdict`
///   entry): the `one` variant is the name, the `other` variant its plural.
///
/// Either alone declares the term; a name with neither is an ordinary name, left to the lexicon.
public struct DeclaredTerm: Hashable, Sendable {
    /// The name as shown (the `one` variant, markup removed).
    public var text: String
    public var gender: RichText.Morphology.GrammaticalGender?
    /// The plural as declared, when the entry has plural variations.
    public var plural: String?
    public var partOfSpeech: RichText.Morphology.PartOfSpeech
    /// The catalog key and the file it came from, for messages.
    public var key: String
    public var file: String

    public init(
        text: String,
        gender: RichText.Morphology.GrammaticalGender?,
        plural: String?,
        partOfSpeech: RichText.Morphology.PartOfSpeech = .noun,
        key: String = "",
        file: String = ""
    ) {
        self.text = text
        self.gender = gender
        self.plural = plural
        self.partOfSpeech = partOfSpeech
        self.key = key
        self.file = file
    }

    /// The terms `table` declares for `localization` and the localizations it falls back to (a
    /// nearer localization's declaration wins).
    public static func declared(in catalog: StringCatalog, table: String, localization: String) -> [DeclaredTerm] {
        var terms: [DeclaredTerm] = []
        var seen: Set<String> = []
        for fallback in catalog.fallbackChain(for: localization) {
            for entry in catalog.entries(table: table, localization: fallback) where !seen.contains(entry.key) {
                guard let term = DeclaredTerm(entry) else { continue }
                seen.insert(entry.key)
                terms.append(term)
            }
        }
        return terms
    }

    /// The term an entry declares, or `nil` when it declares nothing.
    public init?(_ entry: CatalogEntry) {
        let value = entry.value
        let hasPlural = !value.pluralSwitches.isEmpty
        let singularMarkup = hasPlural ? value.flattened(choosing: .one) : value.source
        guard let document = try? RichTextParser.parse(singularMarkup) else { return nil }
        var morphology: RichText.Morphology?
        for run in document.runs {
            if let found = RunAgreement(json: run.attributes).morphology { morphology = found }
        }
        guard hasPlural || morphology?.grammaticalGender != nil else { return nil }
        let text = document.plainText.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, !text.contains("%") else { return nil }
        var plural: String?
        if hasPlural, let other = try? RichTextParser.parse(value.flattened(choosing: .other)) {
            plural = other.plainText.trimmingCharacters(in: .whitespaces)
        }
        self.init(
            text: text,
            gender: morphology?.grammaticalGender,
            plural: plural,
            partOfSpeech: morphology?.partOfSpeech ?? .noun,
            key: entry.key,
            file: entry.file
        )
    }

    /// The term as a lexicon entry.
    var lexiconEntry: LexiconEntry {
        let gender: LexiconEntry.Gender? =
            switch self.gender {
            case .feminine: .feminine
            case .masculine: .masculine
            case .neuter: .neuter
            default: nil
            }
        let entry = LexiconEntry(lemma: text, partsOfSpeech: [partOfSpeech], gender: gender, plural: plural)
        // A declared plural equal to the name: the term does not change.
        if plural == nil, gender != nil { entry.isInvariable = false }
        return entry
    }
}

/// The plain text of a name that may carry markup (`^[Flat White](morphology: …)` → `Flat White`),
/// its `one` variant when it has plural variations: how a declared term is shown as an argument.
public func displayedName(_ value: CompiledString) -> String {
    let markup = value.pluralSwitches.isEmpty ? value.source : value.flattened(choosing: .one)
    guard markup.contains("^["), let document = try? RichTextParser.parse(markup) else { return markup }
    return document.plainText
}
