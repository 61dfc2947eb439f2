/// Why an order or a complication request could not be rendered: a code to branch on, the field
/// at fault (a protobuf JSON path such as `lines[2].size`) and a sentence for people.
///
/// Nothing is rendered from an input that fails: no partial receipt, no wrong total.
public struct RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A kind of failure, with a stable name (`unknown-item`) for dead letters and scripts.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// A required field is empty.
        public static let missingField = Code("missing-field")
        /// An order line names an item the menu does not have.
        public static let unknownItem = Code("unknown-item")
        /// An order line names a size the item does not come in.
        public static let unknownSize = Code("unknown-size")
        /// The store is not on the menu's list of stores (its tax rate is unknown).
        public static let unknownStore = Code("unknown-store")
        /// The currency is not an ISO 4217 code ICU knows.
        public static let unknownCurrency = Code("unknown-currency")
        /// The menu has no price for the item and size in the order's currency.
        public static let missingPrice = Code("missing-price")
        /// A quantity beyond the configured maximum per line, or too many lines.
        public static let quantityOutOfRange = Code("quantity-out-of-range")
        /// An amount that is not a plain decimal string, is negative, or is too large.
        public static let invalidAmount = Code("invalid-amount")
        /// An amount with more digits after the point than the currency has.
        public static let tooManyDecimals = Code("too-many-decimals")
        /// An hour cycle other than h11, h12, h23 or h24.
        public static let invalidHourCycle = Code("invalid-hour-cycle")
        /// A catalog string that does not render with the order's values (a catalog bug).
        public static let renderFailed = Code("render-failed")
        /// The order's locale is not compiled and the session was told not to compile it
        /// (``NewLocalePolicy/defer``): render it again where compiling is allowed.
        public static let localeNotReady = Code("locale-not-ready")
    }

    /// What kind of failure.
    public var code: Code
    /// The offending field, as a protobuf JSON path, when there is one.
    public var field: String?
    /// A sentence for people.
    public var message: String

    /// A failure of kind `code` at `field`.
    public init(_ code: Code, field: String? = nil, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// `code at field: message`.
    public var description: String {
        field.map { "\(code) at \($0): \(message)" } ?? "\(code): \(message)"
    }
}
