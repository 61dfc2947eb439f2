// Caffe — simulator tests.
import CaffeSimulator
import Foundation

/// The markets of the repository's `config/`, as the simulator's commands read them.
enum TestMarkets {
    static let directory: MarketDirectory = {
        do {
            return try MarketDirectory.load(configurationDirectory: CatalogBenchmarkTests.configuration)
        } catch {
            fatalError("config/ has no markets: \(error)")
        }
    }()

    /// The weighted markets `text` names (`nil`: `traffic.json`'s default).
    static func mix(_ text: String? = nil) throws -> [(market: Market, weight: Int)] {
        try directory.mix(text)
    }
}
