import RichText

/// Something the engine decided without being told, or could not do, worth a translator's look.
/// An ambiguous word read by its position is warned about once per string, as Apple's engine does.
public struct AgreementWarning: Hashable, Sendable, CustomStringConvertible {
    /// What kind of warning this is; stable names for tools.
    public enum Code: String, Hashable, Sendable {
        /// A word the lexicon lists with several parts of speech, read by its position.
        case ambiguousWord
        /// `agreeWithArgument:` names an argument the string does not have.
        case missingArgument
        /// `agreeWithConcept:`/`referentConcept:` names a concept the caller did not give.
        case missingConcept
        /// The locale's language has no agreement rules; spans are left as written.
        case unsupportedLanguage
        /// A word agreement would have to change is in neither the lexicon nor the catalog's declared
        /// terms: it is left as written, and so are the words whose form depends on it.
        case unknownWord
        /// A noun whose gender the lexicon does not give (or gives two of) and nothing in the phrase
        /// shows: the words whose form depends on the gender are left as written.
        case unknownGender
        /// A German phrase whose case nothing governs and nothing written shows (after *auf*, *in*, or
        /// an unknown verb): the words whose form depends on the case are left as written.
        case unknownCase
        /// A word no lexicon lists, changed by the language's spelling rules all the same (English
        /// and Spanish plurals, a Spanish gender read from the ending): probably right, not known.
        case inflectedByRule
    }

    public var code: Code
    /// The word concerned, as written.
    public var word: String?
    /// What the message says beyond the code and the word; the text is made only when read, since
    /// an uncached render makes warnings that nobody may read.
    private var detail: Detail

    private enum Detail: Hashable, Sendable {
        case text(String)
        case ambiguous(reading: String, alternatives: [String])
        case unknown(language: String)
        case unknownGender
        case unknownCase
        case ruleForm(String, language: String)
        case ruleGender(Morphology.GrammaticalGender, language: String)
    }

    public init(code: Code, word: String? = nil, message: String) {
        self.init(code: code, word: word, detail: .text(message))
    }

    private init(code: Code, word: String?, detail: Detail) {
        self.code = code
        self.word = word
        self.detail = detail
    }

    /// A sentence for people: what happened to the word and what to do about it.
    public var message: String {
        let word = word ?? ""
        switch detail {
        case .text(let text):
            return text
        case .ambiguous(let reading, let alternatives):
            return "'\(word)' can be \(alternatives.joined(separator: " or ")); read as \(reading) by its "
                + "position (add morphology: {partOfSpeech: '\(reading)'} to say so)"
        case .unknown(let language):
            return "'\(word)' is not in the \(language) lexicon or the catalog's declared terms; left as written "
                + "(declare it in the Menu table: see WritingStringsForAgreement)"
        case .unknownGender:
            return "the gender of '\(word)' is not known; words agreeing with it are left as written "
                + "(add morphology: {grammaticalGender: …} to the term)"
        case .unknownCase:
            return "the case of '\(word)' is not known (a preposition that takes two, or a verb agreement does "
                + "not know): words agreeing with it are left as written (add inflect: {grammaticalCase: …})"
        case .ruleForm(let form, let language):
            return "'\(word)' is in no \(language) lexicon: '\(form)' follows the spelling rules, not a dictionary "
                + "(declare it in the Menu table to be sure)"
        case .ruleGender(let gender, let language):
            return "'\(word)' is in no \(language) lexicon: its ending makes it \(gender.rawValue) for the words "
                + "agreeing with it, not a dictionary (declare it in the Menu table to be sure)"
        }
    }

    /// An ambiguous word and the reading its position gave it.
    static func ambiguous(_ word: String, readAs reading: String, alternatives: [String]) -> AgreementWarning {
        AgreementWarning(
            code: .ambiguousWord,
            word: word,
            detail: .ambiguous(reading: reading, alternatives: alternatives)
        )
    }

    /// A word agreement does not know, left as written.
    static func unknown(_ word: String, language: String) -> AgreementWarning {
        AgreementWarning(code: .unknownWord, word: word, detail: .unknown(language: language))
    }

    /// A word no lexicon lists whose form the spelling rules made (`zorblat` → `zorblats`).
    static func inflectedByRule(_ word: String, to form: String, language: String) -> AgreementWarning {
        AgreementWarning(code: .inflectedByRule, word: word, detail: .ruleForm(form, language: language))
    }

    /// A noun no lexicon lists whose gender its ending gave, for the words agreeing with it.
    static func genderByRule(_ word: String, _ gender: Morphology.GrammaticalGender, language: String)
        -> AgreementWarning
    {
        AgreementWarning(code: .inflectedByRule, word: word, detail: .ruleGender(gender, language: language))
    }

    /// A German phrase whose case is not known, so the words declined for it are left as written.
    static func unknownCase(_ word: String) -> AgreementWarning {
        AgreementWarning(code: .unknownCase, word: word, detail: .unknownCase)
    }

    /// A noun whose gender is not known, so gendered words around it are left as written.
    static func unknownGender(_ word: String) -> AgreementWarning {
        AgreementWarning(code: .unknownGender, word: word, detail: .unknownGender)
    }

    public var description: String { message }
}
