import Foundation
import Synchronization

/// A ``StringCatalog`` bound to one locale: its fallback chain, plural rules and number formats,
/// resolved once. Rendering is lock-free and safe from any number of threads.
///
/// ```swift
/// let catalog = try StringCatalog(directory: URL(fileURLWithPath: "config/Localizations"))
/// let spanish = try Localizer(catalog: catalog, locale: "es-MX")
/// let line = try spanish.string("%lld items", arguments: [3])   // "3 artículos"
/// ```
///
/// Make one per locale and keep it (a worker caches them by locale identifier).
public final class Localizer: Sendable {
    /// The locale as requested.
    public let locale: String
    /// The localizations tried for each key, best first (es-MX: `es-419`, `es`, `en`).
    public let localizations: [String]
    /// The locale's plural rules.
    public let pluralRules: PluralRules
    /// Plural rules of the localizations in ``localizations`` whose language is not the locale's:
    /// text in another language takes that language's rules (a Ukrainian customer reading the
    /// English fallback gets English plurals, "21 Loops left").
    private let foreignPluralRules: [String: PluralRules]
    /// Whether the locale's script runs right to left.
    public let isRightToLeft: Bool
    public let options: RenderOptions
    /// Set when no localization serves the locale, so only the development language is used.
    public let fallbackNote: String?

    private let catalog: StringCatalog
    private let formatter: ArgumentFormatter
    private let isolates: Bool
    private let missing = Atomic<Int>(0)

    /// Binds `catalog` to `locale`.
    ///
    /// - Throws: ``LocalizationError`` `.unknownLocale` only if ICU cannot serve the locale at all.
    public init(catalog: StringCatalog, locale: String, options: RenderOptions = RenderOptions())
        throws(LocalizationError)
    {
        self.locale = locale
        self.catalog = catalog
        self.options = options
        // ICU data first: Foundation's parent lookup can spin on a locale ICU has not loaded (no-NO).
        pluralRules = try PluralRules(locale: locale)
        formatter = ArgumentFormatter(numbers: try LocaleNumberFormats(locale: locale))
        localizations = catalog.matcher.localizations(for: locale)
        foreignPluralRules = Self.foreignPluralRules(
            localizations,
            locale: locale,
            developmentLanguage: catalog.developmentLanguage
        )
        isRightToLeft = Locale.Language(identifier: locale).characterDirection == .rightToLeft
        switch options.bidiIsolation {
        case .never: isolates = false
        case .always: isolates = true
        case .rightToLeftLocales: isolates = isRightToLeft
        }
        fallbackNote = Self.fallbackNote(locale: locale, catalog: catalog)
    }

    /// What to tell the caller when no localization serves `locale`: which text it gets instead.
    private static func fallbackNote(locale: String, catalog: StringCatalog) -> String? {
        guard !catalog.matcher.isSupported(locale) else { return nil }
        // Non-localized tables serve every locale; with nothing else there is nothing to fall back from.
        if catalog.localizations.isEmpty, catalog.hasNonLocalizedTables { return nil }
        let development = catalog.developmentLanguage
        guard catalog.localizations.contains(development) else {
            return "no localization serves '\(locale)', and the catalog has no text in a development language; "
                + "keys are shown as written"
        }
        let origin: String
        switch catalog.developmentLanguageOrigin {
        case .configured: origin = "as configured"
        case .stringCatalog: origin = "the String Catalog's sourceLanguage"
        case .onlyLocalization: origin = "the catalog's only localization"
        case .english, .unknown: origin = "one of several localizations, none declared the source"
        }
        return "no localization serves '\(locale)'; using the development language '\(development)' (\(origin))"
    }

    /// The plural rules of each localization whose language differs from `locale`'s (`Base` is
    /// written in the development language). One that ICU cannot open keeps the locale's rules.
    private static func foreignPluralRules(
        _ localizations: [String],
        locale: String,
        developmentLanguage: String
    ) -> [String: PluralRules] {
        func language(_ identifier: String) -> String {
            let written = identifier == "Base" ? developmentLanguage : identifier
            return Locale.Language(identifier: LocalizationMatcher.canonical(written)).languageCode?.identifier
                ?? written
        }
        let own = language(locale)
        var rules: [String: PluralRules] = [:]
        for localization in localizations where language(localization) != own {
            let written = localization == "Base" ? developmentLanguage : localization
            rules[localization] = try? PluralRules(locale: written)
        }
        return rules
    }

