extension CatalogDiagnostic.Code {
    /// A key of the development language that a localization lacks.
    public static let missingTranslation = Self("missing-translation")
    /// A translation's specifiers differ from the source's (count, types or positions).
    public static let specifierMismatch = Self("specifier-mismatch")
    /// A plural variation lacks a category the locale distinguishes.
    public static let missingPluralCategory = Self("missing-plural-category")
    /// A String Catalog value marked as needing review.
    public static let needsReview = Self("needs-review")
    /// A String Catalog key or value marked stale: no longer found in the source code.
    public static let stale = Self("stale")
    /// A String Catalog value in state `new`: not yet translated.
    public static let untranslated = Self("untranslated")
}

/// What `caffe lint` reports for a catalog.
public struct LintReport: Sendable {
    /// Reader diagnostics first, then the linter's own findings, each group in file and key order.
    public let findings: [CatalogDiagnostic]

    public var errorCount: Int { findings.count { $0.severity == .error } }
    public var warningCount: Int { findings.count { $0.severity == .warning } }
    public var noteCount: Int { findings.count { $0.severity == .note } }

    /// `3 errors, 12 warnings, 4 notes`.
    public var summary: String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return [plural(errorCount, "error"), plural(warningCount, "warning"), plural(noteCount, "note")]
            .joined(separator: ", ")
    }
}

/// Checks a loaded catalog the way a translator's reviewer would.
///
/// - unreadable or malformed files, bad specifiers, duplicate keys (from the readers);
/// - keys of the development language missing in a localization;
/// - translations whose specifiers differ from the source (an argument added, dropped or retyped);
/// - plural variations lacking categories the locale needs (an error when even `other` is missing);
/// - String Catalog values in state `needs_review`, `stale` or `new`.
public struct CatalogLinter {
    public let catalog: StringCatalog

    public init(catalog: StringCatalog) {
        self.catalog = catalog
    }

    public func lint() -> LintReport {
        var findings = catalog.diagnostics
        var rulesByLocale: [String: PluralRules?] = [:]
        for table in catalog.tableNames {
            let localizations = catalog.localizations(table: table)
            let sourceLocalization =
                localizations.contains(catalog.developmentLanguage) ? catalog.developmentLanguage : nil
            let sourceEntries = sourceLocalization.map { catalog.entries(table: table, localization: $0) } ?? []
            for localization in localizations where localization != "Base" {
                let entries = catalog.entries(table: table, localization: localization)
                let rules = rulesByLocale[localization] ?? (try? PluralRules(locale: localization))
                rulesByLocale[localization] = rules
                if localization != sourceLocalization {
                    findings += missingTranslations(source: sourceEntries, in: localization, table: table)
                }
                for entry in entries {
                    if localization != sourceLocalization,
                        let source = catalog.entry(entry.key, table: table, localization: catalog.developmentLanguage)
                    {
                        findings += specifierMismatches(source: source, translation: entry)
                    }
                    if let rules { findings += missingCategories(entry, rules: rules) }
                    findings += stateFindings(entry)
                }
            }
        }
        return LintReport(findings: findings)
    }

    /// Source keys that neither `localization` nor any localization it falls back to (before the
    /// development language) translates: es-419 may leave a key to es, but not to en.
    private func missingTranslations(source: [CatalogEntry], in localization: String, table: String)
        -> [CatalogDiagnostic]
    {
        let chain = catalog.fallbackChain(for: localization).prefix {
            $0 != catalog.developmentLanguage && $0 != "Base"
        }
        return source.compactMap { entry in
            guard entry.shouldTranslate,
                !chain.contains(where: { catalog.entry(entry.key, table: table, localization: $0) != nil })
            else { return nil }
            let fallbacks = chain.dropFirst()
            return CatalogDiagnostic(
                .warning,
                .missingTranslation,
                file: entry.file,
                location: entry.location,
                key: entry.key,
                locale: localization,
                message: "no translation in \(([localization] + fallbacks).joined(separator: " or ")); "
                    + "\(catalog.developmentLanguage) is shown"
            )
        }
    }

