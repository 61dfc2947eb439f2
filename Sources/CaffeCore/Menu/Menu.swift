import Foundation
import GrammarAgreement
import Localization

/// The café's menu: items with their localized-name keys, category, ingredients and prices per
/// size and currency, the sizes, and the stores with their tax rates. Read from `config/menu.json`
/// and checked whole at load; once made, every price in it fits its currency.
public struct Menu: Sendable {
    /// What an item is: food lists its ingredients on the receipt.
    public enum Category: String, Hashable, Sendable, Codable {
        case food, drink
    }

    /// A size every item is priced in (`small`, `large`).
    public struct Size: Hashable, Sendable {
        /// The id orders name.
        public let id: String
        /// The key of the size's name in ``Menu/nameTable`` ("large" → "grande").
        public let nameKey: String
    }

    /// Something on the menu.
    public struct Item: Sendable {
        /// The id orders name (`pizza`).
        public let id: String
        /// The key of the item's name in ``Menu/nameTable``.
        public let nameKey: String
        /// Food or drink.
        public let category: Category
        /// Keys of the ingredients' names in ``Menu/nameTable``, in the order they are listed.
        public let ingredientKeys: [String]
        /// Price by size id, then by currency code.
        public let prices: [String: [String: Money]]
    }

    /// A store orders name (`store-us-sfo`).
    public struct Store: Hashable, Sendable {
        /// The id orders name.
        public let id: String
        /// The sales-tax rate as a fraction (0.0825 for 8.25 %).
        public let taxRate: Decimal
        /// The rate as written in the menu, for the wire ("0.0825").
        public let taxRateText: String
        /// The rate's digits, for exact integer arithmetic (825 and 4 for "0.0825").
        let parsedTaxRate: DecimalAmount.Parsed
        /// The locale its customers order in (`en-US`), when the menu says; with ``currencyCode``
        /// and ``timeZone`` it makes the store a market the simulator can send traffic for.
        public let locale: String?
        /// The ISO 4217 currency it sells in (`USD`), when the menu says.
        public let currencyCode: String?
        /// The IANA time zone it is in (`America/Los_Angeles`), when the menu says.
        public let timeZone: String?

        /// What the menu leaves out of a market (`locale`, `currency`, `timeZone`, as `menu.json`
        /// names them); empty when the store is one.
        public var missingMarketFields: [String] {
            [
                locale == nil ? "locale" : nil, currencyCode == nil ? "currency" : nil,
                timeZone == nil ? "timeZone" : nil,
            ]
            .compactMap { $0 }
        }
    }

    /// The catalog table holding item, size, ingredient and store names.
    public let nameTable: String
    /// Every size, in the menu's order.
    public let sizes: [Size]
    /// Every item, in the menu's order.
    public let items: [Item]
    /// Every store, in the menu's order.
    public let stores: [Store]
    private let itemsByID: [String: Item]
    private let sizesByID: [String: Size]
    private let storesByID: [String: Store]

    /// The item `id`, if the menu has it.
    public func item(_ id: String) -> Item? { itemsByID[id] }
    /// The size `id`, if the menu has it.
    public func size(_ id: String) -> Size? { sizesByID[id] }
    /// The store `id`, if the menu has it.
    public func store(_ id: String) -> Store? { storesByID[id] }

    /// Every name key the menu uses, for checking a catalog against it.
    public var nameKeys: Set<String> {
        Set(items.map(\.nameKey) + items.flatMap(\.ingredientKeys) + sizes.map(\.nameKey))
    }

