import Foundation
import Localization
import RichText
import Synchronization

/// A catalog string with agreement markup, compiled once: its Markdown, argument slots and
/// agreement spans are found at compile time, so rendering only formats arguments and inflects.
///
/// ```swift
/// let template = try AgreementTemplate("Añadir ^[%1$lld %3$@ %2$@](inflect: true) a tu pedido")
/// let spanish = try AgreementEngine(locale: "es-ES")
/// let formatter = try Localizer(catalog: .empty(), locale: "es-ES")
/// try template.render([2, "pequeño", "ensalada"], engine: spanish, formatter: formatter).plainText
/// // "Añadir 2 ensaladas pequeñas a tu pedido"
/// ```
public struct AgreementTemplate: Sendable {
    /// The markup as given.
    public let source: String
    /// How many arguments the format specifiers use.
    public let argumentCount: Int
    /// Tells this template apart in an ``AgreementCache``.
    let identity = TemplateIdentity.make()
    /// Set once this template's warnings have been handed out for logging.
    private let warned = WarningLatch()
    private let template: RichTextTemplate
    /// Per slot: the specifier it formats, or `nil` for a `%%` escape.
    private let specifiers: [FormatSpecifier?]
    /// Per argument, the specifier that shows it (the first, when several do): numbers decide
    /// grammatical number as that specifier shows them.
    private let shownSpecifiers: [Int: FormatSpecifier]
    private let runAgreement: [RunAgreement]
    private let spans: [SpanPlan]

    /// Whether rendering has anything to agree: without `^[…](inflect: …)` or agreement keys, a
    /// render only fills in arguments.
    public var hasAgreementSpans: Bool { !spans.isEmpty }

    /// Compiles `markup`: printf-style specifiers (`%lld`, `%2$@`, `%%`) inside inline Markdown with
    /// `^[…](inflect: true)` and the other agreement keys.
    ///
    /// - Throws: ``AgreementError`` `.invalidTemplate` when the Markdown is invalid.
    public init(_ markup: String) throws(AgreementError) {
        source = markup
        let occurrences = FormatStringSpecifiers.find(in: markup)
        var slots = occurrences.map { (utf8Range: $0.utf8Range, argument: $0.argument) }
        slots += FormatStringSpecifiers.percentEscapes(in: markup).map { (utf8Range: $0, argument: -1) }
        slots.sort { $0.utf8Range.lowerBound < $1.utf8Range.lowerBound }
        do {
            template = try RichTextTemplate(markup, slots: slots)
        } catch {
            throw AgreementError(.invalidTemplate, error.description)
        }
        let byStart = Dictionary(occurrences.map { ($0.utf8Range.lowerBound, $0.specifier) }) { first, _ in first }
        specifiers = slots.map { byStart[$0.utf8Range.lowerBound] }
        argumentCount = (occurrences.map(\.argument).max() ?? -1) + 1
        shownSpecifiers = Dictionary(occurrences.map { ($0.argument, $0.specifier) }) { first, _ in first }
        runAgreement = template.document.runs.map { RunAgreement(json: $0.attributes) }
        spans = SpanPlan.spans(in: runAgreement)
    }

    /// Formats `arguments` into the template (numbers for the formatter's locale) and inflects.
    ///
    /// - Parameters:
    ///   - arguments: the values, in argument order; numbers keep their raw value for agreement.
    ///   - engine: the agreement engine of the output's locale.
    ///   - formatter: formats each argument for its specifier (a ``Localizer`` of the same locale).
    ///   - termOfAddress: how the reader is addressed.
    ///   - concepts: what `agreeWithConcept:`/`referentConcept:` refer to.
    /// - Throws: ``AgreementError`` `.invalidArgument` when an argument is missing or does not fit.
    public func render(
        _ arguments: [FormatArgument],
        engine: AgreementEngine,
        formatter: Localizer,
        termOfAddress: TermOfAddress = .unknown,
        concepts: [InflectionConcept] = []
    ) throws(AgreementError) -> InflectedText {
        let filled = try fill(arguments, formatter: formatter)
        let agreed = agreement(of: filled, engine: engine, termOfAddress: termOfAddress, concepts: concepts)
        return InflectedText(applying: agreed, to: filled.document, arguments: filled.arguments)
    }

