import Localization
import RichText

extension CatalogDiagnostic.Code {
    /// A value whose Markdown or agreement markup cannot be used: an attribute body that is not
    /// JSON5, a value a declared key cannot take (`inflect: 3`), a specifier inside a body.
    public static let invalidMarkup = Self("invalid-markup")
    /// A `^[…](key: …)` key that neither the agreement engine nor the app declares: ignored.
    public static let unknownAttribute = Self("unknown-attribute")
    /// An agreement span (`inflect`, `agreeWith…`) in a language the engine has no rules for: it is
    /// shown as written whatever the numbers and genders (a span copied into Czech shows
    /// "5 velká pizza").
    public static let agreementWithoutRules = Self("agreement-without-rules")
}

/// Checks the Markdown and agreement markup of every catalog value, as ``CatalogLinter`` checks
/// its format strings: what `caffe lint` adds once a value is read as Apple reads it with
/// `AttributedString(localized:)`.
///
/// Each plural variant is checked as it is rendered (``CompiledString/flattened(choosing:)``), so
/// markup that only one variant breaks is found too.
public struct CatalogMarkupLinter: Sendable {
    public let catalog: StringCatalog
    /// The `^[…](…)` keys that mean something: the agreement keys and the app's own.
    public let knownKeys: Set<String>

    /// - Parameters:
    ///   - catalog: the loaded catalog.
    ///   - appKeys: the app's own attribute keys (the Caffé app's `rainbow`), besides the
    ///     agreement keys (``RichTextKeys/declared``).
    public init(catalog: StringCatalog, appKeys: Set<String> = []) {
        self.catalog = catalog
        knownKeys = RichTextKeys.declared.union(appKeys)
    }

    /// The findings, in table, localization and key order.
    public func lint() -> LintReport {
        var findings: [CatalogDiagnostic] = []
        for table in catalog.tableNames {
            for localization in catalog.localizations(table: table) {
                for entry in catalog.entries(table: table, localization: localization) {
                    findings += self.findings(entry)
                }
            }
        }
        return LintReport(findings: findings)
    }

    /// Every code the markup check reports.
    public static let codes: [LintCode] = [
        LintCode(.invalidMarkup, [.error], "Markdown or agreement markup that cannot be used (not JSON5, inflect: 3)"),
        LintCode(.unknownAttribute, [.warning], "a ^[…](key: …) key neither the agreement engine nor the app declares"),
        LintCode(
            .agreementWithoutRules,
            [.warning],
            "an inflect or agreeWith span in a language without agreement rules: shown as written"
        ),
    ]

    /// One entry's findings: each distinct problem once, whichever variants share it.
    private func findings(_ entry: CatalogEntry) -> [CatalogDiagnostic] {
        var variants: [String] = []
        for category in PluralCategory.allCases {
            let text = entry.value.flattened(choosing: category)
            if text.contains("^["), !variants.contains(text) { variants.append(text) }
        }
        var found: [(CatalogDiagnostic.Severity, CatalogDiagnostic.Code, String)] = []
        func add(_ severity: CatalogDiagnostic.Severity, _ code: CatalogDiagnostic.Code, _ message: String) {
            if !found.contains(where: { $0.2 == message }) { found.append((severity, code, message)) }
        }
        for variant in variants {
            do {
                let document = try RichTextParser.parse(variant)
                for key in Self.keys(of: document) where !knownKeys.contains(key) {
                    add(
                        .warning,
                        .unknownAttribute,
                        "'\(key)' is not an attribute key the agreement engine or the app declares; it is ignored"
                    )
                }
                _ = try document.attributedString()
                let template = try AgreementTemplate(variant)
                if template.hasAgreementSpans, !hasRules(entry.localization) {
                    add(
                        .warning,
                        .agreementWithoutRules,
                        "\(entry.localization) has no agreement rules, so its agreement spans are shown as written "
                            + "whatever the number and gender ('5 velká pizza' stays so in Czech): remove the markup "
                            + "and write the string so that no word has to agree, or vary it by plural"
                    )
                }
            } catch let error as RichTextError {
                add(.error, .invalidMarkup, error.message)
            } catch {
                add(.error, .invalidMarkup, "\(error)")
            }
        }
        return found.map { severity, code, message in
            CatalogDiagnostic(severity, code, entry: entry, message: message)
        }
    }

    /// Whether the agreement engine has rules for `localization`'s language (the non-localized
    /// tables' text is the development language's).
    private func hasRules(_ localization: String) -> Bool {
        let locale = localization == StringCatalog.nonLocalized ? catalog.developmentLanguage : localization
        return GrammarRegistry.hasRules(for: locale)
    }

    /// Every `^[…](…)` key used in `document`, sorted.
    private static func keys(of document: RichDocument) -> [String] {
        Set(document.runs.flatMap(\.attributes.keys)).sorted()
    }
}
