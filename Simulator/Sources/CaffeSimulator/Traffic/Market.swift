import CaffeProtocol

/// Where a locale's customers shop: the store they order from, its currency, their time zone, and
/// the names they go by with the term of address each prefers.
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

    /// The markets of the default menu (`config/menu.json`): one per store, each locale's customers
    /// feminine, masculine and unknown, and one without a name.
    public static let defaults: [Market] = [
        Market(
            locale: "en-US",
            storeID: "store-us-sfo",
            currencyCode: "USD",
            timeZone: "America/Los_Angeles",
            customers: [
                .init("Ana", .feminine), .init("James", .masculine), .init("Sam", .unspecified),
                .init("", .unspecified),
            ]
        ),
        Market(
            locale: "es-ES",
            storeID: "store-es-mad",
            currencyCode: "EUR",
            timeZone: "Europe/Madrid",
            customers: [
                .init("Lucía", .feminine), .init("Javier", .masculine), .init("Alex", .unspecified),
                .init("", .unspecified),
            ]
        ),
        Market(
            locale: "es-MX",
            storeID: "store-mx-cdmx",
            currencyCode: "MXN",
            timeZone: "America/Mexico_City",
            customers: [
                .init("Ximena", .feminine), .init("Diego", .masculine), .init("Dani", .unspecified),
                .init("", .unspecified),
            ]
        ),
        Market(
            locale: "fr-FR",
            storeID: "store-fr-par",
            currencyCode: "EUR",
            timeZone: "Europe/Paris",
            customers: [.init("Camille", .feminine), .init("Louis", .masculine), .init("Dominique", .unspecified)]
        ),
        Market(
            locale: "de-DE",
            storeID: "store-de-ber",
            currencyCode: "EUR",
            timeZone: "Europe/Berlin",
            customers: [.init("Anna", .feminine), .init("Lukas", .masculine), .init("Kim", .unspecified)]
        ),
        Market(
            locale: "ja-JP",
            storeID: "store-jp-tyo",
            currencyCode: "JPY",
            timeZone: "Asia/Tokyo",
            customers: [.init("さくら", .feminine), .init("蓮", .masculine), .init("ひかる", .unspecified)]
        ),
        Market(
            locale: "ar-EG",
            storeID: "store-eg-cai",
            currencyCode: "EGP",
            timeZone: "Africa/Cairo",
            customers: [.init("مريم", .feminine), .init("أحمد", .masculine), .init("نور", .unspecified)]
        ),
    ]
}
