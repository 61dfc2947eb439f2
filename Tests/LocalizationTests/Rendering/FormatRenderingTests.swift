// Caffe — Localization tests.

import Foundation
import Localization
import Testing

/// printf-style specifiers rendered through `Localizer`: type-checked, locale-formatted.
@Suite("Format rendering")
struct FormatRenderingTests {
    typealias Support = RenderingSupport

    /// `en.lproj/Format.strings` in a temporary folder: key → format. Loaded once; the folder is
    /// deleted straight after loading (the catalog keeps everything in memory).
    static let formats: [(String, String)] = [
        ("positional", "%1$lld %3$@ %2$@"),
        ("percent", "%d%% off"),
        ("percentOnly", "50%% off"),
        ("width", "[%5d]"),
        ("left", "%-5d|"),
        ("zero", "%05d"),
        ("plus", "%+d"),
        ("space", "% d"),
        ("fixed2", "%.2f"),
        ("fixed", "%f"),
        ("fixedWidth", "[%8.3f]"),
        ("scientific", "%e"),
        ("scientificUpper", "%E"),
        ("scientific2", "%.2e"),
        ("general", "%g"),
        ("hex", "%x"),
        ("hexUpper", "%X"),
        ("octal", "%o"),
        ("hexAlternate", "%#x"),
        ("octalAlternate", "%#o"),
        ("hexPadded", "%08x"),
        ("character", "%c"),
        ("cString", "%s"),
        ("cStringWidth", "[%6s]"),
        ("cStringLeft", "[%-6s]"),
        ("int", "%d"),
        ("lld", "%lld"),
        ("unsigned", "%u"),
        ("object", "%@"),
        ("twoObjects", "%1$@ %2$@"),
        ("mixed", "%1$@ %2$d"),
        ("sequential", "%@ and %@"),
        ("repeated", "%1$@, %1$@!"),
        ("greeting", "¡Hola, %@! 👋 %d"),
    ]

    static let catalog: StringCatalog = {
        do {
            return try Support.withCatalog(["en.lproj/Format.strings": Support.stringsFile(formats)]) { $0 }
        } catch {
            fatalError("cannot write the format catalog: \(error)")
        }
    }()

    static func render(
        _ key: String,
        _ arguments: [FormatArgument],
        locale: String = "en",
        options: RenderOptions = RenderOptions()
    ) throws -> LocalizedString {
        try Localizer(catalog: catalog, locale: locale, options: options)
            .string(key, table: "Format", arguments: arguments)
    }

    static func text(_ key: String, _ arguments: [FormatArgument], locale: String = "en") throws -> String {
        try render(key, arguments, locale: locale).text
    }

    @Test func catalogLoadsCleanly() {
        #expect(Self.catalog.diagnostics.isEmpty, "\(Self.catalog.diagnostics)")
        #expect(Self.catalog.localizations == ["en"])
        #expect(Self.catalog.tableNames == ["Format"])
    }

    // MARK: Positions and percent signs

    @Test func positionalArguments() throws {
        let rendered = try Self.render("positional", [2, "pequeño", "ensalada"])
        #expect(rendered.text == "2 ensalada pequeño")
        #expect(rendered.key == "positional")
        #expect(rendered.localization == "en")
        #expect(rendered.substitutions.map(\.argument) == [1, 3, 2])
        #expect(rendered.substitutions.map(\.utf8Range) == [0..<1, 2..<10, 11..<19])
        #expect(rendered.substitutions.map(\.value) == [.integer(2), .string("ensalada"), .string("pequeño")])
        #expect(rendered.substitutedTexts == ["2", "ensalada", "pequeño"])
    }

    @Test func sequentialAndRepeatedArguments() throws {
        #expect(try Self.text("sequential", ["tea", "cake"]) == "tea and cake")
        let repeated = try Self.render("repeated", ["Ana"])
        #expect(repeated.text == "Ana, Ana!")
        #expect(repeated.substitutions.map(\.argument) == [1, 1])
        #expect(repeated.substitutions.map(\.utf8Range) == [0..<3, 5..<8])
    }

