import Localization
import RichText
import Synchronization

/// Apple's `AttributedString(localized:)` for a catalog, in one call: the key is looked up along
/// the locale's fallback chain, its variants chosen, its arguments formatted for the locale, its
/// Markdown parsed and its agreement markup applied in the language of the text, for the reader's
/// term of address.
///
/// ```swift
/// let catalog = try StringCatalog(directory: URL(fileURLWithPath: "config/Localizations"))
/// let english = try RichLocalizer(catalog: catalog, locale: "en-US")
/// let line = try english.text("Add %lld %@ %@ to your order", arguments: [2, "large", "pizza"])
/// line.plainText   // "Add 2 large pizzas to your order"
/// line.html()      // the same as an HTML fragment, presentation attributes as `data-` attributes
/// ```
///
/// Arguments are never read as Markdown (each is a slot filled after parsing), numbers keep their
/// raw values for plural choice and agreement, and each distinct variant's markup is compiled
/// once and kept. Safe to share across threads.
public final class RichLocalizer: Sendable {
    /// Looks keys up and formats arguments for the locale.
    public let localizer: Localizer
    private let catalog: StringCatalog
    private let templates = Mutex<[String: AgreementTemplate]>([:])
    /// The table whose entries declare terms (``DeclaredTerm``), and the engines made with them.
    private let termTable: String?
    private let engines = Mutex<[String: AgreementEngine]>([:])
    /// Distinct formats kept; past this the cache starts over (a catalog has far fewer).
    private static let templateLimit = 4096

    /// Binds `catalog` to `locale`.
    ///
    /// - Throws: ``AgreementError`` `.unknownLocale` when ICU cannot serve the locale.
    /// - Parameter termTable: a table whose entries declare menu terms (`Menu`): agreement then
    ///   knows their gender and plural (``DeclaredTerm``).
    public init(
        catalog: StringCatalog,
        locale: String,
        options: RenderOptions = RenderOptions(),
        termTable: String? = nil
    ) throws(AgreementError) {
        self.catalog = catalog
        self.termTable = termTable
        do {
            localizer = try Localizer(catalog: catalog, locale: locale, options: options)
        } catch {
            throw AgreementError(.unknownLocale, error.description)
        }
    }

    /// The string `key` with `arguments`, as `AttributedString(localized:)` gives it.
    ///
    /// A key that no localization has is its own format, as on Apple platforms.
    /// - Parameters:
    ///   - key: the catalog key.
    ///   - table: the table (file name without extension).
    ///   - arguments: the values, in argument order.
    ///   - termOfAddress: how the reader is addressed.
    ///   - concepts: what `agreeWithConcept:`/`referentConcept:` refer to.
    /// - Throws: ``AgreementError`` `.invalidTemplate` for Markdown that does not parse,
    ///   `.invalidArgument` for an argument that is missing or does not fit its specifier.
    public func text(
        _ key: String,
        table: String = StringCatalog.defaultTable,
        arguments: [FormatArgument] = [],
        termOfAddress: TermOfAddress = .unknown,
        concepts: [InflectionConcept] = []
    ) throws(AgreementError) -> LocalizedRichText {
        let found: (format: String, localization: String)?
        do {
            found = try localizer.format(key, table: table, arguments: arguments)
        } catch {
            throw AgreementError(.invalidArgument, error.description)
        }
        let format = found?.format ?? (arguments.isEmpty ? CompiledString.escapingPercent(key) : key)
        // Agreement follows the language of the text shown, not the customer's.
        let language = found.map { $0.localization == "Base" ? catalog.developmentLanguage : $0.localization }
        let inflected = try template(format).render(
            arguments,
            engine: try engine(for: language ?? catalog.developmentLanguage),
            formatter: localizer,
            termOfAddress: termOfAddress,
            concepts: concepts
        )
        return LocalizedRichText(key: key, localization: found?.localization, format: format, inflected: inflected)
    }

    /// The engine for a localization: with the term table's declared terms, when there are any.
    private func engine(for localization: String) throws(AgreementError) -> AgreementEngine {
        guard let termTable else { return try GrammarAgreement.engine(for: localization) }
        if let made = engines.withLock({ $0[localization] }) { return made }
        let terms = DeclaredTerm.declared(in: catalog, table: termTable, localization: localization)
        let made =
            terms.isEmpty
            ? try GrammarAgreement.engine(for: localization)
            : try AgreementEngine(locale: localization, declaring: terms)
        engines.withLock { $0[localization] = made }
        return made
    }

    /// The compiled template of `format`, compiled on first use.
    private func template(_ format: String) throws(AgreementError) -> AgreementTemplate {
        if let kept = templates.withLock({ $0[format] }) { return kept }
        let compiled = try AgreementTemplate(format)
        templates.withLock { cache in
            if cache.count >= Self.templateLimit { cache.removeAll(keepingCapacity: true) }
            cache[format] = compiled
        }
        return compiled
    }
}

/// A catalog string as ``RichLocalizer`` renders it: looked up, formatted, Markdown parsed, agreed.
public struct LocalizedRichText: Hashable, Sendable {
    /// The key looked up.
    public var key: String
    /// The localization the text came from; `nil` when no localization has the key.
    public var localization: String?
    /// The format that was rendered: the chosen variant, positions explicit.
    public var format: String
    /// The inflected document, where each argument went, and agreement's warnings.
    public var inflected: InflectedText

    /// Whether no localization had the key, so the key itself was the format.
    public var isMissing: Bool { localization == nil }

    /// The document, with the agreement keys still on its runs.
    public var document: RichDocument { inflected.document }

    /// The text without markup.
    public var plainText: String { inflected.plainText }

    /// The `^[…](…)` keys that present text (the app's, such as `rainbow`): every key but the
    /// agreement keys, which are instructions and spent once applied.
    public var presentationKeys: Set<String> {
        Set(document.runs.flatMap(\.attributes.keys)).subtracting(RichTextKeys.declared)
    }

    /// An HTML fragment: presentation keys as `data-` attributes, links of `allowedSchemes` only
    /// (``HTMLRenderer/safeSchemes`` by default; `nil` links every scheme).
    public func html(allowedSchemes: Set<String>? = HTMLRenderer.safeSchemes) -> String {
        HTMLRenderer(attributeKeys: presentationKeys, allowedSchemes: allowedSchemes).render(document)
    }

    /// The runs as JSON, presentation keys only.
    public func jsonRuns() -> String {
        JSONRunsRenderer(attributeKeys: presentationKeys).render(document)
    }

    /// The text for a terminal: ANSI bold, italic, strikethrough, links.
    public func ansi(_ renderer: ANSIRenderer = ANSIRenderer()) -> String {
        renderer.render(document)
    }
}
