/// One `"key" = "value";` entry of a `.strings` file.
public struct StringsFileEntry: Hashable, Sendable {
    /// The key, with escapes decoded.
    public var key: String
    /// The value, with escapes decoded; the key itself for the short form `"key";`.
    public var value: String
    /// Where the key starts (its opening quote); ``SourceLocation/unknown`` in binary property lists.
    public var location: SourceLocation
    /// The nearest `/* … */` or `// …` comment before the entry and after the previous one, without
    /// its delimiters and trimmed of white space; `nil` when there is none.
    public var comment: String?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value.
    ///   - location: Where the key starts.
    ///   - comment: The comment before the entry, if any.
    public init(key: String, value: String, location: SourceLocation = .unknown, comment: String? = nil) {
        self.key = key
        self.value = value
        self.location = location
        self.comment = comment
    }
}
