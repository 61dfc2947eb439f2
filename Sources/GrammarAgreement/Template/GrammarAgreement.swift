import Localization
import RichText
import Synchronization

/// The pure entry point: (template, arguments, locale, term of address) → inflected rich text.
public enum GrammarAgreement {
    private static let engines = Mutex<[String: AgreementEngine]>([:])
    private static let formatters = Mutex<[String: Localizer]>([:])

    /// Compiles `template`, formats `arguments` for `locale` and applies agreement.
    ///
    /// ```swift
    /// try GrammarAgreement.inflect(
    ///     "Add ^[%lld %@ %@](inflect: true) to your order",
    ///     arguments: [2, "large", "pizza"],
    ///     locale: "en-US"
    /// ).plainText   // "Add 2 large pizzas to your order"
    /// ```
    ///
    /// Engines and number formatters are made once per locale and reused; for many renders of one
    /// string, keep an ``AgreementTemplate`` instead of recompiling.
    /// - Throws: ``AgreementError`` for invalid markup, arguments that do not fit, or an unknown locale.
    public static func inflect(
        _ template: String,
        arguments: [FormatArgument] = [],
        locale: String,
        termOfAddress: TermOfAddress = .unknown,
        concepts: [InflectionConcept] = []
    ) throws(AgreementError) -> InflectedText {
        let compiled = try AgreementTemplate(template)
        return try compiled.render(
            arguments,
            engine: try engine(for: locale),
            formatter: try formatter(for: locale),
            termOfAddress: termOfAddress,
            concepts: concepts
        )
    }

    /// The shared engine for `locale`.
    public static func engine(for locale: String) throws(AgreementError) -> AgreementEngine {
        if let engine = engines.withLock({ $0[locale] }) { return engine }
        let engine = try AgreementEngine(locale: locale)
        return engines.withLock { cache in
            if let existing = cache[locale] { return existing }
            cache[locale] = engine
            return engine
        }
    }

    private static func formatter(for locale: String) throws(AgreementError) -> Localizer {
        if let formatter = formatters.withLock({ $0[locale] }) { return formatter }
        let formatter: Localizer
        do {
            formatter = try Localizer(catalog: .empty(), locale: locale)
        } catch {
            throw AgreementError(.unknownLocale, error.description)
        }
        return formatters.withLock { cache in
            if let existing = cache[locale] { return existing }
            cache[locale] = formatter
            return formatter
        }
    }
}
