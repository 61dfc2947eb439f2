import CaffeProtocol
import Foundation
import GrammarAgreement
import Localization
import RichText

/// Everything one locale needs, compiled on first use and kept by one ``RenderSession``: the
/// catalog bound to the locale, compiled templates (Markdown, agreement markup), the menu's names,
/// the texts that do not change from order to order, and ICU formatters.
///
/// Owned by one thread: nothing here locks.
final class LocaleResources {
    /// The locale formatting follows: the customer's, as its ``FormattingLocale`` key.
    let locale: String
    /// When it was last used (a ``LocaleCache`` stamp), for evicting the least recently used.
    var lastUse: UInt64 = 0
    /// The catalog localization the texts come from after fallback ("es-419" for es-MX).
    let localization: String
    let localizer: Localizer
    let engine: AgreementEngine
    let isRightToLeft: Bool
    /// Set when no localization serves the locale.
    let fallbackNote: Caffe_V1_RenderNote?
    let list: ListFormatter
    let percent: PercentFormatter
    private let core: RenderingCore
    private var templates: [String: AgreementTemplate] = [:]
    private var names: [String: String] = [:]
    private var ingredientSentences: [String: PreparedText] = [:]
    private var orderLines: [OrderLineKey: RichDocument] = [:]
    private var currencies: [String: CurrencyAmounts] = [:]
    private var dates: [DateKey: DateFieldFormatter] = [:]
    private var slotTexts: [SlotKey: SlotText] = [:]
    /// Receipt lines in every form, per order line and currency; filled by the receipt.
    var receiptLines: [ReceiptLineKey: PreparedReceiptLine] = [:]
    private(set) lazy var slogan = PreparedText(constantDocument(CatalogKeys.slogan))
    private(set) lazy var thankYou = PreparedText(constantDocument(CatalogKeys.thankYou))
    private(set) lazy var storeName: String = name(CatalogKeys.storeName)
    private(set) lazy var storeHeader = PreparedText(RichDocument(text: storeName))
    private(set) lazy var subtotalLabel = PreparedText(constantDocument(CatalogKeys.subtotal))
    private(set) lazy var tipLabel = PreparedText(constantDocument(CatalogKeys.tip))
    private(set) lazy var totalLabel = PreparedText(constantDocument(CatalogKeys.total))

    /// What an order line's text depends on: a menu is small, so lines repeat from order to order.
    struct OrderLineKey: Hashable {
        var quantity: UInt32
        var size: String
        var item: String
        var termOfAddress: TermOfAddress

        init(_ line: PricedOrder.Line, termOfAddress: TermOfAddress) {
            quantity = line.quantity
            size = line.size.id
            item = line.item.id
            self.termOfAddress = termOfAddress
        }
    }

    /// A catalog string rendered with a hole, after the label that went into its first slot. Labels
    /// are this locale's constant texts (subtotal, tax at a rate, tip, total), told apart by text.
    private struct SlotKey: Hashable {
        var key: String
        var label: String?
        var termOfAddress: TermOfAddress
    }

    /// A receipt line also depends on the currency its prices are in.
    struct ReceiptLineKey: Hashable {
        var line: OrderLineKey
        var currency: String
    }

    /// One receipt line as the receipt's text, its HTML row and its wire message.
    struct PreparedReceiptLine {
        var styled: Caffe_V1_StyledText
        var htmlRow: String
        var message: Caffe_V1_ReceiptLine
    }

    /// A currency's formatter and the amounts it has formatted: prices repeat across orders.
    private final class CurrencyAmounts {
        let formatter: CurrencyFormatter
        var formatted: [Int64: String] = [:]

        init(_ formatter: CurrencyFormatter) {
            self.formatter = formatter
        }
    }

    private struct DateKey: Hashable {
        var timeZone: String
        var skeleton: String
    }

    /// Where words agreement left as written are reported (the session's).
    private let notices: AgreementNoticeSink

