// Caffe — Localization tests.

import Foundation
import Localization
import Testing

/// The sample catalog in `config/Localizations`: every format and feature it uses, in every locale.
@Suite("Catalog features: config/Localizations")
struct CatalogFeatureTests {
    typealias Support = RenderingSupport

    static func text(
        _ locale: String,
        _ key: String,
        table: String = StringCatalog.defaultTable,
        _ arguments: [FormatArgument] = [],
        options: RenderOptions = RenderOptions()
    ) throws -> String {
        try Support.config(locale, options).string(key, table: table, arguments: arguments).text
    }

    @Test func loadsWithoutErrors() {
        let catalog = Support.configCatalog
        #expect(catalog.diagnostics.filter { $0.severity == .error }.isEmpty, "\(catalog.diagnostics)")
        #expect(catalog.localizations == ["ar", "de", "en", "es", "es-419", "fr", "it", "ja", "pl", "pt-BR", "ru"])
        #expect(catalog.tableNames == ["Localizable", "Menu", "Receipt"])
        #expect(catalog.developmentLanguage == "en")
    }

    // MARK: Whole-string plural variations (Localizable.xcstrings)

    @Test(arguments: [
        ("en", Int64(0), "0 items"),
        ("en", 1, "1 item"),
        ("en", 2, "2 items"),
        ("en", 1_000_000, "1,000,000 items"),
        ("es", 1, "1 artículo"),
        ("es", 2, "2 artículos"),
        ("es", 0, "0 artículos"),
        ("es", 1_000_000, "1.000.000 de artículos"),
        // Numbers follow the requested locale: Mexico groups with commas (CLDR es-MX, es-419).
        ("es-MX", 1_000_000, "1,000,000 de artículos"),
        ("es", 1_000_001, "1.000.001 artículos"),
        ("ar", 0, "لا عناصر"),
        ("ar", 1, "عنصر واحد"),
        ("ar", 2, "عنصران"),
        ("ar", 3, "3 عناصر"),
        ("ar", 11, "11 عنصرًا"),
        ("ar", 100, "100 عنصر"),
        ("ar-EG", 3, "٣ عناصر"),
        ("ar-EG", 100, "١٠٠ عنصر"),
    ])
    func itemCount(locale: String, count: Int64, expected: String) throws {
        #expect(try Self.text(locale, "%lld items", [.integer(count)]) == expected)
    }

