// Caffe — simulator tests.
import CaffeProtocol
import Foundation
import Testing

@testable import CaffeSimulator

@Suite("caffe-sim bench core")
struct CoreBenchmarkTests {
    /// The run refuses to report unless the core and the Foundation baseline agree byte for byte on
    /// every generated order and complication, so a report is that check passing.
    @Test func coreAndFoundationBaselineAgreeAndEveryFigureIsMeasured() throws {
        let benchmark = CoreBenchmark(
            configuration: .init(
                configurationDirectory: CatalogBenchmarkTests.configuration,
                orders: 300,
                complications: 300,
                rounds: 1,
                minimumRoundSeconds: 0.001,
                seed: 5
            )
        )
        var lines: [String] = []
        let report = try benchmark.run { lines.append($0) }
        #expect(report.orders == 300 && report.complications == 300)
        for figure in [
            report.ordersPerSecond, report.complicationsPerSecond, report.baselineOrdersPerSecond,
            report.baselineComplicationsPerSecond, report.icuFloorOrdersPerSecond, report.speedupVsBaseline,
            report.formattingVsICUFloor, report.coreFormattingNanosecondsPerOrder, report.icuFloorNanosecondsPerOrder,
        ] {
            #expect(figure > 0)
        }
        #expect(report.formattingCallsPerOrder > 8)
        // Bytes in, bytes out: nothing went the message way, no format stayed with ICU.
        #expect(report.outputBytesPerOrder > 1000)
        #expect(report.messagePathRenders == 0 && report.icuFallbacks.isEmpty && report.icuTimeShare == 0)
        #expect(lines.count == 1 && lines[0].hasPrefix("round 1: core "))

        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        for key in [
            "orders_per_s", "complications_per_s", "baseline_orders_per_s", "baseline_complications_per_s",
            "icu_floor_orders_per_s", "speedup_vs_baseline", "formatting_vs_icu_floor", "output_bytes_per_order",
            "icu_time_share",
        ] {
            #expect(json?[key] is Double, "\(key)")
        }
        #expect(json?["icu_fallbacks"] is [String] && json?["message_path_renders"] is Int)
    }

    @Test func aDifferenceIsReportedWithItsLine() {
        var core = Caffe_V1_StyledText()
        core.plain = "2 large pizzas"
        var baseline = core
        #expect(Difference.first("summary", core, baseline) == nil)
        baseline.plain = "2 pizzas grandes"
        #expect(
            Difference.first("summary", core, baseline)
                == #"summary differs from the baseline at line 1: core plain: "2 large pizzas" — baseline plain: "2 pizzas grandes""#
        )
    }
}
