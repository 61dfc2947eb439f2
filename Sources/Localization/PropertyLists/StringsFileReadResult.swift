/// What ``StringsFileReader/read(_:file:)`` found in a `.strings` file.
public struct StringsFileReadResult: Hashable, Sendable {
    /// The entries in file order, repeated keys included (for binary property lists, in key order).
    public var entries: [StringsFileEntry]
    /// Problems found while reading, in the order they were found.
    public var diagnostics: [CatalogDiagnostic]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - entries: The entries.
    ///   - diagnostics: The problems found.
    public init(entries: [StringsFileEntry], diagnostics: [CatalogDiagnostic]) {
        self.entries = entries
        self.diagnostics = diagnostics
    }
}
