import Localization
import RichText
import Synchronization

/// Agreement decisions remembered by one thread or task, so a string rendered again with the same
/// words and number categories skips the grammar: a café's orders repeat the same menu items.
///
/// A cache is a value its owner keeps (one per render thread); there is no lock and nothing shared.
/// It holds at most `capacity` results and starts over when full. Results depend only on the
/// template, the filled text, where the arguments are, their plural categories and the term of
/// address, so a hit gives exactly what the grammar would.
///
/// ```swift
/// var cache = AgreementCache()
/// let text = try template.render(arguments, engine: spanish, formatter: formatter, cache: &cache)
/// ```
public struct AgreementCache: Sendable {
    struct Key: Hashable, Sendable {
        var template: Int
        /// The engine, so one cache serves a thread rendering several locales.
        var engine: ObjectIdentifier
        var text: String
        var arguments: [Int]
        var term: TermOfAddress.Gender
    }

    /// The most results kept.
    public let capacity: Int
    private var results: [Key: (edits: [RichTextEdit], warnings: [AgreementWarning])] = [:]
    /// Lookups answered from the cache, and all lookups.
    public private(set) var hits = 0
    public private(set) var lookups = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// How many results the cache holds.
    public var count: Int { results.count }

    mutating func result(
        for key: Key,
        compute: () -> (edits: [RichTextEdit], warnings: [AgreementWarning])
    ) -> (edits: [RichTextEdit], warnings: [AgreementWarning]) {
        lookups += 1
        if let found = results[key] {
            hits += 1
            return found
        }
        let computed = compute()
        if results.count >= capacity { results.removeAll(keepingCapacity: true) }
        results[key] = computed
        return computed
    }
}

/// Identities for compiled templates, so caches can tell them apart.
enum TemplateIdentity {
    private static let next = Atomic<Int>(0)

    static func make() -> Int { next.add(1, ordering: .relaxed).newValue }
}

extension AgreementTemplate {
    /// ``render(_:engine:formatter:termOfAddress:concepts:)``, reusing agreement decisions from
    /// `cache` when the same text comes back. Strings with concepts or custom pronouns are not cached.
    public func render(
        _ arguments: [FormatArgument],
        engine: AgreementEngine,
        formatter: Localizer,
        termOfAddress: TermOfAddress = .unknown,
        concepts: [InflectionConcept] = [],
        cache: inout AgreementCache
    ) throws(AgreementError) -> InflectedText {
        let filled = try fill(arguments, formatter: formatter)
        let agreed = agreement(
            of: filled,
            engine: engine,
            termOfAddress: termOfAddress,
            concepts: concepts,
            cache: &cache
        )
        return InflectedText(applying: agreed, to: filled.document, arguments: filled.arguments)
    }
}

extension AgreementTemplate {
    /// Stage two with a cache: the agreement decisions, remembered by filled text.
    @_spi(Benchmarks)
    public func agreement(
        of filled: Filled,
        engine: AgreementEngine,
        termOfAddress: TermOfAddress = .unknown,
        concepts: [InflectionConcept] = [],
        cache: inout AgreementCache
    ) -> (edits: [RichTextEdit], warnings: [AgreementWarning]) {
        // Nothing to decide: no key to build, no lookup.
        guard hasAgreementSpans else { return ([], []) }
        guard concepts.isEmpty, termOfAddress.pronouns == nil else {
            return agreement(of: filled, engine: engine, termOfAddress: termOfAddress, concepts: concepts)
        }
        var key = AgreementCache.Key(
            template: identity,
            engine: ObjectIdentifier(engine),
            text: "",
            arguments: [],
            term: termOfAddress.gender
        )
        key.arguments.reserveCapacity(filled.arguments.count * 3)
        for record in filled.arguments {
            key.arguments.append(record.utf8Range.lowerBound)
            key.arguments.append(record.utf8Range.upperBound)
            // Numbers count by grammatical number; text by its characters, which are in `text`.
            key.arguments.append(record.value.isNumber ? engine.numberKey(record.value) : -1)
        }
        for run in filled.document.runs { key.text += run.text }
        return cache.result(for: key) {
            agreement(of: filled, engine: engine, termOfAddress: termOfAddress)
        }
    }
}

extension AgreementEngine {
    /// The grammatical number a numeric value gives, as a small integer for cache keys.
    func numberKey(_ value: FormatArgument) -> Int {
        switch value.grammaticalNumber(pluralRules) {
        case .singular: 0
        case .zero: 1
        case .plural: 2
        case .pluralTwo: 3
        case .pluralFew: 4
        case .pluralMany: 5
        }
    }
}