    /// The plural rules for text from `localization`: its language's when that is not the locale's.
    public func pluralRules(forLocalization localization: String?) -> PluralRules {
        localization.flatMap { foreignPluralRules[$0] } ?? pluralRules
    }

    /// How many lookups found no value in any localization.
    public var missingKeyCount: Int { missing.load(ordering: .relaxed) }

    /// Looks `key` up along the fallback chain and renders it with `arguments`.
    ///
    /// A key no localization has renders as the key itself (as Apple does) and is counted in
    /// ``missingKeyCount``. With no arguments, a plain value is returned as written.
    /// - Throws: ``LocalizationError`` when an argument is missing or does not fit its specifier.
    public func string(
        _ key: String,
        table: String = StringCatalog.defaultTable,
        arguments: [FormatArgument] = []
    ) throws(LocalizationError) -> LocalizedString {
        for localization in localizations {
            if let (value, written) = catalog.value(key, table: table, localization: localization) {
                var rendered = try render(
                    value,
                    arguments: arguments,
                    key: key,
                    rules: pluralRules(forLocalization: written)
                )
                rendered.localization = written
                return rendered
            }
        }
        missing.add(1, ordering: .relaxed)
        // Like `String(localized:)`, the key is the default value, formatted with the arguments.
        if !arguments.isEmpty {
            var compiler = TemplateCompiler()
            let keyAsValue = compiler.compile(key)
            if let rendered = try? render(keyAsValue, arguments: arguments, key: key) { return rendered }
        }
        return LocalizedString(text: key, substitutions: [], key: key, localization: nil)
    }

    /// The compiled value of `key` along the fallback chain and the localization that has it, or
    /// `nil` when none does — for layers that compile a value further (Markdown, agreement markup)
    /// once and render it many times.
    public func value(_ key: String, table: String = StringCatalog.defaultTable)
        -> (value: CompiledString, localization: String)?
    {
        for localization in localizations {
            if let found = catalog.value(key, table: table, localization: localization) { return found }
        }
        return nil
    }

    /// The format `key` is rendered with for these arguments, and the localization it comes from:
    /// variants chosen as ``string(_:table:arguments:)`` chooses them (plural categories by the
    /// text's language), every specifier with its position (`%2$@`), literal `%` written `%%`.
    /// A plain value with no arguments is not a format (Apple does not format it), so its `%`
    /// signs come back escaped too. `nil` when no localization has the key.
    ///
    /// For layers that read the chosen text further — Markdown and agreement markup — and compile
    /// each distinct format once.
    /// - Throws: ``LocalizationError`` `.missingArgument` when a plural is chosen by an argument
    ///   that was not given.
    public func format(
        _ key: String,
        table: String = StringCatalog.defaultTable,
        arguments: [FormatArgument]
    ) throws(LocalizationError) -> (format: String, localization: String)? {
        for candidate in localizations {
            guard let (value, localization) = catalog.value(key, table: table, localization: candidate) else {
                continue
            }
            if arguments.isEmpty, value.isPlain {
                return (CompiledString.escapingPercent(value.source), localization)
            }
            let rules = pluralRules(forLocalization: localization)
            var missing: Int?
            let format = value.format { plural in
                guard plural.argument >= 0, plural.argument < arguments.count else {
                    missing = missing ?? plural.argument
                    return nil
                }
                return plural.node(for: arguments[plural.argument], rules: rules)
            } device: { cases in
                chooseDevice(cases)
            } width: { variants in
                chooseWidth(variants)
            }
            if let missing {
                var error = LocalizationError(
                    .missingArgument,
                    "a plural variant is chosen by argument \(missing + 1), but \(arguments.count) were given",
                    argument: missing + 1
                )
                error.key = key
                throw error
            }
            return (format, localization)
        }
        return nil
    }

