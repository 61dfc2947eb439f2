import Foundation
@_spi(Benchmarks) import GrammarAgreement
import Localization
import RichText

/// `caffe-sim bench agreement`: inflecting a compiled span of number + adjective + noun.
///
/// Each case renders one compiled template in its stages, timed separately in the same run: the
/// baseline fill (argument formatting and the template fill, what rich text alone costs), the
/// agreement decisions for the filled span (tokenizing, lexicon, rules: the figure the ≤ 1 µs target
/// is about), and the whole render (fill, agreement and rebuilding the document around the edits).
/// Cases cover English, Spanish, French, German, Italian and Portuguese: words the hand-written
/// lexicon lists, and, for English and Spanish, words it does not (their spelling rules: the
/// heuristic path); for French, German, Italian and Portuguese words only the lexicon compiled from
/// dictionaries has (the dictionary path; a German preposition governing the dative); Polish and
/// Russian from their paradigm lexicons, after an accusative verb and an instrumental preposition,
/// with their time over German's in the same run (``slavicRatios(_:)``). Medians over rounds.
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
        /// Formatting and filling the template, without agreement: the baseline.
        public var fillNanoseconds: Double
        /// The agreement decisions for the filled span.
        public var agreementNanoseconds: Double
        /// The agreement decisions answered by a warm ``AgreementCache`` (the same words again).
        public var cachedAgreementNanoseconds: Double
        /// The whole render: fill, agreement, and the document rebuilt with the edits.
        public var renderNanoseconds: Double

        enum CodingKeys: String, CodingKey {
            case name
            case output
            case fillNanoseconds = "fill_ns"
            case agreementNanoseconds = "agreement_ns"
            case cachedAgreementNanoseconds = "cached_agreement_ns"
            case renderNanoseconds = "render_ns"
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
        Case(
            name: "fr lexicon",
            locale: "fr-FR",
            template: "Ajouter ^[%1$lld %2$@ %3$@](inflect: true) à votre commande",
            arguments: [2, "grand", "pizza"],
            expected: "Ajouter 2 grandes pizzas à votre commande"
        ),
        Case(
            name: "fr dictionary",
            locale: "fr-FR",
            template: "Ajouter ^[%1$lld %3$@ %2$@](inflect: true) à votre commande",
            arguments: [2, "croustillant", "galette"],
            expected: "Ajouter 2 galettes croustillantes à votre commande"
        ),
        Case(
            name: "de lexicon",
            locale: "de-DE",
            template: "^[%1$lld %2$@ %3$@](inflect: true) hinzufügen",
            arguments: [1, "groß", "Kaffee"],
            expected: "1 großen Kaffee hinzufügen"
        ),
        Case(
            name: "de dictionary",
            locale: "de-DE",
            template: "Kaffee ^[mit %1$lld %2$@ %3$@](inflect: true)",
            arguments: [2, "knusprig", "Zwiebelfladen"],
            expected: "Kaffee mit 2 knusprigen Zwiebelfladen"
        ),
        Case(
            name: "it lexicon",
            locale: "it-IT",
            template: "Aggiungi ^[%1$lld %3$@ %2$@](inflect: true) al tuo ordine",
            arguments: [2, "grande", "pizza"],
            expected: "Aggiungi 2 pizze grandi al tuo ordine"
        ),
        Case(
            name: "it dictionary",
            locale: "it-IT",
            template: "Aggiungi ^[%1$lld %3$@ %2$@](inflect: true) al tuo ordine",
            arguments: [2, "sfizioso", "frittella"],
            expected: "Aggiungi 2 frittelle sfiziose al tuo ordine"
        ),
        Case(
            name: "pt lexicon",
            locale: "pt-BR",
            template: "Adicionar ^[%1$lld %3$@ %2$@](inflect: true) ao seu pedido",
            arguments: [2, "pequeno", "salada"],
            expected: "Adicionar 2 saladas pequenas ao seu pedido"
        ),
        Case(
            name: "pt dictionary",
            locale: "pt-BR",
            template: "Adicionar ^[%1$lld %3$@ %2$@](inflect: true) ao seu pedido",
            arguments: [2, "crocante", "bolacha"],
            expected: "Adicionar 2 bolachas crocantes ao seu pedido"
        ),
        Case(
            name: "pl paradigms",
            locale: "pl-PL",
            template: "Dodaj ^[%1$lld %3$@ %2$@](inflect: true) do zamówienia",
            arguments: [5, "pizza", "duży"],
            expected: "Dodaj 5 dużych pizz do zamówienia"
        ),
        Case(
            name: "pl instrumental",
            locale: "pl-PL",
            template: "Kawa ^[z %1$lld %2$@ %3$@](inflect: true)",
            arguments: [22, "świeży", "rogalik"],
            expected: "Kawa z 22 świeżymi rogalikami"
        ),
        Case(
            name: "ru paradigms",
            locale: "ru-RU",
            template: "Добавить ^[%1$lld %3$@ %2$@](inflect: true) в заказ",
            arguments: [2, "пицца", "большой"],
            expected: "Добавить 2 большие пиццы в заказ"
        ),
        Case(
            name: "ru instrumental",
            locale: "ru-RU",
            template: "Чай ^[с %1$lld %2$@ %3$@](inflect: true)",
            arguments: [21, "свежий", "пирожок"],
            expected: "Чай с 21 свежим пирожком"
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
        let arguments = benchmarkCase.arguments
        let output = try template.render(arguments, engine: engine, formatter: formatter).plainText
        guard output == benchmarkCase.expected else {
            throw CatalogBenchmark.Failure(
                description: "\(benchmarkCase.name): got '\(output)', expected '\(benchmarkCase.expected)'"
            )
        }
        let filled = try template.fill(arguments, formatter: formatter)
        var fillTimes: [Double] = []
        var agreementTimes: [Double] = []
        var renderTimes: [Double] = []
        var cachedTimes: [Double] = []
        var cache = AgreementCache()
        for round in 0..<configuration.rounds {
            fillTimes.append(
                try CatalogBenchmark.time(configuration.iterations) {
                    _ = try template.fill(arguments, formatter: formatter)
                }
            )
            agreementTimes.append(
                CatalogBenchmark.time(configuration.iterations) { _ = template.agreement(of: filled, engine: engine) }
            )
            cachedTimes.append(
                CatalogBenchmark.time(configuration.iterations) {
                    _ = template.agreement(of: filled, engine: engine, cache: &cache)
                }
            )
            renderTimes.append(
                try CatalogBenchmark.time(configuration.iterations) {
                    _ = try template.render(arguments, engine: engine, formatter: formatter)
                }
            )
            progress(
                String(
                    format: "%@ round %d: fill %.0f ns, agreement %.0f ns (cached %.0f ns), render %.0f ns",
                    benchmarkCase.name,
                    round + 1,
                    fillTimes.last ?? 0,
                    agreementTimes.last ?? 0,
                    cachedTimes.last ?? 0,
                    renderTimes.last ?? 0
                )
            )
        }
        return Figures(
            name: benchmarkCase.name,
            output: output,
            fillNanoseconds: TransportBenchmark.median(fillTimes).rounded(),
            agreementNanoseconds: TransportBenchmark.median(agreementTimes).rounded(),
            cachedAgreementNanoseconds: TransportBenchmark.median(cachedTimes).rounded(),
            renderNanoseconds: TransportBenchmark.median(renderTimes).rounded()
        )
    }

    /// Each Polish and Russian case's agreement time over the German cases' mean, measured in the
    /// same run (the bound: within 2×).
    public static func slavicRatios(_ report: Report) -> [(name: String, ratio: Double)] {
        let german = report.cases.filter { $0.name.hasPrefix("de ") }.map(\.agreementNanoseconds)
        guard !german.isEmpty else { return [] }
        let mean = german.reduce(0, +) / Double(german.count)
        return report.cases.filter { $0.name.hasPrefix("pl ") || $0.name.hasPrefix("ru ") }.map {
            ($0.name, $0.agreementNanoseconds / mean)
        }
    }

    public static func summary(_ report: Report) -> String {
        let ratios = slavicRatios(report).map { String(format: "%@ %.2f×", $0.name, $0.ratio) }
        let ratioLine =
            ratios.isEmpty ? [] : ["agreement per span over German's (same run): " + ratios.joined(separator: ", ")]
        return
            (report.cases.map { figures in
                String(
                    format:
                        "%-13@ agreement %5.0f ns per span, %4.0f ns from a warm cache (target ≤ 1000); baseline fill %5.0f ns; whole render %5.0f ns",
                    figures.name,
                    figures.agreementNanoseconds,
                    figures.cachedAgreementNanoseconds,
                    figures.fillNanoseconds,
                    figures.renderNanoseconds
                )
            } + ratioLine).joined(separator: "\n")
    }
}
