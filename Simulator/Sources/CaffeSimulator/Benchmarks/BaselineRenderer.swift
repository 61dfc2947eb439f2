@_spi(Benchmarks) import CaffeCore
import CaffeProtocol
import Foundation
import GrammarAgreement
import Localization
import RichText
import SwiftProtobuf

/// The benchmark's baseline: the same confirmations, receipts and complications, written the way
/// app code would write them. Every amount, percentage, list and date goes through Foundation's
/// `FormatStyle` at the call (complication dates as `.attributed`), and every catalog string is
/// looked up and its Markdown and agreement markup parsed each time it is used. What an app keeps —
/// its bundle (the catalog bound to the locale) and the agreement engine — it keeps here too.
///
/// It exists to be measured against, and checked against: the benchmark refuses to report unless
/// both produce the same messages, byte for byte.
final class BaselineRenderer {
    private let core: RenderingCore
    private var localizers: [String: Localizer] = [:]

    init(core: RenderingCore) {
        self.core = core
    }

    /// The order's confirmation and receipt. The order must be valid; the benchmark's are.
    func render(_ event: Caffe_V1_OrderEvent) throws -> RenderedOrder {
        let order = try PricedOrder(event, menu: core.menu, defaults: core.defaults)
        let localizer = try self.localizer(order.locale)
        let localization = localizer.value(CatalogKeys.summary)?.localization ?? core.catalog.developmentLanguage
        // The engine app code makes: the catalog's declared terms over the bundled lexicon.
        let engine = try core.engine(for: localization)
        let texts = Texts(localizer: localizer, engine: engine, menu: core.menu, term: order.termOfAddress)
        let locale = Locale(identifier: order.locale)
        guard let timeZone = TimeZone(identifier: order.timeZone) else {
            throw CatalogBenchmark.Failure(description: "Foundation does not know \(order.timeZone)")
        }
        var notes = order.notes
        if let fallback = localizer.fallbackNote { notes.append(.note("localization-fallback", fallback)) }

        let lines = try order.lines.map { line in
            try texts.document(
                CatalogKeys.orderLine,
                [
                    .unsignedInteger(UInt64(line.quantity)), .string(texts.name(line.size.nameKey)),
                    .string(texts.name(line.item.nameKey)),
                ],
                agreeing: true
            )
        }

        // The confirmation.
        let greeting =
            order.event.customer.name.isEmpty
            ? try texts.document("Welcome", [], agreeing: true)
            : try texts.document(CatalogKeys.greeting, [.string(order.event.customer.name)], agreeing: true)
        let summaryText = lines.map(\.plainText).formatted(.list(type: .and).locale(locale))
        let summary = RichDocument(text: summaryText)
        let sentence = try texts.document(CatalogKeys.summary, [.string(summaryText)], agreeing: true)
        let quantity = order.lines.reduce(UInt64(0)) { $0 + UInt64($1.quantity) }
        let itemCount = RichDocument(
            text: try localizer.string(CatalogKeys.itemCount, arguments: [.unsignedInteger(quantity)]).text
        )
        var parts = [greeting, sentence, itemCount]
        var confirmation = Caffe_V1_Confirmation()
        confirmation.ref = Caffe_V1_EventRef(order.event)
        confirmation.locale = localization
        confirmation.greeting = StyledOutput.styledText(greeting)
        confirmation.summary = StyledOutput.styledText(summary)
        confirmation.itemCount = StyledOutput.styledText(itemCount)
        if order.event.hasPickupAt {
            var style = Date.FormatStyle.dateTime.hour().minute()
            style.locale = locale
            style.timeZone = timeZone
            let pickup = try texts.document(
                CatalogKeys.pickup,
                [.string(order.event.pickupAt.date.formatted(style))],
                agreeing: true
            )
            confirmation.pickup = StyledOutput.styledText(pickup)
            parts.append(pickup)
        }
        confirmation.text = StyledOutput.styledText(RichDocument.joined(parts, separator: "\n"))
        confirmation.notes = notes

        // The receipt.
        func money(_ value: Money) -> String {
            value.decimal.formatted(.currency(code: order.currency.code).locale(locale))
        }
        var receipt = Caffe_V1_Receipt(amountsOf: order, localization: localization)

        let header = RichDocument(text: texts.name(CatalogKeys.storeName))
        let slogan = try texts.document(CatalogKeys.slogan, [])
        let number = try texts.document(CatalogKeys.orderNumber, [.string(order.event.orderID)])
        var dateStyle = Date.FormatStyle.dateTime.year().month(.defaultDigits).day().hour().minute()
        dateStyle.locale = locale
        dateStyle.timeZone = timeZone
        let placedAt = RichDocument(text: order.event.placedAt.date.formatted(dateStyle))
        var html = ReceiptHTML(locale: order.locale, rightToLeft: localizer.isRightToLeft)
        html.header(
            store: ReceiptHTML.inline(header),
            slogan: ReceiptHTML.inline(slogan),
            number: ReceiptHTML.inline(number),
            placedAt: ReceiptHTML.inline(placedAt),
            at: order.event.placedAt.date
        )
        var lineDocuments: [RichDocument] = []
        for (line, description) in zip(order.lines, lines) {
            let unit = money(line.unitPrice)
            let total = money(line.linePrice)
            lineDocuments.append(
                try texts.document(
                    CatalogKeys.receiptLine,
                    [.string(description.plainText), .string(unit), .string(total)]
                )
            )
            html.line(
                row: ReceiptHTML.lineRow(
                    description: ReceiptHTML.inline(description),
                    unitPrice: unit,
                    linePrice: total
                )
            )
            receipt.lines.append(Caffe_V1_ReceiptLine(line, of: order, description: description, formattedPrice: total))
        }
        let rate = order.store.taxRate.formatted(.percent.precision(.fractionLength(0...3)).locale(locale))
        var totals: [(label: RichDocument, value: Money, isTotal: Bool)] = [
            (try texts.document(CatalogKeys.subtotal, []), order.subtotal, false),
            (try texts.document(CatalogKeys.tax, [.string(rate)]), order.tax, false),
        ]
        if !order.event.tip.isEmpty { totals.append((try texts.document(CatalogKeys.tip, []), order.tip, false)) }
        totals.append((try texts.document(CatalogKeys.total, []), order.total, true))
        var totalDocuments: [RichDocument] = []
        for entry in totals {
            let amount = money(entry.value)
            totalDocuments.append(
                try texts.document(CatalogKeys.labelledAmount, [.string(entry.label.plainText), .string(amount)])
            )
            html.total(label: ReceiptHTML.inline(entry.label), amount: amount, isTotal: entry.isTotal)
        }
        var seen: Set<String> = []
        var sentences: [RichDocument] = []
        for line in order.lines where line.item.category == .food && line.quantity > 0 {
            guard seen.insert(line.item.id).inserted else { continue }
            let ingredients = line.item.ingredientKeys.map(texts.name).formatted(.list(type: .and).locale(locale))
            sentences.append(
                try texts.document(
                    CatalogKeys.ingredients,
                    [.string(texts.name(line.item.nameKey)), .string(ingredients)]
                )
            )
        }
        let thanks = try texts.document(CatalogKeys.thankYou, [])
        html.closing(ingredients: sentences.map(ReceiptHTML.inline), thanks: ReceiptHTML.inline(thanks))
        let whole = RichDocument.joined(
            [header, slogan, number, placedAt] + lineDocuments + totalDocuments + sentences + [thanks],
            separator: "\n"
        )
        receipt.text = StyledOutput.styledText(whole, html: html.finish())
        receipt.notes = notes
        return RenderedOrder(confirmation: confirmation, receipt: receipt)
    }

