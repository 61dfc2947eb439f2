import Foundation
import RichText

extension AttributedString {
    /// The string with its agreement attributes applied, like Foundation's
    /// `inflected(locale:userTermOfAddress:inflectionConcepts:)` on Apple platforms.
    ///
    /// Reads the keys of ``AttributeScopes/RichTextAttributes`` (`inflect`, `morphology`,
    /// `agreeWithArgument`, `inflectionAlternative`, `agreeWithConcept`, `referentConcept`); changed
    /// words keep the attributes of the text they replace.
    ///
    /// ```swift
    /// let text = try RichTextParser.parse("^[Bienvenido](inflect: true)").attributedString()
    /// try text.inflected(locale: Locale(identifier: "es-ES"), userTermOfAddress: .feminine)  // "Bienvenida"
    /// ```
    /// - Parameter arguments: the substituted arguments, when the string came from a format string.
    /// - Throws: ``AgreementError`` when the locale has no plural rules.
    public func inflected(
        locale: Locale,
        userTermOfAddress: TermOfAddress = .unknown,
        inflectionConcepts: [InflectionConcept] = [],
        arguments: [ArgumentRecord] = []
    ) throws(AgreementError) -> AttributedString {
        let engine = try GrammarAgreement.engine(for: locale.identifier)
        var texts: [String] = []
        var agreement: [RunAgreement] = []
        var ranges: [Range<AttributedString.Index>] = []
        for run in runs {
            texts.append(String(self[run.range].characters))
            ranges.append(run.range)
            agreement.append(
                RunAgreement(
                    rule: run[InflectAttribute.self],
                    alternative: run[InflectionAlternativeAttribute.self],
                    agreeWithArgument: run[AgreeWithArgumentAttribute.self],
                    agreeWithConcept: run[AgreeWithConceptAttribute.self],
                    referentConcept: run[ReferentConceptAttribute.self],
                    morphology: run[MorphologyAttribute.self]
                )
            )
        }
        let edits = engine.edits(
            texts: texts,
            agreement: agreement,
            spans: SpanPlan.spans(in: agreement),
            arguments: arguments,
            termOfAddress: userTermOfAddress,
            concepts: inflectionConcepts
        ).edits
        var result = self
        // Back to front, so earlier offsets stay valid.
        for edit in edits.reversed() {
            let view = result.utf8
            guard edit.utf8Range.upperBound <= view.count else { continue }
            let lower = view.index(view.startIndex, offsetBy: edit.utf8Range.lowerBound)
            let upper = view.index(lower, offsetBy: edit.utf8Range.count)
            let attributes = lower < result.endIndex ? result[lower..<upper].runs.first?.attributes : nil
            result.replaceSubrange(
                lower..<upper,
                with: AttributedString(edit.replacement, attributes: attributes ?? AttributeContainer())
            )
        }
        return result
    }
}