    /// Reads and checks the menu at `url`.
    public init(contentsOf url: URL) throws(MenuError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MenuError(path: "", "cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(json: data)
    }

    /// Decodes and checks a menu. The first problem found is thrown, naming its JSON path.
    public init(json: Data) throws(MenuError) {
        let file: MenuFile
        do {
            file = try JSONDecoder().decode(MenuFile.self, from: json)
        } catch let error as DecodingError {
            throw MenuError(decoding: error)
        } catch {
            throw MenuError(path: "", "not a menu: \(error.localizedDescription)")
        }
        guard file.version == 1 else {
            throw MenuError(path: "version", "version \(file.version) is not supported (this build reads 1)")
        }
        guard !file.nameTable.isEmpty else { throw MenuError(path: "nameTable", "must not be empty") }
        nameTable = file.nameTable

        var sizesByID: [String: Size] = [:]
        var sizes: [Size] = []
        for (index, size) in file.sizes.enumerated() {
            let path = "sizes[\(index)]"
            try Self.checkEntry(id: size.id, nameKey: size.nameKey, path: path, isNew: sizesByID[size.id] == nil)
            let made = Size(id: size.id, nameKey: size.nameKey)
            sizesByID[size.id] = made
            sizes.append(made)
        }
        guard !file.sizes.isEmpty else { throw MenuError(path: "sizes", "the menu needs at least one size") }
        self.sizes = sizes

        var storesByID: [String: Store] = [:]
        var stores: [Store] = []
        for (index, store) in file.stores.enumerated() {
            let path = "stores[\(index)]"
            try Self.checkEntry(id: store.id, nameKey: nil, path: path, isNew: storesByID[store.id] == nil)
            guard case .success(let rate) = DecimalAmount.parse(store.taxRate), rate.value >= 0, rate.value < 1 else {
                throw MenuError(
                    path: path + ".taxRate",
                    "'\(store.taxRate)' is not a fraction from 0 up to 1 (0.0825 for 8.25 %)"
                )
            }
            if let locale = store.locale, !Self.isLocaleIdentifier(locale) {
                throw MenuError(path: path + ".locale", "'\(locale)' is not a locale identifier such as pl-PL")
            }
            if let code = store.currency, Currency(code: code) == nil {
                throw MenuError(path: path + ".currency", "'\(code)' is not an ISO 4217 currency code")
            }
            if let zone = store.timeZone, TimeZone(identifier: zone) == nil {
                throw MenuError(path: path + ".timeZone", "'\(zone)' is not a time zone such as Europe/Warsaw")
            }
            let made = Store(
                id: store.id,
                taxRate: rate.value,
                taxRateText: store.taxRate,
                parsedTaxRate: rate,
                locale: store.locale,
                currencyCode: store.currency,
                timeZone: store.timeZone
            )
            storesByID[store.id] = made
            stores.append(made)
        }
        self.stores = stores

        var itemsByID: [String: Item] = [:]
        var items: [Item] = []
        for (index, item) in file.items.enumerated() {
            let path = "items[\(index)]"
            try Self.checkEntry(id: item.id, nameKey: item.nameKey, path: path, isNew: itemsByID[item.id] == nil)
            if item.category == .food, item.ingredientKeys.isEmpty {
                throw MenuError(path: path + ".ingredientKeys", "a food lists its ingredients")
            }
            guard !item.prices.isEmpty else { throw MenuError(path: path + ".prices", "the item has no sizes") }
            var prices: [String: [String: Money]] = [:]
            for (sizeID, byCurrency) in item.prices.sorted(by: { $0.key < $1.key }) {
                let sizePath = path + ".prices." + sizeID
                guard sizesByID[sizeID] != nil else {
                    throw MenuError(path: sizePath, "'\(sizeID)' is not one of the menu's sizes")
                }
                guard !byCurrency.isEmpty else { throw MenuError(path: sizePath, "no prices") }
                for (code, text) in byCurrency.sorted(by: { $0.key < $1.key }) {
                    let pricePath = sizePath + "." + code
                    guard let currency = Currency(code: code) else {
                        throw MenuError(path: pricePath, "'\(code)' is not an ISO 4217 currency code")
                    }
                    let price = try Self.price(text, currency: currency, path: pricePath)
                    prices[sizeID, default: [:]][code] = price
                }
            }
            let made = Item(
                id: item.id,
                nameKey: item.nameKey,
                category: item.category,
                ingredientKeys: item.ingredientKeys,
                prices: prices
            )
            itemsByID[item.id] = made
            items.append(made)
        }
        guard !items.isEmpty else { throw MenuError(path: "items", "the menu has no items") }
        self.items = items
        self.itemsByID = itemsByID
        self.sizesByID = sizesByID
        self.storesByID = storesByID
    }

    /// A BCP 47 tag as menus write them: subtags of 1 to 8 letters or digits joined by `-` or `_`,
    /// the first of 2 or 3 letters.
    private static func isLocaleIdentifier(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        func isLetter(_ character: Character) -> Bool { character.isASCII && character.isLetter }
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(isLetter) else { return false }
        return subtags.allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { isLetter($0) || ($0.isASCII && $0.isNumber) }
        }
    }

    /// An entry's id is present and unique, and its name key (if it has one) is present.
    private static func checkEntry(id: String, nameKey: String?, path: String, isNew: Bool) throws(MenuError) {
        guard !id.isEmpty else { throw MenuError(path: path + ".id", "must not be empty") }
        guard isNew else { throw MenuError(path: path + ".id", "'\(id)' is listed twice") }
        if let nameKey, nameKey.isEmpty { throw MenuError(path: path + ".nameKey", "must not be empty") }
    }

    private static func price(_ text: String, currency: Currency, path: String) throws(MenuError) -> Money {
        switch DecimalAmount.parse(text) {
        case .failure:
            throw MenuError(path: path, "'\(text)' is not a decimal string such as \"12.50\"")
        case .success(let parsed):
            guard parsed.value >= 0 else { throw MenuError(path: path, "'\(text)' is negative") }
            guard parsed.fractionDigits <= currency.fractionDigits else {
                throw MenuError(
                    path: path,
                    "'\(text)' has \(parsed.fractionDigits) decimals; \(currency.code) has \(currency.fractionDigits)"
                )
            }
            guard let price = Money(parsed, fractionDigits: currency.fractionDigits) else {
                throw MenuError(path: path, "'\(text)' is too large to be a price")
            }
            return price
        }
    }
}

/// `config/menu.json` as written.
private struct MenuFile: Decodable {
    struct Size: Decodable {
        var id: String
        var nameKey: String
    }
    struct Store: Decodable {
        var id: String
        var taxRate: String
        var locale: String?
        var currency: String?
        var timeZone: String?
    }
    struct Item: Decodable {
        var id: String
        var nameKey: String
        var category: Menu.Category
        var ingredientKeys: [String]
        var prices: [String: [String: String]]
    }
    var version: Int
    var nameTable: String
    var sizes: [Size]
    var stores: [Store]
    var items: [Item]
}

extension Menu {
    /// Where the core puts the menu's names into catalog strings, for ``AgreementPreflight``: the
    /// order line takes a size (argument 2) and an item (argument 3), the ingredients sentence an
    /// item (argument 1).
    public var agreementUses: [AgreementPreflight.Use] {
        let items = Set(items.map(\.nameKey))
        let sizes = Set(sizes.map(\.nameKey))
        return [
            AgreementPreflight.Use(key: CatalogKeys.orderLine, arguments: [1: sizes, 2: items]),
            AgreementPreflight.Use(key: CatalogKeys.ingredients, arguments: [0: items]),
        ]
    }
}
