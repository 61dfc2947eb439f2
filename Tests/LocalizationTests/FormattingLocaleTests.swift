// Caffe — Localization tests.
import Testing

@testable import Localization

/// Locale tags reduced to what changes a format.
@Suite("Formatting locale keys")
struct FormattingLocaleTests {
    @Test(
        "decoration that changes no format is dropped; what changes one is kept, canonically",
        arguments: [
            ("en-US", "en-US"),
            ("en-us", "en-US"),
            ("en-US-x-t1", "en-US"),
            ("en-US-x-t2", "en-US"),
            ("en-US-u-co-phonebk", "en-US"),
            ("en-US-u-nu-bogus", "en-US"),
            ("en-US-u-ca-madeup", "en-US"),
            ("en-US-u-hc-h23", "en-US-u-hc-h23"),
            ("ar-EG-u-nu-latn", "ar-EG-u-nu-latn"),
            ("ja-JP-u-ca-japanese", "ja-JP-u-ca-japanese"),
            ("en-US-u-rg-gbzzzz", "en-US-u-rg-gbzzzz"),
            ("iw-IL", "he-IL"),
            ("es-419", "es-419"),
            ("zh-Hant-HK", "zh-Hant-HK"),
        ]
    )
    func keys(tag: String, key: String) {
        #expect(FormattingLocale.key(for: tag) == key)
    }

    @Test("tags ICU does not read whole have no key")
    func malformed() {
        for tag in ["", "en--US", "es_MX!", "-x-only"] { #expect(FormattingLocale.key(for: tag) == nil) }
    }
}
