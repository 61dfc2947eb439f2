import Foundation
import Localization
import RichText

/// What grammar agreement will do with the words of a catalog, before it is deployed: for each
/// localization with agreement rules, every word that reaches an `inflect` span — the menu's names
/// (the term table, Caffe's `Menu`) in the spans' argument slots, and the words written inside the
/// spans — and how it will be treated; and the spans of localizations without rules, which are
/// shown as written.
///
/// It renders every string of the localization that has agreement spans once for each name in
/// each of its string argument slots inside a span (numbers as 2), with the engine the worker uses
/// (the bundled lexicon under the catalog's declared terms), and reads the warnings: a word the
/// engine reports it left as written is *unknown*; a noun whose gender it could not tell (so the
/// words agreeing with it stay as written) *ambiguous*; a word no lexicon lists that the spelling
/// rules changed all the same *rule*; a declared term is *declared*; the rest come from a
/// *lexicon* (a word read by its position keeps the engine's note as its reason).
/// `caffe lint --agreement --strict` fails on unknown, ambiguous and rule words (rule words are
/// accepted with `--accept-rules`) and on spans in localizations without rules.
public struct AgreementPreflight: Sendable {
    /// How a word will be treated.
    public enum Treatment: String, Codable, Sendable, Comparable {
        /// A lexicon knows it (a German compound: each of its parts): it agrees.
        case lexicon
        /// The catalog declares it (gender, plural): it agrees as declared.
        case declared
        /// No lexicon lists it, and the spelling rules change it all the same (English and Spanish
        /// plurals, a Spanish gender from the ending): probably right, a guess all the same.
        case rule
        /// Its gender is not known: the words agreeing with it are left as written.
        case ambiguous
        /// Nothing knows it: it is left as written.
        case unknown

        public static func < (lhs: Treatment, rhs: Treatment) -> Bool { lhs.rank < rhs.rank }
        private var rank: Int {
            switch self {
            case .lexicon: 0
            case .declared: 1
            case .rule: 2
            case .ambiguous: 3
            case .unknown: 4
            }
        }
    }

    /// One word or term and what agreement will do with it.
    public struct Word: Codable, Hashable, Sendable {
        public var word: String
        public var treatment: Treatment
        /// Why, for ambiguous and unknown words: the engine's warning.
        public var reason: String?
        /// Where it comes from: `Menu/<key>` for a name, `<table>/<key>` for a word written in a span.
        public var from: [String]
    }

    /// One localization's words.
    public struct LocaleReport: Codable, Hashable, Sendable {
        public var locale: String
        public var words: [Word]
        public var lexicon: Int
        public var declared: Int
        public var rule: Int
        public var ambiguous: Int
        public var unknown: Int
        /// Version 1's count: lexicon and rule words together. Deprecated; read both.
        public var known: Int { lexicon + rule }

        enum CodingKeys: String, CodingKey {
            case locale, words, lexicon, declared, rule, ambiguous, unknown, known
        }

