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

    /// The region `locale` most likely means: its own ("MX" for es-MX), or ICU's likely subtags'
    /// ("DE" for de, "EG" for ar); `nil` when there is none (es-419 names a continent).
    public static func likelyRegion(of locale: String) -> String? {
        var maximized = [CChar](repeating: 0, count: 157)
        var status = U_ZERO_ERROR
        _ = swift_uloc_addLikelySubtags(ICULocaleID.make(locale), &maximized, Int32(maximized.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        var country = [CChar](repeating: 0, count: 8)
        status = U_ZERO_ERROR
        let length = swift_uloc_getCountry(maximized, &country, Int32(country.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length == 2 else { return nil }
        return String(decoding: country.prefix(2).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether ICU knows `identifier` as a system time zone, canonical or an alias
    /// (`Asia/Kolkata`, `US/Pacific`, `Etc/UTC`), but not a custom one such as `GMT+5`.
    public static func isTimeZone(_ identifier: String) -> Bool {
        let units = Array(identifier.utf16)
        guard !units.isEmpty, units.count < 128 else { return false }
        var canonical = [UChar](repeating: 0, count: 128)
        var isSystemID: UBool = 0
        var status = U_ZERO_ERROR
        let length = swift_ucal_getCanonicalTimeZoneID(
            units,
            Int32(units.count),
            &canonical,
            Int32(canonical.count),
            &isSystemID,
            &status
        )
        return status.rawValue <= U_ZERO_ERROR.rawValue && length > 0 && isSystemID != 0
    }

    /// The canonical time zones of `region` ("Europe/Berlin", "Europe/Busingen" for DE), in ICU's
    /// order.
    public static func timeZones(inRegion region: String) -> [String] {
        var status = U_ZERO_ERROR
        guard
            let enumeration = swift_ucal_openTimeZoneIDEnumeration(
                UCAL_ZONE_TYPE_CANONICAL_LOCATION,
                region,
                nil,
                &status
            )
        else { return [] }
        defer { swift_uenum_close(enumeration) }
        var zones: [String] = []
        while let next = swift_uenum_next(enumeration, nil, &status), status.rawValue <= U_ZERO_ERROR.rawValue {
            zones.append(String(cString: next))
        }
        return zones
    }
}
