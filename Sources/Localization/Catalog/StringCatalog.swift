import Foundation

/// Every string table of an app, in every localization, read from a folder as Xcode writes it and
/// compiled once.
///
/// The folder may mix formats freely: `<lang>.lproj/<Table>.strings`, `<lang>.lproj/<Table>.stringsdict`
/// and `<Table>.xcstrings`, in subfolders too. Bad content never stops loading: it is reported in
/// ``diagnostics`` (file, line, key) and everything else loads. The catalog is immutable and
/// `Sendable`; bind it to a locale with ``Localizer``.
public struct StringCatalog: Sendable {
    /// The table `String(localized:)` uses when none is named.
    public static let defaultTable = "Localizable"

    /// The language the app is developed in: the last fallback. See ``developmentLanguageOrigin``
    /// for where it came from.
    public let developmentLanguage: String
    /// Where ``developmentLanguage`` came from.
    public let developmentLanguageOrigin: DevelopmentLanguageOrigin
    /// What the readers found wrong or noteworthy, in file order.
    public private(set) var diagnostics: [CatalogDiagnostic]
    /// The files read, relative to the folder.
    public let files: [String]

    let matcher: LocalizationMatcher
    private let tables: [String: [String: [String: CatalogEntry]]]

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
    /// `<lang>.lproj` folder, which names its localization.
    ///
    /// - Throws: ``LocalizationError`` `.unreadableCatalog` when the file is not a catalog file, or
    ///   a `.strings` file has no `.lproj` folder to say its language. A file that is a catalog but
    ///   cannot be read or parsed loads with ``diagnostics`` saying so.
    public init(file: URL, developmentLanguage: String? = nil) throws(LocalizationError) {
        let url = file.resolvingSymlinksInPath().standardizedFileURL
        guard let kind = CatalogSource.Kind(url) else {
            let reason =
                ["strings", "stringsdict"].contains(url.pathExtension)
                ? "is not inside a <language>.lproj folder, so its localization is unknown"
                : "is not a .strings, .stringsdict or .xcstrings file"
            throw LocalizationError(.unreadableCatalog, "\(file.path) \(reason)")
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
        var sourceLanguages: [String] = []
        for source in sources {
            let data: Data
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
            let table = source.url.deletingPathExtension().lastPathComponent
            let read: (entries: [CatalogEntry], diagnostics: [CatalogDiagnostic])
            switch source.kind {
            case .strings(let localization):
                read = StringsTableReader.entries(
                    data: data,
                    file: source.relativePath,
                    table: table,
                    localization: localization
                )
            case .stringsdict(let localization):
                read = StringsDictReader.entries(
                    data: data,
                    file: source.relativePath,
                    table: table,
                    localization: localization
                )
            case .xcstrings:
                let result = XCStringsReader.entries(data: data, file: source.relativePath, table: table)
                if let language = result.sourceLanguage { sourceLanguages.append(language) }
                read = (result.entries, result.diagnostics)
            }
            diagnostics += read.diagnostics
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
        self.diagnostics = diagnostics
        self.developmentLanguage = development
        self.developmentLanguageOrigin = origin
        self.files = sources.map(\.relativePath)
        matcher = LocalizationMatcher(available: available.sorted(), developmentLanguage: development)
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

    /// A catalog with no entries, for formatting with a ``Localizer`` without looking anything up.
    public static func empty(developmentLanguage: String = "en") -> StringCatalog {
        StringCatalog(sources: [], developmentLanguage: developmentLanguage)
    }

    /// Every localization with at least one entry.
    public var localizations: [String] { matcher.available }

    /// Every table name.
    public var tableNames: [String] { tables.keys.sorted() }

    /// The entry for `key` in exactly this localization (no fallback).
    public func entry(_ key: String, table: String = defaultTable, localization: String) -> CatalogEntry? {
        tables[table]?[localization]?[key]
    }

    /// The compiled value for `key` in exactly this localization, without copying the entry.
    func value(_ key: String, table: String, localization: String) -> CompiledString? {
        tables[table]?[localization]?[key]?.value
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
}

/// One file of a catalog folder.
struct CatalogSource {
    enum Kind {
        case strings(localization: String)
        case stringsdict(localization: String)
        case xcstrings

        /// The kind of a file by extension and enclosing `.lproj` folder; `nil` for other files.
        init?(_ url: URL) {
            let parent = url.deletingLastPathComponent().lastPathComponent
            let localization =
                parent.hasSuffix(".lproj")
                ? String(parent.dropLast(".lproj".count).map { $0 == "_" ? "-" : $0 }) : nil
            switch url.pathExtension {
            case "xcstrings": self = .xcstrings
            case "strings":
                guard let localization else { return nil }
                self = .strings(localization: localization)
            case "stringsdict":
                guard let localization else { return nil }
                self = .stringsdict(localization: localization)
            default: return nil
            }
        }
    }

    var kind: Kind
    var url: URL
    var relativePath: String
}
