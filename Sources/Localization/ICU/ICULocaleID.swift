import _FoundationICU

/// Converts a BCP 47 language tag (`es-MX`, `zh-Hant-HK`, `ar-EG-u-nu-latn`) to an ICU locale ID.
enum ICULocaleID {
    static func make(_ tag: String) -> String {
        var buffer = [CChar](repeating: 0, count: 157)
        var status = U_ZERO_ERROR
        let length = swift_uloc_forLanguageTag(tag, &buffer, Int32(buffer.count), nil, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else {
            return tag.replacingHyphens()
        }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    fileprivate func replacingHyphens() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}

/// Reads UTF-16 output that ICU writes into a caller's buffer.
enum ICUText {
    /// Calls `fill(buffer, capacity, &status)`; retries once with the length ICU reports on overflow.
    static func read(_ fill: (UnsafeMutablePointer<UChar>, Int32, inout UErrorCode) -> Int32) -> String? {
        output(fill) { string($0) }
    }

    /// Fills a stack buffer first, a heap one of the reported size if that overflows, and hands
    /// the written units to `take` (which must not keep the buffer).
    static func output<R>(
        _ fill: (UnsafeMutablePointer<UChar>, Int32, inout UErrorCode) -> Int32,
        _ take: (UnsafeBufferPointer<UChar>) -> R
    ) -> R? {
        let capacity = 128
        var status = U_ZERO_ERROR
        let (taken, needed) = withUnsafeTemporaryAllocation(of: UChar.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return (R?.none, Int32(0)) }
            let length = fill(base, Int32(capacity), &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue, Int(length) <= capacity else { return (nil, length) }
            return (take(UnsafeBufferPointer(start: base, count: Int(length))), length)
        }
        if let taken { return taken }
        guard status == U_BUFFER_OVERFLOW_ERROR, needed > 0 else { return nil }
        var storage = [UChar](repeating: 0, count: Int(needed))
        status = U_ZERO_ERROR
        return storage.withUnsafeMutableBufferPointer { buffer -> R? in
            guard let base = buffer.baseAddress else { return nil }
            let length = fill(base, needed, &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
            return take(UnsafeBufferPointer(start: base, count: Int(min(length, needed))))
        }
    }
}

/// Checks on BCP 47 language tags.
public enum LocaleTag {
    /// Whether ICU reads all of `tag` as a BCP 47 language tag with a language ("es-MX",
    /// "ar-EG-u-nu-latn"; not "", "english", "es_MX!").
    public static func isWellFormed(_ tag: String) -> Bool {
        guard !tag.isEmpty, tag.utf8.count < 128 else { return false }
        var buffer = [CChar](repeating: 0, count: 157)
        var status = U_ZERO_ERROR
        var parsed: Int32 = 0
        let length = swift_uloc_forLanguageTag(tag, &buffer, Int32(buffer.count), &parsed, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0, Int(parsed) == tag.utf8.count else { return false }
        var language = [CChar](repeating: 0, count: 16)
        let languageLength = swift_uloc_getLanguage(buffer, &language, Int32(language.count), &status)
        return status.rawValue <= U_ZERO_ERROR.rawValue && languageLength > 0
    }
}
