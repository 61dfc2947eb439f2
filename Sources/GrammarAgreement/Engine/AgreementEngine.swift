import Localization
import RichText

/// Automatic grammar agreement for one locale: makes `^[…](inflect: true)` spans agree with their
/// numbers and nouns, `agreeWithArgument`/`agreeWithConcept` spans with what they name,
/// `referentConcept` pronouns with their referents, and reader-addressing words with the reader's
/// term of address — what Foundation's `AttributedString.inflected()` does on Apple platforms.
///
/// ```swift
/// let spanish = try AgreementEngine(locale: "es-MX")
/// let document = try RichTextParser.parse("Añadir ^[2 ensalada pequeño](inflect: true) a tu pedido")
/// spanish.inflect(document).plainText   // "Añadir 2 ensaladas pequeñas a tu pedido"
/// ```
///
/// An engine is immutable and safe to share between threads; make one per locale and keep it.
public final class AgreementEngine: Sendable {
    /// The locale as given.
    public let locale: String
    /// The language whose rules apply (`es` for `es-MX`).
    public let language: String
    /// The locale's plural rules, which turn numbers into grammatical number.
    public let pluralRules: PluralRules
    let grammar: any LanguageGrammar

    /// Whether the locale's language has agreement rules; other languages are left as written.
    public let isSupported: Bool

    /// Languages with agreement rules.
    public static var supportedLanguages: [String] { GrammarRegistry.languages }

    /// Makes an engine for a BCP 47 locale identifier.
    ///
    /// - Throws: ``AgreementError`` when ICU has no plural rules for the locale, or a bundled
    ///   lexicon cannot be read.
    public init(locale: String) throws(AgreementError) {
        self.locale = locale
        language = GrammarRegistry.language(of: locale)
        pluralRules = try Self.pluralRules(locale)
        grammar = try GrammarRegistry.grammar(for: language)
        isSupported = !(grammar is UnsupportedLanguageGrammar)
        declaredTerms = []
    }

    /// Makes an engine whose lexicon has `terms` (a catalog's declared terms, ``DeclaredTerm``)
    /// over the bundled words: a declared term's gender and plural are used before the lexicon's.
    ///
    /// - Throws: ``AgreementError`` as ``init(locale:)``.
    public init(locale: String, declaring terms: [DeclaredTerm]) throws(AgreementError) {
        self.locale = locale
        language = GrammarRegistry.language(of: locale)
        pluralRules = try Self.pluralRules(locale)
        let shared = try GrammarRegistry.grammar(for: language)
        if terms.isEmpty || shared is UnsupportedLanguageGrammar {
            grammar = shared
        } else {
            do {
                let lexicon = try Lexicon.bundled(language: language)
                grammar = try GrammarRegistry.grammar(
                    for: language,
                    lexicon: lexicon.overlaid(with: terms.map(\.lexiconEntry), source: "declared terms")
                )
            } catch {
                throw AgreementError(.lexicon, error.description)
            }
        }
        isSupported = !(grammar is UnsupportedLanguageGrammar)
        declaredTerms = terms
    }

    private static func pluralRules(_ locale: String) throws(AgreementError) -> PluralRules {
        do {
            return try PluralRules(locale: locale)
        } catch {
            throw AgreementError(.unknownLocale, "no plural rules for '\(locale)': \(error)")
        }
    }

    /// The terms the catalog declared for this engine (empty for a plain one).
    public let declaredTerms: [DeclaredTerm]

    /// An engine with a grammar of the caller's (tests measure the rules without the lexicon).
    init(locale: String, grammar: any LanguageGrammar) throws(AgreementError) {
        self.locale = locale
        language = grammar.language
        pluralRules = try Self.pluralRules(locale)
        self.grammar = grammar
        isSupported = !(grammar is UnsupportedLanguageGrammar)
        declaredTerms = []
    }

