// Caffe — simulator tests.
import CaffeSimulator
import Foundation
import Testing

@Suite("caffe-sim bench catalog")
struct CatalogBenchmarkTests {
    /// The repository's `config/` folder, found from this file's path.
    static let configuration = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config")
    static let catalog = configuration.appendingPathComponent("Localizations")

    @Test func bothSidesProduceTheSameTextAndAreMeasured() throws {
        let benchmark = CatalogBenchmark(
            configuration: .init(catalog: Self.catalog, locale: "es-MX", iterations: 200, rounds: 1)
        )
        var lines: [String] = []
        let report = try benchmark.run { lines.append($0) }
        #expect(report.sample == "Ana añadió 3 pizzas")
        #expect(report.renderNanoseconds > 0)
        #expect(report.stringFormatNanoseconds > 0)
        #expect(lines.count == 1)
        #expect(lines[0].hasPrefix("round 1: render "))
    }

    @Test func englishAndArabicToo() throws {
        for (locale, sample) in [("en-US", "Ana added 3 pizzas"), ("ar-EG", "أضاف Ana ٣ pizzas")] {
            let benchmark = CatalogBenchmark(
                configuration: .init(catalog: Self.catalog, locale: locale, iterations: 10, rounds: 1)
            )
            #expect(try benchmark.run().sample == sample)
        }
    }

    @Test func jsonHasTheDocumentedKeys() throws {
        let report = CatalogBenchmark.Report(
            renderNanoseconds: 550,
            stringFormatNanoseconds: 20_000,
            ratio: 0.028,
            sample: "x"
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(json == #"{"ratio":0.028,"render_ns":550,"sample":"x","string_format_ns":20000}"#)
    }
}