    init(locale: String, core: RenderingCore, notices: AgreementNoticeSink = AgreementNoticeSink()) throws(RenderError) {
        self.locale = locale
        self.core = core
        self.notices = notices
        do {
            localizer = try Localizer(
                catalog: core.catalog,
                locale: locale,
                options: RenderOptions(bidiIsolation: .rightToLeftLocales)
            )
            list = try ListFormatter(locale: locale)
            percent = try PercentFormatter(locale: locale)
        } catch {
            throw RenderError(.renderFailed, field: "customer.locale", "ICU cannot serve '\(locale)': \(error)")
        }
        localization = localizer.value(CatalogKeys.summary)?.localization ?? core.catalog.developmentLanguage
        // Agreement follows the language of the text, not the customer's: a Swedish customer reading
        // the English fallback gets English plurals.
        do {
            engine = try core.engine(for: localization)
        } catch {
            throw RenderError(
                .renderFailed,
                field: "customer.locale",
                "no agreement engine for '\(localization)': \(error)"
            )
        }
        isRightToLeft = localizer.isRightToLeft
        fallbackNote = localizer.fallbackNote.map { .note("localization-fallback", $0) }
    }

    // MARK: Catalog texts

    /// The catalog string `key` with `arguments`, Markdown parsed and agreement applied; compiled
    /// on first use. A key no localization has renders as itself, as Apple's lookup does.
    func document(
        _ key: String,
        _ arguments: [FormatArgument],
        termOfAddress: TermOfAddress = .unknown,
        cache: inout AgreementCache
    ) throws(RenderError) -> RichDocument {
        let template = try self.template(key)
        do {
            let inflected = try template.render(
                arguments,
                engine: engine,
                formatter: localizer,
                termOfAddress: termOfAddress,
                cache: &cache
            )
            if !inflected.warnings.isEmpty { notices.record(inflected.warnings, locale: localization) }
            return inflected.document
        } catch {
            throw RenderError(.renderFailed, "'\(key)' in \(localization): \(error)")
        }
    }

    /// The catalog string `key` rendered once with `label` (if any) in its first slot and a
    /// ``SlotText`` hole in the next, for per-order text such as an amount or a time; `nil` when the
    /// string has agreement spans, whose words may depend on what goes in the hole. Kept per
    /// (key, label, term of address).
    func slotText(
        _ key: String,
        label: PreparedText? = nil,
        termOfAddress: TermOfAddress = .unknown,
        cache: inout AgreementCache
    ) throws(RenderError) -> SlotText? {
        let slotKey = SlotKey(key: key, label: label?.styled.plain, termOfAddress: termOfAddress)
        if let made = slotTexts[slotKey] { return made }
        guard try !template(key).hasAgreementSpans else { return nil }
        let hole = FormatArgument.string(String(SlotText.hole))
        let arguments = label == nil ? [hole] : [.string(String(RenderSession.placeholder)), hole]
        let document = try self.document(key, arguments, termOfAddress: termOfAddress, cache: &cache)
        let made = SlotText(
            label.map { document.substituting(RenderSession.placeholder, with: [$0.document]) } ?? document
        )
        if slotTexts.count >= 1024 { slotTexts.removeAll(keepingCapacity: true) }
        slotTexts[slotKey] = made
        return made
    }

    /// Whether the catalog string `key` has agreement spans (its words may then depend on every
    /// argument, so it cannot be rendered once with a hole).
    func hasAgreementSpans(_ key: String) throws(RenderError) -> Bool {
        try template(key).hasAgreementSpans
    }

    /// A catalog string with plural variants, rendered as plain text.
    func pluralText(_ key: String, _ arguments: [FormatArgument]) throws(RenderError) -> String {
        do {
            return try localizer.string(key, arguments: arguments).text
        } catch {
            throw RenderError(.renderFailed, "'\(key)' in \(localization): \(error)")
        }
    }

