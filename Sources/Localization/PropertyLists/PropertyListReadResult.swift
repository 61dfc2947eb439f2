/// What ``PropertyListReader/read(_:file:)`` found in a file: the value, as much of it as could be
/// read, and what was wrong.
public struct PropertyListReadResult: Hashable, Sendable {
    /// The root value; `nil` when nothing could be read.
    ///
    /// When ``diagnostics`` has errors this may still hold a value: broken entries are left out and
    /// the rest is kept.
    public var value: PropertyListValue?
    /// Problems found while reading, in the order they were found.
    public var diagnostics: [CatalogDiagnostic]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - value: The root value, if any.
    ///   - diagnostics: The problems found.
    public init(value: PropertyListValue?, diagnostics: [CatalogDiagnostic]) {
        self.value = value
        self.diagnostics = diagnostics
    }
}
