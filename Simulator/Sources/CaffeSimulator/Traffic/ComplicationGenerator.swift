import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf

/// Deterministic "next free coffee" requests: users of every market, some with a 12- or 24-hour
/// cycle of their own, dates spread over the days around a DST change and a year end.
public struct ComplicationGenerator: Sendable {
    public struct Configuration: Sendable {
        public var seed: UInt64
        /// Markets and their relative weights.
        public var markets: [(market: Market, weight: Int)]
        /// The instants dates cluster around; each request falls within two days of one.
        public var anchors: [Date]

        /// The 2026 European and US DST changes and the 2026/27 year end.
        public static let defaultAnchors = [1_774_746_000, 1_793_494_800, 1_772_953_200, 1_798_761_600].map {
            Date(timeIntervalSince1970: $0)
        }

        public init(
            seed: UInt64 = 1,
            markets: [(market: Market, weight: Int)],
            anchors: [Date] = Configuration.defaultAnchors
        ) {
            self.seed = seed
            self.markets = markets
            self.anchors = anchors
        }
    }

    public let configuration: Configuration
    private var random: SeededRandom
    private var count: UInt64 = 0
    private let totalWeight: Int

    public init(configuration: Configuration) {
        precondition(
            configuration.markets.contains { $0.weight > 0 } && !configuration.anchors.isEmpty,
            "a complication stream needs markets and anchors"
        )
        self.configuration = configuration
        random = SeededRandom(seed: configuration.seed)
        totalWeight = configuration.markets.reduce(0) { $0 + max($1.weight, 0) }
    }

    public mutating func next() -> Caffe_V1_ComplicationRequest {
        count += 1
        let market = pickMarket()
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "cx-\(count)"
        request.userID = "\(market.locale)-u\(random.below(100_000))"
        request.locale = market.locale
        request.timeZone = market.timeZone
        switch random.below(10) {
        case 0: request.hourCycle = "h12"
        case 1: request.hourCycle = "h23"
        default: break
        }
        let anchor = Int64(random.pick(configuration.anchors).timeIntervalSince1970)
        // Whole minutes within two days either side.
        request.nextFreeCoffee = Google_Protobuf_Timestamp(
            seconds: anchor + Int64(random.below(5760) - 2880) * 60,
            nanos: 0
        )
        if random.chance(20) {
            request.families = [random.pick(Caffe_V1_ComplicationFamily.rendered)]
        }
        return request
    }

    public mutating func next(_ count: Int) -> [Caffe_V1_ComplicationRequest] {
        (0..<count).map { _ in next() }
    }

    /// A market by weight (with equal weights, each equally likely: one draw below their count).
    private mutating func pickMarket() -> Market {
        var ticket = random.below(totalWeight)
        for entry in configuration.markets where entry.weight > 0 {
            if ticket < entry.weight { return entry.market }
            ticket -= entry.weight
        }
        return configuration.markets[configuration.markets.count - 1].market
    }
}