    /// Visible fraction digits choose the variant (`1.0` is *other* in English, *one* in Spanish),
    /// but `%lld` takes integers only.
    @Test func fractionalCountForAnIntegerSpecifierThrows() throws {
        let error = #expect(throws: LocalizationError.self) {
            try Support.config("en").string("%lld items", arguments: [.decimal("1.5")])
        }
        #expect(error?.code == .argumentMismatch)
        #expect(error?.argument == 1)
    }

    // MARK: .stringsdict over .strings (Receipt)

    @Test func stringsdictOverridesStringsInSpanish() throws {
        let entry = try #require(
            Support.configCatalog.entry("%lld free coffees", table: "Receipt", localization: "es")
        )
        #expect(entry.format == .stringsdict)
        #expect(entry.file == "es.lproj/Receipt.stringsdict")
    }

    @Test(arguments: [
        ("es", Int64(2), "2 cafés gratis"),
        ("es", 0, "Aún no tienes cafés gratis"),
        ("es", 1, "1 café gratis"),
        ("es", 1_000_000, "1.000.000 de cafés gratis"),
        ("es-MX", 0, "Aún no tienes cafés gratis"),
        ("en", 0, "No free coffee yet"),
        ("en", 1, "1 free coffee"),
        ("en", 5, "5 free coffees"),
        ("ar", 0, "لا توجد قهوة مجانية بعد"),
        ("ar", 1, "قهوة مجانية واحدة"),
        ("ar", 2, "قهوتان مجانيتان"),
        ("ar", 3, "3 قهوات مجانية"),
        ("ar", 11, "11 قهوة مجانية"),
        ("ar", 100, "100 قهوة مجانية"),
    ])
    func freeCoffees(locale: String, count: Int64, expected: String) throws {
        #expect(try Self.text(locale, "%lld free coffees", table: "Receipt", [.integer(count)]) == expected)
    }

    // MARK: Two plural variables in one value

    @Test(arguments: [
        ("en", Int64(1), Int64(2), "1 line, 2 items"),
        ("en", 3, 1, "3 lines, 1 item"),
        ("es", 1, 1_000_000, "1 línea, 1.000.000 de artículos"),
        ("es", 2, 1, "2 líneas, 1 artículo"),
        ("ar", 2, 0, "سطران، لا عناصر"),
        ("ar", 11, 3, "11 سطرًا، 3 عناصر"),
        ("ar", 1, 2, "سطر واحد، عنصران"),
        ("ar", 0, 100, "لا أسطر، 100 عنصر"),
    ])
    func linesAndItems(locale: String, lines: Int64, items: Int64, expected: String) throws {
        let rendered = try Support.config(locale)
            .string("%1$lld lines, %2$lld items", table: "Receipt", arguments: [.integer(lines), .integer(items)])
        #expect(rendered.text == expected)
    }

    @Test func linesAndItemsSubstitutions() throws {
        let rendered = try Support.config("en")
            .string("%1$lld lines, %2$lld items", table: "Receipt", arguments: [3, 1_000])
        #expect(rendered.text == "3 lines, 1,000 items")
        #expect(rendered.substitutions.map(\.argument) == [1, 2])
        #expect(rendered.substitutedTexts == ["3", "1,000"])
        #expect(rendered.substitutions.map(\.value) == [.integer(3), .integer(1_000)])
    }

    // MARK: String Catalog substitutions

    @Test(arguments: [
        ("en", Int64(1), "Ana ordered 1 coffee"),
        ("en", 3, "Ana ordered 3 coffees"),
        ("en", 0, "Ana ordered 0 coffees"),
        ("es", 1, "Ana pidió 1 café"),
        ("es", 2, "Ana pidió 2 cafés"),
        ("es", 1_000_000, "Ana pidió 1.000.000 de cafés"),
        ("es-MX", 2, "Ana pidió 2 cafés"),
        ("ar", 0, "طلب Ana لا قهوة"),
        ("ar", 1, "طلب Ana قهوة واحدة"),
        ("ar", 2, "طلب Ana قهوتين"),
        ("ar", 5, "طلب Ana 5 قهوات"),
        ("ar", 11, "طلب Ana 11 قهوة"),
        ("ar", 100, "طلب Ana 100 قهوة"),
    ])
    func orderedCoffees(locale: String, count: Int64, expected: String) throws {
        #expect(try Self.text(locale, "%@ ordered %lld coffees", ["Ana", .integer(count)]) == expected)
    }

    @Test func substitutionReportsItsArgumentNumber() throws {
        let rendered = try Support.config("en").string("%@ ordered %lld coffees", arguments: ["Ana", 3])
        #expect(rendered.substitutions.map(\.argument) == [1, 2])
        #expect(rendered.substitutedTexts == ["Ana", "3"])
    }

    // MARK: Device variations

    @Test(arguments: [
        ("en", DeviceClass.iphone, "Tap to open your receipt"),
        ("en", .applewatch, "Open the receipt on your iPhone"),
        ("en", .mac, "Tap to open your receipt"),
        ("en", .ipad, "Tap to open your receipt"),
        ("es", .iphone, "Toca para abrir tu recibo"),
        ("es", .applewatch, "Abre el recibo en tu iPhone"),
        ("es-MX", .applewatch, "Abre el recibo en tu iPhone"),
        ("ar", .mac, "اضغط لفتح الإيصال"),
        ("ar", .applewatch, "افتح الإيصال على iPhone"),
    ])
    func openYourReceipt(locale: String, device: DeviceClass, expected: String) throws {
        #expect(try Self.text(locale, "Open your receipt", options: RenderOptions(device: device)) == expected)
    }

    // MARK: shouldTranslate and keys without a source value

    @Test(arguments: ["en", "es", "es-MX", "ar"])
    func doNotTranslateRendersTheSourceEverywhere(locale: String) throws {
        let rendered = try Support.config(locale).string("Caffe")
        #expect(rendered.text == "Caffè")
        #expect(rendered.localization == "en")
    }

    @Test func doNotTranslateFlagIsKept() throws {
        let entry = try #require(Support.configCatalog.entry("Caffe", localization: "en"))
        #expect(entry.shouldTranslate == false)
        #expect(!entry.isKeyAsValue)
    }

    @Test(arguments: [
        ("en", "Subtotal", "Subtotal"),
        ("en", "Tip", "Tip"),
        ("en", "Total", "Total"),
        ("es", "Subtotal", "Subtotal"),
        ("es", "Tip", "Propina"),
        ("ar", "Tip", "البقشيش"),
    ])
    func keysWithoutASourceValue(locale: String, key: String, expected: String) throws {
        let rendered = try Support.config(locale).string(key)
        #expect(rendered.text == expected)
        #expect(!rendered.isMissing)
    }

    @Test func keyAsValueIsFormattedAndFlagged() throws {
        #expect(try Self.text("en", "Tax (%@)", ["8%"]) == "Tax (8%)")
        #expect(try Self.text("es", "Tax (%@)", ["8%"]) == "Impuesto (8%)")
        let entry = try #require(Support.configCatalog.entry("Subtotal", localization: "en"))
        #expect(entry.isKeyAsValue)
        #expect(entry.format == .xcstrings)
    }

    // MARK: Plain values (Markdown and agreement markup are left for later stages)

    @Test func plainValuesAreReturnedAsWritten() throws {
        #expect(
            try Self.text("es", "Welcome")
                == "^[Bienvenido](inflect: true, inflectionAlternative: 'Te damos la bienvenida')"
        )
        #expect(
            try Self.text("en", "Thank you")
                == "**Thank you!** _Visit our [website](https://caffe.example.com)._"
        )
        #expect(
            try Self.text("es", "Add %lld %@ %@ to your order", [2, "pequeño", "ensalada"])
                == "Añadir ^[2 ensalada pequeño](inflect: true) a tu pedido"
        )
    }

    @Test func entryMetadata() throws {
        let entry = try #require(Support.configCatalog.entry("%lld items", localization: "es"))
        #expect(entry.comment == "Item count on the confirmation.")
        #expect(entry.state == .translated)
        #expect(entry.file == "Localizable.xcstrings")
        #expect(entry.table == "Localizable")
        let arabic = try #require(Support.configCatalog.entry("%@ ordered %lld coffees", localization: "ar"))
        #expect(arabic.state == .needsReview)
        let menu = try #require(Support.configCatalog.entry("store_name", table: "Menu", localization: "en"))
        #expect(menu.format == .strings)
        #expect(menu.value.source == "Caffé")
        #expect(menu.comment == "A key without quotes, as the format allows.")
    }
}