    /// The device variant for ``RenderOptions/device``: that device's, else `other`, else any.
    private func chooseDevice(_ cases: [DeviceClass: TemplateNode]) -> TemplateNode? {
        cases[options.device] ?? cases[.other] ?? DeviceClass.allCases.lazy.compactMap({ cases[$0] }).first
    }

    /// The widest variant that fits ``RenderOptions/width``; the narrowest if none fits; the widest
    /// if no width is set.
    private func chooseWidth(_ variants: [WidthVariant]) -> WidthVariant? {
        options.width.map { width in variants.last { $0.width <= width } ?? variants.first } ?? variants.last
    }

    /// Renders a compiled string that did not come from the catalog (a template of the caller's),
    /// choosing plural variants by the locale's rules.
    public func render(
        _ compiled: CompiledString,
        arguments: [FormatArgument],
        key: String = ""
    ) throws(LocalizationError) -> LocalizedString {
        try render(compiled, arguments: arguments, key: key, rules: pluralRules)
    }

    private func render(
        _ compiled: CompiledString,
        arguments: [FormatArgument],
        key: String,
        rules: PluralRules
    ) throws(LocalizationError) -> LocalizedString {
        if arguments.isEmpty, compiled.isPlain {
            return LocalizedString(text: compiled.source, substitutions: [], key: key, localization: nil)
        }
        var output = Output()
        do {
            try append(compiled.root, arguments: arguments, rules: rules, to: &output)
        } catch {
            var failure = error
            failure.key = key
            throw failure
        }
        return LocalizedString(text: output.text, substitutions: output.substitutions, key: key, localization: nil)
    }

    /// Formats one argument for one specifier in this locale (what rendering does for each slot),
    /// for layers that place argument text themselves, such as rich-text templates.
    ///
    /// - Throws: ``LocalizationError`` `.argumentMismatch` when the value does not fit the specifier.
    public func format(_ argument: FormatArgument, as specifier: FormatSpecifier, argumentNumber: Int = 1)
        throws(LocalizationError) -> String
    {
        let text = try formatter.format(argument, as: specifier, position: argumentNumber)
        return isolates ? "\u{2068}" + text + "\u{2069}" : text
    }

    /// Text under construction and where arguments went.
    private struct Output {
        var text = ""
        var utf8Count = 0
        var substitutions: [LocalizedString.Substitution] = []

        mutating func append(_ piece: String) {
            text += piece
            utf8Count += piece.utf8.count
        }
    }

    private func append(
        _ node: TemplateNode,
        arguments: [FormatArgument],
        rules: PluralRules,
        to output: inout Output
    ) throws(LocalizationError) {
        switch node {
        case .sequence(let pieces):
            for piece in pieces {
                switch piece {
                case .literal(let text):
                    output.append(text)
                case .argument(let index, let specifier):
                    guard index >= 0, index < arguments.count else {
                        throw LocalizationError(
                            .missingArgument,
                            "\(specifier) needs argument \(index + 1), but \(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given",
                            argument: index + 1
                        )
                    }
                    let value = arguments[index]
                    let text = try formatter.format(value, as: specifier, position: index + 1)
                    if isolates { output.append("\u{2068}") }
                    let start = output.utf8Count
                    output.append(text)
                    output.substitutions.append(
                        LocalizedString.Substitution(
                            argument: index + 1,
                            utf8Range: start..<output.utf8Count,
                            value: value
                        )
                    )
                    if isolates { output.append("\u{2069}") }
                case .node(let inner):
                    try append(inner, arguments: arguments, rules: rules, to: &output)
                }
            }
        case .plural(let plural):
            guard plural.argument >= 0, plural.argument < arguments.count else {
                throw LocalizationError(
                    .missingArgument,
                    "a plural variant is chosen by argument \(plural.argument + 1), but \(arguments.count) were given",
                    argument: plural.argument + 1
                )
            }
            if let chosen = plural.node(for: arguments[plural.argument], rules: rules) {
                try append(chosen, arguments: arguments, rules: rules, to: &output)
            }
        case .device(let cases):
            if let chosen = chooseDevice(cases) { try append(chosen, arguments: arguments, rules: rules, to: &output) }
        case .width(let variants):
            if let chosen = chooseWidth(variants) {
                try append(chosen.node, arguments: arguments, rules: rules, to: &output)
            }
        }
    }
}