    /// Compares which arguments each side uses and of what kind.
    private func specifierMismatches(source: CatalogEntry, translation: CatalogEntry) -> [CatalogDiagnostic] {
        let expected = Self.argumentKinds(source.value)
        let found = Self.argumentKinds(translation.value)
        let selectors = Set(translation.value.pluralSwitches.map(\.argument))
        var problems: [(CatalogDiagnostic.Severity, String)] = []
        for (index, kinds) in found.sorted(by: { $0.key < $1.key }) {
            guard let sourceKinds = expected[index] else {
                problems.append(
                    (.error, "uses argument \(index + 1) (\(Self.describe(kinds))), which the source does not have")
                )
                continue
            }
            if !Self.compatible(kinds, sourceKinds) {
                problems.append(
                    (
                        .error,
                        "formats argument \(index + 1) as \(Self.describe(kinds)), the source as \(Self.describe(sourceKinds))"
                    )
                )
            }
        }
        for index in expected.keys.sorted() where found[index] == nil && !selectors.contains(index) {
            problems.append(
                (
                    .warning,
                    "never shows argument \(index + 1) (\(Self.describe(expected[index] ?? []))), which the source shows"
                )
            )
        }
        return problems.map { severity, message in
            CatalogDiagnostic(
                severity,
                .specifierMismatch,
                file: translation.file,
                location: translation.location,
                key: translation.key,
                locale: translation.localization,
                message: message
            )
        }
    }

    private func missingCategories(_ entry: CatalogEntry, rules: PluralRules) -> [CatalogDiagnostic] {
        entry.value.pluralSwitches.compactMap { plural in
            let missing = rules.categories.filter { !plural.categories.contains($0) }
            guard !missing.isEmpty else { return nil }
            let names = missing.map(\.rawValue).joined(separator: ", ")
            let hasOther = plural.categories.contains(.other)
            return CatalogDiagnostic(
                hasOther ? .warning : .error,
                .missingPluralCategory,
                file: entry.file,
                location: entry.location,
                key: entry.key,
                locale: entry.localization,
                message: hasOther
                    ? "argument \(plural.argument + 1) lacks \(names); 'other' is used for those numbers"
                    : "argument \(plural.argument + 1) lacks \(names), including 'other'; those numbers get the nearest variant"
            )
        }
    }

    private func stateFindings(_ entry: CatalogEntry) -> [CatalogDiagnostic] {
        func finding(_ severity: CatalogDiagnostic.Severity, _ code: CatalogDiagnostic.Code, _ message: String)
            -> CatalogDiagnostic
        {
            CatalogDiagnostic(
                severity,
                code,
                file: entry.file,
                location: entry.location,
                key: entry.key,
                locale: entry.localization,
                message: message
            )
        }
        var findings: [CatalogDiagnostic] = []
        switch entry.state {
        case .needsReview: findings.append(finding(.warning, .needsReview, "the translation needs review"))
        case .stale: findings.append(finding(.warning, .stale, "the translation is stale"))
        case .new where entry.localization != catalog.developmentLanguage:
            findings.append(finding(.note, .untranslated, "the value is in state 'new'"))
        default: break
        }
        if entry.extractionState == "stale", entry.localization == catalog.developmentLanguage {
            findings.append(finding(.note, .stale, "the key is no longer found in the source code"))
        }
        return findings
    }

    /// Argument index → the kinds of specifiers that format it.
    static func argumentKinds(_ value: CompiledString) -> [Int: Set<FormatSpecifier.ArgumentKind>] {
        var kinds: [Int: Set<FormatSpecifier.ArgumentKind>] = [:]
        for (index, specifier) in value.specifiers { kinds[index, default: []].insert(specifier.argumentKind) }
        return kinds
    }

    /// Integers fit unsigned specifiers and vice versa; `%@` takes anything.
    private static func compatible(
        _ found: Set<FormatSpecifier.ArgumentKind>,
        _ expected: Set<FormatSpecifier.ArgumentKind>
    ) -> Bool {
        func family(_ kind: FormatSpecifier.ArgumentKind) -> String {
            switch kind {
            case .integer, .unsignedInteger: "integer"
            case .floatingPoint: "float"
            case .string, .character: "text"
            case .object: "object"
            }
        }
        let foundFamilies = Set(found.map(family)).subtracting(["object"])
        let expectedFamilies = Set(expected.map(family)).subtracting(["object"])
        return foundFamilies.isEmpty || expectedFamilies.isEmpty || foundFamilies == expectedFamilies
    }

    private static func describe(_ kinds: Set<FormatSpecifier.ArgumentKind>) -> String {
        kinds.map(\.rawValue).sorted().joined(separator: "/")
    }
}
