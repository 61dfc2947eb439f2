import Foundation

/// Every string table of an app, in every localization, read from a folder as Xcode writes it and
/// compiled once.
///
/// The folder may mix formats freely: `<lang>.lproj/<Table>.strings`, `<lang>.lproj/<Table>.stringsdict`
/// and `<Table>.xcstrings`, in subfolders too. A `.strings` or `.stringsdict` outside any `.lproj`
/// folder is a non-localized table, searched before the localizations as Bundle searches global
/// resources first (see ``nonLocalized``). Bad content never stops loading: it is reported in
/// ``diagnostics`` (file, line, key) and everything else loads. The catalog is immutable and
/// `Sendable`; bind it to a locale with ``Localizer``.
public struct StringCatalog: Sendable {
    /// The table `String(localized:)` uses when none is named.
    public static let defaultTable = "Localizable"

    /// The ``CatalogEntry/localization`` of entries from a table file outside any `.lproj` folder.
    ///
    /// Bundle searches global (non-localized) resources before any `.lproj` folder, and a global
    /// file hides the `.lproj` copies of the same file (Bundle Programming Guide, "The Bundle
    /// Search Pattern"; `_createQueryTableAtPath` in CFBundle_Resources.c). So a non-localized
    /// table serves every locale, and its text is taken as written in the development language.
    public static let nonLocalized = "non-localized"

    /// The language the app is developed in: the last fallback. See ``developmentLanguageOrigin``
    /// for where it came from.
    public let developmentLanguage: String
    /// Where ``developmentLanguage`` came from.
    public let developmentLanguageOrigin: DevelopmentLanguageOrigin
    /// What the readers found wrong or noteworthy, in file order.
    public private(set) var diagnostics: [CatalogDiagnostic]
    /// The files read, relative to the folder.
    public let files: [String]

    var matcher: LocalizationMatcher
    private var tables: [String: [String: [String: CatalogEntry]]]
    /// Entries of non-localized table files, by table and key.
    private var nonLocalizedTables: [String: [String: CatalogEntry]]

