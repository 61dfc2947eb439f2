/// The file formats a catalog folder may hold.
public enum CatalogFormat: String, Hashable, Sendable, Codable {
    /// `<lang>.lproj/<Table>.strings`: text (OpenStep), XML or binary property list.
    case strings
    /// `<lang>.lproj/<Table>.stringsdict`: XML property list with plural and other rules.
    case stringsdict
    /// `<Table>.xcstrings`: an Xcode String Catalog (JSON), all languages in one file.
    case xcstrings

    /// Which wins when one localization defines a key in several files: `.stringsdict` overrides
    /// `.strings` (as Apple specifies); a String Catalog sits between them.
    var precedence: Int {
        switch self {
        case .strings: 0
        case .xcstrings: 1
        case .stringsdict: 2
        }
    }
}

/// A String Catalog translation state.
public enum TranslationState: String, Hashable, Sendable, Codable {
    case new
    case translated
    case needsReview = "needs_review"
    case stale
}

/// One key's value in one localization of one table, compiled.
public struct CatalogEntry: Hashable, Sendable {
    public let key: String
    public let table: String
    public let localization: String
    /// The compiled value.
    public let value: CompiledString
    public let format: CatalogFormat
    /// The file, relative to the catalog folder.
    public let file: String
    /// Where the entry starts, where the format has lines.
    public let location: SourceLocation
    /// The String Catalog state of the value (the least finished one, for values with variants).
    public let state: TranslationState?
    /// A String Catalog key's `extractionState` (`manual`, `stale`, `extracted_with_value`…).
    public let extractionState: String?
    /// `false` for String Catalog keys marked "don't translate".
    public let shouldTranslate: Bool
    /// `true` when the value is the key itself, because the source language had no value of its own.
    public let isKeyAsValue: Bool
    /// The comment for translators, where the format has one.
    public let comment: String?

    init(
        key: String,
        table: String,
        localization: String,
        value: CompiledString,
        format: CatalogFormat,
        file: String,
        location: SourceLocation = .unknown,
        state: TranslationState? = nil,
        extractionState: String? = nil,
        shouldTranslate: Bool = true,
        isKeyAsValue: Bool = false,
        comment: String? = nil
    ) {
        self.key = key
        self.table = table
        self.localization = localization
        self.value = value
        self.format = format
        self.file = file
        self.location = location
        self.state = state
        self.extractionState = extractionState
        self.shouldTranslate = shouldTranslate
        self.isKeyAsValue = isKeyAsValue
        self.comment = comment
    }
}
