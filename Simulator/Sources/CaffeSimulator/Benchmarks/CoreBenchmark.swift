import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf

/// `caffe-sim bench core`: the formatting core on one core, beside a straightforward baseline and
/// the ICU4C floor, all measured in the same run on the same generated traffic, from each event's
/// bytes to its outputs' bytes.
///
/// 1. The core: a ``RenderSession`` renders a fixed set of generated orders from their encoded
///    `OrderEvent` to their encoded `Confirmation` and `Receipt` (every output form: plain text,
///    attributed runs, HTML), and complication requests from their encoded request to the encoded
///    payload.
/// 2. The baseline (``BaselineRenderer``): the same messages as app code would write them —
///    decoded and encoded by SwiftProtobuf, Foundation `FormatStyle` at every call, `.attributed`
///    dates, catalog strings compiled at every use. Before any timing, both render every order and
///    request and must agree byte for byte.
/// 3. The floor: the formatting calls those orders need, made from C against the same ICU objects,
///    beside the same calls through the core's compiled formats.
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
        /// Time only the core (to profile it); the baseline and floor figures are then 0.
        public var coreOnly: Bool
        /// The markets of the generated orders and requests (``MarketDirectory/mix(_:)``); `nil`: the default.
        public var locales: String? = nil

        public init(
            configurationDirectory: URL,
            orders: Int = 1000,
            complications: Int = 1000,
            rounds: Int = 5,
            minimumRoundSeconds: Double = 0.25,
            seed: UInt64 = 1,
            coreOnly: Bool = false
        ) {
            self.configurationDirectory = configurationDirectory
            self.orders = orders
            self.complications = complications
            self.rounds = rounds
            self.minimumRoundSeconds = minimumRoundSeconds
            self.seed = seed
            self.coreOnly = coreOnly
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
        /// Encoded confirmation + receipt bytes per order.
        public var outputBytesPerOrder: Double
        /// Of the core's time on orders and complications, the share spent calling ICU (formats
        /// that did not compile, dates outside the zone tables).
        public var icuTimeShare: Double
        /// Orders and requests the core rendered the message way during the timed rounds.
        public var messagePathRenders: Int
        /// The formats the generated traffic uses that stay with ICU, as "locale kind pattern".
        public var icuFallbacks: [String]
        /// Rounds run, and the slowest and fastest round's figures beside the medians above.
        public var rounds = 0
        public var ordersPerSecondMin = 0.0
        public var ordersPerSecondMax = 0.0
        public var complicationsPerSecondMin = 0.0
        public var complicationsPerSecondMax = 0.0

        enum CodingKeys: String, CodingKey {
            case orders
            case complications
            case ordersPerSecond = "orders_per_s"
            case rounds
            case ordersPerSecondMin = "orders_per_s_min"
            case ordersPerSecondMax = "orders_per_s_max"
            case complicationsPerSecondMin = "complications_per_s_min"
            case complicationsPerSecondMax = "complications_per_s_max"
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
            case outputBytesPerOrder = "output_bytes_per_order"
            case icuTimeShare = "icu_time_share"
            case messagePathRenders = "message_path_renders"
            case icuFallbacks = "icu_fallbacks"
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        let core = try RenderingCore(configurationDirectory: configuration.configurationDirectory)
        let markets = try MarketDirectory.load(configurationDirectory: configuration.configurationDirectory)
            .mix(configuration.locales)
        var orderGenerator = try OrderGenerator(
            menu: core.menu,
            configuration: .init(seed: configuration.seed, markets: markets)
        )
        let orders = orderGenerator.next(configuration.orders)
        var complicationGenerator = ComplicationGenerator(
            configuration: .init(seed: configuration.seed, markets: markets)
        )
        let requests = complicationGenerator.next(configuration.complications)
        let orderBodies: [[UInt8]] = try orders.map { try $0.serializedBytes() }
        let requestBodies: [[UInt8]] = try requests.map { try $0.serializedBytes() }

        let session = core.makeSession()
        let baseline = BaselineRenderer(core: core)
        let verified = try Self.verify(
            orders: orderBodies,
            requests: requestBodies,
            session: session,
            baseline: baseline
        )
        let formatting = try FormattingCalls(orders: verified.priced, core: core)

        var figures: [String: [Double]] = [:]
        let before = session.wireStatistics
        var coreNanoseconds: UInt64 = 0
        for round in 1...configuration.rounds {
            figures["core", default: []].append(
                try rate(count: orders.count, elapsed: &coreNanoseconds) {
                    for body in orderBodies { _ = try body.withUnsafeBytes { try session.renderOrder(bytes: $0) } }
                }
            )
            if !configuration.coreOnly {
                figures["baseline", default: []].append(
                    try rate(count: orders.count) { for body in orderBodies { try baseline.renderBytes(order: body) } }
                )
            }
            figures["complications", default: []].append(
                try rate(count: requests.count, elapsed: &coreNanoseconds) {
                    for body in requestBodies {
                        _ = try body.withUnsafeBytes { try session.renderComplication(bytes: $0) }
                    }
                }
            )
            if !configuration.coreOnly {
                figures["baselineComplications", default: []].append(
                    try rate(count: requests.count) {
                        for body in requestBodies { try baseline.renderBytes(complication: body) }
                    }
                )
            }
            let (coreFormatting, floorFormatting) = configuration.coreOnly ? (0, 0) : try compareFormatting(formatting)
            figures["coreFormatting", default: []].append(coreFormatting)
            figures["floor", default: []].append(floorFormatting)
            progress(
                String(
                    format:
                        "round %d: core %.0f orders/s, %.0f complications/s; baseline %.0f orders/s, %.0f complications/s; formatting %.0f ns/order, C floor %.0f ns/order",
                    round,
                    figures["core"]?.last ?? 0,
                    figures["complications"]?.last ?? 0,
                    figures["baseline"]?.last ?? 0,
                    figures["baselineComplications"]?.last ?? 0,
                    coreFormatting,
                    floorFormatting
                )
            )
        }
        let after = session.wireStatistics
        func median(_ name: String) -> Double { TransportBenchmark.median(figures[name] ?? []) }
        let ordersPerSecond = median("core")
        let complicationsPerSecond = median("complications")
        let coreFormatting = median("coreFormatting")
        let floor = median("floor")
        let icuNanoseconds = Double(after.icuNanoseconds - before.icuNanoseconds)
        var report = Report(
            orders: orders.count,
            complications: requests.count,
            ordersPerSecond: ordersPerSecond.rounded(),
            complicationsPerSecond: complicationsPerSecond.rounded(),
            baselineOrdersPerSecond: median("baseline").rounded(),
            baselineComplicationsPerSecond: median("baselineComplications").rounded(),
            icuFloorOrdersPerSecond: floor > 0 ? (1e9 / floor).rounded() : 0,
            speedupVsBaseline: Self.ratio(ordersPerSecond, median("baseline")),
            complicationSpeedupVsBaseline: Self.ratio(complicationsPerSecond, median("baselineComplications")),
            formattingVsICUFloor: Self.ratio(coreFormatting, floor),
            formattingCallsPerOrder: (formatting.callsPerOrder * 100).rounded() / 100,
            coreFormattingNanosecondsPerOrder: coreFormatting.rounded(),
            icuFloorNanosecondsPerOrder: floor.rounded(),
            outputBytesPerOrder: (verified.outputBytesPerOrder * 10).rounded() / 10,
            icuTimeShare: coreNanoseconds > 0
                ? (icuNanoseconds / Double(coreNanoseconds) * 10_000).rounded() / 10_000 : 0,
            messagePathRenders: after.messageRenders - before.messageRenders,
            icuFallbacks: session.wireFallbacks
        )
        report.rounds = figures["core"]?.count ?? 0
        report.ordersPerSecondMin = (figures["core"]?.min() ?? 0).rounded()
        report.ordersPerSecondMax = (figures["core"]?.max() ?? 0).rounded()
        report.complicationsPerSecondMin = (figures["complications"]?.min() ?? 0).rounded()
        report.complicationsPerSecondMax = (figures["complications"]?.max() ?? 0).rounded()
        return report
    }

    /// What verifying found: each order priced with what the core made of it, and the size of the
    /// core's outputs.
    struct Verified {
        var priced: [(order: PricedOrder, rendered: RenderedOrder)]
        var outputBytesPerOrder: Double
    }

    /// Renders everything with both implementations, each from the encoded input, and insists
    /// the encoded outputs agree; returns each order priced, with what the core made of it.
    static func verify(
        orders: [[UInt8]],
        requests: [[UInt8]],
        session: RenderSession,
        baseline: BaselineRenderer
    ) throws -> Verified {
        var priced: [(order: PricedOrder, rendered: RenderedOrder)] = []
        var outputBytes = 0
        for body in orders {
            let order = try Caffe_V1_OrderEvent(serializedBytes: body)
            let outputs = try body.withUnsafeBytes { try session.renderOrder(bytes: $0) }
            let confirmation = Array(outputs.confirmation)
            let receipt = Array(outputs.receipt)
            outputBytes += confirmation.count + receipt.count
            let expected = try baseline.render(order)
            let rendered = RenderedOrder(
                confirmation: try Caffe_V1_Confirmation(serializedBytes: confirmation),
                receipt: try Caffe_V1_Receipt(serializedBytes: receipt)
            )
            if let difference = Difference.first("confirmation", rendered.confirmation, expected.confirmation)
                ?? Difference.first("receipt", rendered.receipt, expected.receipt)
            {
                throw CatalogBenchmark.Failure(description: "order \(order.orderID): \(difference)")
            }
            guard confirmation == (try expected.confirmation.serializedBytes(options: Self.deterministic)),
                receipt == (try expected.receipt.serializedBytes(options: Self.deterministic))
            else {
                throw CatalogBenchmark.Failure(description: "order \(order.orderID): the encodings differ")
            }
            priced.append((try PricedOrder(order, menu: session.core.menu, defaults: session.core.defaults), rendered))
        }
        for body in requests {
            let request = try Caffe_V1_ComplicationRequest(serializedBytes: body)
            let outputs = try body.withUnsafeBytes { try session.renderComplication(bytes: $0) }
            let payload = Array(outputs.payload)
            let expected = try baseline.complication(request)
            if let difference = Difference.first(
                "payload",
                try Caffe_V1_ComplicationPayload(serializedBytes: payload),
                expected
            ) {
                throw CatalogBenchmark.Failure(
                    description: "complication \(request.requestID) (\(request.locale), \(request.timeZone), "
                        + "hour cycle '\(request.hourCycle)'): \(difference)"
                )
            }
            guard payload == (try expected.serializedBytes(options: Self.deterministic)) else {
                throw CatalogBenchmark.Failure(description: "complication \(request.requestID): the encodings differ")
            }
        }
        return Verified(priced: priced, outputBytesPerOrder: Double(outputBytes) / Double(max(orders.count, 1)))
    }

    /// SwiftProtobuf's encoding with map keys sorted, which the core's single-pass writer matches.
    static let deterministic: BinaryEncodingOptions = {
        var options = BinaryEncodingOptions()
        options.useDeterministicOrdering = true
        return options
    }()

    /// Items per second: whole passes of `body` (which handles `count` items) for at least the
    /// round's minimum time.
    private func rate(count: Int, _ body: () throws -> Void) throws -> Double {
        var elapsed: UInt64 = 0
        return try rate(count: count, elapsed: &elapsed, body)
    }

    /// ``rate(count:_:)``, adding the time taken to `total`.
    private func rate(count: Int, elapsed total: inout UInt64, _ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var passes = 0
        var elapsed: UInt64 = 0
        repeat {
            try body()
            passes += 1
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        } while Double(elapsed) < configuration.minimumRoundSeconds * 1e9
        total += elapsed
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
        guard floor.units == calls.floorUnitsPerPass * passes, core.bytes == calls.coreBytesPerPass * passes else {
            throw CatalogBenchmark.Failure(
                description: "the C floor wrote \(floor.units) UTF-16 units, the core's formats \(core.bytes) bytes; "
                    + "expected \(calls.floorUnitsPerPass * passes) and \(calls.coreBytesPerPass * passes)"
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
        \(report.orders) generated orders (event bytes to confirmation + receipt bytes: text, runs and HTML, \(String(format: "%.0f", report.outputBytesPerOrder)) bytes/order), \(report.complications) complication requests, one core:
          core      \(String(format: "%8.0f", report.ordersPerSecond)) orders/s  \(String(format: "%9.0f", report.complicationsPerSecond)) complications/s   (targets ≥ 100000, ≥ 500000)
          rounds    \(report.rounds), medians above; slowest \(String(format: "%.0f", report.ordersPerSecondMin)) orders/s and \(String(format: "%.0f", report.complicationsPerSecondMin)) complications/s, fastest \(String(format: "%.0f", report.ordersPerSecondMax)) and \(String(format: "%.0f", report.complicationsPerSecondMax))
          baseline  \(String(format: "%8.0f", report.baselineOrdersPerSecond)) orders/s  \(String(format: "%9.0f", report.baselineComplicationsPerSecond)) complications/s   (SwiftProtobuf, Foundation FormatStyle, .attributed dates, templates parsed per call)
          speedup   \(String(format: "%7.2f", report.speedupVsBaseline))× orders  \(String(format: "%8.2f", report.complicationSpeedupVsBaseline))× complications   (target ≥ 30×)
          formatting \(String(format: "%.2f", report.formattingCallsPerOrder)) calls/order: core \(String(format: "%.0f", report.coreFormattingNanosecondsPerOrder)) ns, ICU4C floor \(String(format: "%.0f", report.icuFloorNanosecondsPerOrder)) ns (\(String(format: "%.0f", report.icuFloorOrdersPerSecond)) orders/s) → \(String(format: "%.2f", report.formattingVsICUFloor))× the floor (target < 1.0×)
          ICU       \(String(format: "%.2f", report.icuTimeShare * 100)) % of the core's time; \(report.messagePathRenders) renders the message way; formats left to ICU: \(report.icuFallbacks.isEmpty ? "none" : report.icuFallbacks.joined(separator: ", "))
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
