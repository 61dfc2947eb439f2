import CaffeProtocol
import Localization
import SwiftProtobuf

/// Orders and complication requests that, rendered once by a session, compile what the first
/// real inputs of its markets would otherwise compile in their own render: a locale's order
/// program, its line and agreement caches for every menu item, size and plural category, its
/// currency format, and its date and complication formats in each time zone of its region.
///
/// Measured with the worker at 10,000 orders/s: a cold session put the first second's p99 at
/// 27–48 ms; warmed, 7.6–8.5 ms (what remains is combinations not rendered here, such as exact
/// quantities). Each input is small and rendered on its own, so a worker takes them one at a
/// time while it has nothing else to do.
///
/// ```swift
/// var warmUp = SessionWarmUp(core: core, locales: ["de", "es-MX"])
/// while let item = warmUp.next() { session.warmUp(with: item) }
/// ```
public struct SessionWarmUp: Sendable {
    /// One warm-up input: an `OrderEvent`'s or a `ComplicationRequest`'s bytes.
    public enum Item: Sendable {
        case order([UInt8])
        case complication([UInt8])
    }

    private var items: [Item]
    private var position = 0

    /// Orders for `locales` and, for a locale without a region, its likely one (`de` → `de-DE`):
    /// for each, one order per term of address with a line for every priced item and size, and
    /// one single-line order per time zone of its region (capped at ``zonesPerRegion``), and a
    /// complication request (every family) per zone.
    public init(core: RenderingCore, locales: [String]) {
        var tags: [String] = []
        for locale in locales where LocaleTag.isWellFormed(locale) {
            tags.append(locale)
            let language = locale.split(separator: "-").first.map(String.init) ?? locale
            if language == locale, let region = ICUInventory.likelyRegion(of: locale) {
                tags.append("\(language)-\(region)")
            }
        }
        var seen: Set<String> = []
        tags = tags.filter { seen.insert($0).inserted }
        items = []
        let menu = core.menu
        guard let store = menu.stores.first else { return }
        let priced = Set(menu.items.flatMap { $0.prices.values.flatMap(\.keys) })
        let maximum = UInt64(core.defaults.maximumQuantity)
        for tag in tags {
            let wanted = ICUInventory.currency(of: tag)?.code
            guard let currency = wanted.flatMap({ priced.contains($0) ? $0 : nil }) ?? priced.sorted().first else {
                continue
            }
            let lines = menu.items.flatMap { item in
                menu.sizes.filter { item.prices[$0.id]?[currency] != nil }.map { (item: item.id, size: $0.id) }
            }
            guard !lines.isEmpty else { continue }
            func order(term: Caffe_V1_TermOfAddress, zone: String, shift: Int, count: Int) -> [UInt8]? {
                var order = Caffe_V1_OrderEvent.synthetic("warm-up", store: store.id, currency: currency)
                order.customer.locale = tag
                order.customer.timeZone = zone
                order.customer.termOfAddress = term
                for (index, pair) in lines.prefix(count).enumerated() {
                    var line = Caffe_V1_OrderLine()
                    line.itemID = pair.item
                    line.size = pair.size
                    line.quantity = min(maximum, Self.quantities[(index + shift) % Self.quantities.count])
                    order.lines.append(line)
                }
                return try? order.serializedBytes()
            }
            let zones =
                [core.defaults.timeZone]
                + (ICUInventory.likelyRegion(of: tag).map { ICUInventory.timeZones(inRegion: $0) } ?? []).prefix(
                    Self.zonesPerRegion
                )
            let terms: [Caffe_V1_TermOfAddress] = [.unspecified, .feminine, .masculine, .neutral]
            for (shift, term) in terms.enumerated() {
                if let bytes = order(term: term, zone: zones[0], shift: shift, count: lines.count) {
                    items.append(.order(bytes))
                }
            }
            // A bare language's zones are its likely region's tag's (`de` → `de-DE`), warmed there.
            let hasRegion = tag.split(separator: "-").count > 1
            for zone in zones.dropFirst() where hasRegion && zone != zones[0] {
                if let bytes = order(term: .unspecified, zone: zone, shift: 0, count: 1) { items.append(.order(bytes)) }
            }
            for zone in hasRegion ? zones : [zones[0]] {
                var request = Caffe_V1_ComplicationRequest()
                request.requestID = "warm-up"
                request.userID = "warm-up"
                request.locale = tag
                request.timeZone = zone
                request.nextFreeCoffee = Google_Protobuf_Timestamp(seconds: 1_795_000_000)
                if let bytes: [UInt8] = try? request.serializedBytes() { items.append(.complication(bytes)) }
            }
        }
    }

    /// Quantities whose plural categories cover every category CLDR gives an integer in the
    /// languages Caffe ships (one, two, few, many, other, and Arabic's zero-less forms).
    static let quantities: [UInt64] = [1, 2, 3, 5, 11, 21, 100, 102]

    /// Time zones warmed per region at most (the United States has 29).
    public static let zonesPerRegion = 32

    /// Inputs left.
    public var remaining: Int { items.count - position }

    /// The next input, or `nil` when all have been taken.
    public mutating func next() -> Item? {
        guard position < items.count else { return nil }
        defer { position += 1 }
        return items[position]
    }
}

extension RenderSession {
    /// Renders a warm-up input and throws the result away, with any agreement notices it raised.
    public func warmUp(with item: SessionWarmUp.Item) {
        let policy = newLocales
        newLocales = .compile
        defer { newLocales = policy }
        switch item {
        case .order(let bytes): _ = try? bytes.withUnsafeBytes { try renderOrder(bytes: $0) }
        case .complication(let bytes): _ = try? bytes.withUnsafeBytes { try renderComplication(bytes: $0) }
        }
        _ = takeAgreementNotices()
    }
}

extension Caffe_V1_OrderEvent {
    /// An order the core makes for itself (the catalog probe, the warm-up): `name` as its order,
    /// source and customer id, sequence 1, placed at a fixed time with a pickup 15 minutes later,
    /// customer "Ada", no lines.
    static func synthetic(_ name: String, store: String, currency: String) -> Caffe_V1_OrderEvent {
        var order = Caffe_V1_OrderEvent()
        order.orderID = name
        order.sourceID = name
        order.sequence = 1
        order.storeID = store
        order.currencyCode = currency
        order.placedAt = Google_Protobuf_Timestamp(seconds: 1_795_000_000)
        order.pickupAt = Google_Protobuf_Timestamp(seconds: 1_795_000_900)
        order.customer.customerID = name
        order.customer.name = "Ada"
        return order
    }
}
