import Foundation
import Localization
import Testing

/// The ICU formatters give byte for byte what Foundation's `FormatStyle` gives on Linux (the same
/// ICU underneath), so code can switch to them without changing a single output.
@Suite("ICU formatters match Foundation")
struct FoundationParityTests {
    static let locales = [
        "en-US", "es-ES", "es-MX", "fr-FR", "de-DE", "ja-JP", "ar-EG", "en-IN", "ar-SA", "zh-Hant-TW",
    ]

    @Test("currency", arguments: locales)
    func currency(locale: String) throws {
        for code in ["USD", "EUR", "MXN", "JPY", "EGP", "BHD"] {
            let currency = try #require(Currency(code: code))
            let formatter = try CurrencyFormatter(locale: locale, currency: currency)
            for amount in ["0", "1", "12.5", "1234.56", "1000000", "0.125", "99999.999"] {
                let rounded = Decimal(string: amount)!
                let expected = rounded.formatted(.currency(code: code).locale(Locale(identifier: locale)))
                #expect(formatter.string(decimal: amount) == expected, "\(locale) \(code) \(amount)")
            }
        }
    }

    @Test("percent", arguments: locales)
    func percent(locale: String) throws {
        let formatter = try PercentFormatter(locale: locale)
        for rate in ["0", "0.1", "0.0825", "0.08625", "0.16", "1"] {
            let expected = Decimal(string: rate)!.formatted(
                .percent.precision(.fractionLength(0...3)).locale(Locale(identifier: locale))
            )
            #expect(formatter.string(decimal: rate) == expected, "\(locale) \(rate)")
        }
    }

    @Test("and-lists", arguments: locales + ["es-ES-hi"])
    func lists(locale: String) throws {
        let formatter = try ListFormatter(locale: locale)
        // Right-to-left locales isolate only the items that do not start right-to-left.
        let lists = [
            ["a"], ["prosciutto", "cheese"], ["agua", "hielo"], ["pan", "queso", "harina", "tomates"],
            ["شطيرة", "بيتزا", "pizza"], ["\u{2068}١\u{2069} × شطيرة", "b", "١٥"],
        ]
        for items in lists {
            let expected = items.formatted(.list(type: .and).locale(Locale(identifier: locale)))
            #expect(formatter.string(items) == expected, "\(locale) \(items)")
        }
    }

    /// The skeletons the core uses, beside the `Date.FormatStyle` each stands for.
    static let dateStyles: [(skeleton: String, style: Date.FormatStyle)] = [
        ("EEEjm", .dateTime.weekday().hour().minute()),
        ("EEEj", .dateTime.weekday().hour()),
        ("EEE", .dateTime.weekday()),
        ("yMdjm", .dateTime.year().month(.defaultDigits).day().hour().minute()),
        ("jm", .dateTime.hour().minute()),
    ]

    /// Hour cycles and the locales whose hour symbol Foundation treats specially.
    static let dateLocales =
        locales + [
            "en-US-u-hc-h23", "ja-JP-u-hc-h12", "de-DE-u-hc-h12", "fr-FR-u-hc-h12", "zh-Hant-TW-u-hc-h23",
            "zh-CN-u-hc-h12", "en-GB", "ko-KR", "hi-IN", "he-IL-u-hc-h12", "sv-SE-u-hc-h12",
        ]

    @Test("date fields", arguments: dateLocales)
    func dateFields(locale: String) throws {
        let zones = ["Europe/Madrid", "America/Los_Angeles", "Asia/Tokyo"]
        // Early and late hours (one digit or two), noon, a DST change, a year end.
        let dates = [1_795_000_000, 1_774_745_400, 1_798_761_540, 1_774_789_200, 1_774_839_600].map {
            Date(timeIntervalSince1970: $0)
        }
        for (skeleton, base) in Self.dateStyles {
            for zone in zones {
                let formatter = try DateFieldFormatter(locale: locale, timeZone: zone, skeleton: skeleton)
                var style = base
                style.locale = Locale(identifier: locale)
                style.timeZone = try #require(TimeZone(identifier: zone))
                for date in dates {
                    let attributed = style.attributed.format(date)
                    let expected = attributed.runs.map { run -> DateFieldFormatter.Piece in
                        let text = String(attributed[run.range].characters)
                        let field = run.attributes[AttributeScopes.FoundationAttributes.DateFieldAttribute.self]
                        // Foundation's field names are the ones the formatter uses.
                        return DateFieldFormatter.Piece(text: text, field: field.flatMap { .init(rawValue: "\($0)") })
                    }
                    #expect(formatter.pieces(date) == expected, "\(locale) \(skeleton) \(zone) \(date)")
                    #expect(formatter.string(date) == style.format(date), "\(locale) \(skeleton) \(zone) \(date)")
                }
            }
        }
    }

    @Test("currency digits come from ICU")
    func currencyDigits() {
        #expect(Currency(code: "JPY")?.fractionDigits == 0)
        #expect(Currency(code: "USD")?.fractionDigits == 2)
        #expect(Currency(code: "BHD")?.fractionDigits == 3)
        #expect(Currency(code: "XYZ") == nil)
        #expect(Currency(code: "usd") == nil)
        #expect(Currency(code: "US") == nil)
    }
}