    /// The complication payload: each level formatted `.attributed` by Foundation at the call.
    func complication(_ request: Caffe_V1_ComplicationRequest) throws -> Caffe_V1_ComplicationPayload {
        var identifier = request.locale
        if !request.hourCycle.isEmpty { identifier += "-u-hc-" + request.hourCycle }
        guard let timeZone = TimeZone(identifier: request.timeZone) else {
            throw CatalogBenchmark.Failure(description: "Foundation does not know \(request.timeZone)")
        }
        let date = request.nextFreeCoffee.date
        let levels: [Date.FormatStyle] = [
            .dateTime.weekday().hour().minute(), .dateTime.weekday().hour(), .dateTime.weekday(),
            .dateTime.weekday(.short), .dateTime.weekday(.narrow),
        ]
        var rendered: [Int: (text: Caffe_V1_StyledText, width: Int)] = [:]
        func level(_ index: Int) -> (text: Caffe_V1_StyledText, width: Int) {
            if let made = rendered[index] { return made }
            var style = levels[index]
            style.locale = Locale(identifier: identifier)
            style.timeZone = timeZone
            let attributed = style.attributed.format(date)
            let pieces = attributed.runs.map { run in
                DateFieldFormatter.Piece(
                    text: String(attributed[run.range].characters),
                    field: run.attributes[AttributeScopes.FoundationAttributes.DateFieldAttribute.self]
                        .flatMap { DateFieldFormatter.Field(rawValue: "\($0)") }
                )
            }
            let made = RenderSession.styled(pieces)
            rendered[index] = made
            return made
        }
        var payload = Caffe_V1_ComplicationPayload()
        payload.requestID = request.requestID
        payload.userID = request.userID
        payload.locale = identifier
        for family in request.families.isEmpty ? Caffe_V1_ComplicationFamily.rendered : request.families {
            var entry = Caffe_V1_ComplicationEntry()
            entry.family = family
            entry.text =
                (levels.indices.first { level($0).width <= family.widthLimit }).map { level($0).text }
                ?? level(levels.count - 1).text
            payload.entries.append(entry)
        }
        return payload
    }

