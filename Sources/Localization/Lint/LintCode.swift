/// A finding's code as `caffe lint` documents it: the severities it is reported with and what it
/// means. `caffe lint --list-codes` prints the list, `--allow-warning` takes only a code from it,
/// and the README's table lists every one.
public struct LintCode: Hashable, Sendable {
    public let code: CatalogDiagnostic.Code
    /// The severities findings of this code have, most serious first.
    public let severities: [CatalogDiagnostic.Severity]
    /// One sentence for people.
    public let summary: String

    public init(_ code: CatalogDiagnostic.Code, _ severities: [CatalogDiagnostic.Severity], _ summary: String) {
        self.code = code
        self.severities = severities
        self.summary = summary
    }
}

extension CatalogLinter {
    /// Every code the catalog readers and ``CatalogLinter`` report.
    public static let codes: [LintCode] = [
        LintCode(.unreadableFile, [.error], "a file that cannot be read or decoded at all"),
        LintCode(.syntaxError, [.error, .note], "broken syntax at a position (a note once past 100 of them)"),
        LintCode(.duplicateKey, [.warning], "a key twice in one file: the last value wins"),
        LintCode(.tooLarge, [.error], "a file over 32 MiB or a value over 16 KiB: not loaded"),
        LintCode(
            .forbiddenCharacter,
            [.error],
            "a value holding a control character (other than tab, line feed and carriage return) or a noncharacter such as U+FFFE: not loaded"
        ),
        LintCode(.unexpectedValueType, [.error], "a value of a kind the format does not allow there: left out"),
        LintCode(
            .invalidEntry,
            [.error, .warning],
            "a .stringsdict or String Catalog entry not shaped as Apple documents"
        ),
        LintCode(.unknownDevelopmentLanguage, [.warning], "nothing says which language the catalog is developed in"),
        LintCode(.hiddenByNonLocalizedTable, [.warning], "a .lproj file a same-named table outside any .lproj hides"),
        LintCode(.invalidSpecifier, [.error, .warning], "a % sequence that is not a conversion: shown as written"),
        LintCode(.undefinedVariable, [.error], "a %#@name@ without a definition"),
        LintCode(.malformedVariable, [.warning], "%1#@name@: a position without $"),
        LintCode(.unsupportedRuleType, [.warning], "a variable rule, device or width Apple does not define"),
        LintCode(.unknownPluralCategory, [.warning], "a plural variant not named zero, one, two, few, many or other"),
        LintCode(
            .ambiguousPluralArgument,
            [.warning],
            "a plural variation whose source has no single number to choose by"
        ),
        LintCode(
            .missingTranslation,
            [.warning],
            "a source key a localization does not translate: the development language is shown"
        ),
        LintCode(.regionalFallback, [.note], "keys a regional localization leaves to its parent language"),
        LintCode(
            .specifierMismatch,
            [.error, .warning],
            "a translation adds, retypes or drops an argument of the source"
        ),
        LintCode(.argumentTypeConflict, [.error], "one argument formatted as %@ and as a number"),
        LintCode(.positionWithoutDollar, [.error], "%1@: a field width, not an argument position"),
        LintCode(
            .missingPluralCategory,
            [.error, .warning],
            "a plural without a category the language needs (error without other)"
        ),
        LintCode(
            .unusedPluralCategory,
            [.warning, .note],
            "a plural variant the language never chooses (zero: a note)"
        ),
        LintCode(.numberNeverShown, [.warning], "a plural whose variants never show the number that chooses them"),
        LintCode(.mangledSpecifier, [.warning], "a specifier typed with another percent sign (٪ d): shown as written"),
        LintCode(.strayPlaceholder, [.warning], "a $1-style placeholder from another format: shown as written"),
        LintCode(.needsReview, [.warning], "a String Catalog value marked as needing review"),
        LintCode(.stale, [.warning, .note], "a value marked stale (a note: the key is no longer in the source code)"),
        LintCode(.untranslated, [.note], "a String Catalog value in state new"),
    ]
}
