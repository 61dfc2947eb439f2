import RichText

/// One word or fixed phrase of a language's lexicon: its parts of speech, gender and the forms
/// the rules cannot derive.
///
/// A class, so the many lookups agreement makes per word share one instance instead of copying
/// its strings. Entries are filled in while a ``Lexicon`` is read and never change once it is
/// shared, which is why the unchecked `Sendable` is sound.
public final class LexiconEntry: @unchecked Sendable {
    /// A noun's grammatical gender as the lexicon records it.
    public enum Gender: String, Hashable, Sendable {
        case masculine = "m"
        case feminine = "f"
        /// Used with either gender (Spanish *el/la azúcar*); agreement picks the masculine.
        case common = "mf"
        /// German *das*.
        case neuter = "n"
    }

    /// The dictionary form: singular, masculine for adjectives, lowercase unless always capitalised.
    public internal(set) var lemma: String
    /// The parts of speech the word can have, the likeliest first; more than one makes it ambiguous.
    public internal(set) var partsOfSpeech: [Morphology.PartOfSpeech]
    /// The noun's gender (languages with grammatical gender); the first the sources give when they
    /// give more (``alternativeGenders``). `nil` for a noun whose sources do not say (`?` in the
    /// file): agreement then changes only words whose form does not depend on it.
    public internal(set) var gender: Gender?
    /// Other genders the noun is used with (German *der* or *das Cookie*), after ``gender``.
    public internal(set) var alternativeGenders: [Gender] = []
    /// The plural when the language's rules would not produce it; equal to ``lemma`` for nouns
    /// that do not change (English *fish*, Spanish *lunes*).
    public internal(set) var plural: String?
    /// An adjective's feminine singular when the rules would not produce it.
    public internal(set) var feminine: String?
    /// An adjective's feminine plural, where the language's default does not give it.
    public internal(set) var femininePlural: String?
    /// An adjective's masculine plural, for a word that is also a noun with another plural.
    public internal(set) var adjectivePlural: String?
    /// German: the dative plural, where it is not the plural plus *-n*.
    public internal(set) var dativePlural: String?
    /// German: the accusative, dative and genitive singular of a weak noun (*Kunde* → *Kunden*).
    public internal(set) var oblique: String?
    /// An adjective's short form before a singular noun (Spanish *bueno* → *buen*).
    public internal(set) var apocope: String?
    /// English: the indefinite article the word takes when its spelling misleads (*an hour*).
    public internal(set) var article: String?
    /// Whether the word is written in the plural only (English *fries*, Spanish *natillas*).
    public internal(set) var isPluralOnly: Bool
    /// Whether the phrase never takes a plural (English *mac and cheese*).
    public internal(set) var isUncountable: Bool
    /// Spanish: a feminine noun starting with stressed *a* that takes *el*/*un* (*el agua*).
    public internal(set) var takesMasculineArticle: Bool
    /// An adjective that keeps one form for every gender and number (Spanish *naranja*, *extra*).
    public internal(set) var isInvariable: Bool
    /// German: the stem an adjective declines from when it is not the lemma (*hoch* → *hoh-*,
    /// *mittel* → *mittler-*).
    public internal(set) var stem: String?
    /// French: a word starting with an aspirated *h*, before which nothing elides (*le homard*).
    public internal(set) var isAspirated: Bool = false
    /// Whether ``isInvariable`` is the adjective's and the noun reading (added from a dictionary)
    /// has the language's regular plural (*vinho*, invariable as a colour, *vinhos* as a noun).
    public internal(set) var hasRegularNounPlural: Bool = false
    /// Whether the entry comes from a lexicon compiled from dictionaries rather than a hand-written
    /// one: several parts of speech there are the dictionary's, decided by position without a warning.
    public internal(set) var isCompiled: Bool = false
    /// Italian: a masculine noun whose plural is feminine (*l'uovo*, *le uova*).
    public internal(set) var isFeminineInPlural: Bool = false

    /// The lexicon's gender as agreement uses it: common-gender nouns agree in the masculine.
    var grammaticalGender: Morphology.GrammaticalGender? {
        switch gender {
        case .feminine: .feminine
        case .masculine, .common: .masculine
        case .neuter: .neuter
        case nil: nil
        }
    }

    public init(
        lemma: String,
        partsOfSpeech: [Morphology.PartOfSpeech],
        gender: Gender? = nil,
        plural: String? = nil,
        feminine: String? = nil,
        apocope: String? = nil,
        article: String? = nil,
        isPluralOnly: Bool = false,
        isUncountable: Bool = false,
        takesMasculineArticle: Bool = false,
        isInvariable: Bool = false
    ) {
        self.lemma = lemma
        self.partsOfSpeech = partsOfSpeech
        self.gender = gender
        self.plural = plural
        self.feminine = feminine
        self.apocope = apocope
        self.article = article
        self.isPluralOnly = isPluralOnly
        self.isUncountable = isUncountable
        self.takesMasculineArticle = takesMasculineArticle
        self.isInvariable = isInvariable
    }

    /// Whether the word can be a noun.
    public var canBeNoun: Bool { partsOfSpeech.contains(.noun) }
    /// Whether the word can be an adjective.
    public var canBeAdjective: Bool { partsOfSpeech.contains(.adjective) }
    /// Whether the lexicon gives more than one part of speech.
    public var isAmbiguous: Bool { partsOfSpeech.count > 1 }

    /// Whether the noun's gender is known and single: its words agree without a guess.
    public var hasOneGender: Bool {
        gender != nil && gender != .common && alternativeGenders.isEmpty
    }
}
