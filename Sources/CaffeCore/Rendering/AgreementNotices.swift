import GrammarAgreement

/// A word agreement left as written while rendering (it knows neither the word nor, for
/// `unknownGender`, its gender, nor, for `unknownCase`, the German case of its phrase): what the
/// worker counts and logs, and `caffe lint --agreement` lists before deployment.
public struct AgreementNotice: Hashable, Sendable {
    /// The catalog localization the text came from (`de`, `pt-BR`).
    public var locale: String
    /// `unknownWord`, `unknownGender` or `unknownCase` (``AgreementWarning/Code``).
    public var reason: String
    /// The word as written.
    public var word: String

    public init(locale: String, reason: String, word: String) {
        self.locale = locale
        self.reason = reason
        self.word = word
    }
}

/// Notices a session's renders gave since they were last taken; at most ``limit`` are kept, so a
/// session nobody drains holds a bounded amount.
final class AgreementNoticeSink {
    static let limit = 256
    private(set) var notices: [AgreementNotice] = []

    func record(_ warnings: [AgreementWarning], locale: String) {
        for warning in warnings
        where warning.code == .unknownWord || warning.code == .unknownGender || warning.code == .unknownCase {
            guard notices.count < Self.limit else { return }
            notices.append(AgreementNotice(locale: locale, reason: warning.code.rawValue, word: warning.word ?? ""))
        }
    }

    func take() -> [AgreementNotice] {
        defer { notices.removeAll(keepingCapacity: true) }
        return notices
    }
}
