import _FoundationICU

/// The part of a locale tag that decides how things are formatted, as one canonical BCP 47 tag:
/// ICU's canonical form of the tag, with private use (`-x-…`) and every Unicode extension keyword
/// that does not change a format, or whose value ICU does not know, removed.
///
/// `en-US-x-t1`, `en-us-u-co-phonebk` and `en-US-u-nu-bogus` are all `en-US`; `ar-EG-u-nu-latn`
/// stays itself (Latin digits), as do `-u-ca-` (calendar), `-u-hc-` (hour cycle) and `-u-rg-`
/// (region override) with values ICU knows. Two tags with one key format every number, date and
/// list the same way, so whatever is compiled for a locale can be kept per key: a client that
/// varies a tag's decoration cannot make a server compile it again.
public enum FormattingLocale {
    /// The key of `tag`, or `nil` when ICU does not read all of it as a BCP 47 tag with a language.
    public static func key(for tag: String) -> String? {
        guard LocaleTag.isWellFormed(tag) else { return nil }
        var status = U_ZERO_ERROR
        var identifier = [CChar](repeating: 0, count: 160)
        let length = swift_uloc_forLanguageTag(tag, &identifier, Int32(identifier.count), nil, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else { return nil }
        var canonical = [CChar](repeating: 0, count: 160)
        status = U_ZERO_ERROR
        _ = swift_uloc_canonicalize(identifier, &canonical, Int32(canonical.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        var base = [CChar](repeating: 0, count: 160)
        status = U_ZERO_ERROR
        _ = swift_uloc_getBaseName(canonical, &base, Int32(base.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        // The keywords that change a format, each with a value ICU knows.
        for keyword in keywords(of: canonical) {
            guard let value = value(of: keyword, in: canonical), isKnown(value, for: keyword) else { continue }
            status = U_ZERO_ERROR
            _ = swift_uloc_setKeywordValue(keyword, value, &base, Int32(base.count), &status)
            if status.rawValue > U_ZERO_ERROR.rawValue { return nil }
        }
        var result = [CChar](repeating: 0, count: 160)
        status = U_ZERO_ERROR
        let written = swift_uloc_toLanguageTag(base, &result, Int32(result.count), 1, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, written > 0 else { return nil }
        return String(decoding: result.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The ICU keywords that change how numbers, dates and lists are formatted.
    static let formattingKeywords: Set<String> = ["numbers", "calendar", "hours", "rg"]

    private static func keywords(of identifier: [CChar]) -> [String] {
        var status = U_ZERO_ERROR
        guard let enumeration = swift_uloc_openKeywords(identifier, &status) else { return [] }
        defer { swift_uenum_close(enumeration) }
        var found: [String] = []
        while let next = swift_uenum_next(enumeration, nil, &status), status.rawValue <= U_ZERO_ERROR.rawValue {
            let keyword = String(cString: next)
            if formattingKeywords.contains(keyword) { found.append(keyword) }
        }
        return found.sorted()
    }

    private static func value(of keyword: String, in identifier: [CChar]) -> String? {
        var buffer = [CChar](repeating: 0, count: 96)
        var status = U_ZERO_ERROR
        let length = swift_uloc_getKeywordValue(identifier, keyword, &buffer, Int32(buffer.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isKnown(_ value: String, for keyword: String) -> Bool {
        switch keyword {
        case "numbers": numberingSystems.contains(value)
        case "calendar": calendars.contains(value)
        case "hours": ["h11", "h12", "h23", "h24"].contains(value)
        // A region override: a region code and "zzzz" (a subdivision), as ICU canonicalizes it.
        case "rg":
            value.utf8.count == 6 && value.hasSuffix("zzzz")
                && value.utf8.prefix(2).allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) }
        default: false
        }
    }

    /// The numbering systems ICU has (`latn`, `arab`, `deva`…).
    static let numberingSystems: Set<String> = {
        var status = U_ZERO_ERROR
        guard let enumeration = swift_unumsys_openAvailableNames(&status) else { return ["latn"] }
        defer { swift_uenum_close(enumeration) }
        return names(enumeration)
    }()

    /// The calendars ICU has (`gregorian`, `japanese`, `islamic-civil`…).
    static let calendars: Set<String> = {
        var status = U_ZERO_ERROR
        guard let enumeration = swift_ucal_getKeywordValuesForLocale("calendar", "", 0, &status) else {
            return ["gregorian"]
        }
        defer { swift_uenum_close(enumeration) }
        return names(enumeration)
    }()

    private static func names(_ enumeration: OpaquePointer) -> Set<String> {
        var status = U_ZERO_ERROR
        var names: Set<String> = []
        while let next = swift_uenum_next(enumeration, nil, &status), status.rawValue <= U_ZERO_ERROR.rawValue {
            names.insert(String(cString: next))
        }
        return names
    }
}
