import _FoundationICU

/// What ICU knows: its locales and the currency each region uses. For tests and tools that hold
/// compiled formats to ICU across every locale.
public enum ICUInventory {
    /// Every locale ICU has data for, as BCP 47 tags ("en-US", "sr-Latn-BA"), in ICU's order.
    public static func locales() -> [String] {
        (0..<swift_uloc_countAvailable()).compactMap { index -> String? in
            guard let id = swift_uloc_getAvailable(index) else { return nil }
            var tag = [CChar](repeating: 0, count: 157)
            var status = U_ZERO_ERROR
            let length = swift_uloc_toLanguageTag(id, &tag, Int32(tag.count), 1, &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else { return nil }
            return String(decoding: tag.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The currency ICU gives `locale` by its region ("USD" for en-US), or `nil` for a locale with no
    /// region or a region with no currency.
    public static func currency(of locale: String) -> Currency? {
        var units = [UChar](repeating: 0, count: 4)
        var status = U_ZERO_ERROR
        let length = swift_ucurr_forLocale(ICULocaleID.make(locale), &units, 4, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length == 3 else { return nil }
        return Currency(code: String(decoding: units.prefix(3).map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self))
    }
}
