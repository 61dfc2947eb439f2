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
        var confirmation = Caffe_V1_Confirmation()
        confirmation.ref = Caffe_V1_EventRef(order.event)
        confirmation.locale = resources.localization
        confirmation.greeting = StyledOutput.styledText(greeting)
        confirmation.summary = StyledOutput.styledText(summary)
        confirmation.itemCount = StyledOutput.styledText(itemCount)
        var text = StyledTextBuilder()
        text.append(confirmation.greeting)
        text.append(sentence)
        text.append(confirmation.itemCount)
        if order.event.hasPickupAt {
            let time = try resources.date(timeZone: order.timeZone, skeleton: OrderSkeleton.pickup)
                .string(order.event.pickupAt.date)
            confirmation.pickup = try filled(
                CatalogKeys.pickup,
                time,
                termOfAddress: order.termOfAddress,
                resources: resources
            ).styled
            text.append(confirmation.pickup)
        }
        confirmation.text = text.finish()
        return confirmation
    }

    /// Store, slogan, order number, date, lines, totals, ingredients and thanks, as text, runs and
    /// an e-mail-ready HTML fragment. What repeats from order to order (the store, the slogan, the
    /// labels, each line, each food's ingredients, the thanks) is kept in every form by the locale's
    /// resources; an order only adds its number, its date and its amounts.
    func receipt(
        _ order: PricedOrder,
        lines: [RichDocument],
        resources: LocaleResources
    ) throws(RenderError) -> Caffe_V1_Receipt {
        func amount(_ value: Money) throws(RenderError) -> String {
            try resources.amount(value, in: order.currency)
        }

        var receipt = Caffe_V1_Receipt(amountsOf: order, localization: resources.localization)
        var text = StyledTextBuilder()
        var html = ReceiptHTML(locale: resources.locale, rightToLeft: resources.isRightToLeft)

        let number = try filled(CatalogKeys.orderNumber, order.event.orderID, resources: resources)
        let placedAt = try resources.date(timeZone: order.timeZone, skeleton: OrderSkeleton.placedAt)
            .string(order.event.placedAt.date)
        html.header(
            store: resources.storeHeader.html,
            slogan: resources.slogan.html,
            number: number.html,
            placedAt: HTMLRenderer.escape(placedAt),
            at: order.event.placedAt.date
        )
        text.append(resources.storeHeader.styled)
        text.append(resources.slogan.styled)
        text.append(number.styled)
        text.append(StyledOutput.unstyled(placedAt))

        for (line, description) in zip(order.lines, lines) {
            let prepared = try receiptLine(line, of: order, description: description, resources: resources)
            text.append(prepared.styled)
            html.line(row: prepared.htmlRow)
            receipt.lines.append(prepared.message)
        }

        let rate = resources.percent.string(decimal: order.store.taxRateText)
        let taxLabel = PreparedText(try resources.document(CatalogKeys.tax, [.string(rate)], cache: &agreementCache))
        var totals: [(label: PreparedText, value: Money, isTotal: Bool)] = [
            (resources.subtotalLabel, order.subtotal, false), (taxLabel, order.tax, false),
        ]
        if !order.event.tip.isEmpty { totals.append((resources.tipLabel, order.tip, false)) }
        totals.append((resources.totalLabel, order.total, true))
        for entry in totals {
            let formatted = try amount(entry.value)
            if let slot = try resources.slotText(CatalogKeys.labelledAmount, label: entry.label, cache: &agreementCache)
            {
                text.append(slot.styled(formatted))
            } else {
                text.append(
                    try resources.document(
                        CatalogKeys.labelledAmount,
                        [.string(String(Self.placeholder)), .string(formatted)],
                        cache: &agreementCache
                    ).substituting(Self.placeholder, with: [entry.label.document])
                )
            }
            html.total(label: entry.label.html, amount: formatted, isTotal: entry.isTotal)
        }

        var seen: Set<String> = []
        var sentences: [String] = []
        for line in order.lines where line.item.category == .food && line.quantity > 0 {
            guard seen.insert(line.item.id).inserted else { continue }
            let sentence = try resources.ingredientSentence(line.item, cache: &agreementCache)
            text.append(sentence.styled)
            sentences.append(sentence.html)
        }
        text.append(resources.thankYou.styled)
        html.closing(ingredients: sentences, thanks: resources.thankYou.html)

        receipt.text = text.finish(html: html.finish())
        return receipt
    }

    /// The catalog string `key` with `value` as its argument, as wire text and inline HTML: filled
    /// into a kept ``SlotText`` unless the string has agreement spans.
    private func filled(
        _ key: String,
        _ value: String,
        termOfAddress: TermOfAddress = .unknown,
        resources: LocaleResources
    ) throws(RenderError) -> (styled: Caffe_V1_StyledText, html: String) {
        if let slot = try resources.slotText(key, termOfAddress: termOfAddress, cache: &agreementCache) {
            return (slot.styled(value), slot.html(value))
        }
        let document = try resources.document(
            key,
            [.string(value)],
            termOfAddress: termOfAddress,
            cache: &agreementCache
        )
        return (StyledOutput.styledText(document), ReceiptHTML.inline(document))
    }

    /// "2 large pizzas ($14.25 each): $28.50" in every form, made once per line and currency.
    private func receiptLine(
        _ line: PricedOrder.Line,
        of order: PricedOrder,
        description: RichDocument,
        resources: LocaleResources
    ) throws(RenderError) -> LocaleResources.PreparedReceiptLine {
        let key = LocaleResources.ReceiptLineKey(
            line: .init(line, termOfAddress: order.termOfAddress),
            currency: order.currency.code
        )
        if let made = resources.receiptLines[key] { return made }
        let made = try resources.receiptLine(
            description: description,
            unitPrice: line.unitPrice,
            linePrice: line.linePrice,
            currency: order.currency,
            cache: &agreementCache
        )
        if resources.receiptLines.count >= 4096 { resources.receiptLines.removeAll(keepingCapacity: true) }
        resources.receiptLines[key] = made
        return made
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
        subtotal = order.subtotal.wireText
        tax = order.tax.wireText
        taxRate = order.store.taxRateText
        tip = order.tip.wireText
        total = order.total.wireText
    }
}

