import CaffeProtocol
import Foundation
import Localization
import SwiftProtobuf

/// Checks a catalog against what the product renders: every catalog string the core uses, in
/// every localization, with the argument types the core passes — by rendering, for each
/// localization, orders that reach every one of them (every plural category a quantity up to
/// 1000 can take, every term of address, a tip, a pickup time), on both render paths (the
/// compiled wire path and the message path).
///
/// A catalog that loads can still fail every order: a translator's `%lld` where the core passes a
/// name, a variant with one argument too many. `caffe worker` runs this at start, on reload and
/// with `--check-config`, and refuses such a catalog instead of dead-lettering every order in
/// that localization.
public enum CatalogProbe {
    /// One localization whose strings do not render.
    public struct Failure: Hashable, Sendable, CustomStringConvertible {
        public var localization: String
        public var message: String
        public var description: String { "\(localization): \(message)" }
    }

    /// The quantities probed: together they take every plural category CLDR gives an integer.
    static let quantities: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 15, 21, 22, 25, 100, 101, 102, 111, 1000]

    /// The localizations whose strings fail with the core's values, each with the first failure.
    /// Failures that are the probe's own (a menu without a priced line) are not reported.
    public static func run(_ core: RenderingCore) -> [Failure] {
        guard let base = probeOrder(core.menu, maximumQuantity: UInt64(core.defaults.maximumQuantity)) else {
            return []
        }
        var failures: [Failure] = []
        for localization in core.catalog.localizations where localization != "Base" {
            let session = core.makeSession()
            for term in [Caffe_V1_TermOfAddress.unspecified, .feminine, .masculine, .neutral] {
                var order = base
                order.customer.locale = localization
                order.customer.termOfAddress = term
                if let failure = failure(of: order, session: session, localization: localization) {
                    failures.append(failure)
                    break
                }
            }
        }
        return failures
    }

    /// The first catalog failure rendering `order` on both paths, if any.
    private static func failure(
        of order: Caffe_V1_OrderEvent,
        session: RenderSession,
        localization: String
    ) -> Failure? {
        do {
            _ = try session.render(order)
            let bytes: [UInt8] = try order.serializedBytes()
            _ = try bytes.withUnsafeBytes { try session.renderOrder(bytes: $0) }
        } catch let error as RenderError where error.isConfigurationFault {
            return Failure(localization: localization, message: error.message)
        } catch {
            // Not the catalog's: the probe order itself (kept valid for any menu) or ICU.
        }
        return nil
    }

    /// An order over the menu's first store, in a currency every line has a price in, with a line
    /// per probed quantity (each under the core's maximum), cycling through the priced items.
    static func probeOrder(_ menu: Menu, maximumQuantity: UInt64) -> Caffe_V1_OrderEvent? {
        guard let store = menu.stores.first else { return nil }
        let currencies = Set(menu.items.flatMap { $0.prices.values.flatMap(\.keys) }).sorted()
        for currency in currencies {
            var priced: [(item: String, size: String)] = []
            for item in menu.items {
                for size in menu.sizes where item.prices[size.id]?[currency] != nil {
                    priced.append((item.id, size.id))
                }
            }
            guard !priced.isEmpty else { continue }
            var order = Caffe_V1_OrderEvent.synthetic("catalog-probe", store: store.id, currency: currency)
            order.customer.timeZone = "UTC"
            order.tip = "1"
            for (index, quantity) in quantities.enumerated() where quantity <= maximumQuantity {
                var line = Caffe_V1_OrderLine()
                line.itemID = priced[index % priced.count].item
                line.size = priced[index % priced.count].size
                line.quantity = quantity
                order.lines.append(line)
            }
            return order
        }
        return nil
    }
}

extension RenderError {
    /// Whether the failure is the configuration's rather than the order's: a catalog string that
    /// does not render with the values the core passes. Such an order is fine; it waits for a
    /// fixed catalog rather than being dead-lettered.
    public var isConfigurationFault: Bool { code == .renderFailed && field == nil }
}
