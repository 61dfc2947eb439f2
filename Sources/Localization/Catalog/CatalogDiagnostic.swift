/// A position in a catalog file: 1-based line and column (in characters), or unknown.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// 1-based line; 0 when the format has no lines (binary property lists).
    public var line: Int
    /// 1-based column in characters; 0 when unknown.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// No position (binary formats, whole-file problems).
    public static let unknown = SourceLocation(line: 0, column: 0)

    public var description: String {
        line == 0 ? "" : column == 0 ? "\(line)" : "\(line):\(column)"
    }
}

/// Something a catalog reader or the linter has to say about a file, an entry or a translation.
///
/// Readers never throw for bad content: they report a diagnostic and keep everything else.
public struct CatalogDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious the finding is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// Content was lost or cannot be rendered correctly; `caffe lint` exits non-zero.
        case error
        /// Content renders, but probably not as intended.
        case warning
        /// Worth knowing; nothing is wrong.
        case note

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// What kind of finding this is; stable names for scripts reading `caffe lint --json`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }
    }

    public var severity: Severity
    public var code: Code
    /// The file, as given to the loader (relative to the catalog folder when loaded from one).
    public var file: String
    public var location: SourceLocation
    /// The entry's key, when the finding concerns one.
    public var key: String?
    /// The localization (language identifier), when the finding concerns one.
    public var locale: String?
    /// A sentence for people.
    public var message: String

    public init(
        _ severity: Severity,
        _ code: Code,
        file: String,
        location: SourceLocation = .unknown,
        key: String? = nil,
        locale: String? = nil,
        message: String
    ) {
        self.severity = severity
        self.code = code
        self.file = file
        self.location = location
        self.key = key
        self.locale = locale
        self.message = message
    }

    /// `file:line:column: severity: [code] key (locale): message`, the shape compilers print.
    public var description: String {
        var text = file
        if location.line > 0 { text += ":\(location)" }
        text += ": \(severity.rawValue): [\(code)]"
        if let key { text += " '\(key)'" }
        if let locale { text += " (\(locale))" }
        return text + ": " + message
    }
}

extension CatalogDiagnostic {
    /// A finding about one entry, located at it: its file, position, key and localization.
    public init(_ severity: Severity, _ code: Code, entry: CatalogEntry, message: String) {
        self.init(
            severity,
            code,
            file: entry.file,
            location: entry.location,
            key: entry.key,
            locale: entry.localization,
            message: message
        )
    }
}

extension CatalogDiagnostic {
    /// Whether this finding can affect looking `key` up in `table`: it is about that key, or about
    /// a whole file of that table (an unreadable or truncated file may have lost the key), or
    /// about no file at all.
    public func concerns(key: String, table: String) -> Bool {
        let sameTable = StringCatalog.table(ofFile: file) == table
        if let own = self.key { return own == key && sameTable }
        return file.isEmpty || sameTable
    }
}

extension CatalogDiagnostic.Code {
    /// The file could not be read or decoded at all.
    public static let unreadableFile = Self("unreadable-file")
    /// The file's syntax is broken at the given position; entries before (and, where the reader
    /// can resynchronise, after) it are kept.
    public static let syntaxError = Self("syntax-error")
    /// The same key appears twice in one file; the last value wins.
    public static let duplicateKey = Self("duplicate-key")
    /// A file over ``StringCatalog/maxFileBytes``, or a value over ``StringCatalog/maxValueBytes``:
    /// not loaded.
    public static let tooLarge = Self("too-large")
    /// A value holding a control character or a noncharacter (U+FFFE): not loaded.
    public static let forbiddenCharacter = Self("forbidden-character")
}

extension [CatalogDiagnostic] {
    /// The findings with `localization` filled in where they lack one: the low-level readers know
    /// the file, not the localization its `.lproj` folder names.
    func located(in localization: String) -> [CatalogDiagnostic] {
        map { diagnostic in
            var located = diagnostic
            located.locale = located.locale ?? localization
            return located
        }
    }
}
