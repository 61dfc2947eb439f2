/// Why an agreement engine or template could not be made.
public struct AgreementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong; stable names for tools.
    public enum Code: String, Hashable, Sendable {
        /// ICU cannot serve the locale.
        case unknownLocale
        /// A bundled lexicon is missing or malformed.
        case lexicon
        /// The template's Markdown is invalid.
        case invalidTemplate
        /// An argument is missing or does not fit its format specifier.
        case invalidArgument
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func == (lhs: AgreementError, rhs: AgreementError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