    /// UTF-8 ranges count bytes, not characters: "¡" is 2 bytes, "👋" 4.
    @Test func substitutionRangesAreUTF8Offsets() throws {
        let rendered = try Self.render("greeting", ["Zoë", 1_234])
        #expect(rendered.text == "¡Hola, Zoë! 👋 1,234")
        #expect(rendered.substitutions.map(\.utf8Range) == [8..<12, 19..<24])
        #expect(rendered.substitutions.map(\.value) == [.string("Zoë"), .integer(1_234)])
        #expect(rendered.substitutedTexts == ["Zoë", "1,234"])
    }

    @Test func percentSigns() throws {
        #expect(try Self.text("percent", [50]) == "50% off")
        #expect(try Self.text("percentOnly", [1]) == "50% off")
    }

    /// Without arguments a plain value comes back exactly as written, as `NSLocalizedString` returns it.
    @Test func noArgumentsReturnsTheValueVerbatim() throws {
        #expect(try Self.text("percentOnly", []) == "50%% off")
        #expect(try Self.text("percent", []) == "%d%% off")
        #expect(try Self.text("positional", []) == "%1$lld %3$@ %2$@")
        #expect(try Self.render("percentOnly", []).substitutions.isEmpty)
    }

    // MARK: Width and flags

    @Test(arguments: [
        ("width", FormatArgument.integer(42), "[   42]"),
        ("left", 42, "42   |"),
        ("zero", 42, "00042"),
        ("zero", -42, "-0042"),
        ("plus", 42, "+42"),
        ("plus", -42, "-42"),
        ("plus", 0, "+0"),
        ("space", 42, " 42"),
        ("space", -42, "-42"),
        ("fixedWidth", .double(3.14159), "[   3.142]"),
        ("cStringWidth", "ab", "[    ab]"),
        ("cStringLeft", "ab", "[ab    ]"),
        ("hexPadded", 255, "000000ff"),
    ])
    func widthAndFlags(key: String, argument: FormatArgument, expected: String) throws {
        #expect(try Self.text(key, [argument]) == expected)
    }

    // MARK: Floating point

    @Test(arguments: [
        ("fixed2", FormatArgument.double(3.14159), "en", "3.14"),
        ("fixed2", .double(3.14159), "de", "3,14"),
        ("fixed2", .double(3.14159), "ar-EG", "٣٫١٤"),
        ("fixed2", .integer(3), "en", "3.00"),
        ("fixed2", .decimal("2.5"), "en", "2.50"),
        ("fixed2", .decimal("2.5"), "de", "2,50"),
        ("fixed", .double(1.5), "en", "1.500000"),
    ])
    func fixedPoint(key: String, argument: FormatArgument, locale: String, expected: String) throws {
        #expect(try Self.text(key, [argument], locale: locale) == expected)
    }

    /// `%e`: "scientific notation using a lowercase e to introduce the exponent" (Apple's
    /// String Format Specifiers, after IEEE printf): mantissa, `e`, sign, at least two exponent digits.
    @Test(
        arguments: [
            ("scientific", 12_345.678, "1.234568e+04"),
            ("scientificUpper", 12_345.678, "1.234568E+04"),
            ("scientific2", 12_345.678, "1.23e+04"),
            ("scientific", 0.00012, "1.200000e-04"),
        ])
    func scientific(key: String, value: Double, expected: String) throws {
        let text = try Self.text(key, [.double(value)])
        #expect(text == expected)
    }

    /// `%g` without grouping-sensitive values: six significant digits, trailing zeros dropped,
    /// scientific when the exponent is below -4 or at least the precision (IEEE printf).
    @Test(arguments: [(0.5, "0.5"), (3.14159265, "3.14159"), (100, "100"), (0.0001, "0.0001")])
    func generalFixedRange(value: Double, expected: String) throws {
        let text = try Self.text("general", [.double(value)])
        #expect(text == expected)
    }

    @Test(
        arguments: [(0.00001, "1e-05"), (0.000012345, "1.2345e-05")]
    )
    func generalScientificRange(value: Double, expected: String) throws {
        let text = try Self.text("general", [.double(value)])
        #expect(text == expected)
    }

    // MARK: Integers

