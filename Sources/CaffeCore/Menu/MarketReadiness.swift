import Localization

extension CatalogDiagnostic.Code {
    /// A store's currency lacks a price for a menu item in some size: its orders are dead-lettered
    /// (`missing-price`).
    public static let missingPrice = Self("missing-price")
    /// A localization no store of the menu sells in: no order reaches it and no traffic can be
    /// generated for it.
    public static let localizationWithoutStore = Self("localization-without-store")
    /// A store whose locale no localization serves: its customers read the development language.
    public static let storeWithoutLocalization = Self("store-without-localization")
    /// A store the menu gives no locale, currency or time zone: what it sells in is not known.
    public static let storeWithoutMarket = Self("store-without-market")
}

/// Whether a menu is ready for a catalog's localizations, before any order is rendered: for each
/// localization the stores that sell in it, and for each store the menu items its currency has no
/// price for (`caffe lint --menu`).
///
/// A store sells in the localization its locale falls back to first (`es-MX` → `es-419`); a store
/// without a locale, currency and time zone (`menu.json`'s `stores[i]`) cannot be checked, and says so.
public struct MarketReadiness: Sendable {
    public let menu: Menu
    public let catalog: StringCatalog
    /// The menu's file as the findings name it.
    public let menuFile: String

    /// Every code the check reports.
    public static let codes: [LintCode] = [
        LintCode(
            .missingPrice,
            [.error],
            "a store's currency has no price for a menu item in a size: orders for it fail"
        ),
        LintCode(.localizationWithoutStore, [.warning], "a localization no store of the menu sells in"),
        LintCode(
            .storeWithoutLocalization,
            [.warning],
            "a store whose locale no localization serves: customers read the development language"
        ),
        LintCode(
            .storeWithoutMarket,
            [.warning],
            "a store the menu gives no locale, currency or timeZone: not checked"
        ),
    ]

    public init(menu: Menu, catalog: StringCatalog, menuFile: String = "menu.json") {
        self.menu = menu
        self.catalog = catalog
        self.menuFile = menuFile
    }

    /// One localization and the stores that sell in it.
    public struct Localization: Sendable, Hashable {
        public var localization: String
        public var stores: [Store]
    }

    /// A store and what its currency cannot buy.
    public struct Store: Sendable, Hashable {
        public var id: String
        public var locale: String
        public var currency: String
        /// Each item with the sizes it comes in that have no price in the currency.
        public var unpriced: [Unpriced]
    }

    /// A menu item and the sizes a store's currency has no price for.
    public struct Unpriced: Sendable, Hashable {
        public var item: String
        public var sizes: [String]
    }

    /// Each localization (the catalog's order) with the stores selling in it.
    public func localizations() -> [Localization] {
        localizations(of: checkedStores())
    }

    private func localizations(of stores: [Store]) -> [Localization] {
        catalog.localizations.filter { $0 != "Base" }.map { localization in
            Localization(
                localization: localization,
                stores: stores.filter { catalog.fallbackChain(for: $0.locale).first == localization }
            )
        }
    }

    /// The findings: a price missing for an item in a store's currency (an error), a localization
    /// no store sells in, a store no localization serves, a store that cannot be checked (warnings).
    public func lint() -> LintReport {
        var findings: [CatalogDiagnostic] = []
        for store in menu.stores where !store.missingMarketFields.isEmpty {
            let missing = store.missingMarketFields
            findings.append(
                CatalogDiagnostic(
                    .warning,
                    .storeWithoutMarket,
                    file: menuFile,
                    key: store.id,
                    message: "the store has no \(missing.joined(separator: ", ")): which localization and currency "
                        + "it sells in is not known, so its prices are not checked and caffe-sim has no market for it"
                )
            )
        }
        let checked = checkedStores()
        for store in checked {
            let chain = catalog.fallbackChain(for: store.locale)
            if chain.first == catalog.developmentLanguage,
                !LocalizationMatcher.descends(store.locale, from: catalog.developmentLanguage)
            {
                findings.append(
                    CatalogDiagnostic(
                        .warning,
                        .storeWithoutLocalization,
                        file: menuFile,
                        key: store.id,
                        locale: store.locale,
                        message: "no localization serves \(store.locale): its customers read "
                            + "\(catalog.developmentLanguage)"
                    )
                )
            }
            for (item, sizes) in store.unpriced.map({ ($0.item, $0.sizes) }) {
                findings.append(
                    CatalogDiagnostic(
                        .error,
                        .missingPrice,
                        file: menuFile,
                        key: item,
                        locale: store.locale,
                        message: "\(store.id) sells in \(store.currency), and \(item) has no \(store.currency) price "
                            + "for \(sizes.joined(separator: ", ")): its orders there are dead-lettered (missing-price)"
                    )
                )
            }
        }
        for localization in localizations(of: checked) where localization.stores.isEmpty {
            findings.append(
                CatalogDiagnostic(
                    .warning,
                    .localizationWithoutStore,
                    file: menuFile,
                    locale: localization.localization,
                    message: "no store of the menu sells in \(localization.localization): no order is rendered in it "
                        + "unless a customer of another store asks for it, and caffe-sim has no market for it (add a "
                        + "store with its locale, currency, timeZone and prices)"
                )
            )
        }
        return LintReport(findings: findings)
    }

    /// The stores with a locale, currency and time zone, with the items they cannot price.
    private func checkedStores() -> [Store] {
        menu.stores.compactMap { store in
            guard let locale = store.locale, let currency = store.currencyCode, store.timeZone != nil else {
                return nil
            }
            let unpriced = menu.items.compactMap { item -> Unpriced? in
                // The sizes the item comes in (priced in some currency) that this currency lacks.
                let sizes = menu.sizes.map(\.id).filter { item.prices[$0] != nil && item.prices[$0]?[currency] == nil }
                return sizes.isEmpty ? nil : Unpriced(item: item.id, sizes: sizes)
            }
            return Store(id: store.id, locale: locale, currency: currency, unpriced: unpriced)
        }
    }
}
