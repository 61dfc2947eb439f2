import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf

/// `caffe-sim bench core`: the formatting core on one core, beside a straightforward baseline and
/// the ICU4C floor, all measured in the same run on the same generated traffic.
///
/// 1. The core: a ``RenderSession`` renders a fixed set of generated orders (confirmation and
///    receipt, every output form: plain text, attributed runs, HTML) and of complication requests.
/// 2. The baseline (``BaselineRenderer``): the same messages as app code would write them —
///    Foundation `FormatStyle` at every call, `.attributed` dates, catalog strings compiled at every
///    use. Before any timing, both render every order and request and must agree byte for byte.
/// 3. The floor: the formatting calls those orders need, made from C against the same ICU objects,
///    beside the same calls through the core's formatters.
///
/// Each figure is the median over rounds; a round runs whole passes over the set for at least
/// ``Configuration/minimumRoundSeconds``, the implementations taking turns.
public struct CoreBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// The folder holding `menu.json` and `Localizations/`.
        public var configurationDirectory: URL
        public var orders: Int
        public var complications: Int
        public var rounds: Int
        public var minimumRoundSeconds: Double
        public var seed: UInt64

        public init(
            configurationDirectory: URL,
            orders: Int = 1000,
            complications: Int = 1000,
            rounds: Int = 5,
            minimumRoundSeconds: Double = 0.25,
            seed: UInt64 = 1
        ) {
            self.configurationDirectory = configurationDirectory
            self.orders = orders
            self.complications = complications
            self.rounds = rounds
            self.minimumRoundSeconds = minimumRoundSeconds
            self.seed = seed
        }
    }

    public struct Report: Codable, Sendable, Equatable {
        public var orders: Int
        public var complications: Int
        public var ordersPerSecond: Double
        public var complicationsPerSecond: Double
        public var baselineOrdersPerSecond: Double
        public var baselineComplicationsPerSecond: Double
        /// Orders per second if formatting were all an order cost, at the C floor.
        public var icuFloorOrdersPerSecond: Double
        /// Core ÷ baseline, orders.
        public var speedupVsBaseline: Double
        /// Core ÷ baseline, complications.
        public var complicationSpeedupVsBaseline: Double
        /// The core's formatting calls ÷ the same calls from C (1.0 is the floor).
        public var formattingVsICUFloor: Double
        public var formattingCallsPerOrder: Double
        public var coreFormattingNanosecondsPerOrder: Double
        public var icuFloorNanosecondsPerOrder: Double

        enum CodingKeys: String, CodingKey {
            case orders
            case complications
            case ordersPerSecond = "orders_per_s"
            case complicationsPerSecond = "complications_per_s"
            case baselineOrdersPerSecond = "baseline_orders_per_s"
            case baselineComplicationsPerSecond = "baseline_complications_per_s"
            case icuFloorOrdersPerSecond = "icu_floor_orders_per_s"
            case speedupVsBaseline = "speedup_vs_baseline"
            case complicationSpeedupVsBaseline = "complication_speedup_vs_baseline"
            case formattingVsICUFloor = "formatting_vs_icu_floor"
            case formattingCallsPerOrder = "formatting_calls_per_order"
            case coreFormattingNanosecondsPerOrder = "core_formatting_ns_per_order"
            case icuFloorNanosecondsPerOrder = "icu_floor_ns_per_order"
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        let core = try RenderingCore(configurationDirectory: configuration.configurationDirectory)
        var orderGenerator = try OrderGenerator(menu: core.menu, configuration: .init(seed: configuration.seed))
        let orders = orderGenerator.next(configuration.orders)
        var complicationGenerator = ComplicationGenerator(configuration: .init(seed: configuration.seed))
        let requests = complicationGenerator.next(configuration.complications)

        let session = core.makeSession()
        let baseline = BaselineRenderer(core: core)
        let priced = try Self.verify(orders: orders, requests: requests, session: session, baseline: baseline)
        let formatting = try FormattingCalls(orders: priced, core: core)

        var figures: [String: [Double]] = [:]
        for round in 1...configuration.rounds {
            figures["core", default: []].append(
                try rate(count: orders.count) { for order in orders { _ = try session.render(order) } }
            )
            figures["baseline", default: []].append(
                try rate(count: orders.count) { for order in orders { _ = try baseline.render(order) } }
            )
            figures["complications", default: []].append(
                try rate(count: requests.count) { for request in requests { _ = try session.complication(request) } }
            )
            figures["baselineComplications", default: []].append(
                try rate(count: requests.count) { for request in requests { _ = try baseline.complication(request) } }
            )
            let (coreNanoseconds, floorNanoseconds) = try compareFormatting(formatting)
            figures["coreFormatting", default: []].append(coreNanoseconds)
            figures["floor", default: []].append(floorNanoseconds)
            progress(
                String(
                    format:
                        "round %d: core %.0f orders/s, %.0f complications/s; baseline %.0f orders/s, %.0f complications/s; formatting %.0f ns/order, C floor %.0f ns/order",
                    round,
                    figures["core"]?.last ?? 0,
                    figures["complications"]?.last ?? 0,
                    figures["baseline"]?.last ?? 0,
                    figures["baselineComplications"]?.last ?? 0,
                    coreNanoseconds,
                    floorNanoseconds
                )
            )
        }
        func median(_ name: String) -> Double { TransportBenchmark.median(figures[name] ?? []) }
        let ordersPerSecond = median("core")
        let complicationsPerSecond = median("complications")
        let coreFormatting = median("coreFormatting")
        let floor = median("floor")
        return Report(
            orders: orders.count,
            complications: requests.count,
            ordersPerSecond: ordersPerSecond.rounded(),
            complicationsPerSecond: complicationsPerSecond.rounded(),
            baselineOrdersPerSecond: median("baseline").rounded(),
            baselineComplicationsPerSecond: median("baselineComplications").rounded(),
            icuFloorOrdersPerSecond: (1e9 / floor).rounded(),
            speedupVsBaseline: Self.ratio(ordersPerSecond, median("baseline")),
            complicationSpeedupVsBaseline: Self.ratio(complicationsPerSecond, median("baselineComplications")),
            formattingVsICUFloor: Self.ratio(coreFormatting, floor),
            formattingCallsPerOrder: (formatting.callsPerOrder * 100).rounded() / 100,
            coreFormattingNanosecondsPerOrder: coreFormatting.rounded(),
            icuFloorNanosecondsPerOrder: floor.rounded()
        )
    }

    /// Renders everything with both implementations and insists they agree; returns each order
    /// priced, with what the core made of it.
    static func verify(
        orders: [Caffe_V1_OrderEvent],
        requests: [Caffe_V1_ComplicationRequest],
        session: RenderSession,
        baseline: BaselineRenderer
    ) throws -> [(order: PricedOrder, rendered: RenderedOrder)] {
        var priced: [(order: PricedOrder, rendered: RenderedOrder)] = []
        for order in orders {
            let rendered = try session.render(order)
            let expected = try baseline.render(order)
            if let difference = Difference.first("confirmation", rendered.confirmation, expected.confirmation)
                ?? Difference.first("receipt", rendered.receipt, expected.receipt)
            {
                throw CatalogBenchmark.Failure(description: "order \(order.orderID): \(difference)")
            }
            priced.append((try PricedOrder(order, menu: session.core.menu, defaults: session.core.defaults), rendered))
        }
        for request in requests {
            let rendered = try session.complication(request)
            if let difference = Difference.first("payload", rendered, try baseline.complication(request)) {
                throw CatalogBenchmark.Failure(
                    description: "complication \(request.requestID) (\(request.locale), \(request.timeZone), "
                        + "hour cycle '\(request.hourCycle)'): \(difference)"
                )
            }
        }
        return priced
    }

    /// Items per second: whole passes of `body` (which handles `count` items) for at least the
    /// round's minimum time.
    private func rate(count: Int, _ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var passes = 0
        var elapsed: UInt64 = 0
        repeat {
            try body()
            passes += 1
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        } while Double(elapsed) < configuration.minimumRoundSeconds * 1e9
        return Double(passes * count) * 1e9 / Double(elapsed)
    }

    /// Nanoseconds per order: the core's formatters, then C; the same number of passes each.
    private func compareFormatting(_ calls: FormattingCalls) throws -> (core: Double, floor: Double) {
        var passes = 1
        var core = calls.runCore(passes: passes)
        while core.nanoseconds < configuration.minimumRoundSeconds * 1e9 / 2 {
            passes *= 2
            core = calls.runCore(passes: passes)
        }
        guard let floor = calls.runFloor(passes: passes) else {
            throw CatalogBenchmark.Failure(description: "ICU reported an error in the C floor")
        }
        guard floor.units == core.units else {
            throw CatalogBenchmark.Failure(
                description: "the C floor wrote \(floor.units) UTF-16 units, the core's formatters \(core.units)"
            )
        }
        let orders = Double(passes * calls.orderCount)
        return (core.nanoseconds / orders, floor.nanoseconds / orders)
    }

    static func ratio(_ value: Double, _ base: Double) -> Double {
        base > 0 ? (value / base * 100).rounded() / 100 : 0
    }

    public static func summary(_ report: Report) -> String {
        """
        \(report.orders) generated orders (confirmation + receipt, text, runs and HTML), \(report.complications) complication requests, one core:
          core      \(String(format: "%8.0f", report.ordersPerSecond)) orders/s  \(String(format: "%9.0f", report.complicationsPerSecond)) complications/s   (targets ≥ 100000, ≥ 500000)
          baseline  \(String(format: "%8.0f", report.baselineOrdersPerSecond)) orders/s  \(String(format: "%9.0f", report.baselineComplicationsPerSecond)) complications/s   (Foundation FormatStyle, .attributed dates, templates parsed per call)
          speedup   \(String(format: "%7.2f", report.speedupVsBaseline))× orders  \(String(format: "%8.2f", report.complicationSpeedupVsBaseline))× complications   (target ≥ 6×)
          formatting \(String(format: "%.2f", report.formattingCallsPerOrder)) calls/order: core \(String(format: "%.0f", report.coreFormattingNanosecondsPerOrder)) ns, ICU4C floor \(String(format: "%.0f", report.icuFloorNanosecondsPerOrder)) ns (\(String(format: "%.0f", report.icuFloorOrdersPerSecond)) orders/s) → \(String(format: "%.2f", report.formattingVsICUFloor))× the floor (target ≤ 1.5×)
        """
    }
}

/// The first field where two messages differ, found through their text format.
enum Difference {
    static func first<Message: SwiftProtobuf.Message & Equatable>(
        _ name: String,
        _ actual: Message,
        _ expected: Message
    ) -> String? {
        guard actual != expected else { return nil }
        do {
            let actualLines = actual.textFormatString().split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.textFormatString().split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in actualLines.enumerated()
            where index >= expectedLines.count || line != expectedLines[index] {
                let other = index < expectedLines.count ? String(expectedLines[index]) : "(nothing)"
                return "\(name) differs from the baseline at line \(index + 1): core \(line) — baseline \(other)"
            }
            return "\(name) differs from the baseline: the core's is shorter"
        }
    }
}
