import CaffeCore
import CaffeProtocol
import Foundation
import Localization
import SwiftProtobuf

/// Deterministic synthetic orders from a menu: the same seed gives the same stream, byte for byte.
///
/// Customers come from the configured markets (weighted), with their names, locales, time zones and
/// terms of address; lines are distinct menu items in sizes the store's currency prices, quantities
/// mostly 1–3 with some 0 and some up to 21; tips in the currency's minor units; placed every few
/// minutes from a start time, most with a pickup time 10–40 minutes later.
public struct OrderGenerator: Sendable {
    public struct Configuration: Sendable {
        public var seed: UInt64
        public var sourceID: String
        /// Markets and their relative weights.
        public var markets: [(market: Market, weight: Int)]
        /// When the first order is placed.
        public var start: Date
        /// Mean seconds between orders.
        public var meanInterval: Int

        /// The default start, 2026-03-28 20:00 UTC, puts a long stream across the European DST change.
        public init(
            seed: UInt64 = 1,
            sourceID: String = "sim-1",
            markets: [(market: Market, weight: Int)],
            start: Date = Date(timeIntervalSince1970: 1_774_728_000),
            meanInterval: Int = 420
        ) {
            self.seed = seed
            self.sourceID = sourceID
            self.markets = markets
            self.start = start
            self.meanInterval = meanInterval
        }
    }

    /// A market the menu cannot serve.
    public struct MarketError: Error, CustomStringConvertible {
        public var description: String
    }

    private struct Offer {
        var itemID: String
        var sizeIDs: [String]
    }

    public let configuration: Configuration
    private var random: SeededRandom
    private var sequence: UInt64 = 0
    private var clock: Int64
    private let totalWeight: Int
    /// Per market: what its currency can buy, and how many minor units its tips have.
    private let offers: [[Offer]]
    private let fractionDigits: [Int]

    /// - Throws: ``MarketError`` when a market's store or currency is not on the menu, or no weight
    ///   is positive.
    public init(menu: Menu, configuration: Configuration) throws(MarketError) {
        self.configuration = configuration
        random = SeededRandom(seed: configuration.seed)
        clock = Int64(configuration.start.timeIntervalSince1970.rounded(.down))
        totalWeight = configuration.markets.reduce(0) { $0 + max($1.weight, 0) }
        guard !configuration.markets.isEmpty else {
            throw MarketError(description: "no market given (MarketDirectory.mix names a configuration's markets)")
        }
        guard totalWeight > 0 else { throw MarketError(description: "no market has a positive weight") }
        var offers: [[Offer]] = []
        var digits: [Int] = []
        for (market, _) in configuration.markets {
            guard menu.store(market.storeID) != nil else {
                throw MarketError(description: "\(market.locale): store '\(market.storeID)' is not on the menu")
            }
            guard let currency = Currency(code: market.currencyCode) else {
                throw MarketError(description: "\(market.locale): '\(market.currencyCode)' is not a currency")
            }
            guard !market.customers.isEmpty else {
                throw MarketError(description: "\(market.locale): the market has no customers")
            }
            let available = menu.items.compactMap { item -> Offer? in
                let sizes = menu.sizes.map(\.id).filter { item.prices[$0]?[market.currencyCode] != nil }
                return sizes.isEmpty ? nil : Offer(itemID: item.id, sizeIDs: sizes)
            }
            guard !available.isEmpty else {
                throw MarketError(
                    description: "\(market.locale): nothing on the menu is priced in \(market.currencyCode)"
                )
            }
            offers.append(available)
            digits.append(currency.fractionDigits)
        }
        self.offers = offers
        fractionDigits = digits
    }

    /// The next order of the stream, numbered from 1 on the configured source.
    public mutating func next() -> Caffe_V1_OrderEvent {
        sequence += 1
        clock += Int64(1 + random.below(2 * configuration.meanInterval))
        let marketIndex = pickMarket()
        let market = configuration.markets[marketIndex].market
        let customer = random.pick(market.customers)

        var event = Caffe_V1_OrderEvent()
        event.orderID = "\(configuration.sourceID)-\(sequence)"
        event.sourceID = configuration.sourceID
        event.sequence = sequence
        event.placedAt = Google_Protobuf_Timestamp(seconds: clock, nanos: 0)
        if random.chance(85) {
            event.pickupAt = Google_Protobuf_Timestamp(seconds: clock + Int64(600 + 300 * random.below(7)), nanos: 0)
        }
        event.storeID = market.storeID
        event.currencyCode = market.currencyCode
        event.customer.customerID = "\(market.locale)-c\(random.below(10_000))"
        event.customer.name = customer.name
        event.customer.locale = market.locale
        event.customer.timeZone = market.timeZone
        event.customer.termOfAddress = customer.termOfAddress

        var available = offers[marketIndex]
        for _ in 0..<min(1 + random.below(4), available.count) {
            let offer = available.remove(at: random.below(available.count))
            var line = Caffe_V1_OrderLine()
            line.itemID = offer.itemID
            line.size = random.pick(offer.sizeIDs)
            line.quantity = UInt64(quantity())
            event.lines.append(line)
        }
        if random.chance(60) { event.tip = tip(fractionDigits: fractionDigits[marketIndex]) }
        return event
    }

    /// The next `count` orders.
    public mutating func next(_ count: Int) -> [Caffe_V1_OrderEvent] {
        (0..<count).map { _ in next() }
    }

    private mutating func pickMarket() -> Int {
        var ticket = random.below(totalWeight)
        for (index, entry) in configuration.markets.enumerated() where entry.weight > 0 {
            if ticket < entry.weight { return index }
            ticket -= entry.weight
        }
        return configuration.markets.count - 1
    }

    /// Mostly 1–3; sometimes 0 (a line the customer emptied) and sometimes a crowd, up to 21.
    private mutating func quantity() -> UInt32 {
        switch random.below(100) {
        case 0..<3: 0
        case 3..<58: 1
        case 58..<83: 2
        case 83..<95: UInt32(3 + random.below(3))
        default: UInt32(6 + random.below(16))
        }
    }

    /// A tip of 1 to 20 major units, with minor units when the currency has them.
    private mutating func tip(fractionDigits: Int) -> String {
        let major = 1 + random.below(20)
        guard fractionDigits > 0 else { return String(major) }
        var minor = String(random.below(Int(pow(10, Double(fractionDigits)))))
        minor = String(repeating: "0", count: fractionDigits - minor.count) + minor
        return "\(major).\(minor)"
    }
}