        public init(locale: String, words: [Word], lexicon: Int, declared: Int, rule: Int, ambiguous: Int, unknown: Int)
        {
            self.locale = locale
            self.words = words
            self.lexicon = lexicon
            self.declared = declared
            self.rule = rule
            self.ambiguous = ambiguous
            self.unknown = unknown
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                locale: try container.decode(String.self, forKey: .locale),
                words: try container.decode([Word].self, forKey: .words),
                lexicon: try container.decode(Int.self, forKey: .lexicon),
                declared: try container.decode(Int.self, forKey: .declared),
                rule: try container.decode(Int.self, forKey: .rule),
                ambiguous: try container.decode(Int.self, forKey: .ambiguous),
                unknown: try container.decode(Int.self, forKey: .unknown)
            )
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(locale, forKey: .locale)
            try container.encode(words, forKey: .words)
            try container.encode(lexicon, forKey: .lexicon)
            try container.encode(declared, forKey: .declared)
            try container.encode(rule, forKey: .rule)
            try container.encode(ambiguous, forKey: .ambiguous)
            try container.encode(unknown, forKey: .unknown)
            try container.encode(known, forKey: .known)
        }
    }

    /// An agreement span in a localization without agreement rules: shown as written.
    public struct SpanWithoutRules: Codable, Hashable, Sendable {
        public var locale: String
        public var table: String
        public var key: String
    }

    /// The whole report, `caffe lint --agreement --json`. Version 2 renamed the treatment `known`
    /// to `lexicon` and added `rule` and `spansWithoutRules`; fields are only added within a version.
    public struct Report: Codable, Hashable, Sendable {
        public var version = 2
        public var termTable: String
        public var locales: [LocaleReport]
        /// Localizations whose language has no agreement rules (left as written by design).
        public var withoutRules: [String]
        /// The agreement spans of those localizations, each shown as written.
        public var spansWithoutRules: [SpanWithoutRules]
        public var ambiguous: Int
        public var unknown: Int
        public var rule: Int

        /// Why `caffe lint --agreement --strict` fails, one line each; empty when it passes.
        /// `acceptingRules`: words the spelling rules inflect pass.
        public func strictFailures(acceptingRules: Bool) -> [String] {
            var reasons: [String] = []
            for locale in locales {
                for word in locale.words
                where word.treatment == .unknown || word.treatment == .ambiguous
                    || (word.treatment == .rule && !acceptingRules)
                {
                    reasons.append(
                        "\(locale.locale): \(word.treatment.rawValue) '\(word.word)' (\(word.from.joined(separator: ", ")))"
                    )
                }
            }
            for span in spansWithoutRules {
                reasons.append(
                    "\(span.locale): '\(span.key)' (\(span.table)) has an agreement span, and \(span.locale) has no "
                        + "agreement rules: shown as written"
                )
            }
            return reasons
        }
    }

    /// Which names a service puts into which argument of a string: the order line takes sizes as
    /// argument 2 and items as argument 3.
    public struct Use: Hashable, Sendable {
        /// The string's key and table.
        public var key: String
        public var table: String
        /// 0-based argument → the term table's keys whose names fill it.
        public var arguments: [Int: Set<String>]

        public init(key: String, table: String = StringCatalog.defaultTable, arguments: [Int: Set<String>]) {
            self.key = key
            self.table = table
            self.arguments = arguments
        }
    }

    public let catalog: StringCatalog
    public let termTable: String
    /// The term table's keys whose names fill spans (a menu's items and sizes); `nil` for all of them.
    public let termKeys: Set<String>?
    /// Where the names go; `nil` tries every name in every string slot inside a span.
    public let uses: [Use]?

    public init(catalog: StringCatalog, termTable: String = "Menu", termKeys: Set<String>? = nil, uses: [Use]? = nil) {
        self.catalog = catalog
        self.termTable = termTable
        self.termKeys = termKeys ?? uses.map { Set($0.flatMap { $0.arguments.values.flatMap { $0 } }) }
        self.uses = uses
    }

    public func run() -> Report {
        var locales: [LocaleReport] = []
        var withoutRules: [String] = []
        var spans: [SpanWithoutRules] = []
        for localization in catalog.localizations where localization != "Base" {
            guard GrammarRegistry.hasRules(for: localization) else {
                withoutRules.append(localization)
                spans += spansWithoutRules(localization)
                continue
            }
            if let report = check(localization) { locales.append(report) }
        }
        return Report(
            termTable: termTable,
            locales: locales,
            withoutRules: withoutRules,
            spansWithoutRules: spans,
            ambiguous: locales.reduce(0) { $0 + $1.ambiguous },
            unknown: locales.reduce(0) { $0 + $1.unknown },
            rule: locales.reduce(0) { $0 + $1.rule }
        )
    }

    /// The entries of `localization` itself (not those it falls back to) with an agreement span,
    /// as ``AgreementTemplate`` reads one (the markup lint's `agreement-without-rules` too).
    private func spansWithoutRules(_ localization: String) -> [SpanWithoutRules] {
        catalog.tableNames.flatMap { table in
            catalog.entries(table: table, localization: localization).filter { entry in
                Self.variants(of: entry.value).contains { (try? AgreementTemplate($0))?.hasAgreementSpans == true }
            }.map { SpanWithoutRules(locale: localization, table: table, key: $0.key) }
        }
    }

    /// A name of the term table: its key and text as shown.
    private struct Term {
        var key: String
        var text: String
    }

    private func check(_ localization: String) -> LocaleReport? {
        let declared = DeclaredTerm.declared(in: catalog, table: termTable, localization: localization)
        guard let engine = try? AgreementEngine(locale: localization, declaring: declared),
            let formatter = try? Localizer(catalog: .empty(), locale: localization)
        else { return nil }
        var terms: [Term] = []
        var seenKeys: Set<String> = []
        for fallback in catalog.fallbackChain(for: localization) {
            for entry in catalog.entries(table: termTable, localization: fallback)
            where !seenKeys.contains(entry.key) && termKeys.map({ $0.contains(entry.key) }) != false {
                seenKeys.insert(entry.key)
                let text = displayedName(entry.value)
                if !text.isEmpty, !text.contains("%") { terms.append(Term(key: entry.key, text: text)) }
            }
        }
        let declaredTexts = Set(declared.map { $0.text.lowercased() })
        var words: [String: Word] = [:]
        func note(_ word: String, _ treatment: Treatment, _ reason: String?, from source: String) {
            let key = word.lowercased()
            var found = words[key] ?? Word(word: word, treatment: treatment, reason: reason, from: [])
            if treatment > found.treatment {
                found.treatment = treatment
                found.reason = reason
            }
            if !found.from.contains(source) { found.from.append(source) }
            words[key] = found
        }
        for table in catalog.tableNames where table != termTable {
            // The strings this localization shows: its own, then those it falls back to.
            var shown: [String: CatalogEntry] = [:]
            for fallback in catalog.fallbackChain(for: localization).reversed() {
                for entry in catalog.entries(table: table, localization: fallback) { shown[entry.key] = entry }
            }
            for entry in shown.values.sorted(by: { $0.key < $1.key }) {
                // With the service's uses known, a string takes only the names it is given.
                let use = uses?.first { $0.key == entry.key && $0.table == table }
                let slots: [Int: [Term]]? = uses.map { _ in
                    (use?.arguments ?? [:]).mapValues { keys in terms.filter { keys.contains($0.key) } }
                }
                for markup in Self.variants(of: entry.value) {
                    check(
                        markup,
                        source: "\(table)/\(entry.key)",
                        terms: terms,
                        slots: slots,
                        declaredTexts: declaredTexts,
                        engine: engine,
                        formatter: formatter,
                        note: note
                    )
                }
            }
        }
        let list = words.values.sorted { ($1.treatment, $0.word.lowercased()) < ($0.treatment, $1.word.lowercased()) }
        func count(_ treatment: Treatment) -> Int { list.filter { $0.treatment == treatment }.count }
        return LocaleReport(
            locale: localization,
            words: list,
            lexicon: count(.lexicon),
            declared: count(.declared),
            rule: count(.rule),
            ambiguous: count(.ambiguous),
            unknown: count(.unknown)
        )
    }

    /// The texts a value can show: itself, or each plural variant's.
    private static func variants(of value: CompiledString) -> [String] {
        guard !value.pluralSwitches.isEmpty else { return [value.source] }
        return Array(Set([value.flattened(choosing: .one), value.flattened(choosing: .other)])).sorted()
    }

    /// Renders one string with each term in each of its string slots inside a span, and notes what
    /// the engine said of every word in the spans.
    private func check(
        _ markup: String,
        source: String,
        terms: [Term],
        slots: [Int: [Term]]?,
        declaredTexts: Set<String>,
        engine: AgreementEngine,
        formatter: Localizer,
        note: (String, Treatment, String?, String) -> Void
    ) {
        guard markup.contains("^["), let template = try? AgreementTemplate(markup), template.hasAgreementSpans
        else { return }
        let occurrences = FormatStringSpecifiers.find(in: markup)
        let spans = Self.spanRanges(in: markup)
        let inSpans = Set(
            occurrences.filter { occurrence in
                occurrence.specifier.conversion == .object
                    && spans.contains { $0.contains(occurrence.utf8Range.lowerBound) }
            }.map(\.argument)
        )
        // Each string slot in a span and the names tried in it.
        let candidates: [Int: [Term]] =
            slots.map { given in given.filter { inSpans.contains($0.key) } }
            ?? Dictionary(uniqueKeysWithValues: inSpans.map { ($0, terms) })
        let numeric = Set(occurrences.filter { $0.specifier.conversion != .object }.map(\.argument))
        func arguments(_ slot: Int?, _ term: Term?) -> [FormatArgument] {
            (0..<template.argumentCount).map { index in
                if numeric.contains(index) { return .integer(2) }
                if index == slot, let term { return .string(term.text) }
                return .string(candidates[index]?.first?.text ?? terms.first?.text ?? "")
            }
        }
        let stringSlots = Set(candidates.keys)
        func render(_ arguments: [FormatArgument]) -> [AgreementWarning] {
            (try? template.render(arguments, engine: engine, formatter: formatter))?.warnings ?? []
        }
        // The words written in the spans: what a render with the first name says of them.
        let literalWarnings = render(arguments(nil, nil))
        for word in Self.spanWords(in: markup, spans: spans) {
            let warning = literalWarnings.first { $0.word?.lowercased() == word.lowercased() }
            note(word, Self.treatment(of: warning), warning?.message, source)
        }
        // A name is tried in every string slot of the spans, for the string does not say which slot
        // takes which names: it is as known as it is in the slot that suits it best (a size is
        // known before a noun, whatever it would be as one).
        guard !stringSlots.isEmpty else { return }
        for term in terms {
            var best: (treatment: Treatment, warning: AgreementWarning?)?
            for slot in stringSlots.sorted() where candidates[slot]?.contains(where: { $0.key == term.key }) == true {
                let warnings = render(arguments(slot, term)).filter { warning in
                    warning.word.map { term.text.lowercased().contains($0.lowercased()) } ?? false
                }
                let worst = warnings.max { Self.treatment(of: $0) < Self.treatment(of: $1) }
                let treatment = Self.treatment(of: worst)
                if best == nil || treatment < best!.treatment { best = (treatment, worst) }
            }
            guard let (found, warning) = best else { continue }
            let treatment = found == .lexicon && declaredTexts.contains(term.text.lowercased()) ? .declared : found
            note(term.text, treatment, warning?.message, "\(termTable)/\(term.key)")
        }
    }

    /// An unknown word is left as written; a noun of unknown gender leaves the words agreeing with
    /// it as written; a word the spelling rules changed is a guess. A word a hand-written lexicon
    /// lists with several parts of speech is read by its position, deterministically: a lexicon
    /// word, its reason kept.
    private static func treatment(of warning: AgreementWarning?) -> Treatment {
        switch warning?.code {
        case .unknownWord?: .unknown
        case .unknownGender?, .unknownCase?: .ambiguous
        case .inflectedByRule?: .rule
        default: .lexicon
        }
    }

    /// The UTF-8 ranges of `^[…](…)` spans whose attributes ask for agreement.
    static func spanRanges(in markup: String) -> [Range<Int>] {
        let bytes = Array(markup.utf8)
        var ranges: [Range<Int>] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "^"), bytes[index + 1] == UInt8(ascii: "[") else {
                index += 1
                continue
            }
            var depth = 0
            var close = index + 1
            while close < bytes.count {
                if bytes[close] == UInt8(ascii: "[") { depth += 1 }
                if bytes[close] == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { break }
                }
                close += 1
            }
            guard close + 1 < bytes.count, bytes[close + 1] == UInt8(ascii: "("),
                let end = bytes[(close + 1)...].firstIndex(of: UInt8(ascii: ")"))
            else { break }
            let attributes = String(decoding: bytes[(close + 2)..<end], as: UTF8.self)
            if attributes.contains("inflect") || attributes.contains("agreeWith") {
                ranges.append((index + 2)..<close)
            }
            index = end + 1
        }
        return ranges
    }

    /// The words written inside the spans (not the specifiers).
    private static func spanWords(in markup: String, spans: [Range<Int>]) -> [String] {
        let bytes = Array(markup.utf8)
        var words: [String] = []
        for span in spans {
            let text = String(decoding: bytes[span], as: UTF8.self)
            var cleaned = text
            for occurrence in FormatStringSpecifiers.find(in: text).reversed() {
                let utf8 = Array(cleaned.utf8)
                cleaned =
                    String(decoding: utf8[..<occurrence.utf8Range.lowerBound], as: UTF8.self) + " "
                    + String(decoding: utf8[occurrence.utf8Range.upperBound...], as: UTF8.self)
            }
            words += cleaned.split(whereSeparator: { !($0.isLetter || $0 == "'" || $0 == "’" || $0 == "-") })
                .map(String.init)
        }
        return words
    }
}
