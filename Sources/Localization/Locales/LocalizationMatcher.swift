import Foundation

/// Picks which of a catalog's localizations serve a requested locale, best first.
///
/// The chain follows CLDR's parent locales as Foundation reports them (`Locale.Language.parent`):
/// es-MX → es-419 → es, en-IN → en-GB → en-001 → en, pt-PT → pt (which is Brazilian),
/// zh-Hant-HK → zh-Hant. A chain element matches a localization with the same identifier or the
/// same maximal form (`zh-TW` and `zh-Hant` are both zh-Hant-TW; `pt` and `pt-BR` are both
/// pt-Latn-BR). The development language always comes last. The process locale is never read.
///
/// Language codes Apple treats as aliases are read as Apple reads them (``canonical(_:)``), so
/// `no` and `no-NO` find `nb` and `nb-NO` localizations, and a `no.lproj` serves `nb`.
public struct LocalizationMatcher: Sendable {
    /// The localizations the catalog has (`en`, `es-419`, `zh-Hant`, `Base`…).
    public let available: [String]
    /// The catalog's development language, the last resort.
    public let developmentLanguage: String

    private let availableByKey: [String: String]

    public init(available: [String], developmentLanguage: String) {
        self.available = available
        self.developmentLanguage = developmentLanguage
        var byKey: [String: String] = [:]
        for localization in available {
            byKey[Self.normalized(localization), default: localization] = localization
        }
        for localization in available {
            byKey[Self.maximal(localization), default: localization] = localization
        }
        availableByKey = byKey
    }

    /// The locale's CLDR ancestry, itself first, without the root (`es-MX`, `es-419`, `es`).
    public static func ancestry(of requested: String) -> [String] {
        let locale = canonical(requested)
        // Foundation's `parent` can spin in ICU for some tags (no-NO) until ICU has loaded the
        // locale's data once; opening its plural rules first loads it.
        ICULocaleWarmUp.prepare(locale)
        var chain = [locale]
        var seen: Set<String> = [normalized(locale)]
        var current = Locale.Language(identifier: locale).parent
        while let language = current, chain.count < 8 {
            let identifier = language.minimalIdentifier
            guard identifier != "root", !identifier.isEmpty else { break }
            if seen.insert(normalized(identifier)).inserted { chain.append(identifier) }
            let next = language.parent
            if next?.minimalIdentifier == identifier { break }
            current = next
        }
        return chain
    }

    /// The localizations to try for `locale`, best first, each once, ending with the development
    /// language (and `Base` if the catalog has it).
    public func localizations(for locale: String) -> [String] {
        var result: [String] = []
        func add(_ localization: String?) {
            if let localization, !result.contains(localization) { result.append(localization) }
        }
        for element in Self.ancestry(of: locale) {
            add(availableByKey[Self.normalized(element)] ?? availableByKey[Self.maximal(element)])
        }
        add(availableByKey[Self.normalized(developmentLanguage)] ?? developmentLanguage)
        add(availableByKey["base"])
        return result
    }

    /// Whether `ancestor` is `locale` or one of its CLDR parents (en-GB descends from en; es-MX from
    /// es-419 and es), matched as localizations are: by identifier or maximal form.
    public static func descends(_ locale: String, from ancestor: String) -> Bool {
        let target = normalized(ancestor)
        let targetMaximal = maximal(ancestor)
        return ancestry(of: locale).contains { normalized($0) == target || maximal($0) == targetMaximal }
    }

    /// Whether some localization other than the development language serves `locale`.
    public func isSupported(_ locale: String) -> Bool {
        Self.ancestry(of: locale).contains { element in
            availableByKey[Self.normalized(element)] != nil || availableByKey[Self.maximal(element)] != nil
        }
    }

    /// `identifier` with its language code replaced where Apple treats the code as an alias:
    /// `no` (Norwegian, ambiguous), `nor`, `nob` and `no-bok` are Bokmål `nb`; `nno` and
    /// `no-nyn` are Nynorsk `nn`. Region and script subtags are kept (`no-NO` → `nb-NO`).
    ///
    /// The table is CoreFoundation's, which bundles use to match localizations
    /// (`localeStringPrefixToCanonical` in swift-corelibs-foundation
    /// `Sources/CoreFoundation/CFLocaleIdentifier.c`: `{ "no", "nb" }  // ambiguous 639 code no -> nb`).
    /// ICU itself keeps `no` as its own locale and makes it `nb`'s parent, so without this a `no`
    /// customer would not reach an `nb` catalog.
    public static func canonical(_ identifier: String) -> String {
        let subtags = identifier.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = subtags.first?.lowercased() else { return identifier }
        let second = subtags.count > 1 ? subtags[1].lowercased() : ""
        let replacement: (language: String, consumed: Int)?
        switch (first, second) {
        case ("no", "bok"): replacement = ("nb", 2)
        case ("no", "nyn"): replacement = ("nn", 2)
        case ("no", _), ("nor", _), ("nob", _): replacement = ("nb", 1)
        case ("nno", _): replacement = ("nn", 1)
        default: replacement = nil
        }
        guard let replacement else { return identifier }
        return ([replacement.language] + subtags.dropFirst(replacement.consumed)).joined(separator: "-")
    }

    /// Lowercase, `-` between subtags, Apple's language aliases resolved: the key localizations
    /// are matched by.
    static func normalized(_ identifier: String) -> String {
        String(canonical(identifier).lowercased().map { $0 == "_" ? "-" : $0 })
    }

    static func maximal(_ identifier: String) -> String {
        guard normalized(identifier) != "base" else { return "base" }
        return normalized(Locale.Language(identifier: canonical(identifier)).maximalIdentifier)
    }
}
