import CaffeProtocol
import Foundation
import GrammarAgreement
import Localization
import Synchronization

/// An order event checked against the menu and priced: every line found, every amount exact and
/// rounded by the documented rule (``DecimalAmount``), the customer's locale and time zone
/// settled (from the defaults when missing, with a note saying so).
public struct PricedOrder: Sendable {
    /// One order line, found on the menu and priced.
    public struct Line: Sendable {
        /// The item ordered.
        public let item: Menu.Item
        /// Its size.
        public let size: Menu.Size
        /// How many (0 is allowed: an item taken off an order).
        public let quantity: UInt32
        /// The menu's price of one, in the order's currency.
        public let unitPrice: Money
        /// `unitPrice × quantity`.
        public let linePrice: Money
    }

    /// The event as it came.
    public let event: Caffe_V1_OrderEvent
    /// The customer's locale, settled (the default's when missing or unusable).
    public let locale: String
    /// The customer's time zone, settled the same way.
    public let timeZone: String
    /// How the customer is addressed, for grammar agreement.
    public let termOfAddress: TermOfAddress
    /// The order's currency.
    public let currency: Currency
    /// The store, with its tax rate.
    public let store: Menu.Store
    /// The lines, in the event's order.
    public let lines: [Line]
    /// Sum of the line prices.
    public let subtotal: Money
    /// `subtotal × taxRate`, rounded to the currency's minor units, half away from zero.
    public let tax: Money
    /// The tip the customer gave.
    public let tip: Money
    /// `subtotal + tax + tip`.
    public let total: Money
    /// What the core decided that the event did not say.
    public let notes: [Caffe_V1_RenderNote]

    /// Checks `event` and prices it.
    ///
    /// - Throws: ``RenderError`` for the first problem, naming the field.
    public init(_ event: Caffe_V1_OrderEvent, menu: Menu, defaults: CoreDefaults) throws(RenderError) {
        try self.init(event, menu: menu, defaults: defaults, isWellFormedLocale: LocaleTag.isWellFormed)
    }

    /// `isWellFormedLocale` lets a session answer from what it has already checked.
    init(
        _ event: Caffe_V1_OrderEvent,
        menu: Menu,
        defaults: CoreDefaults,
        isWellFormedLocale: (String) -> Bool
    ) throws(RenderError) {
        self.event = event
        guard !event.orderID.isEmpty else { throw RenderError(.missingField, field: "orderId", "the order has no id") }
        guard event.hasPlacedAt else { throw RenderError(.missingField, field: "placedAt", "when was it placed?") }
        guard event.hasCustomer else {
            throw RenderError(.missingField, field: "customer", "the order has no customer")
        }
        var notes: [Caffe_V1_RenderNote] = []
        let settled = CustomerSettings.settle(
            locale: event.customer.locale,
            timeZone: event.customer.timeZone,
            field: "customer",
            defaults: defaults,
            isWellFormedLocale: isWellFormedLocale,
            notes: &notes
        )
        locale = settled.locale
        timeZone = settled.timeZone
        termOfAddress = TermOfAddress(event.customer.termOfAddress)

        guard !event.currencyCode.isEmpty else {
            throw RenderError(.missingField, field: "currencyCode", "the order has no currency")
        }
        guard let currency = Currency(code: event.currencyCode) else {
            throw RenderError(
                .unknownCurrency,
                field: "currencyCode",
                "'\(event.currencyCode)' is not an ISO 4217 currency code"
            )
        }
        self.currency = currency
        guard !event.storeID.isEmpty else {
            throw RenderError(.missingField, field: "storeId", "the order has no store")
        }
        guard let store = menu.store(event.storeID) else {
            throw RenderError(.unknownStore, field: "storeId", "'\(event.storeID)' is not one of the menu's stores")
        }
        self.store = store

        guard !event.lines.isEmpty else { throw RenderError(.missingField, field: "lines", "the order has no lines") }
        guard event.lines.count <= defaults.maximumLines else {
            throw RenderError(
                .quantityOutOfRange,
                field: "lines",
                "\(event.lines.count) lines; at most \(defaults.maximumLines) are accepted"
            )
        }
        var lines: [Line] = []
        lines.reserveCapacity(event.lines.count)
        var subtotal = Money.zero(fractionDigits: currency.fractionDigits)
        for (index, line) in event.lines.enumerated() {
            let path = "lines[\(index)]"
            guard let item = menu.item(line.itemID) else {
                throw RenderError(.unknownItem, field: path + ".itemId", "'\(line.itemID)' is not on the menu")
            }
            guard let size = menu.size(line.size), let prices = item.prices[line.size] else {
                throw RenderError(
                    .unknownSize,
                    field: path + ".size",
                    "\(item.id) does not come in size '\(line.size)'"
                )
            }
            guard let unitPrice = prices[currency.code] else {
                throw RenderError(
                    .missingPrice,
                    field: path,
                    "the menu has no \(currency.code) price for \(item.id) (\(size.id))"
                )
            }
            // The wire's quantity is 64 bits wide, so nothing is truncated before this check.
            guard line.quantity <= UInt64(defaults.maximumQuantity) else {
                throw RenderError(
                    .quantityOutOfRange,
                    field: path + ".quantity",
                    "\(line.quantity) is more than the \(defaults.maximumQuantity) one line may order"
                )
            }
            guard let linePrice = unitPrice.multiplied(by: Int64(line.quantity)),
                let sum = subtotal.adding(linePrice)
            else { throw Self.tooLarge(path) }
            subtotal = sum
            lines.append(
                Line(
                    item: item,
                    size: size,
                    quantity: UInt32(line.quantity),
                    unitPrice: unitPrice,
                    linePrice: linePrice
                )
            )
        }
        self.lines = lines
        self.subtotal = subtotal
        tax = subtotal.multiplied(byRate: store.parsedTaxRate)
        tip = try Self.tip(event.tip, currency: currency, maximum: defaults.maximumTip)
        guard let total = subtotal.adding(tax)?.adding(tip) else { throw Self.tooLarge("tip") }
        self.total = total
        self.notes = notes
    }