    /// Inflects a parsed document.
    ///
    /// - Parameters:
    ///   - document: rich text whose runs carry the agreement attributes.
    ///   - arguments: the substituted arguments (from a ``LocalizedString``'s substitutions or a
    ///     template's slots), whose raw numeric values decide grammatical number.
    ///   - termOfAddress: how the reader is addressed.
    ///   - concepts: what `agreeWithConcept:`/`referentConcept:` refer to, 1-based.
    public func inflect(
        _ document: RichDocument,
        arguments: [ArgumentRecord] = [],
        termOfAddress: TermOfAddress = .unknown,
        concepts: [InflectionConcept] = []
    ) -> InflectedText {
        let runs = document.runs
        let agreement = runs.map { RunAgreement(json: $0.attributes) }
        let result = edits(
            texts: runs.map(\.text),
            agreement: agreement,
            spans: SpanPlan.spans(in: agreement),
            arguments: arguments,
            termOfAddress: termOfAddress,
            concepts: concepts
        )
        return InflectedText(applying: result, to: document, arguments: arguments)
    }

    // MARK: The agreement passes

    /// The text edits agreement calls for in runs `texts`, and the warnings it gave.
    func edits(
        texts: [String],
        agreement: [RunAgreement],
        spans: [SpanPlan],
        arguments: [ArgumentRecord],
        termOfAddress: TermOfAddress,
        concepts: [InflectionConcept]
    ) -> (edits: [RichTextEdit], warnings: [AgreementWarning]) {
        guard !spans.isEmpty else { return ([], []) }
        var context = AgreementContext(texts: texts)
        if !isSupported {
            context.warn(
                AgreementWarning(
                    code: .unsupportedLanguage,
                    message: "no agreement rules for '\(language)'; spans are left as written"
                )
            )
            return ([], context.warnings)
        }
        var offsets = [0]
        offsets.reserveCapacity(texts.count + 1)
        for text in texts { offsets.append(offsets[offsets.count - 1] + text.utf8.count) }

        // Arguments in text order, so each span takes its own with two binary searches.
        let ordered =
            zip(arguments, arguments.dropFirst()).allSatisfy { $0.utf8Range.lowerBound <= $1.utf8Range.lowerBound }
            ? arguments : arguments.sorted { $0.utf8Range.lowerBound < $1.utf8Range.lowerBound }
        var phrases: [Phrase] = spans.map { span in
            let start = offsets[span.runs.lowerBound]
            let end = offsets[span.runs.upperBound]
            return Tokenizer.phrase(
                texts: texts[span.runs],
                hints: agreement[span.runs],
                offset: start,
                arguments: ordered[
                    Self.firstIndex(in: ordered, atOrAfter: start)..<Self.firstIndex(in: ordered, atOrAfter: end)
                ]
            )
        }

        // 1. Spans that inflect on their own: numbers, heads, and the reader's gender.
        for index in spans.indices {
            let plan = spans[index].agreement
            guard let rule = plan.rule, plan.agreeWithArgument == nil, plan.agreeWithConcept == nil,
                plan.referentConcept == nil
            else { continue }
            for position in phrases[index].words.indices where phrases[index].words[position].isNumber {
                phrases[index].words[position].grammaticalNumber =
                    phrases[index].words[position].number?.grammaticalNumber(pluralRules)
            }
            // A number joined to the next word by a hyphen (an 18-inch sub, a 2-shot latte) makes a
            // modifier: it counts nothing.
            let number = phrases[index].words.indices.first { position in
                let word = phrases[index].words[position]
                guard word.isNumber else { return false }
                let end = word.utf8Range.upperBound
                return context.text(end..<(end + 1)) != "-"
            }.flatMap { phrases[index].words[$0].grammaticalNumber }
            var explicit: Morphology?
            if case .explicit(let morphology) = rule { explicit = morphology }
            let analysis = grammar.inflect(&phrases[index], number: number, rule: explicit, context: &context)
            phrases[index].analysis = analysis
            if analysis.addressesReader {
                phrases[index].alternative = agreeWithReader(
                    &phrases[index],
                    term: termOfAddress,
                    alternative: plan.alternative,
                    number: analysis.features?.number,
                    context: &context
                )
            }
        }

        // 2. Spans that agree with something else, now that the inflected spans are settled.
        var spanOfArgument: [Int: Int] = [:]
        var recordOfArgument: [Int: ArgumentRecord] = [:]
        if spans.contains(where: { $0.agreement.agreeWithArgument != nil }) {
            for record in arguments where recordOfArgument[record.argument] == nil {
                recordOfArgument[record.argument] = record
            }
            for index in phrases.indices {
                for word in phrases[index].words {
                    if let argument = word.argument, spanOfArgument[argument] == nil {
                        spanOfArgument[argument] = index
                    }
                }
            }
        }
        for index in spans.indices {
            let plan = spans[index].agreement
            if let argument = plan.agreeWithArgument {
                if let features = features(
                    ofArgument: argument,
                    phrases: phrases,
                    spanOfArgument: spanOfArgument,
                    recordOfArgument: recordOfArgument,
                    context: &context
                ) {
                    grammar.agree(&phrases[index], with: features, context: &context)
                }
            } else if let number = plan.agreeWithConcept {
                guard let concept = concept(number, concepts, &context) else { continue }
                switch concept {
                case .termsOfAddress(let terms):
                    let term = terms.first { grammar.features(addressing: $0) != nil } ?? .unknown
                    phrases[index].alternative = agreeWithReader(
                        &phrases[index],
                        term: term,
                        alternative: plan.alternative,
                        number: nil,
                        context: &context
                    )
                case .localizedPhrase(let text):
                    if let features = grammar.features(of: Tokenizer.phrase(text)) {
                        grammar.agree(&phrases[index], with: features, context: &context)
                    }
                }
            }
            if let number = plan.referentConcept, let concept = concept(number, concepts, &context) {
                let referent: Referent
                switch concept {
                case .termsOfAddress(let terms):
                    referent = .person(terms.first { $0.gender != .unknown } ?? .unknown)
                case .localizedPhrase(let text):
                    referent = .thing(grammar.features(of: Tokenizer.phrase(text)) ?? .singular)
                }
                grammar.substitutePronouns(&phrases[index], referent: referent, context: &context)
            }
        }

        // 3. The edits: alternatives replace whole spans; otherwise changed words and boundaries.
        var edits: [RichTextEdit] = []
        edits.reserveCapacity(8)
        for index in spans.indices {
            let range = offsets[spans[index].runs.lowerBound]..<offsets[spans[index].runs.upperBound]
            if let alternative = phrases[index].alternative {
                edits.append(RichTextEdit(utf8Range: range, replacement: alternative))
                continue
            }
            edits.append(contentsOf: grammar.boundaryEdits(for: phrases[index], context: &context))
            let words = phrases[index].words
            for (position, word) in words.enumerated() {
                if word.elides, let replacement = word.replacement, position + 1 < words.count {
                    // The elided form takes the space after it: le + eau → l'eau.
                    let end = words[position + 1].utf8Range.lowerBound
                    edits.append(RichTextEdit(utf8Range: word.utf8Range.lowerBound..<end, replacement: replacement))
                } else if let replacement = word.replacement, replacement != word.text {
                    edits.append(RichTextEdit(utf8Range: word.utf8Range, replacement: replacement))
                }
            }
        }
        // One edit per stretch of text: where a boundary edit (de + el → del) covers a word's own
        // edit, the one starting first wins, so every consumer applies the same list.
        let kept = RichTextEdit.nonOverlapping(edits)
        return (kept, context.warnings)
    }

