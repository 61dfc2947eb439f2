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
    /// A plural variant for a category the language does not have: never chosen (`zero`: only for 0).
    public static let unusedPluralCategory = Self("unused-plural-category")
    /// A plural rule none of whose variants shows the number that chooses it.
    public static let numberNeverShown = Self("number-never-shown")
    /// Text that looks like a format specifier but is not one (`٪ d`), so it is shown as written.
    public static let mangledSpecifier = Self("mangled-specifier")
    /// A `$2`-style placeholder from another format, shown as written.
    public static let strayPlaceholder = Self("stray-placeholder")
    /// `%1@`: a number between `%` and the conversion without `$` is a field width, not an
    /// argument position, so the specifier formats the next argument, padded.
    public static let positionWithoutDollar = Self("position-without-dollar")
    /// One argument formatted as `%@` and as a number (`%lld`, `%f`), in one string, in its plural
    /// variable's declaration, or against the source: the number is shown as text or the text
    /// read as a number, and a plural chosen from text falls to the wrong category.
    public static let argumentTypeConflict = Self("argument-type-conflict")
    /// Keys a regional localization leaves to its parent language: one summary per table.
    public static let regionalFallback = Self("regional-fallback")
}

/// What `caffe lint` reports for a catalog.
public struct LintReport: Sendable {
    /// Reader diagnostics first, then the linter's own findings, each group in file and key order.
    public let findings: [CatalogDiagnostic]

    public var errorCount: Int { findings.count { $0.severity == .error } }
    public var warningCount: Int { findings.count { $0.severity == .warning } }
    public var noteCount: Int { findings.count { $0.severity == .note } }

    /// A report of `findings`, in the order given.
    public init(findings: [CatalogDiagnostic]) {
        self.findings = findings
    }

    /// This report followed by `other`'s findings (another checker's, such as the markup's).
    public func merging(_ other: LintReport) -> LintReport {
        LintReport(findings: findings + other.findings)
    }

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
/// - keys of the development language missing in a localization (a localization without any file
///   of a table misses all its keys);
/// - translations whose specifiers differ from the source (an argument added, dropped or retyped);
/// - plural variations lacking categories the locale needs (an error when even `other` is missing),
///   with categories the language does not have, or whose variants never show their number;
/// - text that looks like a specifier but is not (`٪ d`, `$2`), so it is shown as written;
/// - String Catalog values in state `needs_review`, `stale` or `new`.
///
/// A regional localization (`en-GB`) that leaves keys to its parent language (`en`) is normal:
/// that is one note per table, not a warning per key.
public struct CatalogLinter {
    public let catalog: StringCatalog
    /// Tables whose entries name things (Caffe's `Menu`): an entry there with plural variations and
    /// no specifier declares a term's singular and plural for grammar agreement, not a count, so
    /// its variants need not show a number or cover every category.
    public let termTables: Set<String>

    public init(catalog: StringCatalog, termTables: Set<String> = []) {
        self.catalog = catalog
        self.termTables = termTables
    }

    /// Whether `entry` declares a term's forms (``termTables``).
    private func declaresTerm(_ entry: CatalogEntry) -> Bool {
        termTables.contains(entry.table) && entry.value.specifiers.isEmpty && !entry.value.pluralSwitches.isEmpty
    }

    public func lint() -> LintReport {
        var findings = catalog.diagnostics
        var rulesByLocale: [String: PluralRules?] = [:]
        for table in catalog.tableNames {
            let localizations = catalog.localizations(table: table)
            let sourceLocalization =
                localizations.contains(catalog.developmentLanguage) ? catalog.developmentLanguage : nil
            let sourceEntries = sourceLocalization.map { catalog.entries(table: table, localization: $0) } ?? []
            // A localization that has none of this table's files lacks every key of it too.
            if let sourceLocalization {
                for localization in catalog.localizations
                where localization != "Base" && localization != sourceLocalization
                    && !localizations.contains(localization)
                {
                    findings += missingTranslations(source: sourceEntries, in: localization, table: table)
                }
            }
            for localization in localizations where localization != "Base" {
                let entries = catalog.entries(table: table, localization: localization)
                let rules = rulesByLocale[localization] ?? (try? PluralRules(locale: localization))
                rulesByLocale[localization] = rules
                if localization != sourceLocalization {
                    findings += missingTranslations(source: sourceEntries, in: localization, table: table)
                }
                for entry in entries {
                    let source = catalog.entry(entry.key, table: table, localization: catalog.developmentLanguage)
                    if localization != sourceLocalization, let source {
                        findings += specifierMismatches(source: source, translation: entry)
                    }
                    findings += entryFindings(entry, rules: rules, source: source)
                    findings += stateFindings(entry)
                }
            }
            // A non-localized table has no source to compare with; its text is in the development language.
            let developmentRules = try? PluralRules(locale: catalog.developmentLanguage)
            for entry in catalog.nonLocalizedEntries(table: table) {
                findings += entryFindings(entry, rules: developmentRules, source: nil)
            }
        }
        return LintReport(findings: findings)
    }

