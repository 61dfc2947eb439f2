// Caffe — Localization tests.

import Foundation
import Localization
import Testing

/// CLDR 46 cardinal rules (ICU 76), with visible fraction digits counting.
@Suite("Plural rules: CLDR categories")
struct PluralRulesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var locale: String
        var number: FormatArgument
        var expected: PluralCategory
        var testDescription: String { "\(locale) \(number) → \(expected)" }

        init(_ locale: String, _ number: FormatArgument, _ expected: PluralCategory) {
            self.locale = locale
            self.number = number
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        // en: one = i = 1 and v = 0.
        Case("en", 0, .other),
        Case("en", 1, .one),
        Case("en", 2, .other),
        Case("en", .decimal("1.0"), .other),
        Case("en", .decimal("1.5"), .other),
        Case("en", .double(1.5), .other),
        Case("en", .decimal("1"), .one),
        Case("en", .unsignedInteger(1), .one),
        Case("en", "1", .other),  // text is never a number
        // es: one = n = 1; many = e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5.
        Case("es", 1, .one),
        Case("es", .decimal("1.0"), .one),
        Case("es", 0, .other),
        Case("es", .decimal("1.5"), .other),
        Case("es", 1_000_000, .many),
        Case("es", 2_000_000, .many),
        Case("es", 1_000_001, .other),
        Case("es", .decimal("1000000.0"), .other),
        // ru: one = v = 0 and i % 10 = 1 and i % 100 != 11; few = v = 0 and i % 10 = 2..4 and
        // i % 100 != 12..14; many = v = 0 and (i % 10 = 0 or i % 10 = 5..9 or i % 100 = 11..14).
        Case("ru", 1, .one),
        Case("ru", 2, .few),
        Case("ru", 5, .many),
        Case("ru", .decimal("1.5"), .other),
        Case("ru", .double(1.5), .other),
        Case("ru", 21, .one),
        Case("ru", 11, .many),
        Case("ru", 12, .many),
        Case("ru", 22, .few),
        Case("ru", 0, .many),
        // ar: zero = n = 0; one = n = 1; two = n = 2; few = n % 100 = 3..10; many = n % 100 = 11..99.
        Case("ar", 0, .zero),
        Case("ar", 1, .one),
        Case("ar", 2, .two),
        Case("ar", 3, .few),
        Case("ar", 10, .few),
        Case("ar", 11, .many),
        Case("ar", 99, .many),
        Case("ar", 100, .other),
        Case("ar", 103, .few),
        Case("ar", .decimal("1.5"), .other),
        // pl: one = i = 1 and v = 0; few = v = 0 and i % 10 = 2..4 and i % 100 != 12..14;
        // many = v = 0 and (i != 1 and i % 10 = 0..1 or i % 10 = 5..9 or i % 100 = 12..14).
        Case("pl", 1, .one),
        Case("pl", 2, .few),
        Case("pl", 5, .many),
        Case("pl", 22, .few),
        Case("pl", 12, .many),
        Case("pl", 0, .many),
        Case("pl", .decimal("1.5"), .other),
        // cs: one = i = 1 and v = 0; few = i = 2..4 and v = 0; many = v != 0.
        Case("cs", 1, .one),
        Case("cs", 3, .few),
        Case("cs", 5, .other),
        Case("cs", .decimal("1.5"), .many),
        Case("cs", .double(1.5), .many),
        Case("cs", .decimal("1.0"), .many),
        // he: one = i = 1 and v = 0 or i = 0 and v != 0; two = i = 2 and v = 0.
        Case("he", 1, .one),
        Case("he", 2, .two),
        Case("he", 3, .other),
        Case("he", .decimal("0.5"), .one),
        // ja: other only.
        Case("ja", 1, .other),
        Case("ja", 0, .other),
        // Regional identifiers use their language's rules.
        Case("es-MX", 1_000_000, .many),
        Case("ar-EG", 2, .two),
        Case("pt-PT", 1, .one),
    ]

    @Test(arguments: cases)
    func category(_ testCase: Case) throws {
        let rules = try PluralRules(locale: testCase.locale)
        #expect(rules.category(for: testCase.number) == testCase.expected)
    }

    @Test func categoriesInCanonicalOrder() throws {
        #expect(try PluralRules(locale: "en").categories == [.one, .other])
        #expect(try PluralRules(locale: "ar").categories == [.zero, .one, .two, .few, .many, .other])
        #expect(try PluralRules(locale: "ja").categories == [.other])
        #expect(try PluralRules(locale: "ru").categories == [.one, .few, .many, .other])
        #expect(try PluralRules(locale: "pl").categories == [.one, .few, .many, .other])
        #expect(try PluralRules(locale: "cs").categories == [.one, .few, .many, .other])
        #expect(try PluralRules(locale: "es").categories == [.one, .many, .other])
        #expect(try PluralRules(locale: "he").categories == [.one, .two, .other])
    }

    @Test func keepsTheLocaleAsGiven() throws {
        #expect(try PluralRules(locale: "es-MX").locale == "es-MX")
    }

    @Test func visibleFractionDigitsOfAValue() throws {
        let english = try PluralRules(locale: "en")
        #expect(english.category(for: 1, visibleFractionDigits: 0) == .one)
        #expect(english.category(for: 1, visibleFractionDigits: 1) == .other)
        #expect(english.category(for: 1, visibleFractionDigits: 2) == .other)
        let czech = try PluralRules(locale: "cs")
        #expect(czech.category(for: 2, visibleFractionDigits: 0) == .few)
        #expect(czech.category(for: 2, visibleFractionDigits: 2) == .many)
    }

    /// ICU falls back to the root rules (only *other*) for languages it does not know.
    @Test func unknownLanguageHasOnlyOther() throws {
        let rules = try PluralRules(locale: "zxx")
        #expect(rules.categories == [.other])
        #expect(rules.category(for: 1) == .other)
    }

    // MARK: Every locale Foundation knows

    static let propertyNumbers: [FormatArgument] =
        (0...200).map { FormatArgument.integer(Int64($0)) }
        + ["0.5", "1.0", "1.25", "2.50"].map(FormatArgument.decimal)

    /// Every selection lands in the locale's own category list, for the identifier as Foundation
    /// lists it (`sr_Latn_BA`) and in BCP 47 form (`sr-Latn-BA`).
    @Test(arguments: Locale.availableIdentifiers.sorted())
    func everyLocaleSelectsOnlyItsOwnCategories(identifier: String) throws {
        let bcp47 = Locale(identifier: identifier).identifier(.bcp47)
        for form in Set([identifier, bcp47]) {
            let rules = try PluralRules(locale: form)
            #expect(!rules.categories.isEmpty, "\(form)")
            #expect(rules.categories.contains(.other), "\(form)")
            #expect(rules.categories == rules.categories.sorted(), "\(form)")
            for number in Self.propertyNumbers {
                let category = rules.category(for: number)
                #expect(rules.categories.contains(category), "\(form) \(number) → \(category) ∉ \(rules.categories)")
            }
        }
    }

    /// One instance serves many threads at once.
    @Test func concurrentSelectionAgrees() async throws {
        let rules = try PluralRules(locale: "ru")
        let expected: [PluralCategory] = (0..<100).map { rules.category(for: .integer(Int64($0))) }
        await withTaskGroup(of: [PluralCategory].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<100).map { rules.category(for: .integer(Int64($0))) } }
            }
            for await result in group {
                #expect(result == expected)
            }
        }
    }
}