    /// Loads every catalog file under `directory`.
    ///
    /// - Parameters:
    ///   - directory: the folder holding `.lproj` folders and `.xcstrings` files.
    ///   - developmentLanguage: overrides what the catalog says (see ``DevelopmentLanguageOrigin``).
    /// - Throws: ``LocalizationError`` `.unreadableCatalog` only when the folder cannot be listed.
    public init(directory: URL, developmentLanguage: String? = nil) throws(LocalizationError) {
        // Resolve links, so a catalog folder given through a symlink lists its files under the same root.
        let root = directory.resolvingSymlinksInPath().standardizedFileURL
        guard
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]),
            (try? root.checkResourceIsReachable()) == true
        else {
            throw LocalizationError(.unreadableCatalog, "cannot list the catalog folder \(directory.path)")
        }
        var sources: [CatalogSource] = []
        for case let url as URL in enumerator {
            let path = url.resolvingSymlinksInPath().standardizedFileURL.path
            guard path.hasPrefix(root.path) else { continue }
            let relative = String(path.dropFirst(root.path.count).drop { $0 == "/" })
            guard let kind = CatalogSource.Kind(url) else { continue }
            sources.append(CatalogSource(kind: kind, url: url, relativePath: relative))
        }
        self.init(
            sources: sources.sorted { $0.relativePath < $1.relativePath },
            developmentLanguage: developmentLanguage
        )
        if sources.isEmpty {
            // Nothing to serve or check is never a success.
            diagnostics.append(
                CatalogDiagnostic(
                    .error,
                    .unreadableFile,
                    file: directory.path,
                    message: "no .strings, .stringsdict or .xcstrings files found"
                )
            )
        }
    }

    /// Loads one catalog file: an `.xcstrings`, or a `.strings` or `.stringsdict` inside a
    /// `<lang>.lproj` folder, which names its localization, or outside one (a non-localized table,
    /// see ``nonLocalized``).
    ///
    /// - Throws: ``LocalizationError`` `.unreadableCatalog` when the file is not a catalog file. A
    ///   file that is a catalog but cannot be read or parsed loads with ``diagnostics`` saying so.
    public init(file: URL, developmentLanguage: String? = nil) throws(LocalizationError) {
        let url = file.resolvingSymlinksInPath().standardizedFileURL
        guard let kind = CatalogSource.Kind(url) else {
            throw LocalizationError(
                .unreadableCatalog,
                "\(file.path) is not a .strings, .stringsdict or .xcstrings file"
            )
        }
        let parent = url.deletingLastPathComponent().lastPathComponent
        let relative = parent.hasSuffix(".lproj") ? parent + "/" + url.lastPathComponent : url.lastPathComponent
        self.init(
            sources: [CatalogSource(kind: kind, url: url, relativePath: relative)],
            developmentLanguage: developmentLanguage
        )
    }

    /// Loads a catalog folder (``init(directory:developmentLanguage:)``) or a single catalog file
    /// (``init(file:developmentLanguage:)``), whichever `url` is.
    ///
    /// - Throws: ``LocalizationError`` `.unreadableCatalog` when `url` is neither.
    public init(contentsOf url: URL, developmentLanguage: String? = nil) throws(LocalizationError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw LocalizationError(.unreadableCatalog, "\(url.path) does not exist")
        }
        if isDirectory.boolValue {
            try self.init(directory: url, developmentLanguage: developmentLanguage)
        } else {
            try self.init(file: url, developmentLanguage: developmentLanguage)
        }
    }

    /// Loads catalog files given one by one (each with its path relative to a catalog folder,
    /// which names its `.lproj` localization).
    init(sources: [CatalogSource], developmentLanguage: String?) {
        var diagnostics: [CatalogDiagnostic] = []
        var tables: [String: [String: [String: CatalogEntry]]] = [:]
        var nonLocalizedTables: [String: [String: CatalogEntry]] = [:]
        var nonLocalizedFiles: [String: [String: CatalogFormat]] = [:]
        var sourceLanguages: [String] = []
        for source in sources {
            let data: Data
            if let size = (try? FileManager.default.attributesOfItem(atPath: source.url.path))?[.size] as? Int,
                size > Self.maxFileBytes
            {
                diagnostics.append(
                    CatalogDiagnostic(
                        .error,
                        .tooLarge,
                        file: source.relativePath,
                        message: "the file is \(size) bytes; a catalog file is at most \(Self.maxFileBytes) "
                            + "(StringCatalog.maxFileBytes): not read"
                    )
                )
                continue
            }
            do {
                data = try Data(contentsOf: source.url)
            } catch {
                diagnostics.append(
                    CatalogDiagnostic(
                        .error,
                        .unreadableFile,
                        file: source.relativePath,
                        message: "cannot read the file: \(error.localizedDescription)"
                    )
                )
                continue
            }
            let table = Self.table(ofFile: source.url.lastPathComponent)
            var read: (entries: [CatalogEntry], diagnostics: [CatalogDiagnostic])
            switch source.kind {
            case .strings(let localization):
                read = StringsTableReader.entries(
                    data: data,
                    file: source.relativePath,
                    table: table,
                    localization: localization ?? Self.nonLocalized
                )
            case .stringsdict(let localization):
                read = StringsDictReader.entries(
                    data: data,
                    file: source.relativePath,
                    table: table,
                    localization: localization ?? Self.nonLocalized
                )
            case .xcstrings:
                let result = XCStringsReader.entries(data: data, file: source.relativePath, table: table)
                if let language = result.sourceLanguage { sourceLanguages.append(language) }
                read = (result.entries, result.diagnostics)
            }
            diagnostics += read.diagnostics
            read.entries.removeAll { entry in
                guard let problem = Self.unacceptable(entry.value) else { return false }
                diagnostics.append(
                    CatalogDiagnostic(
                        .error,
                        problem.code,
                        file: entry.file,
                        location: entry.location,
                        key: entry.key,
                        locale: entry.localization,
                        message: problem.message
                    )
                )
                return true
            }
            if source.kind.isNonLocalized {
                nonLocalizedFiles[table, default: [:]][source.relativePath] = source.kind.format
                for entry in read.entries {
                    if let existing = nonLocalizedTables[table]?[entry.key],
                        existing.format.precedence > entry.format.precedence
                    {
                        continue
                    }
                    nonLocalizedTables[table, default: [:]][entry.key] = entry
                }
                continue
            }
            for entry in read.entries {
                if let existing = tables[entry.table]?[entry.localization]?[entry.key] {
                    if existing.format.precedence > entry.format.precedence { continue }
                    if existing.format == entry.format, existing.file != entry.file {
                        diagnostics.append(
                            CatalogDiagnostic(
                                .warning,
                                .duplicateKey,
                                file: entry.file,
                                location: entry.location,
                                key: entry.key,
                                locale: entry.localization,
                                message: "also defined in \(existing.file); this definition wins"
                            )
                        )
                    }
                }
                tables[entry.table, default: [:]][entry.localization, default: [:]][entry.key] = entry
            }
        }
        diagnostics += Self.hide(&tables, behind: nonLocalizedFiles)
        let available = Set(tables.values.flatMap(\.keys))
        let (development, origin) = Self.developmentLanguage(
            configured: developmentLanguage,
            sourceLanguages: sourceLanguages,
            localizations: available
        )
        if origin == .unknown, !available.isEmpty {
            diagnostics.append(
                CatalogDiagnostic(
                    .warning,
                    .unknownDevelopmentLanguage,
                    file: "",
                    message: "cannot tell the development language: no String Catalog names one and the "
                        + "localizations are \(available.sorted().joined(separator: ", ")); configure one "
                        + "(--development-language); until then keys are the last fallback"
                )
            )
        }
        if !nonLocalizedFiles.isEmpty, origin == .unknown, available.isEmpty {
            let files = nonLocalizedFiles.values.flatMap(\.keys).sorted()
            diagnostics.append(
                CatalogDiagnostic(
                    .warning,
                    .unknownDevelopmentLanguage,
                    file: files[0],
                    message: "\(files.joined(separator: ", ")) \(files.count == 1 ? "is" : "are") outside any .lproj "
                        + "folder, so \(files.count == 1 ? "its" : "their") language is the development language, "
                        + "which nothing names; taken as \(development) (configure --development-language)"
                )
            )
        }
        if Set(sourceLanguages).count > 1 {
            diagnostics.append(
                CatalogDiagnostic(
                    .warning,
                    .invalidEntry,
                    file: "",
                    message:
                        "String Catalogs disagree on sourceLanguage (\(Set(sourceLanguages).sorted().joined(separator: ", "))); using \(development)"
                )
            )
        }
        self.tables = tables
        self.nonLocalizedTables = nonLocalizedTables
        self.diagnostics = diagnostics
        self.developmentLanguage = development
        self.developmentLanguageOrigin = origin
        self.files = sources.map(\.relativePath)
        matcher = LocalizationMatcher(available: available.sorted(), developmentLanguage: development)
    }

    /// The largest catalog file read, in bytes: the biggest real catalogs are a few hundred KB.
    public static let maxFileBytes = 32 << 20
    /// The most text one value may hold, in UTF-8 bytes over all its variants: the longest real
    /// translations are under 1 KB; a value over this is not loaded, so no order carries it.
    public static let maxValueBytes = 16 << 10

    /// Why a value read from a file is not loaded, if it is not: over ``maxValueBytes``, or
    /// holding a character no translation has.
    static func unacceptable(_ value: CompiledString) -> (code: CatalogDiagnostic.Code, message: String)? {
        let bytes = value.textBytes
        if bytes > maxValueBytes {
            return (
                .tooLarge,
                "the value is \(bytes) bytes; a value is at most \(maxValueBytes) (StringCatalog.maxValueBytes): not loaded"
            )
        }
        if let scalar = value.forbiddenScalar {
            return (
                .forbiddenCharacter,
                "the value holds \(TranslationText.describe(scalar)), which no translation has: not loaded"
            )
        }
        return nil
    }

    /// The development language: configured, else the String Catalogs' `sourceLanguage`, else the
    /// catalog's only localization (`Base` aside), else `en` when it is one of several. With none
    /// of these it is unknown, and `en` (which the catalog lacks) stands in.
    static func developmentLanguage(
        configured: String?,
        sourceLanguages: [String],
        localizations: Set<String>
    ) -> (String, DevelopmentLanguageOrigin) {
        if let configured { return (configured, .configured) }
        if let declared = sourceLanguages.first { return (declared, .stringCatalog) }
        let real = localizations.subtracting(["Base"])
        if real.count == 1, let only = real.first { return (only, .onlyLocalization) }
        if real.contains("en") { return ("en", .english) }
        return ("en", .unknown)
    }

    /// Removes the `.lproj` entries that non-localized files hide, as Bundle does: a global
    /// `<Table>.strings` hides every `<lang>.lproj/<Table>.strings` and a global `.stringsdict` every
    /// `.stringsdict` of the table (CFBundle looks each file type up on its own); a String Catalog is
    /// compiled into both, and Xcode refuses it beside a same-named table, so any global file hides
    /// it. One warning per hidden file.
    private static func hide(
        _ tables: inout [String: [String: [String: CatalogEntry]]],
        behind nonLocalizedFiles: [String: [String: CatalogFormat]]
    ) -> [CatalogDiagnostic] {
        var hidden: [String: (global: String, keys: Int, locale: String)] = [:]
        for (table, files) in nonLocalizedFiles {
            for (localization, entries) in tables[table] ?? [:] {
                for (key, entry) in entries {
                    let hiding = files.filter { entry.format == .xcstrings || $0.value == entry.format }.keys
                    guard let global = hiding.min() else { continue }
                    tables[table]?[localization]?[key] = nil
                    hidden[entry.file, default: (global, 0, localization)].keys += 1
                }
            }
        }
        return hidden.sorted { $0.key < $1.key }.map { file, hiding in
            CatalogDiagnostic(
                .warning,
                .hiddenByNonLocalizedTable,
                file: file,
                locale: hiding.locale,
                message: "\(hiding.keys) key\(hiding.keys == 1 ? " is" : "s are") never used: the non-localized "
                    + "\(hiding.global) serves every locale, as Bundle searches global resources before .lproj folders"
            )
        }
    }

    /// The table a catalog file belongs to: its name without folder and extension, as Bundle names
    /// a table after its file (`fr.lproj/Menu.strings` and `Menu.xcstrings` are table `Menu`).
    public static func table(ofFile path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// This catalog with one entry changed: `entry` in place of `key` in `table` for `localization`
    /// (``nonLocalized`` for a non-localized table's), or the key removed when `entry` is `nil`.
    /// The development language stays this catalog's; the localizations follow the entries (one
    /// added to an empty localization makes it available). For measuring what one change of a
    /// translation does (`caffe-sim diff`).
    public func replacing(
        _ key: String,
        table: String,
        localization: String,
        with entry: CatalogEntry?
    ) -> StringCatalog {
        var copy = self
        if localization == Self.nonLocalized {
            var keys = copy.nonLocalizedTables[table] ?? [:]
            keys[key] = entry
            copy.nonLocalizedTables[table] = keys
        } else {
            var keys = copy.tables[table]?[localization] ?? [:]
            keys[key] = entry
            copy.tables[table, default: [:]][localization] = keys.isEmpty ? nil : keys
            if copy.tables[table]?.isEmpty == true { copy.tables[table] = nil }
        }
        // A localization added or emptied changes what locales fall back to.
        let available = Set(copy.tables.values.flatMap(\.keys)).sorted()
        if available != matcher.available {
            copy.matcher = LocalizationMatcher(available: available, developmentLanguage: developmentLanguage)
        }
        return copy
    }

    /// A catalog with no entries, for formatting with a ``Localizer`` without looking anything up.
    public static func empty(developmentLanguage: String = "en") -> StringCatalog {
        StringCatalog(sources: [], developmentLanguage: developmentLanguage)
    }

    /// Every localization with at least one entry.
    public var localizations: [String] { matcher.available }

    /// Every table name.
    public var tableNames: [String] { Set(tables.keys).union(nonLocalizedTables.keys).sorted() }

    /// The entry for `key` in exactly this localization (no fallback).
    public func entry(_ key: String, table: String = defaultTable, localization: String) -> CatalogEntry? {
        tables[table]?[localization]?[key]
    }

    /// The compiled value for `key` as `localization` sees it — its own entry or the table's
    /// non-localized one, whichever Bundle would return — and the localization the text is in (the
    /// development language for non-localized text), without copying the entry.
    func value(_ key: String, table: String, localization: String) -> (value: CompiledString, localization: String)? {
        let own = tables[table]?[localization]?[key]
        if let global = nonLocalizedTables[table]?[key],
            own.map({ $0.format.precedence < global.format.precedence }) ?? true
        {
            return (global.value, developmentLanguage)
        }
        return own.map { ($0.value, localization) }
    }

    /// Whether any table has a file outside the `.lproj` folders.
    public var hasNonLocalizedTables: Bool { !nonLocalizedTables.isEmpty }

    /// The entries of one table's non-localized files, sorted by key.
    public func nonLocalizedEntries(table: String = defaultTable) -> [CatalogEntry] {
        (nonLocalizedTables[table] ?? [:]).values.sorted { $0.key < $1.key }
    }

    /// The entries of one table in one localization, sorted by key.
    public func entries(table: String = defaultTable, localization: String) -> [CatalogEntry] {
        (tables[table]?[localization] ?? [:]).values.sorted { $0.key < $1.key }
    }

    /// The localizations of one table.
    public func localizations(table: String) -> [String] {
        (tables[table] ?? [:]).keys.sorted()
    }

    /// The localizations tried for `locale`, best first.
    public func fallbackChain(for locale: String) -> [String] {
        matcher.localizations(for: locale)
    }
}