    /// What one entry says on its own: plural categories (with the rules of its text's language),
    /// numbers never shown, positions without `$`, conflicting types, and its literal text.
    private func entryFindings(_ entry: CatalogEntry, rules: PluralRules?, source: CatalogEntry?)
        -> [CatalogDiagnostic]
    {
        var findings: [CatalogDiagnostic] = []
        if let rules {
            findings += missingCategories(entry, rules: rules)
            findings += unusedCategories(entry, rules: rules)
        }
        findings += hiddenNumbers(entry)
        findings += positionsWithoutDollar(entry)
        findings += typeConflicts(entry)
        findings += textFindings(entry, source: source)
        return findings
    }

    /// Source keys that neither `localization` nor any localization it falls back to (before the
    /// development language) translates: es-419 may leave a key to es, but not to en. A
    /// localization whose CLDR parent chain reaches the development language (en-GB → en) falls
    /// back by design: one note says how many keys it leaves to it.
    private func missingTranslations(source: [CatalogEntry], in localization: String, table: String)
        -> [CatalogDiagnostic]
    {
        let chain = catalog.fallbackChain(for: localization).prefix {
            $0 != catalog.developmentLanguage && $0 != "Base"
        }
        let missing = source.filter { entry in
            entry.shouldTranslate
                && !chain.contains(where: { catalog.entry(entry.key, table: table, localization: $0) != nil })
        }
        guard !missing.isEmpty else { return [] }
        if LocalizationMatcher.descends(localization, from: catalog.developmentLanguage) {
            let count = missing.count
            return [
                CatalogDiagnostic(
                    .note,
                    .regionalFallback,
                    file: missing[0].file,
                    locale: localization,
                    message:
                        "\(count) key\(count == 1 ? "" : "s") of table \(table) fall\(count == 1 ? "s" : "") back to "
                        + "\(catalog.developmentLanguage), the parent language of \(localization)"
                )
            ]
        }
        let fallbacks = chain.dropFirst()
        return missing.map { entry in
            CatalogDiagnostic(
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
        if Self.takesNoArguments(source.value), Self.takesNoArguments(translation.value) { return [] }
        let expected = Self.argumentKinds(source.value)
        let found = Self.argumentKinds(translation.value)
        let selectors = Set(translation.value.pluralSwitches.map(\.argument))
        var problems: [(CatalogDiagnostic.Severity, String)] = []
        var conflicts: [String] = []
        for (index, kinds) in found.sorted(by: { $0.key < $1.key }) {
            guard let sourceKinds = expected[index] else {
                let percentSign = translation.value.specifiers.first {
                    $0.argument == index && $0.specifier.flags.contains(.spaceSign)
                }
                let hint =
                    percentSign.map {
                        "; '\($0.specifier)' is a percent sign read as a specifier with the space flag (write %%)"
                    } ?? ""
                problems.append(
                    (
                        .error,
                        "uses argument \(index + 1) (\(Self.describe(kinds))), which the source does not have" + hint
                    )
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
            } else if Self.objectAgainstNumber(kinds, sourceKinds) {
                conflicts.append(
                    "formats argument \(index + 1) as \(Self.describe(kinds)), the source as "
                        + "\(Self.describe(sourceKinds)): an object where the source has a number, or the reverse"
                )
            }
        }
        problems += Self.cTypeSpecifiers(source: source.value, translation: translation.value).map { (.error, $0) }
        // Shown: a plural variable's declared type chooses a variant, it shows nothing.
        let shown = Self.argumentKinds(source.value, includingDeclarations: false)
        for index in shown.keys.sorted() where found[index] == nil && !selectors.contains(index) {
            problems.append(
                (
                    .warning,
                    "never shows argument \(index + 1) (\(Self.describe(expected[index] ?? []))), which the source shows"
                )
            )
        }
        return problems.map { severity, message in
            CatalogDiagnostic(severity, .specifierMismatch, entry: translation, message: message)
        }
            + conflicts.map { CatalogDiagnostic(.error, .argumentTypeConflict, entry: translation, message: $0) }
    }

    /// A translation's C-typed conversions (`%s %S %c %C %p`) for an argument the source formats
    /// as `%@`: the app passes a Swift value, which in C's printf family such a conversion reads as
    /// a pointer or a byte. And a `%` sequence that is no conversion at all
    /// (`%n`, which in C writes to memory) in a formatted value whose source has none like it.
    static func cTypeSpecifiers(source: CompiledString, translation: CompiledString) -> [String] {
        var problems: [String] = []
        let sourceConversions = Dictionary(grouping: source.specifiers, by: \.argument).mapValues {
            Set($0.map(\.specifier.conversion))
        }
        let cTyped: Set<FormatSpecifier.Conversion> = [.cString, .wideString, .character, .wideCharacter, .pointer]
        var said: Set<Int> = []
        for (argument, specifier) in translation.specifiers
        where cTyped.contains(specifier.conversion) && !specifier.flags.contains(.spaceSign)
            // Against a number, or an argument the source lacks, the kind check says it already.
            && sourceConversions[argument] == [.object] && said.insert(argument).inserted
        {
            problems.append(
                "formats argument \(argument + 1) as '\(specifier)', a C type the app never passes; "
                    + "write %@ as the source does"
            )
        }
        if source.hasArguments, translation.isPlain {
            let sourceInvalid = Set(Self.invalidSequences(source.source))
            for sequence in Self.invalidSequences(translation.source) where !sourceInvalid.contains(sequence) {
                problems.append(
                    "has '\(sequence)', which is no conversion (in C's printf family %n writes to memory); "
                        + "the source has none like it: write %% for a percent sign"
                )
                break
            }
        }
        return problems
    }

    /// The `%` sequences of `text` that are not conversions (a lone `%` before a space excepted:
    /// "100 % sûr" is a percent sign).
    private static func invalidSequences(_ text: String) -> [String] {
        FormatStringScanner.scan(text).compactMap { token in
            guard case .invalid(let written, _, _) = token, !written.hasPrefix("% "), written != "%" else { return nil }
            return written
        }
    }

    /// Whether a value reads as text that takes no arguments: no variants, and every specifier it
    /// seems to have is a percent sign followed by a space ("100% accurate", "100 % des ventes").
    /// CFString would parse `% a` as a conversion with the space flag, but a string called without
    /// arguments is not formatted at all (`String(localized:)` returns it as written), and Xcode
    /// writes `%%` next to an interpolation, so such a string is one its code calls without any.
    static func takesNoArguments(_ value: CompiledString) -> Bool {
        value.isPlain && value.specifiers.allSatisfy { $0.specifier.flags.contains(.spaceSign) }
    }

    /// `%@` on one side only and a number on the other (one side only: an argument formatted both
    /// ways within one string is ``typeConflicts(_:)``'s finding).
    private static func objectAgainstNumber(
        _ found: Set<FormatSpecifier.ArgumentKind>,
        _ expected: Set<FormatSpecifier.ArgumentKind>
    ) -> Bool {
        (found == [.object] && expected.contains(where: isNumeric) && !expected.contains(.object))
            || (expected == [.object] && found.contains(where: isNumeric) && !found.contains(.object))
    }

    private func missingCategories(_ entry: CatalogEntry, rules: PluralRules) -> [CatalogDiagnostic] {
        if declaresTerm(entry), entry.value.pluralSwitches.allSatisfy({ $0.categories.contains(.other) }) { return [] }
        return entry.value.pluralSwitches.compactMap { plural in
            guard !plural.categories.isEmpty else {
                return CatalogDiagnostic(
                    .error,
                    .missingPluralCategory,
                    entry: entry,
                    message:
                        "argument \(plural.argument + 1) has a plural rule with no variants (an empty dictionary); "
                        + "nothing is shown there"
                )
            }
            let missing = rules.categories.filter { !plural.categories.contains($0) }
            guard !missing.isEmpty else { return nil }
            let names = missing.map(\.rawValue).joined(separator: ", ")
            let hasOther = plural.categories.contains(.other)
            return CatalogDiagnostic(
                hasOther ? .warning : .error,
                .missingPluralCategory,
                entry: entry,
                message: hasOther
                    ? "argument \(plural.argument + 1) lacks \(names); 'other' is used for those numbers"
                    : "argument \(plural.argument + 1) lacks \(names), including 'other'; those numbers get the nearest variant"
            )
        }
    }

    /// Variants for categories the language does not have. CLDR never gives them to a number, so
    /// they are never chosen (a warning). `zero` is the exception Apple makes: it is used for the
    /// integer 0 in every language, so "No items" is an idiom, not a mistake; a `zero` variant
    /// that shows its number ("%d дней", exported with every category) gets a note saying so.
    private func unusedCategories(_ entry: CatalogEntry, rules: PluralRules) -> [CatalogDiagnostic] {
        let showing = entry.value.pluralCategoriesShowingTheirNumber
        return zip(entry.value.pluralSwitches, showing).flatMap { plural, shown in
            PluralCategory.allCases.filter { category in
                plural.categories.contains(category) && !rules.categories.contains(category)
                    && (category != .zero || shown.categories.contains(.zero))
            }.map { category in
                let known = rules.categories.map(\.rawValue).joined(separator: ", ")
                let consequence =
                    category == .zero
                    ? "it is used for the number 0 only, as Apple uses an explicit zero variant"
                    : "this variant is never chosen"
                return CatalogDiagnostic(
                    category == .zero ? .note : .warning,
                    .unusedPluralCategory,
                    entry: entry,
                    message: "argument \(plural.argument + 1) has a '\(category.rawValue)' variant, which is not a "
                        + "plural category of \(rules.locale) (\(known)); \(consequence)"
                )
            }
        }
    }

    /// Plural rules whose number nothing in the value shows: a translator turned `%d` into text
    /// (`٪ d`), or the string has plurality without a number, which plural rules do not fit
    /// (Apple's advice). A value that shows another argument (`%@ %#@posts@`, the count formatted
    /// as "1.2K") is left alone: the number is likely in it.
    private func hiddenNumbers(_ entry: CatalogEntry) -> [CatalogDiagnostic] {
        guard entry.value.specifiers.isEmpty, !declaresTerm(entry) else { return [] }
        var reported: Set<Int> = []
        return entry.value.pluralSwitches.compactMap { plural in
            guard !plural.categories.isEmpty, reported.insert(plural.argument).inserted else { return nil }
            return CatalogDiagnostic(
                .warning,
                .numberNeverShown,
                entry: entry,
                message: "argument \(plural.argument + 1) chooses the plural variants, but no variant shows it "
                    + "(nor any other argument)"
            )
        }
    }

    /// Literal text that a translator probably meant as a specifier.
    private func textFindings(_ entry: CatalogEntry, source: CatalogEntry?) -> [CatalogDiagnostic] {
        let argumentCount = max(entry.value.argumentCount, source?.value.argumentCount ?? 0)
        var found: [(code: CatalogDiagnostic.Code, message: String)] = []
        func add(_ code: CatalogDiagnostic.Code, _ message: String) {
            if !found.contains(where: { $0.message == message }) { found.append((code, message)) }
        }
        // The source in another localization: text it has too ("Price: $5") is no placeholder.
        let otherSource = source.flatMap { $0.localization == entry.localization ? nil : $0 }
        for literal in entry.value.literals {
            for lookalike in LookalikeSpecifiers.percentSigns(in: literal) {
                add(
                    .mangledSpecifier,
                    "'\(lookalike.text)' looks like a format specifier written with \(lookalike.sign); it is shown "
                        + "as written, not as the argument"
                )
            }
            for placeholder in LookalikeSpecifiers.dollarPlaceholders(in: literal) {
                if placeholder.argument <= argumentCount {
                    let specifier = source?.value.specifiers.first { $0.argument == placeholder.argument - 1 }?
                        .specifier
                    let suggestion =
                        specifier.map { specifier -> String in
                            var positioned = specifier
                            positioned.position = placeholder.argument
                            return " (write \(positioned))"
                        } ?? ""
                    add(
                        .strayPlaceholder,
                        "'\(placeholder.text)' looks like a placeholder from another format; it is shown as written"
                            + suggestion
                    )
                } else if placeholder.argument <= 9, let otherSource,
                    !otherSource.value.literals.contains(where: { $0.contains(placeholder.text) })
                {
                    // Beyond the arguments, one digit (another format's `$1`…`$9`; "$12" is more
                    // likely money).
                    add(
                        .strayPlaceholder,
                        "'\(placeholder.text)' looks like a placeholder from another format, but the string takes "
                            + "\(argumentCount) argument\(argumentCount == 1 ? "" : "s"); it is shown as written"
                    )
                }
            }
        }
        return found.map { code, message in
            CatalogDiagnostic(.warning, code, entry: entry, message: message)
        }
    }

    /// `%1@`, `%2@`: a width on `%@` that names one of the string's arguments was meant as its
    /// position (`%1$@`); as written it pads the next argument to that width.
    private func positionsWithoutDollar(_ entry: CatalogEntry) -> [CatalogDiagnostic] {
        var seen: Set<String> = []
        return entry.value.specifiers.compactMap { _, specifier in
            guard specifier.conversion == .object, specifier.position == nil, let width = specifier.width,
                specifier.flags.isEmpty, specifier.precision == nil, width >= 1, width <= entry.value.argumentCount,
                seen.insert(specifier.description).inserted
            else { return nil }
            var meant = specifier
            meant.width = nil
            meant.position = width
            return CatalogDiagnostic(
                .error,
                .positionWithoutDollar,
                entry: entry,
                message: "'\(specifier)' is a field \(width) wide for the next argument, not argument \(width): "
                    + "write \(meant)"
            )
        }
    }

    private func stateFindings(_ entry: CatalogEntry) -> [CatalogDiagnostic] {
        func finding(_ severity: CatalogDiagnostic.Severity, _ code: CatalogDiagnostic.Code, _ message: String)
            -> CatalogDiagnostic
        {
            CatalogDiagnostic(severity, code, entry: entry, message: message)
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

    /// Argument index → the kinds of specifiers that format it, a plural variable's declared
    /// value type included.
    static func argumentKinds(
        _ value: CompiledString,
        includingDeclarations: Bool = true
    ) -> [Int: Set<FormatSpecifier.ArgumentKind>] {
        var kinds: [Int: Set<FormatSpecifier.ArgumentKind>] = [:]
        for (index, specifier) in value.specifiers { kinds[index, default: []].insert(specifier.argumentKind) }
        guard includingDeclarations else { return kinds }
        for (index, specifier) in value.pluralValueTypes { kinds[index, default: []].insert(specifier.argumentKind) }
        return kinds
    }

    /// An argument an entry formats both as `%@` and as a number (`%1$lld and %1$@`, or a
    /// variable declared `d` whose variants show `%1$@`).
    private func typeConflicts(_ entry: CatalogEntry) -> [CatalogDiagnostic] {
        Self.argumentKinds(entry.value).sorted { $0.key < $1.key }.compactMap { index, kinds in
            guard kinds.contains(.object), kinds.contains(where: Self.isNumeric) else { return nil }
            return CatalogDiagnostic(
                .error,
                .argumentTypeConflict,
                entry: entry,
                message: "formats argument \(index + 1) both as an object (%@) and as a number "
                    + "(\(Self.describe(kinds.filter(Self.isNumeric)))): a plural chosen by it, or the number "
                    + "shown, depends on which one the caller's value fits"
            )
        }
    }

    private static func isNumeric(_ kind: FormatSpecifier.ArgumentKind) -> Bool {
        switch kind {
        case .integer, .unsignedInteger, .floatingPoint: true
        case .object, .string, .character: false
        }
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