    @Test(arguments: [
        ("hex", FormatArgument.integer(255), "ff"),
        ("hexUpper", 255, "FF"),
        ("octal", 8, "10"),
        ("hexAlternate", 255, "0xff"),
        ("octalAlternate", 8, "010"),
        ("hex", .unsignedInteger(UInt64.max), "ffffffffffffffff"),
        ("unsigned", 42, "42"),
        ("int", 1_234_567, "1,234,567"),
        ("lld", -1_234_567, "-1,234,567"),
        ("lld", .unsignedInteger(UInt64.max), "18,446,744,073,709,551,615"),
        ("int", .decimal("1234567"), "1,234,567"),
    ])
    func integers(key: String, argument: FormatArgument, expected: String) throws {
        #expect(try Self.text(key, [argument]) == expected)
    }

    @Test(arguments: [
        ("en", "1,234,567"),
        ("de", "1.234.567"),
        ("es", "1.234.567"),
        ("ar-EG", "١٬٢٣٤٬٥٦٧"),
    ])
    func groupingFollowsTheLocale(locale: String, expected: String) throws {
        #expect(try Self.text("int", [1_234_567], locale: locale) == expected)
    }

    @Test func arabicIndicDigitsForEgypt() throws {
        #expect(try Self.text("int", [1_234], locale: "ar-EG") == "١٬٢٣٤")
        #expect(try Self.text("object", [1_234], locale: "ar-EG") == "١٬٢٣٤")
    }

    /// Hexadecimal and octal are not localized.
    @Test func hexIsNotLocalized() throws {
        #expect(try Self.text("hex", [255], locale: "ar-EG") == "ff")
    }

    // MARK: Text and characters

    @Test func textAndCharacters() throws {
        #expect(try Self.text("cString", ["hi"]) == "hi")
        #expect(try Self.text("character", ["A"]) == "A")
        #expect(try Self.text("character", [65]) == "A")
        #expect(try Self.text("character", [0x263A]) == "☺")
        #expect(try Self.text("object", ["café"]) == "café")
    }

    /// `%@` takes anything; numbers are formatted for the locale, decimals keep their digits.
    @Test func objectFormatsNumbersForTheLocale() throws {
        #expect(try Self.text("object", [1_234_567]) == "1,234,567")
        #expect(try Self.text("object", [.decimal("12.50")]) == "12.50")
        #expect(try Self.text("object", [.decimal("12.50")], locale: "de") == "12,50")
        #expect(try Self.text("object", [.double(1.5)]) == "1.5")
        #expect(try Self.text("object", [.double(1.5)], locale: "de") == "1,5")
    }

    // MARK: Errors

    struct Mismatch: CustomTestStringConvertible, Sendable {
        var key: String
        var arguments: [FormatArgument]
        var position: Int
        var testDescription: String { "\(key) \(arguments) → argument \(position)" }
    }

