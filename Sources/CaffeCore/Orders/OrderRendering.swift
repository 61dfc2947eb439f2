import CaffeProtocol
import Foundation
import GrammarAgreement
import Localization
import RichText
import SwiftProtobuf

extension RenderSession {
    /// Skeletons of the dates an order shows: the receipt's date and time, the pickup time.
    @_spi(Benchmarks)
    public enum OrderSkeleton {
        /// `.dateTime.year().month(.defaultDigits).day().hour().minute()`
        public static let placedAt = "yMdjm"
        /// `.dateTime.hour().minute()`
        public static let pickup = "jm"
    }

    /// Greeting, summary, item count and pickup time, and all of it as one text.
    func confirmation(
        _ order: PricedOrder,
        lines: [RichDocument],
        resources: LocaleResources
    ) throws(RenderError) -> Caffe_V1_Confirmation {
        let name = order.event.customer.name
        let greeting =
            name.isEmpty
            ? try resources.document("Welcome", [], termOfAddress: order.termOfAddress, cache: &agreementCache)
            : try resources.document(
                CatalogKeys.greeting,
                [.string(name)],
                termOfAddress: order.termOfAddress,
                cache: &agreementCache
            )
        let summary = list(lines, resources: resources)
        let sentence = try resources.document(
            CatalogKeys.summary,
            [.string(String(Self.placeholder))],
            termOfAddress: order.termOfAddress,
            cache: &agreementCache
        ).substituting(Self.placeholder, with: [summary])
        let quantity = order.lines.reduce(UInt64(0)) { $0 + UInt64($1.quantity) }
        let itemCount = RichDocument(
            text: try resources.pluralText(CatalogKeys.itemCount, [.unsignedInteger(quantity)])
        )
        var parts = [greeting, sentence, itemCount]

        var confirmation = Caffe_V1_Confirmation()
        confirmation.ref = Caffe_V1_EventRef(order.event)
        confirmation.locale = resources.localization
        confirmation.greeting = StyledOutput.styledText(greeting)
        confirmation.summary = StyledOutput.styledText(summary)
        confirmation.itemCount = StyledOutput.styledText(itemCount)
        if order.event.hasPickupAt {
            let time = try resources.date(timeZone: order.timeZone, skeleton: OrderSkeleton.pickup)
                .string(order.event.pickupAt.date)
            let pickup = try resources.document(
                CatalogKeys.pickup,
                [.string(time)],
                termOfAddress: order.termOfAddress,
                cache: &agreementCache
            )
            confirmation.pickup = StyledOutput.styledText(pickup)
            parts.append(pickup)
        }
        confirmation.text = StyledOutput.styledText(RichDocument.joined(parts, separator: "\n"))
        return confirmation
    }

    /// Store, slogan, order number, date, lines, totals, ingredients and thanks, as text, runs and
    /// an e-mail-ready HTML fragment.
    func receipt(
        _ order: PricedOrder,
        lines: [RichDocument],
        resources: LocaleResources
    ) throws(RenderError) -> Caffe_V1_Receipt {
        let money = try resources.currency(order.currency)
        func amount(_ value: Decimal) -> String { money.string(decimal: order.wire(value)) }
        func labelled(_ label: RichDocument, _ value: Decimal) throws(RenderError) -> RichDocument {
            try resources.document(
                CatalogKeys.labelledAmount,
                [.string(String(Self.placeholder)), .string(amount(value))],
                cache: &agreementCache
            ).substituting(Self.placeholder, with: [label])
        }

        var receipt = Caffe_V1_Receipt(amountsOf: order, localization: resources.localization)

        let header = RichDocument(text: resources.storeName)
        let number = try resources.document(
            CatalogKeys.orderNumber,
            [.string(order.event.orderID)],
            cache: &agreementCache
        )
        let placedAt = RichDocument(
            text: try resources.date(timeZone: order.timeZone, skeleton: OrderSkeleton.placedAt)
                .string(order.event.placedAt.date)
        )
        var lineDocuments: [RichDocument] = []
        var html = ReceiptHTML(locale: order.locale, rightToLeft: resources.isRightToLeft)
        html.header(
            store: header,
            slogan: resources.slogan,
            number: number,
            placedAt: placedAt,
            at: order.event.placedAt.date
        )
        for (line, description) in zip(order.lines, lines) {
            let unit = amount(line.unitPrice)
            let total = amount(line.linePrice)
            let document = try resources.document(
                CatalogKeys.receiptLine,
                [.string(String(Self.placeholder)), .string(unit), .string(total)],
                cache: &agreementCache
            ).substituting(Self.placeholder, with: [description])
            lineDocuments.append(document)
            html.line(description: description, unitPrice: unit, linePrice: total)
            receipt.lines.append(Caffe_V1_ReceiptLine(line, of: order, description: description, formattedPrice: total))
        }

        var totals: [(label: RichDocument, value: Decimal, isTotal: Bool)] = []
        totals.append((resources.subtotalLabel, order.subtotal, false))
        let rate = resources.percent.string(decimal: order.store.taxRateText)
        totals.append(
            (try resources.document(CatalogKeys.tax, [.string(rate)], cache: &agreementCache), order.tax, false)
        )
        if !order.event.tip.isEmpty {
            totals.append((resources.tipLabel, order.tip, false))
        }
        totals.append((resources.totalLabel, order.total, true))
        var totalDocuments: [RichDocument] = []
        for entry in totals {
            totalDocuments.append(try labelled(entry.label, entry.value))
            html.total(label: entry.label, amount: amount(entry.value), isTotal: entry.isTotal)
        }

        var seen: Set<String> = []
        var sentences: [RichDocument] = []
        for line in order.lines where line.item.category == .food && line.quantity > 0 {
            guard seen.insert(line.item.id).inserted else { continue }
            sentences.append(try resources.ingredientSentence(line.item, cache: &agreementCache))
        }
        html.closing(ingredients: sentences, thanks: resources.thankYou)

        let whole = RichDocument.joined(
            [header, resources.slogan, number, placedAt] + lineDocuments + totalDocuments + sentences
                + [resources.thankYou],
            separator: "\n"
        )
        receipt.text = StyledOutput.styledText(whole, html: html.finish())
        return receipt
    }
}

extension Caffe_V1_Receipt {
    /// A receipt carrying its order's reference and amounts as the wire writes them; the texts are
    /// filled in after.
    @_spi(Benchmarks)
    public init(amountsOf order: PricedOrder, localization: String) {
        self.init()
        ref = Caffe_V1_EventRef(order.event)
        locale = localization
        currencyCode = order.currency.code
        subtotal = order.wire(order.subtotal)
        tax = order.wire(order.tax)
        taxRate = order.store.taxRateText
        tip = order.wire(order.tip)
        total = order.wire(order.total)
    }
}

extension Caffe_V1_ReceiptLine {
    /// One receipt line: its description, its amounts as the wire writes them, its formatted price.
    @_spi(Benchmarks)
    public init(_ line: PricedOrder.Line, of order: PricedOrder, description: RichDocument, formattedPrice: String) {
        self.init()
        description_p = StyledOutput.styledText(description)
        unitPrice = order.wire(line.unitPrice)
        linePrice = order.wire(line.linePrice)
        self.formattedPrice = StyledOutput.styledText(RichDocument(text: formattedPrice))
    }
}
