import Synchronization
import _FoundationICU

/// Loads ICU's data for a locale once, before Foundation's locale-parent lookup runs on it.
///
/// On this toolchain `Locale.Language.parent` loops forever for some tags (`no-NO`, `no_NO`,
/// `no-NO-NY`) when ICU has not yet opened any of that locale's data; opening its plural rules
/// and a number format first avoids it (``Localizer`` also makes its ICU objects before the chain).
enum ICULocaleWarmUp {
    private static let prepared = Mutex<Set<String>>([])

    static func prepare(_ locale: String) {
        guard prepared.withLock({ $0.insert(locale).inserted }) else { return }
        let localeID = ICULocaleID.make(locale)
        var status = U_ZERO_ERROR
        if let rules = swift_uplrules_open(localeID, &status) {
            swift_uplrules_close(rules)
        }
        status = U_ZERO_ERROR
        if let format = swift_unum_open(UNUM_DECIMAL, nil, 0, localeID, nil, &status) {
            swift_unum_close(format)
        }
    }
}
