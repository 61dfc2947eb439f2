import Foundation
import Localization
import RichText

/// `caffe-sim bench richtext`: parsing Markdown from source beside rendering a template compiled once.
///
/// Two inputs: the receipt's thank-you note and the nested agreement template of the order line.
/// "Parse" is source → document → HTML; "compiled" is filling a ``RichTextTemplate`` made once
/// (argument text formatted for the locale by a `Localizer`) → HTML. Medians over rounds, one run.
public struct RichTextBenchmark: Sendable {
    public struct Configuration: Sendable {
        public var iterations: Int
        public var rounds: Int
        public var locale: String

        public init(iterations: Int = 100_000, rounds: Int = 5, locale: String = "en-US") {
            self.iterations = iterations
            self.rounds = rounds
            self.locale = locale
        }
    }

    /// Nanoseconds per call for one input.
    public struct Figures: Codable, Sendable, Equatable {
        public var parseNanoseconds: Double
        public var compiledNanoseconds: Double
        public var ratio: Double
        public var html: String

        enum CodingKeys: String, CodingKey {
            case parseNanoseconds = "parse_ns"
            case compiledNanoseconds = "compiled_ns"
            case ratio
            case html
        }
    }

    public struct Report: Codable, Sendable, Equatable {
        public var note: Figures
        public var template: Figures
    }

    static let note = "**Thank you!** _Please visit our [website](https://caffe.example.com)._"
    static let agreementTemplate =
        #"Add ^[%lld %@ ^[%@](morphology: { partOfSpeech: "noun" })](inflect: true) to your order"#

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        let localizer = try Localizer(catalog: .empty(), locale: configuration.locale)
        return try Report(
            note: measure("note", markup: Self.note, arguments: [], localizer: localizer, progress: progress),
            template: measure(
                "template",
                markup: Self.agreementTemplate,
                arguments: [2, "large", "pizza"],
                localizer: localizer,
                progress: progress
            )
        )
    }

    private func measure(
        _ name: String,
        markup: String,
        arguments: [FormatArgument],
        localizer: Localizer,
        progress: (String) -> Void
    ) throws -> Figures {
        let occurrences = FormatStringSpecifiers.find(in: markup)
        let template = try RichTextTemplate(markup, slots: occurrences.map { ($0.utf8Range, $0.argument) })
        let renderer = HTMLRenderer()
        func compiled() throws -> String {
            let rendered = try template.render { slot in
                try localizer.format(
                    arguments[slot.argument],
                    as: occurrences[slot.index].specifier,
                    argumentNumber: slot.argument + 1
                )
            }
            return renderer.render(rendered.document)
        }
        func parsed() throws -> String {
            // From source: substitute the formatted arguments, then parse (what a naive pipeline does).
            var text = markup
            for occurrence in occurrences.reversed() {
                let start = text.utf8.index(text.utf8.startIndex, offsetBy: occurrence.utf8Range.lowerBound)
                let end = text.utf8.index(text.utf8.startIndex, offsetBy: occurrence.utf8Range.upperBound)
                text.replaceSubrange(
                    start..<end,
                    with: try localizer.format(arguments[occurrence.argument], as: occurrence.specifier)
                )
            }
            return renderer.render(try RichTextParser.parse(text))
        }
        let html = try compiled()
        guard try parsed() == html else {
            throw CatalogBenchmark.Failure(description: "\(name): parsing and the compiled template disagree")
        }
        var parseTimes: [Double] = []
        var compiledTimes: [Double] = []
        for round in 0..<configuration.rounds {
            parseTimes.append(try CatalogBenchmark.time(configuration.iterations) { _ = try parsed() })
            compiledTimes.append(try CatalogBenchmark.time(configuration.iterations) { _ = try compiled() })
            progress(
                String(
                    format: "%@ round %d: parse %.0f ns, compiled %.0f ns",
                    name,
                    round + 1,
                    parseTimes.last ?? 0,
                    compiledTimes.last ?? 0
                )
            )
        }
        let parse = TransportBenchmark.median(parseTimes)
        let fill = TransportBenchmark.median(compiledTimes)
        return Figures(
            parseNanoseconds: parse.rounded(),
            compiledNanoseconds: fill.rounded(),
            ratio: ((fill / parse) * 1000).rounded() / 1000,
            html: html
        )
    }

    public static func summary(_ report: Report) -> String {
        String(
            format:
                "receipt note:       parse %.0f ns, compiled %.0f ns (ratio %.3f)\nagreement template: parse %.0f ns, compiled %.0f ns (ratio %.3f)",
            report.note.parseNanoseconds,
            report.note.compiledNanoseconds,
            report.note.ratio,
            report.template.parseNanoseconds,
            report.template.compiledNanoseconds,
            report.template.ratio
        )
    }
}
