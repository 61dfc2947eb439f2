import CaffeProtocol

/// Where a locale's customers shop: the store they order from, its currency, their time zone, and
/// the names they go by with the term of address each prefers.
///
/// Markets come from a configuration (``MarketDirectory``): each store of `menu.json` that names
/// its locale, currency and time zone is one, with customers from `traffic.json`.
public struct Market: Sendable, Hashable {
    public struct Customer: Sendable, Hashable {
        public var name: String
        public var termOfAddress: Caffe_V1_TermOfAddress

        public init(_ name: String, _ termOfAddress: Caffe_V1_TermOfAddress) {
            self.name = name
            self.termOfAddress = termOfAddress
        }
    }

    public var locale: String
    public var storeID: String
    public var currencyCode: String
    public var timeZone: String
    public var customers: [Customer]

    public init(locale: String, storeID: String, currencyCode: String, timeZone: String, customers: [Customer]) {
        self.locale = locale
        self.storeID = storeID
        self.currencyCode = currencyCode
        self.timeZone = timeZone
        self.customers = customers
    }
}
