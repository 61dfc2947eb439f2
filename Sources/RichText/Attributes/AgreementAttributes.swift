import Foundation

/// Grammatical properties of a word, as Apple's `Morphology` names them in Markdown
/// (`morphology: { grammaticalGender: "feminine", partOfSpeech: "noun", number: "plural" }`).
public struct Morphology: Hashable, Sendable, Codable {
    public enum GrammaticalGender: String, Hashable, Sendable, Codable { case feminine, masculine, neuter }
    public enum PartOfSpeech: String, Hashable, Sendable, Codable {
        case determiner, pronoun, letter, adverb, particle, adjective, adposition, verb, noun, conjunction,
            numeral, interjection, preposition, abbreviation
    }
    public enum GrammaticalNumber: String, Hashable, Sendable, Codable {
        case singular, zero, plural, pluralTwo, pluralFew, pluralMany
    }
    public enum Definiteness: String, Hashable, Sendable, Codable { case definite, indefinite }
    /// Apple's cases, and `instrumental`, which Apple's enum lacks and Polish and Russian need
    /// (`z mlekiem`, `с молоком`); Caffe also reads Apple's `ablative` as the instrumental there.
    public enum GrammaticalCase: String, Hashable, Sendable, Codable {
        case nominative, accusative, dative, genitive, prepositional, ablative, adessive, allative, elative,
            illative, essive, inessive, locative, translative, instrumental
    }
    public enum GrammaticalPerson: String, Hashable, Sendable, Codable { case first, second, third }

    public var grammaticalGender: GrammaticalGender?
    public var partOfSpeech: PartOfSpeech?
    public var number: GrammaticalNumber?
    public var definiteness: Definiteness?
    public var grammaticalCase: GrammaticalCase?
    public var grammaticalPerson: GrammaticalPerson?

    public init(
        grammaticalGender: GrammaticalGender? = nil,
        partOfSpeech: PartOfSpeech? = nil,
        number: GrammaticalNumber? = nil,
        definiteness: Definiteness? = nil,
        grammaticalCase: GrammaticalCase? = nil,
        grammaticalPerson: GrammaticalPerson? = nil
    ) {
        self.grammaticalGender = grammaticalGender
        self.partOfSpeech = partOfSpeech
        self.number = number
        self.definiteness = definiteness
        self.grammaticalCase = grammaticalCase
        self.grammaticalPerson = grammaticalPerson
    }
}

/// What `inflect:` asks for: `true` (make the span agree automatically) or an explicit morphology.
public enum InflectionRule: Hashable, Sendable, Codable {
    /// `inflect: true`.
    case automatic
    /// `inflect: { … }`: inflect to this morphology.
    case explicit(Morphology)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            guard flag else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "inflect: false is not a rule; omit the key"
                )
            }
            self = .automatic
        } else {
            self = .explicit(try container.decode(Morphology.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .automatic: try container.encode(true)
        case .explicit(let morphology): try container.encode(morphology)
        }
    }
}

/// `^[…](inflect: true)`: the span is inflected to agree (Apple's `inflect`).
public enum InflectAttribute: CodableAttributedStringKey, MarkdownDecodableAttributedStringKey {
    public typealias Value = InflectionRule
    public static let name = "NSInflect"
    public static let markdownName = "inflect"
}

/// `^[…](morphology: { … })`: the span's own grammatical properties.
public enum MorphologyAttribute: CodableAttributedStringKey, MarkdownDecodableAttributedStringKey {
    public typealias Value = Morphology
    public static let name = "NSMorphology"
    public static let markdownName = "morphology"
}

/// `^[Bienvenido](inflect: true, inflectionAlternative: 'Te damos la bienvenida')`: the text to
/// use when the reader's grammatical gender is unknown.
public enum InflectionAlternativeAttribute: CodableAttributedStringKey, MarkdownDecodableAttributedStringKey {
    public typealias Value = String
    public static let name = "NSInflectionAlternative"
    public static let markdownName = "inflectionAlternative"
}

/// `^[listo](agreeWithArgument: 2)`: agree with the 1-based format argument.
public enum AgreeWithArgumentAttribute: CodableAttributedStringKey, MarkdownDecodableAttributedStringKey {
    public typealias Value = Int
    public static let name = "NSInflectionAgreementArgument"
    public static let markdownName = "agreeWithArgument"
}

/// `^[…](agreeWithConcept: 1)`: agree with a concept the caller supplies.
public enum AgreeWithConceptAttribute: CodableAttributedStringKey, MarkdownDecodableAttributedStringKey {
    public typealias Value = Int
    public static let name = "NSInflectionAgreementConcept"
    public static let markdownName = "agreeWithConcept"
}

/// `^[…](referentConcept: 1)`: the span refers to a concept the caller supplies.
public enum ReferentConceptAttribute: CodableAttributedStringKey, MarkdownDecodableAttributedStringKey {
    public typealias Value = Int
    public static let name = "NSInflectionReferentConcept"
    public static let markdownName = "referentConcept"
}

/// Every `^[…](…)` key of a span as raw JSON, kept by the tooling mode whatever the scope declares.
public enum MarkdownAttributesAttribute: CodableAttributedStringKey {
    public typealias Value = [String: JSONValue]
    public static let name = "CaffeMarkdownAttributes"
}

extension AttributeScopes {
    /// The attributes the rich-text parser knows: presentation intents, Foundation's (``link``),
    /// and the grammar-agreement keys. Apps extend it with a scope of their own that embeds it.
    public struct RichTextAttributes: AttributeScope {
        public let inlinePresentationIntent: InlinePresentationIntentAttribute
        public let inflect: InflectAttribute
        public let morphology: MorphologyAttribute
        public let inflectionAlternative: InflectionAlternativeAttribute
        public let agreeWithArgument: AgreeWithArgumentAttribute
        public let agreeWithConcept: AgreeWithConceptAttribute
        public let referentConcept: ReferentConceptAttribute
        public let markdownAttributes: MarkdownAttributesAttribute
        public let foundation: FoundationAttributes
    }

    /// The rich-text scope, for `including: \.richText`.
    public var richText: RichTextAttributes.Type { RichTextAttributes.self }
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(
        dynamicMember keyPath: KeyPath<AttributeScopes.RichTextAttributes, T>
    ) -> T {
        self[T.self]
    }
}
