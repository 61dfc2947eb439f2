import CaffeCore
import CaffeProtocol
import Foundation
import Localization

/// The markets a configuration has, for generated traffic: one for each store of its menu that
/// names its locale, currency and time zone, in the menu's order, with customers from its
/// `traffic.json` (``TrafficSettings``).
///
/// ```swift
/// let markets = try MarketDirectory.load(configurationDirectory: folder)
/// let mix = try markets.mix("it-IT:2,pt-BR:1")   // or "all", or nil for the default
/// ```
///
/// What it had to make do without — a market no customer list names, a store that is no market,
/// a localization no store sells in — is in ``notes``, for the command to print.
public struct MarketDirectory: Sendable {
    /// Every configured market, in the menu's store order.
    public let markets: [Market]
    /// The markets of traffic without `--locales`: `traffic.json`'s `defaultLocales`, or all.
    public let defaultLocales: [String]
    /// What the directory could not tell and made do without, one sentence each.
    public let notes: [String]
    /// Catalog localizations that no market's locale falls back to first: traffic cannot reach them.
    public let localizationsWithoutMarket: [String]

    /// A market that is not configured, or a mix that cannot be used.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// The markets of `menu`'s stores, with customers from `traffic` (none given: nameless
    /// customers, every market the default) and, when `catalog` is given, which localization each
    /// market is rendered in.
    public init(menu: Menu, traffic: TrafficSettings?, catalog: StringCatalog? = nil) {
        var markets: [Market] = []
        var notes: [String] = []
        if traffic == nil {
            notes.append("no \(TrafficSettings.fileName) in the configuration: every market's customers are nameless")
        }
        for store in menu.stores {
            guard let locale = store.locale, let currency = store.currencyCode, let zone = store.timeZone else {
                let missing = store.missingMarketFields.joined(separator: ", ")
                notes.append("\(store.id) is no market: menu.json gives it no \(missing)")
                continue
            }
            guard !markets.contains(where: { $0.locale == locale }) else {
                notes.append("\(store.id) is no market: \(locale) is served by an earlier store of menu.json")
                continue
            }
            var customers = traffic?.customers(for: locale) ?? []
            if customers.isEmpty {
                if traffic != nil {
                    notes.append(
                        "\(locale): \(TrafficSettings.fileName) lists no customers for it or its language; its "
                            + "orders carry no name"
                    )
                }
                customers = [Market.Customer("", .unspecified)]
            }
            markets.append(
                Market(locale: locale, storeID: store.id, currencyCode: currency, timeZone: zone, customers: customers)
            )
        }
        self.markets = markets
        defaultLocales = traffic?.defaultLocales ?? markets.map(\.locale)
        localizationsWithoutMarket =
            catalog.map { catalog in
                MarketReadiness(menu: menu, catalog: catalog).localizations().filter(\.stores.isEmpty)
                    .map(\.localization)
            } ?? []
        self.notes = notes
    }

    /// The markets of the configuration folder `folder`: its `menu.json`, `traffic.json` and
    /// `Localizations/` (read only to say which localizations no market reaches).
    public static func load(configurationDirectory folder: URL) throws -> MarketDirectory {
        let menu = try Menu(contentsOf: folder.appendingPathComponent("menu.json"))
        let traffic = try TrafficSettings.load(from: folder)
        let catalog = try? StringCatalog(directory: folder.appendingPathComponent("Localizations"))
        return MarketDirectory(menu: menu, traffic: traffic, catalog: catalog)
    }

    /// The market for `locale`, if one is configured.
    public func market(_ locale: String) -> Market? {
        markets.first { $0.locale == locale }
    }

    /// The weighted markets `text` names: `en-US:40,es-MX:20` (a locale without a weight weighs 1),
    /// `all` (every market, 1 each; later entries change a weight: `all,en-US:5`), or the default
    /// (``defaultLocales``, 1 each) when `nil` or empty.
    ///
    /// - Throws: ``Failure`` naming the configured markets when a locale is not one of them, for a
    ///   malformed weight, and when no market is left with a positive weight.
    public func mix(_ text: String?) throws(Failure) -> [(market: Market, weight: Int)] {
        var result: [(market: Market, weight: Int)] = []
        func set(_ market: Market, _ weight: Int) {
            if let index = result.firstIndex(where: { $0.market.locale == market.locale }) {
                result[index].weight = weight
            } else {
                result.append((market, weight))
            }
        }
        let entries = (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if entries.isEmpty {
            for locale in defaultLocales {
                guard let market = market(locale) else {
                    throw Failure(
                        description: "\(TrafficSettings.fileName): defaultLocales names \(locale), which is not a "
                            + "configured market; \(configured)"
                    )
                }
                set(market, 1)
            }
        }
        for entry in entries {
            let parts = entry.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let weight = parts.count == 2 ? Int(parts[1]) : 1
            guard let weight, weight >= 0, !parts[0].isEmpty else {
                throw Failure(description: "'\(entry)' is not locale:weight with a whole weight, such as es-MX:20")
            }
            if parts[0] == "all" {
                for market in markets { set(market, weight) }
                continue
            }
            guard let market = market(parts[0]) else { throw Failure(description: unknown(parts[0])) }
            set(market, weight)
        }
        guard result.contains(where: { $0.weight > 0 }) else {
            throw Failure(description: "no market has a positive weight in '\(text ?? "")'")
        }
        return result
    }

    /// `the configured markets are en-US, …` (or that there are none).
    private var configured: String {
        markets.isEmpty
            ? "the configuration has no market (a store in menu.json with locale, currency and timeZone)"
            : "the configured markets are " + markets.map(\.locale).joined(separator: ", ")
    }

    /// Why `locale` is no market, and what would make it one.
    private func unknown(_ locale: String) -> String {
        var text = "no market for \(locale); \(configured)"
        if let waiting = localizationsWithoutMarket.first(where: { LocalizationMatcher.descends(locale, from: $0) }) {
            text += ". The catalogs have the localization \(waiting), but no store of menu.json sells in it"
        }
        return text
            + ". A market is a store in menu.json with \"locale\", \"currency\" and \"timeZone\" "
            + "(README: Adding a language)"
    }
}
