/// A rendered catalog string: its text, where each argument landed, and where it came from.
public struct LocalizedString: Hashable, Sendable, CustomStringConvertible {
    /// One substituted argument.
    public struct Substitution: Hashable, Sendable {
        /// The 1-based argument position (`%2$@` is 2).
        public var argument: Int
        /// Where the formatted value sits in ``LocalizedString/text``, in UTF-8 offsets.
        public var utf8Range: Range<Int>
        /// The raw value, for plural selection and grammatical agreement downstream.
        public var value: FormatArgument
    }

    /// The finished text.
    public var text: String
    /// Every substituted argument, in text order.
    public var substitutions: [Substitution]
    /// The key that was looked up.
    public var key: String
    /// The localization that supplied the value; `nil` when the key was missing everywhere.
    public var localization: String?

    /// Whether no localization had the key, so ``text`` is the key itself (as Apple renders it).
    public var isMissing: Bool { localization == nil }

    public var description: String { text }
}

/// Rendering choices that do not come from the locale.
public struct RenderOptions: Hashable, Sendable {
    /// When substituted values are wrapped in FSI…PDI (U+2068…U+2069) so their direction cannot
    /// disturb the surrounding text.
    public enum BidiIsolation: String, Hashable, Sendable {
        /// Never.
        case never
        /// For locales written right to left (ar, he, fa, ur…).
        case rightToLeftLocales
        /// Always.
        case always
    }

    /// The device whose variants to use (String Catalog `variations.device`, stringsdict device rules).
    public var device: DeviceClass
    /// The available width for `NSStringVariableWidthRuleType` variants; `nil` takes the widest.
    public var width: Int?
    public var bidiIsolation: BidiIsolation

    public init(device: DeviceClass = .iphone, width: Int? = nil, bidiIsolation: BidiIsolation = .never) {
        self.device = device
        self.width = width
        self.bidiIsolation = bidiIsolation
    }
}
