import RichText

/// The agreement keys of one run, decoded once.
struct RunAgreement: Hashable, Sendable {
    var rule: InflectionRule?
    var alternative: String?
    var agreeWithArgument: Int?
    var agreeWithConcept: Int?
    var referentConcept: Int?
    var morphology: Morphology?

    /// Whether the run belongs to an agreement span.
    var isAgreementSpan: Bool {
        rule != nil || agreeWithArgument != nil || agreeWithConcept != nil || referentConcept != nil
    }

    /// Whether two runs belong to the same span when adjacent (morphology may differ inside one).
    func isSameSpan(as other: RunAgreement) -> Bool {
        rule == other.rule && alternative == other.alternative && agreeWithArgument == other.agreeWithArgument
            && agreeWithConcept == other.agreeWithConcept && referentConcept == other.referentConcept
    }

    /// Reads the keys from a run's `^[…](…)` JSON; values of the wrong type are ignored, as
    /// Foundation ignores attributes it cannot decode.
    init(json attributes: [String: JSONValue]) {
        switch attributes["inflect"] {
        case .bool(true): rule = .automatic
        case .object(let members): rule = .explicit(Self.morphology(members))
        default: rule = nil
        }
        if case .string(let text) = attributes["inflectionAlternative"] { alternative = text }
        agreeWithArgument = Self.integer(attributes["agreeWithArgument"])
        agreeWithConcept = Self.integer(attributes["agreeWithConcept"])
        referentConcept = Self.integer(attributes["referentConcept"])
        if case .object(let members) = attributes["morphology"] { morphology = Self.morphology(members) }
    }

    init(
        rule: InflectionRule?,
        alternative: String?,
        agreeWithArgument: Int?,
        agreeWithConcept: Int?,
        referentConcept: Int?,
        morphology: Morphology?
    ) {
        self.rule = rule
        self.alternative = alternative
        self.agreeWithArgument = agreeWithArgument
        self.agreeWithConcept = agreeWithConcept
        self.referentConcept = referentConcept
        self.morphology = morphology
    }

    private static func integer(_ value: JSONValue?) -> Int? {
        switch value {
        case .integer(let number): Int(exactly: number)
        case .number(let number): Int(exactly: number)
        default: nil
        }
    }

    private static func morphology(_ members: [String: JSONValue]) -> Morphology {
        func string(_ key: String) -> String? {
            if case .string(let text) = members[key] { return text }
            return nil
        }
        return Morphology(
            grammaticalGender: string("grammaticalGender").flatMap(Morphology.GrammaticalGender.init(rawValue:)),
            partOfSpeech: string("partOfSpeech").flatMap(Morphology.PartOfSpeech.init(rawValue:)),
            number: string("number").flatMap(Morphology.GrammaticalNumber.init(rawValue:)),
            definiteness: string("definiteness").flatMap(Morphology.Definiteness.init(rawValue:)),
            grammaticalCase: string("grammaticalCase").flatMap(Morphology.GrammaticalCase.init(rawValue:)),
            grammaticalPerson: string("grammaticalPerson").flatMap(Morphology.GrammaticalPerson.init(rawValue:))
        )
    }
}

/// An agreement span: adjacent runs with the same agreement keys.
struct SpanPlan: Hashable, Sendable {
    /// The runs the span covers.
    var runs: Range<Int>
    var agreement: RunAgreement

    /// Finds the spans among `runs`.
    static func spans(in runs: [RunAgreement]) -> [SpanPlan] {
        var spans: [SpanPlan] = []
        var index = 0
        while index < runs.count {
            guard runs[index].isAgreementSpan else {
                index += 1
                continue
            }
            var end = index + 1
            while end < runs.count, runs[end].isSameSpan(as: runs[index]) { end += 1 }
            spans.append(SpanPlan(runs: index..<end, agreement: runs[index]))
            index = end
        }
        return spans
    }
}