    /// A name from the menu's table: an item, a size, an ingredient.
    func name(_ key: String) -> String {
        if let known = names[key] { return known }
        // A declared term is shown as its singular, without the markup that declares it.
        let text =
            localizer.value(key, table: core.menu.nameTable).map { displayedName($0.value) }
            ?? (try? localizer.string(key, table: core.menu.nameTable).text) ?? key
        names[key] = text
        return text
    }

    /// "2 large pizzas", "2 pizzas grandes": rendered and agreed once per quantity, size, item and
    /// term of address.
    func orderLine(_ line: PricedOrder.Line, termOfAddress: TermOfAddress, cache: inout AgreementCache)
        throws(RenderError) -> RichDocument
    {
        let key = OrderLineKey(line, termOfAddress: termOfAddress)
        if let made = orderLines[key] { return made }
        let made = try document(
            CatalogKeys.orderLine,
            [
                .unsignedInteger(UInt64(line.quantity)), .string(name(line.size.nameKey)),
                .string(name(line.item.nameKey)),
            ],
            termOfAddress: termOfAddress,
            cache: &cache
        )
        if orderLines.count >= 4096 { orderLines.removeAll(keepingCapacity: true) }
        orderLines[key] = made
        return made
    }

    /// "Our pizza is made from: prosciutto, cheese, flour, and tomatoes." — the same for every order.
    func ingredientSentence(_ item: Menu.Item, cache: inout AgreementCache) throws(RenderError) -> PreparedText {
        if let made = ingredientSentences[item.id] { return made }
        let ingredients = list.string(item.ingredientKeys.map(name))
        let made = PreparedText(
            try document(CatalogKeys.ingredients, [.string(name(item.nameKey)), .string(ingredients)], cache: &cache)
        )
        ingredientSentences[item.id] = made
        return made
    }

    private func constantDocument(_ key: String) -> RichDocument {
        var cache = AgreementCache(capacity: 1)
        return (try? document(key, [], cache: &cache)) ?? RichDocument(text: key)
    }

    private func template(_ key: String) throws(RenderError) -> AgreementTemplate {
        if let compiled = templates[key] { return compiled }
        let source = localizer.value(key)?.value.source ?? key
        do {
            let compiled = try AgreementTemplate(source)
            templates[key] = compiled
            return compiled
        } catch {
            throw RenderError(.renderFailed, "'\(key)' in \(localization) does not compile: \(error)")
        }
    }

    // MARK: Formatters

    /// `amount` formatted for the locale in `currency` ("$12.50", "12,50 €"), each amount formatted
    /// once per currency (at most 4096 kept).
    func amount(_ amount: Money, in currency: Currency) throws(RenderError) -> String {
        let amounts = try self.amounts(currency)
        if let made = amounts.formatted[amount.minorUnits] { return made }
        let made = amounts.formatter.string(decimal: amount.wireText)
        if amounts.formatted.count >= 4096 { amounts.formatted.removeAll(keepingCapacity: true) }
        amounts.formatted[amount.minorUnits] = made
        return made
    }

    private func amounts(_ currency: Currency) throws(RenderError) -> CurrencyAmounts {
        if let made = currencies[currency.code] { return made }
        do {
            let made = CurrencyAmounts(try CurrencyFormatter(locale: locale, currency: currency))
            currencies[currency.code] = made
            return made
        } catch {
            throw RenderError(.renderFailed, field: "currencyCode", "\(error)")
        }
    }

    func date(timeZone: String, skeleton: String) throws(RenderError) -> DateFieldFormatter {
        let key = DateKey(timeZone: timeZone, skeleton: skeleton)
        if let made = dates[key] { return made }
        do {
            let made = try DateFieldFormatter(locale: locale, timeZone: timeZone, skeleton: skeleton)
            if dates.count >= 1024 { dates.removeAll(keepingCapacity: true) }
            dates[key] = made
            return made
        } catch {
            throw RenderError(.renderFailed, field: "customer.timeZone", "\(error)")
        }
    }
}
