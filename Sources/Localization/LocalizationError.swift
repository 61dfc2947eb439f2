/// A failure to render a catalog string: what went wrong, for which key and argument.
///
/// Equality compares the code only.
public struct LocalizationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A specifier refers to an argument that was not given.
        public static let missingArgument = Code("missing-argument")
        /// An argument's type does not fit its specifier (text for `%d`, a number for `%s`).
        public static let argumentMismatch = Code("argument-mismatch")
        /// A conversion this implementation does not render (`*` widths, for example).
        public static let unsupportedSpecifier = Code("unsupported-specifier")
        /// ICU does not know the locale.
        public static let unknownLocale = Code("unknown-locale")
        /// A catalog folder cannot be read at all.
        public static let unreadableCatalog = Code("unreadable-catalog")
    }

    public let code: Code
    public let message: String
    /// The catalog key being rendered, when known.
    public var key: String?
    /// The 1-based argument position concerned, when there is one.
    public var argument: Int?

    public init(_ code: Code, _ message: String, key: String? = nil, argument: Int? = nil) {
        self.code = code
        self.message = message
        self.key = key
        self.argument = argument
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let key { text += " (key '\(key)')" }
        return text
    }

    public static func == (lhs: LocalizationError, rhs: LocalizationError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
