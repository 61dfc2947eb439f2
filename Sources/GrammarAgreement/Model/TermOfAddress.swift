import RichText

/// How the reader wants to be addressed, as Foundation's `TermOfAddress` models it: feminine,
/// masculine, neutral, or not known. English third-person pronouns follow it; Spanish adjectives
/// addressing the reader agree with it (*Bienvenida*/*Bienvenido*).
///
/// When the term is ``unknown`` (or ``neutral`` in a language without neutral forms), spans with an
/// `inflectionAlternative` show the alternative instead.
public struct TermOfAddress: Hashable, Sendable, CustomStringConvertible {
    /// The grammatical gender the term asks for.
    public enum Gender: String, Hashable, Sendable, CaseIterable {
        case feminine, masculine, neutral, unknown
    }

    public var gender: Gender
    /// Pronouns to use in English when the default set for the gender is not wanted.
    public var pronouns: PronounSet?

    public init(gender: Gender, pronouns: PronounSet? = nil) {
        self.gender = gender
        self.pronouns = pronouns
    }

    /// Feminine (*she*, *Bienvenida*).
    public static let feminine = TermOfAddress(gender: .feminine)
    /// Masculine (*he*, *Bienvenido*).
    public static let masculine = TermOfAddress(gender: .masculine)
    /// Neutral (*they*; the inflection alternative in Spanish).
    public static let neutral = TermOfAddress(gender: .neutral)
    /// Not known: the inflection alternative where there is one.
    public static let unknown = TermOfAddress(gender: .unknown)

    /// Reads `feminine`, `masculine`, `neutral` or `unknown`.
    public init?(_ name: String) {
        guard let gender = Gender(rawValue: name.lowercased()) else { return nil }
        self.init(gender: gender)
    }

    /// The grammatical gender for agreement, when the term has one.
    var grammaticalGender: Morphology.GrammaticalGender? {
        switch gender {
        case .feminine: .feminine
        case .masculine: .masculine
        case .neutral, .unknown: nil
        }
    }

    public var description: String { gender.rawValue }
}

/// The five English personal-pronoun forms of one referent.
public struct PronounSet: Hashable, Sendable {
    /// *she*, *he*, *they*.
    public var subject: String
    /// *her*, *him*, *them*.
    public var object: String
    /// *her*, *his*, *their* (before a noun).
    public var possessiveDeterminer: String
    /// *hers*, *his*, *theirs* (standing alone).
    public var possessivePronoun: String
    /// *herself*, *himself*, *themselves*.
    public var reflexive: String

    public init(
        subject: String,
        object: String,
        possessiveDeterminer: String,
        possessivePronoun: String,
        reflexive: String
    ) {
        self.subject = subject
        self.object = object
        self.possessiveDeterminer = possessiveDeterminer
        self.possessivePronoun = possessivePronoun
        self.reflexive = reflexive
    }
}

/// Something a span agrees with that is not in the text (Foundation's `InflectionConcept`),
/// referred to by its 1-based position in `agreeWithConcept:` and `referentConcept:`.
public enum InflectionConcept: Hashable, Sendable {
    /// People addressed by these terms; the first that has a gender is used.
    case termsOfAddress([TermOfAddress])
    /// A phrase in the text's language, whose head gives gender and number (*la ensalada*).
    case localizedPhrase(String)
}
