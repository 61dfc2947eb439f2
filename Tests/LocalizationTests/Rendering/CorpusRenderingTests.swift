// Caffe — Localization tests.

import Foundation
import Localization
import Testing

/// Real catalogs (`shared/corpus/catalogs`, see its EXPECTATIONS.md) loaded as one catalog folder
/// and rendered through `Localizer`; the table is the file name.
@Suite("Corpus rendering: real catalogs")
struct CorpusRenderingTests {
    typealias Support = RenderingSupport

    static func text(
        _ locale: String,
        _ key: String,
        table: String,
        _ arguments: [FormatArgument] = [],
        options: RenderOptions = RenderOptions()
    ) throws -> String {
        let rendered = try Support.corpus(locale, options).string(key, table: table, arguments: arguments)
        #expect(!rendered.isMissing, "\(locale) \(table) '\(key)' is missing")
        return rendered.text
    }

    // MARK: Loading

    /// Every file in the corpus loads; no reader reports an error.
    @Test func loadsWithoutErrors() {
        let catalog = Support.corpusCatalog
        #expect(catalog.files.count == 26)
        let errors = catalog.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
        #expect(catalog.developmentLanguage == "en")
    }

    /// Only the warnings the corpus deserves: the malformed `%1#@count@`, the gender rule, duplicate
    /// keys (quicksilver's repeats; two catalogs sharing a table name), and specifiers that are not
    /// conversions in strings never formatted.
    @Test func loadWarningCodes() {
        let codes = Set(Support.corpusCatalog.diagnostics.map(\.code.name))
        #expect(
            codes.isSubset(of: ["malformed-variable", "unsupported-rule-type", "duplicate-key", "invalid-specifier"]),
            "\(codes)"
        )
        let malformed = Support.corpusCatalog.diagnostics.filter { $0.code == .malformedVariable }
        #expect(Set(malformed.map(\.file)) == ["duckduckgo-ios/cs.lproj/Localizable.stringsdict"])
        #expect(
            Set(malformed.compactMap(\.key)) == [
                "dax.onboarding.browsing.multiple.trackers", "contextual.onboarding.browsing.multiple.trackers",
            ]
        )
        let gender = Support.corpusCatalog.diagnostics.filter { $0.code == .unsupportedRuleType }
        #expect(Set(gender.map(\.file)) == ["paragraph/ru.lproj/Account.stringsdict"])
        #expect(Set(gender.compactMap(\.key)) == ["birthday", "call"])
    }

    /// Linting the corpus: the errors are element-x's plural rules without `other`, and the
    /// variables that choose a plural by an argument their variants show as `%1$@` (issue 31,
    /// item 1: the plural is chosen from text, so it falls to the wrong category).
    @Test func lintErrorsAreElementXMissingOtherAndTypeConflicts() {
        let report = CatalogLinter(catalog: Support.corpusCatalog).lint()
        let errors = report.findings.filter { $0.severity == .error }
        let missing = errors.filter { $0.code == .missingPluralCategory }
        #expect(Set(missing.map(\.file)) == ["element-x-ios/pl.lproj/Localizable.stringsdict"])
        #expect(missing.count == 42 && missing.allSatisfy { $0.locale == "pl" })
        let conflicts = errors.filter { $0.code == .argumentTypeConflict }
        #expect(
            Set(conflicts.map { "\($0.file) \($0.key ?? "")" }) == [
                "element-x-ios/pl.lproj/Localizable.stringsdict a11y_read_receipts_multiple_with_others",
                "element-x-ios/pl.lproj/Localizable.stringsdict notification_compat_summary_line_for_room",
                "element-x-ios/pl.lproj/Localizable.stringsdict screen_room_multiple_knock_requests_title",
                "element-x-ios/pl.lproj/Localizable.stringsdict screen_room_typing_many_members",
                "element-x-ios/pl.lproj/Localizable.stringsdict screen_room_typing_notification",
                "mastodon-ios/ar.lproj/Localizable.stringsdict plural.count.followed_by_and_mutual",
            ]
        )
        #expect(errors.count == missing.count + conflicts.count, "\(errors.prefix(10))")
    }

    // MARK: 1. mastodon-ios ar: six categories, two variables

    @Test(arguments: [
        (Int64(0), "لا إشعار غير مقروء"),
        (1, "إشعار واحِد غير مقروء"),
        (2, "إشعاران غير مقروءان"),
        (3, "3 إشعارات غير مقروءة"),
        (11, "11 إشعارًا غيرَ مقروء"),
        (100, "100 إشعار غير مقروء"),
    ])
    func mastodonUnreadNotifications(count: Int64, expected: String) throws {
        #expect(
            try Self.text("ar", "a11y.plural.count.unread.notification", table: "Localizable", [.integer(count)])
                == expected
        )
    }

    /// `%#@names@%#@count_mutual@`: `names` (argument 1, all variants empty) and `count_mutual`
    /// (argument 2), whose variants show argument 1 with `%1$@` and their own number with `%ld`.
    @Test(arguments: [
        (Int64(0), "مُتابَعٌ مِن قِبَلِ لَا أحَد"),
        (1, "مُتابَعٌ مِن قِبَلِ Ana، وشَخصٌ آخَرُ مُتبادَل"),
        (2, "مُتابَعٌ مِن قِبَلِ Ana، وشَخصانِ آخَرَانِ مُتبادَلَان"),
        (3, "مُتابَعٌ مِن قِبَلِ Ana، و3 آخَرينَ مُتبادَلين"),
        (11, "مُتابَعٌ مِن قِبَلِ Ana، و11 آخَرينَ مُتبادَلين"),
        (100, "مُتابَعٌ مِن قِبَلِ Ana، و100 آخَرَ مُتبادَل"),
    ])
    func mastodonTwoVariables(count: Int64, expected: String) throws {
        #expect(
            try Self.text("ar", "plural.count.followed_by_and_mutual", table: "Localizable", ["Ana", .integer(count)])
                == expected
        )
    }

    // MARK: 2. duckduckgo-ios cs: positional and nested variables

    static let passwordsOne =
        "Tvoje heslo se z\u{A0}tohohle zařízení smaže. Zkontroluj si předtím, že se k\u{A0}účtu i\u{A0}tak dostaneš."

    @Test(arguments: [
        (Int64(1), Int64(1), passwordsOne),
        (
            3, 3,
            "Tvoje hesla se z\u{A0}tohohle zařízení smažou. Zkontroluj si předtím, že se k\u{A0}účtům i\u{A0}tak dostaneš."
        ),
        (
            5, 1,
            "Tvoje hesla se z\u{A0}tohohle zařízení smažou. Zkontroluj si předtím, že se k\u{A0}účtu i\u{A0}tak dostaneš."
        ),
        (
            1, 2,
            "Tvoje heslo se z\u{A0}tohohle zařízení smaže. Zkontroluj si předtím, že se k\u{A0}účtům i\u{A0}tak dostaneš."
        ),
    ])
    func duckDuckGoNestedVariable(passwords: Int64, accounts: Int64, expected: String) throws {
        #expect(
            try Self.text(
                "cs",
                "autofill.delete.all.passwords.confirmation.body",
                table: "Localizable",
                [.integer(passwords), .integer(accounts)]
            ) == expected
        )
    }

    static let trackersTail =
        " se tě tady pokouší sledovat.\n\nZablokovali jsme je.\n\n☝️ Při návštěvě nového webu můžeš zjistit, kdo se tě snaží sledovat, v\u{A0}adresním řádku."

    /// The malformed `%1#@count@` (no `$`) is read as argument 1 and renders.
    @Test(arguments: [
        (Int64(1), "*Google, Facebook* a\u{A0}*1\u{A0}další subjekt*"),
        (3, "*Google, Facebook* a *3\u{A0}další subjekty*"),
        (5, "*Google, Facebook* a *5\u{A0}dalších subjektů*"),
    ])
    func duckDuckGoMalformedVariable(count: Int64, head: String) throws {
        let expected = head + Self.trackersTail
        #expect(
            try Self.text(
                "cs",
                "dax.onboarding.browsing.multiple.trackers",
                table: "Localizable",
                [.integer(count), "Google", "Facebook"]
            ) == expected
        )
    }

    // MARK: 3. element-x-ios pl: no `other`

    @Test(arguments: [
        (Int64(1), "Wprowadzono 1 cyfrę"),
        (2, "Wprowadzono 2 cyfry"),
        (5, "Wprowadzono 5 cyfr"),
        (0, "Wprowadzono 0 cyfr"),
        (22, "Wprowadzono 22 cyfry"),
        (12, "Wprowadzono 12 cyfr"),
    ])
    func elementXDigitsEntered(count: Int64, expected: String) throws {
        #expect(try Self.text("pl", "a11y_digits_entered", table: "Localizable", [.integer(count)]) == expected)
    }

    /// A fraction is *other* in Polish, which the entry lacks: the nearest variant is used, never
    /// nothing. Here every variant formats the number with `%1$d`, which takes integers, so the
    /// fraction is a clear argument error rather than a crash or an empty string.
    @Test func elementXFractionWithIntegerSpecifierThrows() throws {
        let error = #expect(throws: LocalizationError.self) {
            try Support.corpus("pl").string("a11y_digits_entered", table: "Localizable", arguments: [.decimal("1.5")])
        }
        #expect(error?.code == .argumentMismatch)
        #expect(error?.argument == 1)
        #expect(error?.key == "a11y_digits_entered")
    }

    /// `screen_room_typing_notification` shows its count with `%1$@`, so a fraction renders, with
    /// the few/many text (both "%1$@ piszą"), not the `one` text.
    @Test func elementXFractionUsesANearbyVariant() throws {
        let text = try Self.text("pl", "screen_room_typing_notification", table: "Localizable", [.decimal("1.5")])
        #expect(text == "1,5 piszą")
        #expect(try Self.text("pl", "screen_room_typing_notification", table: "Localizable", [1]) == "1 pisze")
        #expect(
            try Self.text("pl", "screen_room_typing_notification", table: "Localizable", [.double(2.5)]) == "2,5 piszą"
        )
    }

    // MARK: 4 and 5. paragraph ru: width, gender, plural, device

    @Test(arguments: [
        (Int?.none, "большой"),
        (1, "маленький"),
        (3, "маленький"),
        (5, "средний"),
        (10, "средний"),
        (20, "большой"),
        (100, "большой"),
    ])
    func paragraphWidth(width: Int?, expected: String) throws {
        #expect(try Self.text("ru", "width", table: "Account", options: RenderOptions(width: width)) == expected)
    }

    @Test(arguments: [
        (Int64(0), "0 дней"),
        (1, "1 день"),
        (2, "2 дня"),
        (5, "5 дней"),
        (21, "21 день"),
        (11, "11 дней"),
    ])
    func paragraphDays(count: Int64, expected: String) throws {
        #expect(try Self.text("ru", "days", table: "Account", [.integer(count)]) == expected)
    }

    /// `%#@pronoun@ мне %#@times@ сегодня`: the gender rule is not Apple's (which variant it shows
    /// is not specified), but the plural variable still takes argument 2.
    @Test func paragraphCallKeepsTheSecondVariable() throws {
        let text = try Self.text("ru", "call", table: "Account", [1, 3])
        #expect(text.hasSuffix(" мне 3 раза сегодня"), "\(text)")
        #expect(["Он звонил", "Она звонила"].contains { text == $0 + " мне 3 раза сегодня" })
    }

    @Test(arguments: [
        (DeviceClass.applewatch, "эпл вотч"),
        (.mac, "мак"),
        (.iphone, "айфон"),
        (.ipad, "айпад"),
        (.ipod, "айпод"),
        (.appletv, "эпл тв"),
    ])
    func paragraphDevice(device: DeviceClass, expected: String) throws {
        #expect(try Self.text("ru", "device", table: "Main", options: RenderOptions(device: device)) == expected)
    }

    // MARK: 6. mastodon-ios Intents: `%ld` value type with a percent sign

    @Test(arguments: [
        (Int64(0), "There are 0 options matching ‘${visibility}’."),
        (1, "There are 1 option matching ‘${visibility}’."),
        (2, "There are 2 options matching ‘${visibility}’."),
        (5, "There are 5 options matching ‘${visibility}’."),
    ])
    func mastodonIntents(count: Int64, expected: String) throws {
        #expect(
            try Self.text(
                "ar",
                "There are ${count} options matching ‘${visibility}’.",
                table: "Intents",
                [.integer(count)]
            ) == expected
        )
    }

    // MARK: 7. deltachat-ios he

    @Test(arguments: [(Int64(1), "1 שעה"), (2, "2 שעות"), (5, "5 שעות")])
    func deltaChatHours(count: Int64, expected: String) throws {
        #expect(try Self.text("he", "n_hours", table: "Localizable", [.integer(count)]) == expected)
    }

    // MARK: 8. coteditor AdvancedCharacterCount

    @Test(arguments: [
        ("cs", Int64(1), "*1* znak"),
        ("cs", 3, "*3* znaky"),
        ("cs", 5, "*5* znaků"),
        ("cs", 1_000, "*1\u{A0}000* znaků"),
        ("de", 1, "*1* Zeichen"),
        ("de", 2, "*2* Zeichen"),
        ("fr", 0, "*0* caractère"),
        ("fr", 2, "*2* caractères"),
        ("en", 1, "*1* character"),
        ("en-GB", 2, "*2* characters"),
        ("ja", 5, "*5*文字"),
        ("pl", 1, "*1* znak"),
        ("pl", 2, "*2* znaki"),
        ("pl", 5, "*5* znaków"),
        ("ru", 1, "*1* символ"),
        ("ru", 21, "*21* символ"),
    ])
    func characterCount(locale: String, count: Int64, expected: String) throws {
        #expect(
            try Self.text(locale, "*%lld* character(s)", table: "AdvancedCharacterCount", [.integer(count)])
                == expected
        )
    }

    /// 1.5 is *many* in Czech (v ≠ 0), but `%lld` cannot show it: a type error, not a wrong variant.
    @Test func characterCountFractionInCzech() throws {
        #expect(try PluralRules(locale: "cs").category(for: .decimal("1.5")) == .many)
        let error = #expect(throws: LocalizationError.self) {
            try Support.corpus("cs").string(
                "*%lld* character(s)",
                table: "AdvancedCharacterCount",
                arguments: [.decimal("1.5")]
            )
        }
        #expect(error?.code == .argumentMismatch)
    }

    // MARK: 9. xcstrings-tool Substitution

    @Test(arguments: [
        (Int64(1), Int64(5), "Ana! There is 1 string and you have 5 remaining"),
        (3, 1, "Ana! There are 3 strings and you have 1 remaining"),
        (0, 0, "Ana! There are 0 strings and you have 0 remaining"),
    ])
    func substitutionExample(total: Int64, remaining: Int64, expected: String) throws {
        let rendered = try Support.corpus("en").string(
            "substitutions_example.string",
            table: "Substitution",
            arguments: ["Ana", .integer(total), .integer(remaining)]
        )
        #expect(rendered.text == expected)
        #expect(rendered.substitutions.map(\.argument) == [1, 2, 3])
    }

    // MARK: 10. xcstrings-tool Variations

    @Test(arguments: [(Int64(0), "I have no strings"), (1, "I have 1 string"), (2, "I have 2 strings")])
    func variationsPlural(count: Int64, expected: String) throws {
        #expect(try Self.text("en", "String.Plural", table: "Variations", [.integer(count)]) == expected)
    }

    @Test(arguments: [
        (DeviceClass.iphone, "Tap to open"),
        (.mac, "Click to open"),
        (.applewatch, "Tap to open"),
        (.ipad, "Tap to open"),
    ])
    func variationsDevice(device: DeviceClass, expected: String) throws {
        #expect(
            try Self.text("en", "String.Device", table: "Variations", options: RenderOptions(device: device))
                == expected
        )
    }

    // MARK: 11. shouldTranslate (coteditor alone: trio's InfoPlist shares the table name)

    @Test func coteditorDoNotTranslate() throws {
        let catalog = try StringCatalog(directory: Support.corpusDirectory.appendingPathComponent("coteditor"))
        #expect(catalog.entry("CFBundleName", table: "InfoPlist", localization: "de") == nil)
        let german = try Localizer(catalog: catalog, locale: "de").string("CFBundleName", table: "InfoPlist")
        #expect(german.text == "CotEditor")
        #expect(german.localization == "en")
        let copyright = try Localizer(catalog: catalog, locale: "bg").string(
            "NSHumanReadableCopyright",
            table: "InfoPlist"
        )
        #expect(copyright.text == "© 2005-2009 nakamuxu\n© 2011, 2014 usami-k\n© 2013-2026 1024jp")
        #expect(copyright.localization == "en")
    }

    @Test func cseStaleKeyStillRenders() throws {
        #expect(try Self.text("ar", "Example: '%@ your search'", table: "Localizable", ["X"]) == "مثال: 'X بحثك'")
    }

    // MARK: 12. backyard-birds: Markdown and bidi controls kept

    @Test func backyardBirds() throws {
        #expect(
            try Self.text("ar", "**%@** is currently in **%@**", table: "Localizable", ["Robin", "Backyard"])
                == "**Robin** حاليًا في **Backyard**"
        )
        #expect(
            try Self.text("uk", "**%@** is currently in **%@**", table: "Localizable", ["Robin", "Backyard"])
                == "**Robin** зараз у **Backyard**"
        )
        #expect(
            try Self.text("ar", "Your Backyard Birds Pass: %@", table: "Localizable", ["X"])
                == "بطاقة Backyard\u{A0}Birds: \u{200F}X"
        )
    }
}