extension LocaleResources {
    /// One receipt line in every form — its text, its HTML row, its wire message — from its
    /// description and prices.
    func receiptLine(
        description: RichDocument,
        unitPrice: Money,
        linePrice: Money,
        currency: Currency,
        cache: inout AgreementCache
    ) throws(RenderError) -> PreparedReceiptLine {
        let unit = try amount(unitPrice, in: currency)
        let total = try amount(linePrice, in: currency)
        let document = try self.document(
            CatalogKeys.receiptLine,
            [.string(String(RenderSession.placeholder)), .string(unit), .string(total)],
            cache: &cache
        ).substituting(RenderSession.placeholder, with: [description])
        return PreparedReceiptLine(
            styled: StyledOutput.styledText(document),
            htmlRow: ReceiptHTML.lineRow(
                description: ReceiptHTML.inline(description),
                unitPrice: unit,
                linePrice: total
            ),
            message: Caffe_V1_ReceiptLine(
                description: description,
                unitPrice: unitPrice,
                linePrice: linePrice,
                formattedPrice: total
            )
        )
    }
}

extension Caffe_V1_ReceiptLine {
    /// One receipt line: its description, its amounts as the wire writes them, its formatted price.
    @_spi(Benchmarks)
    public init(_ line: PricedOrder.Line, of order: PricedOrder, description: RichDocument, formattedPrice: String) {
        self.init(
            description: description,
            unitPrice: line.unitPrice,
            linePrice: line.linePrice,
            formattedPrice: formattedPrice
        )
    }

    init(description: RichDocument, unitPrice: Money, linePrice: Money, formattedPrice: String) {
        self.init()
        description_p = StyledOutput.styledText(description)
        self.unitPrice = unitPrice.wireText
        self.linePrice = linePrice.wireText
        self.formattedPrice = StyledOutput.styledText(RichDocument(text: formattedPrice))
    }
}