    private func localizer(_ locale: String) throws -> Localizer {
        if let made = localizers[locale] { return made }
        let made = try Localizer(
            catalog: core.catalog,
            locale: locale,
            options: RenderOptions(bidiIsolation: .rightToLeftLocales)
        )
        localizers[locale] = made
        return made
    }

    /// Catalog strings as an app reads them: looked up and compiled at every use.
    private struct Texts {
        let localizer: Localizer
        let engine: AgreementEngine
        let menu: Menu
        let term: TermOfAddress

        func document(_ key: String, _ arguments: [FormatArgument], agreeing: Bool = false) throws -> RichDocument {
            let source = localizer.value(key)?.value.source ?? key
            return try AgreementTemplate(source).render(
                arguments,
                engine: engine,
                formatter: localizer,
                termOfAddress: agreeing ? term : .unknown
            ).document
        }

        func name(_ key: String) -> String {
            // A declared term (README, Declaring menu terms) is shown without its markup.
            localizer.value(key, table: menu.nameTable).map { displayedName($0.value) }
                ?? (try? localizer.string(key, table: menu.nameTable).text) ?? key
        }
    }
}

extension BaselineRenderer {
    /// An order from its bytes to its outputs' bytes, as app code would go: SwiftProtobuf decodes,
    /// the renderer renders, SwiftProtobuf encodes.
    func renderBytes(order body: [UInt8]) throws {
        let rendered = try render(Caffe_V1_OrderEvent(serializedBytes: body))
        _ = try rendered.confirmation.serializedBytes() as [UInt8]
        _ = try rendered.receipt.serializedBytes() as [UInt8]
    }

    /// A complication request from its bytes to the payload's bytes.
    func renderBytes(complication body: [UInt8]) throws {
        _ = try complication(Caffe_V1_ComplicationRequest(serializedBytes: body)).serializedBytes() as [UInt8]
    }
}