    /// The template with its arguments formatted in, before agreement.
    @_spi(Benchmarks)
    public struct Filled: Sendable {
        public var document: RichDocument
        public var arguments: [ArgumentRecord]
    }

    /// Stage one of ``render(_:engine:formatter:termOfAddress:concepts:)``: format and fill.
    @_spi(Benchmarks)
    public func fill(_ arguments: [FormatArgument], formatter: Localizer) throws(AgreementError) -> Filled {
        var failure: AgreementError?
        let rendered = template.render { slot -> String in
            guard let specifier = specifiers[slot.index] else { return "%" }
            guard slot.argument < arguments.count else {
                failure = AgreementError(
                    .invalidArgument,
                    "\(specifier) needs argument \(slot.argument + 1), but \(arguments.count) were given"
                )
                return ""
            }
            do {
                return try formatter.format(arguments[slot.argument], as: specifier, argumentNumber: slot.argument + 1)
            } catch {
                failure = AgreementError(.invalidArgument, "\(error)")
                return ""
            }
        }
        if let failure { throw failure }
        var records: [ArgumentRecord] = []
        records.reserveCapacity(rendered.substitutions.count)
        for substitution in rendered.substitutions where substitution.argument >= 0 {
            let value = arguments[substitution.argument]
            records.append(
                ArgumentRecord(
                    argument: substitution.argument + 1,
                    utf8Range: substitution.utf8Range,
                    value: shownSpecifiers[substitution.argument].map { value.shown(by: $0) } ?? value
                )
            )
        }
        return Filled(document: rendered.document, arguments: records)
    }

    /// Stage two: the agreement decisions for a filled template, as text edits.
    @_spi(Benchmarks)
    public func agreement(
        of filled: Filled,
        engine: AgreementEngine,
        termOfAddress: TermOfAddress = .unknown,
        concepts: [InflectionConcept] = []
    ) -> (edits: [RichTextEdit], warnings: [AgreementWarning]) {
        engine.edits(
            texts: filled.document.runs.map(\.text),
            agreement: runAgreement,
            spans: spans,
            arguments: filled.arguments,
            termOfAddress: termOfAddress,
            concepts: concepts
        )
    }

    /// The warnings of `text` (a render of this template) the first time any render has some, and
    /// none afterwards: what to log, once per string, as Apple's engine does. Lock-free.
    public func warningsToLog(_ text: InflectedText) -> [AgreementWarning] {
        guard !text.warnings.isEmpty, !warned.flag.exchange(true, ordering: .relaxed) else { return [] }
        return text.warnings
    }
}

/// A flag shared by the copies of one template.
private final class WarningLatch: Sendable {
    let flag = Atomic<Bool>(false)
}

extension FormatArgument {
    /// The number as `specifier` shows it, for choosing grammatical number: CLDR's plural
    /// categories depend on the digits shown, so `%.1f` with 1 shows *1,0* (plural in German and
    /// Italian, singular in French and Portuguese) and `%lld` with 0 shows *0*.
    ///
    /// Fixed-point specifiers round to their precision (6 when none is given); integers and text
    /// stay as they are; `%@` shows a whole `Double` without fraction digits. Scientific and
    /// general notation keep the raw value.
    func shown(by specifier: FormatSpecifier) -> FormatArgument {
        switch (self, specifier.conversion) {
        case (.string, _), (.integer, .object), (.unsignedInteger, .object), (.decimal, .object):
            return self
        case (.double(let value), .object):
            return value.isFinite && value.rounded(.towardZero) == value && abs(value) < 1e15
                ? .integer(Int64(value)) : self
        case (_, .fixed), (_, .fixedUpper):
            return fixedPoint(digits: specifier.precision ?? 6) ?? self
        default:
            return self
        }
    }

    /// The value rounded to `digits` fraction digits, written as decimal text.
    private func fixedPoint(digits: Int) -> FormatArgument? {
        let value: Double
        switch self {
        case .integer(let integer): value = Double(integer)
        case .unsignedInteger(let integer): value = Double(integer)
        case .double(let double): value = double
        case .decimal(let text): value = Double(text) ?? 0
        case .string: return nil
        }
        guard value.isFinite else { return nil }
        let clamped = min(max(digits, 0), 15)
        return .decimal(String(format: "%.\(clamped)f", value))
    }
}
