import Foundation
import GrammarAgreement
import Localization
import RichText

/// `caffe-sim bench agreement`: inflecting a compiled span of number + adjective + noun.
///
/// For each case the same compiled template is rendered twice per round: filled without agreement
/// (the baseline: argument formatting and the template fill, what rich text alone costs) and with
/// agreement. The difference is what agreement adds per span. Cases cover English and Spanish, words
/// the lexicon lists and words it does not (the heuristic path). Medians over rounds, one run.
public struct AgreementBenchmark: Sendable {
    public struct Configuration: Sendable {
        public var iterations: Int
        public var rounds: Int

        public init(iterations: Int = 200_000, rounds: Int = 5) {
            self.iterations = iterations
            self.rounds = rounds
        }
    }

    /// One case's figures, nanoseconds per call.
    public struct Figures: Codable, Sendable, Equatable {
        public var name: String
        public var output: String
        public var fillNanoseconds: Double
        public var inflectedNanoseconds: Double
        /// What agreement adds: inflected minus fill.
        public var agreementNanoseconds: Double

        enum CodingKeys: String, CodingKey {
            case name
            case output
            case fillNanoseconds = "fill_ns"
            case inflectedNanoseconds = "inflected_ns"
            case agreementNanoseconds = "agreement_ns"
        }
    }

    public struct Report: Codable, Sendable, Equatable {
        public var cases: [Figures]
    }

    struct Case {
        var name: String
        var locale: String
        var template: String
        var arguments: [FormatArgument]
        var expected: String
    }

    static let cases = [
        Case(
            name: "en lexicon",
            locale: "en-US",
            template: "Add ^[%lld %@ %@](inflect: true) to your order",
            arguments: [2, "large", "pizza"],
            expected: "Add 2 large pizzas to your order"
        ),
        Case(
            name: "en heuristic",
            locale: "en-US",
            template: "Add ^[%lld %@ %@](inflect: true) to your order",
            arguments: [2, "zesty", "quokkaberry"],
            expected: "Add 2 zesty quokkaberries to your order"
        ),
        Case(
            name: "es lexicon",
            locale: "es-ES",
            template: "Añadir ^[%1$lld %3$@ %2$@](inflect: true) a tu pedido",
            arguments: [2, "pequeño", "ensalada"],
            expected: "Añadir 2 ensaladas pequeñas a tu pedido"
        ),
        Case(
            name: "es heuristic",
            locale: "es-ES",
            template: "Añadir ^[%1$lld %3$@ %2$@](inflect: true) a tu pedido",
            arguments: [2, "crujientoso", "zarzamorada"],
            expected: "Añadir 2 zarzamoradas crujientosas a tu pedido"
        ),
    ]

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        Report(cases: try Self.cases.map { try measure($0, progress: progress) })
    }

    private func measure(_ benchmarkCase: Case, progress: (String) -> Void) throws -> Figures {
        let engine = try GrammarAgreement.engine(for: benchmarkCase.locale)
        let formatter = try Localizer(catalog: .empty(), locale: benchmarkCase.locale)
        let template = try AgreementTemplate(benchmarkCase.template)
        let occurrences = FormatStringSpecifiers.find(in: benchmarkCase.template)
        let plain = try RichTextTemplate(
            benchmarkCase.template,
            slots: occurrences.map { ($0.utf8Range, $0.argument) }
        )
        let arguments = benchmarkCase.arguments
        func fill() throws -> RichDocument {
            try plain.render { slot in
                try formatter.format(
                    arguments[slot.argument],
                    as: occurrences[slot.index].specifier,
                    argumentNumber: slot.argument + 1
                )
            }.document
        }
        func inflect() throws -> InflectedText {
            try template.render(arguments, engine: engine, formatter: formatter)
        }
        let output = try inflect().plainText
        guard output == benchmarkCase.expected else {
            throw CatalogBenchmark.Failure(
                description: "\(benchmarkCase.name): got '\(output)', expected '\(benchmarkCase.expected)'"
            )
        }
        var fillTimes: [Double] = []
        var inflectTimes: [Double] = []
        for round in 0..<configuration.rounds {
            fillTimes.append(try CatalogBenchmark.time(configuration.iterations) { _ = try fill() })
            inflectTimes.append(try CatalogBenchmark.time(configuration.iterations) { _ = try inflect() })
            progress(
                String(
                    format: "%@ round %d: fill %.0f ns, inflected %.0f ns",
                    benchmarkCase.name,
                    round + 1,
                    fillTimes.last ?? 0,
                    inflectTimes.last ?? 0
                )
            )
        }
        let fillMedian = TransportBenchmark.median(fillTimes).rounded()
        let inflectMedian = TransportBenchmark.median(inflectTimes).rounded()
        return Figures(
            name: benchmarkCase.name,
            output: output,
            fillNanoseconds: fillMedian,
            inflectedNanoseconds: inflectMedian,
            agreementNanoseconds: inflectMedian - fillMedian
        )
    }

    public static func summary(_ report: Report) -> String {
        report.cases.map { figures in
            String(
                format:
                    "%-13@ fill %5.0f ns, with agreement %5.0f ns: agreement adds %4.0f ns per span (target ≤ 1000)",
                figures.name,
                figures.fillNanoseconds,
                figures.inflectedNanoseconds,
                figures.agreementNanoseconds
            )
        }.joined(separator: "\n")
    }
}