    private static func tip(_ text: String, currency: Currency, maximum: Decimal) throws(RenderError) -> Money {
        guard !text.isEmpty else { return .zero(fractionDigits: currency.fractionDigits) }
        switch DecimalAmount.parse(text) {
        case .failure:
            throw RenderError(.invalidAmount, field: "tip", "'\(text)' is not a decimal string such as \"2.50\"")
        case .success(let parsed):
            guard parsed.value >= 0 else { throw RenderError(.invalidAmount, field: "tip", "'\(text)' is negative") }
            guard parsed.value <= maximum else {
                throw RenderError(.invalidAmount, field: "tip", "'\(text)' is more than the \(maximum) accepted")
            }
            guard parsed.fractionDigits <= currency.fractionDigits else {
                throw RenderError(
                    .tooManyDecimals,
                    field: "tip",
                    "'\(text)' has \(parsed.fractionDigits) decimals; \(currency.code) has \(currency.fractionDigits)"
                )
            }
            guard let tip = Money(parsed, fractionDigits: currency.fractionDigits) else {
                throw Self.tooLarge("tip")
            }
            return tip
        }
    }

    /// An order whose amounts do not fit 64-bit minor units (about 92 million billion dollars).
    private static func tooLarge(_ field: String) -> RenderError {
        RenderError(.invalidAmount, field: field, "the order's total is too large to compute exactly")
    }
}

extension TermOfAddress {
    /// The wire's term of address; unspecified is unknown (the neutral alternative).
    public init(_ term: Caffe_V1_TermOfAddress) {
        switch term {
        case .feminine: self = .feminine
        case .masculine: self = .masculine
        case .neutral: self = .neutral
        case .unspecified, .UNRECOGNIZED: self = .unknown
        }
    }
}

/// Settles a locale and time zone from an input, falling back to the defaults with a note.
enum CustomerSettings {
    static func settle(
        locale: String,
        timeZone: String,
        field: String,
        defaults: CoreDefaults,
        isWellFormedLocale: (String) -> Bool,
        notes: inout [Caffe_V1_RenderNote]
    ) -> (locale: String, timeZone: String) {
        var settledLocale = locale
        if locale.isEmpty {
            settledLocale = defaults.locale
            notes.append(
                .note("locale-defaulted", "\(field) has no locale; used \(defaults.locale) from the configuration")
            )
        } else if !isWellFormedLocale(locale) {
            settledLocale = defaults.locale
            notes.append(
                .note("locale-defaulted", "\(field) locale '\(locale)' is not a BCP 47 tag; used \(defaults.locale)")
            )
        }
        var settledZone = timeZone
        if timeZone.isEmpty {
            settledZone = defaults.timeZone
            notes.append(
                .note(
                    "time-zone-defaulted",
                    "\(field) has no time zone; used \(defaults.timeZone) from the configuration"
                )
            )
        } else if !KnownTimeZones.contains(timeZone) {
            settledZone = defaults.timeZone
            notes.append(
                .note(
                    "time-zone-defaulted",
                    "\(field) time zone '\(timeZone)' is not an IANA zone; used \(defaults.timeZone)"
                )
            )
        }
        return (settledLocale, settledZone)
    }
}

/// IANA zone identifiers: Foundation's list (read once), and the aliases ICU knows (`Asia/Kolkata`,
/// `US/Pacific`, `Etc/UTC` are not in Foundation's list on Linux), remembered once seen.
enum KnownTimeZones {
    private static let identifiers = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC", "GMT"])
    private static let aliases = Mutex<Set<String>>([])
    /// Aliases remembered, at most (names are the client's: a flood of distinct ones is not kept).
    private static let maxAliases = 1024

    static func contains(_ identifier: String) -> Bool {
        if identifiers.contains(identifier) || aliases.withLock({ $0.contains(identifier) }) { return true }
        guard ICUInventory.isTimeZone(identifier) else { return false }
        aliases.withLock { if $0.count < maxAliases { $0.insert(identifier) } }
        return true
    }
}

extension Caffe_V1_RenderNote {
    @_spi(Benchmarks)
    public static func note(_ code: String, _ detail: String) -> Self {
        var note = Self()
        note.code = code
        note.detail = detail
        return note
    }
}