/// Where a catalog's development language came from.
public enum DevelopmentLanguageOrigin: String, Hashable, Sendable {
    /// Given by the caller (configuration, `--development-language`).
    case configured
    /// A String Catalog's `sourceLanguage`.
    case stringCatalog
    /// The catalog's only localization.
    case onlyLocalization
    /// `en`, one of several localizations, none of them declared the source.
    case english
    /// Nothing says; `en` stands in and the catalog has no text in it.
    case unknown
}

extension CatalogDiagnostic.Code {
    /// Neither configuration nor the catalog says which language it is developed in.
    public static let unknownDevelopmentLanguage = Self("unknown-development-language")
    /// A `.lproj` file that a same-named table file outside any `.lproj` folder hides.
    public static let hiddenByNonLocalizedTable = Self("hidden-by-non-localized-table")
}

/// One file of a catalog folder.
struct CatalogSource {
    enum Kind {
        /// A `.strings` file; `nil` localization outside any `.lproj` folder.
        case strings(localization: String?)
        /// A `.stringsdict` file; `nil` localization outside any `.lproj` folder.
        case stringsdict(localization: String?)
        case xcstrings

        /// The kind of a file by extension and enclosing `.lproj` folder; `nil` for other files.
        init?(_ url: URL) {
            let parent = url.deletingLastPathComponent().lastPathComponent
            let localization =
                parent.hasSuffix(".lproj")
                ? String(parent.dropLast(".lproj".count).map { $0 == "_" ? "-" : $0 }) : nil
            switch url.pathExtension {
            case "xcstrings": self = .xcstrings
            case "strings": self = .strings(localization: localization)
            case "stringsdict": self = .stringsdict(localization: localization)
            default: return nil
            }
        }

        /// Whether the file is a table outside any `.lproj` folder.
        var isNonLocalized: Bool {
            switch self {
            case .strings(nil), .stringsdict(nil): true
            default: false
            }
        }

        var format: CatalogFormat {
            switch self {
            case .strings: .strings
            case .stringsdict: .stringsdict
            case .xcstrings: .xcstrings
            }
        }
    }

    var kind: Kind
    var url: URL
    var relativePath: String
}
