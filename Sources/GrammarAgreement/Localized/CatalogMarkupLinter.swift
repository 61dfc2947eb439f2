import Localization
import RichText

extension CatalogDiagnostic.Code {
    /// A value whose Markdown or agreement markup cannot be used: an attribute body that is not
    /// JSON5, a value a declared key cannot take (`inflect: 3`), a specifier inside a body.
    public static let invalidMarkup = Self("invalid-markup")
    /// A `^[…](key: …)` key that neither the agreement engine nor the app declares: ignored.
    public static let unknownAttribute = Self("unknown-attribute")
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
                _ = try AgreementTemplate(variant)
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

    /// Every `^[…](…)` key used in `document`, sorted.
    private static func keys(of document: RichDocument) -> [String] {
        Set(document.runs.flatMap(\.attributes.keys)).sorted()
    }
}