    @Test(arguments: [
        Mismatch(key: "int", arguments: ["text"], position: 1),
        Mismatch(key: "int", arguments: [.double(1.5)], position: 1),
        Mismatch(key: "int", arguments: [.decimal("1.5")], position: 1),
        Mismatch(key: "lld", arguments: ["12"], position: 1),
        Mismatch(key: "cString", arguments: [5], position: 1),
        Mismatch(key: "cString", arguments: [.double(5)], position: 1),
        Mismatch(key: "fixed2", arguments: ["x"], position: 1),
        Mismatch(key: "unsigned", arguments: [-1], position: 1),
        Mismatch(key: "hex", arguments: [.double(2.5)], position: 1),
        Mismatch(key: "character", arguments: ["ab"], position: 1),
        Mismatch(key: "mixed", arguments: ["a", "b"], position: 2),
        Mismatch(key: "positional", arguments: ["two", "pequeño", "ensalada"], position: 1),
    ])
    func typeMismatchThrows(_ mismatch: Mismatch) throws {
        let error = #expect(throws: LocalizationError.self) {
            try Self.render(mismatch.key, mismatch.arguments)
        }
        #expect(error?.code == .argumentMismatch)
        #expect(error?.argument == mismatch.position)
        #expect(error?.key == mismatch.key)
    }

    @Test func missingArgumentThrows() throws {
        let error = #expect(throws: LocalizationError.self) { try Self.render("twoObjects", ["a"]) }
        #expect(error?.code == .missingArgument)
        #expect(error?.argument == 2)
        #expect(error?.key == "twoObjects")

        let positional = #expect(throws: LocalizationError.self) { try Self.render("positional", [2, "pequeño"]) }
        #expect(positional?.code == .missingArgument)
        #expect(positional?.argument == 3)
    }

    /// A plural value is never "plain": without its argument it cannot choose a variant.
    @Test func pluralWithoutArgumentsThrows() throws {
        let error = #expect(throws: LocalizationError.self) {
            try Support.config("en").string("%lld items", arguments: [])
        }
        #expect(error?.code == .missingArgument)
        #expect(error?.argument == 1)
        #expect(error?.key == "%lld items")
    }

    // MARK: Bidi isolation

    static let fsi = "\u{2068}"
    static let pdi = "\u{2069}"

    @Test func isolatesValuesInRightToLeftLocales() throws {
        let options = RenderOptions(bidiIsolation: .rightToLeftLocales)
        let arabic = try Support.config("ar", options)
        #expect(arabic.isRightToLeft)
        let rendered = try arabic.string("Order #%@", arguments: ["42"])
        #expect(rendered.text == "الطلب رقم \(Self.fsi)42\(Self.pdi)")
        #expect(rendered.substitutedTexts == ["42"])
        #expect(rendered.substitutions.first?.utf8Range.lowerBound == "الطلب رقم \(Self.fsi)".utf8.count)

        let items = try arabic.string("%lld items", arguments: [3])
        #expect(items.text == "\(Self.fsi)3\(Self.pdi) عناصر")

        let english = try Support.config("en", options)
        #expect(!english.isRightToLeft)
        #expect(try english.string("Order #%@", arguments: ["42"]).text == "Order #42")
    }

    @Test func isolationNeverAndAlways() throws {
        let never = try Support.config("ar", RenderOptions(bidiIsolation: .never))
        #expect(try never.string("Order #%@", arguments: ["42"]).text == "الطلب رقم 42")
        let always = try Support.config("en", RenderOptions(bidiIsolation: .always))
        let rendered = try always.string("Order #%@", arguments: ["42"])
        #expect(rendered.text == "Order #\(Self.fsi)42\(Self.pdi)")
        #expect(rendered.substitutedTexts == ["42"])
    }

    @Test(arguments: [("ar", true), ("ar-EG", true), ("he", true), ("fa", true), ("en", false), ("es-MX", false)])
    func rightToLeftLocales(locale: String, expected: Bool) throws {
        #expect(try Support.config(locale).isRightToLeft == expected)
    }

    /// A compiled value rendered on its own: formatted for the localizer's locale, no localization.
    @Test func renderACompiledValue() throws {
        let entry = try #require(Support.configCatalog.entry("%lld items", localization: "es"))
        let rendered = try Support.config("de").render(entry.value, arguments: [1_000_000], key: "k")
        #expect(rendered.text == "1.000.000 artículos")  // German rules: 1000000 is *other*
        #expect(rendered.localization == nil)
        #expect(rendered.key == "k")
        #expect(try Support.config("es").render(entry.value, arguments: [1_000_000]).text == "1.000.000 de artículos")
    }

    // MARK: Missing keys

    @Test func missingKeyRendersTheKeyAndIsCounted() throws {
        let localizer = try Support.config("en")
        #expect(localizer.missingKeyCount == 0)
        let missing = try localizer.string("No such key")
        #expect(missing.text == "No such key")
        #expect(missing.key == "No such key")
        #expect(missing.isMissing)
        #expect(missing.localization == nil)
        #expect(missing.substitutions.isEmpty)
        #expect(localizer.missingKeyCount == 1)
        _ = try localizer.string("juice", table: "Menu")
        #expect(localizer.missingKeyCount == 1)
        _ = try localizer.string("juice", table: "NoSuchTable")
        #expect(localizer.missingKeyCount == 2)
        // Each localizer counts its own lookups.
        #expect(try Support.config("en").missingKeyCount == 0)
    }

    /// `String(localized:)` falls back to the key as the format and still substitutes the arguments.
    @Test
    func missingKeyIsFormattedWithItsArguments() throws {
        let localizer = try Support.config("en")
        let missing = try localizer.string("Order no. %@", arguments: ["42"])
        #expect(missing.text == "Order no. 42")
        #expect(missing.isMissing)
        #expect(localizer.missingKeyCount == 1)
    }

    @Test func missingKeyCountIsSafeAcrossTasks() async throws {
        let localizer = try Support.config("es-MX")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { _ = try? localizer.string("missing \(index)") }
            }
        }
        #expect(localizer.missingKeyCount == 50)
    }
}