    /// The index of the first argument starting at or after `offset` (arguments in text order).
    private static func firstIndex(in arguments: [ArgumentRecord], atOrAfter offset: Int) -> Int {
        var low = 0
        var high = arguments.count
        while low < high {
            let middle = (low + high) / 2
            if arguments[middle].utf8Range.lowerBound < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Agreement with the reader: their gender's forms, or the alternative text (returned) when
    /// the language has no form for the term and the words depend on it.
    private func agreeWithReader(
        _ phrase: inout Phrase,
        term: TermOfAddress,
        alternative: String?,
        number: Morphology.GrammaticalNumber?,
        context: inout AgreementContext
    ) -> String? {
        if var features = grammar.features(addressing: term) {
            if let number { features.number = number }
            grammar.agree(&phrase, with: features, context: &context)
            return nil
        }
        guard let alternative, grammar.dependsOnReaderGender(phrase) else { return nil }
        return alternative
    }

    private func features(
        ofArgument argument: Int,
        phrases: [Phrase],
        spanOfArgument: [Int: Int],
        recordOfArgument: [Int: ArgumentRecord],
        context: inout AgreementContext
    ) -> GrammaticalFeatures? {
        // The argument inside an inflected span: agree with what that span became.
        if let index = spanOfArgument[argument], let features = phrases[index].analysis?.features {
            return features
        }
        guard let record = recordOfArgument[argument] else {
            context.warn(
                AgreementWarning(
                    code: .missingArgument,
                    message: "agreeWithArgument: \(argument) names an argument the string does not have"
                )
            )
            return nil
        }
        if record.value.isNumber {
            return GrammaticalFeatures(gender: nil, number: record.value.grammaticalNumber(pluralRules))
        }
        return grammar.features(of: Tokenizer.phrase(context.text(record.utf8Range)))
    }

    private func concept(
        _ number: Int,
        _ concepts: [InflectionConcept],
        _ context: inout AgreementContext
    ) -> InflectionConcept? {
        guard number >= 1, number <= concepts.count else {
            context.warn(
                AgreementWarning(
                    code: .missingConcept,
                    message: "concept \(number) was named, but \(concepts.count) concept(s) were given"
                )
            )
            return nil
        }
        return concepts[number - 1]
    }
}

/// The result of agreement: the document, where the arguments are now, and any warnings.
public struct InflectedText: Hashable, Sendable {
    /// The inflected document (runs and tree).
    public var document: RichDocument
    /// The arguments with their ranges in the inflected text.
    public var arguments: [ArgumentRecord]
    /// Ambiguities resolved by position and other things worth logging, each once.
    public var warnings: [AgreementWarning]

    /// The inflected text without markup.
    public var plainText: String { document.plainText }

    /// `document` with agreement's edits applied and `arguments` moved with them.
    init(
        applying agreed: (edits: [RichTextEdit], warnings: [AgreementWarning]),
        to document: RichDocument,
        arguments: [ArgumentRecord]
    ) {
        self.document = document.replacingText(agreed.edits)
        self.arguments = arguments.map { $0.mapped(through: agreed.edits) }
        warnings = agreed.warnings
    }
}

extension ArgumentRecord {
    /// The record with its range moved through `edits` (sorted, non-overlapping).
    func mapped(through edits: [RichTextEdit]) -> ArgumentRecord {
        var copy = self
        let lower = Self.map(utf8Range.lowerBound, edits, isEnd: false)
        copy.utf8Range = lower..<max(lower, Self.map(utf8Range.upperBound, edits, isEnd: true))
        return copy
    }

    /// Where `offset` lands after the edits; an offset inside an edit goes to the replacement's
    /// start (a range's start) or end (a range's end).
    private static func map(_ offset: Int, _ edits: [RichTextEdit], isEnd: Bool) -> Int {
        var shift = 0
        for edit in edits {
            let range = edit.utf8Range
            if range.upperBound <= offset {
                shift += edit.replacement.utf8.count - range.count
            } else if range.lowerBound < offset {
                return range.lowerBound + shift + (isEnd ? edit.replacement.utf8.count : 0)
            } else {
                break
            }
        }
        return offset + shift
    }
}
