import Foundation
import Localization

/// `caffe-sim bench catalog`: looking up and rendering a catalog entry, beside `String(format:)`.
///
/// The entry is plural, positional and takes three arguments (`%1$@ added %2$lld %3$@`, its
/// plural variable selected by argument 2). The project's figure covers the whole call: lookup
/// along the fallback chain, plural selection with ICU, locale-aware number formatting and
/// recording where each argument landed. The baseline is only `String(format:locale:)` on the
/// variant already selected, the work an app does after `NSLocalizedString`. Both run in the
/// same process, alternating, and each figure is the median over the rounds.
public struct CatalogBenchmark: Sendable {
    /// What to measure.
    public struct Configuration: Sendable {
        /// The catalog folder.
        public var catalog: URL
        /// The customer's locale.
        public var locale: String
        /// Calls per round.
        public var iterations: Int
        /// Rounds per implementation.
        public var rounds: Int

        public init(catalog: URL, locale: String = "es-MX", iterations: Int = 200_000, rounds: Int = 5) {
            self.catalog = catalog
            self.locale = locale
            self.iterations = iterations
            self.rounds = rounds
        }
    }

    /// Nanoseconds per call for both, and their ratio (project ÷ baseline: below 1 is faster).
    public struct Report: Codable, Sendable, Equatable {
        public var renderNanoseconds: Double
        public var stringFormatNanoseconds: Double
        public var ratio: Double
        /// The text both produce, as a check that they did the same work.
        public var sample: String

        public init(renderNanoseconds: Double, stringFormatNanoseconds: Double, ratio: Double, sample: String) {
            self.renderNanoseconds = renderNanoseconds
            self.stringFormatNanoseconds = stringFormatNanoseconds
            self.ratio = ratio
            self.sample = sample
        }

        enum CodingKeys: String, CodingKey {
            case renderNanoseconds = "render_ns"
            case stringFormatNanoseconds = "string_format_ns"
            case ratio
            case sample
        }
    }

    /// A benchmark whose two sides disagree, or whose catalog lacks the entry.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    static let key = "%1$@ added %2$lld %3$@"
    static let table = "Receipt"

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        let catalog = try StringCatalog(directory: configuration.catalog)
        let localizer = try Localizer(catalog: catalog, locale: configuration.locale)
        let arguments: [FormatArgument] = ["Ana", 3, "pizzas"]
        let rendered = try localizer.string(Self.key, table: Self.table, arguments: arguments)
        guard !rendered.isMissing else {
            throw Failure(description: "the catalog has no '\(Self.key)' in table \(Self.table)")
        }
        // The baseline starts from the variant the catalog would select, as positional printf text.
        guard let variant = Self.selectedVariant(catalog: catalog, localizer: localizer) else {
            throw Failure(description: "cannot find the selected variant of '\(Self.key)'")
        }
        let foundationLocale = Locale(identifier: configuration.locale)
        let formatted = String(format: variant, locale: foundationLocale, "Ana", Int64(3), "pizzas")
        guard formatted == rendered.text else {
            throw Failure(description: "String(format:) gives \"\(formatted)\", the catalog \"\(rendered.text)\"")
        }

        var renderTimes: [Double] = []
        var formatTimes: [Double] = []
        let count = configuration.iterations
        for round in 0..<configuration.rounds {
            let render = try Self.time(count) { () throws in
                _ = try localizer.string(Self.key, table: Self.table, arguments: arguments)
            }
            let format = try Self.time(count) { () throws in
                _ = String(format: variant, locale: foundationLocale, "Ana", Int64(3), "pizzas")
            }
            renderTimes.append(render)
            formatTimes.append(format)
            progress(String(format: "round %d: render %.0f ns, String(format:) %.0f ns", round + 1, render, format))
        }
        let render = TransportBenchmark.median(renderTimes)
        let format = TransportBenchmark.median(formatTimes)
        return Report(
            renderNanoseconds: render.rounded(),
            stringFormatNanoseconds: format.rounded(),
            ratio: ((render / format) * 1000).rounded() / 1000,
            sample: rendered.text
        )
    }

    /// Nanoseconds per call of `body` over `count` calls.
    static func time(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
        for _ in 0..<min(count, 1000) { try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count { try body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
    }

    /// The printf text of the variant chosen for 3 in the locale: the format key with the
    /// variable replaced by its `other`/selected variant, as an app holding the string would have.
    static func selectedVariant(catalog: StringCatalog, localizer: Localizer) -> String? {
        let category = localizer.pluralRules.category(for: 3)
        for localization in localizer.localizations {
            guard let entry = catalog.entry(key, table: table, localization: localization) else { continue }
            return entry.value.flattened(choosing: category)
        }
        return nil
    }

    /// The report as two lines of text.
    public static func summary(_ report: Report) -> String {
        String(
            format: "catalog lookup + render: %.0f ns/call\nString(format:) only:    %.0f ns/call\nratio: %.3f",
            report.renderNanoseconds,
            report.stringFormatNanoseconds,
            report.ratio
        )
    }
}
