import CaffeProtocol
import Localization

/// The menu looked up by the bytes of an event's fields: items, sizes and stores by their ids,
/// currencies by their codes, each price by (item, size, currency) index. Built once per session.
final class WireMenu {
    let menu: Menu
    private let items = ByteKeyedTable<Int>(capacity: 4096)
    private let sizes = ByteKeyedTable<Int>(capacity: 256)
    private let stores = ByteKeyedTable<Int>(capacity: 4096)
    private let currencyIndexes = ByteKeyedTable<Int>(capacity: 512)
    /// Currencies seen so far, and per currency every price: `prices[currency][item * sizes + size]`.
    private(set) var currencies: [Currency] = []
    private var prices: [[Money?]] = []
    /// Whether each item is a food (its ingredients are listed on the receipt).
    let isFood: [Bool]

    init(menu: Menu) {
        self.menu = menu
        for (index, item) in menu.items.enumerated() { items.insert(index, for: item.id) }
        for (index, size) in menu.sizes.enumerated() { sizes.insert(index, for: size.id) }
        for (index, store) in menu.stores.enumerated() { stores.insert(index, for: store.id) }
        isFood = menu.items.map { $0.category == .food }
    }

    func item(_ id: UnsafeRawBufferPointer) -> Int? { items.value(id) }
    func size(_ id: UnsafeRawBufferPointer) -> Int? { sizes.value(id) }
    func store(_ id: UnsafeRawBufferPointer) -> Int? { stores.value(id) }

    /// The currency with this code, ICU asked once per code; `nil` for a code ICU does not know.
    func currency(_ code: UnsafeRawBufferPointer) -> Int? {
        if let index = currencyIndexes.value(code) { return index }
        guard code.count == 3, let currency = Currency(code: String(decoding: code, as: UTF8.self)) else {
            return nil
        }
        let index = currencies.count
        currencies.append(currency)
        var table: [Money?] = []
        table.reserveCapacity(menu.items.count * menu.sizes.count)
        for item in menu.items {
            for size in menu.sizes { table.append(item.prices[size.id]?[currency.code]) }
        }
        prices.append(table)
        currencyIndexes.insert(index, for: code)
        return index
    }

    /// The price of `item` in `size` in the currency at `currency`, if the menu has one.
    @inline(__always)
    func price(item: Int, size: Int, currency: Int) -> Money? {
        prices[currency][item * menu.sizes.count + size]
    }
}
