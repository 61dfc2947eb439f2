import CaffeProtocol
import Foundation
import GrammarAgreement
import Localization
import RichText

/// One customer locale's orders compiled for the wire: every text that does not change from order
/// to order as spans and HTML already in output form, every text with one per-order value as
/// spans with a hole, the texts that depend on an order's lines kept per line, and the locale's
/// number, date and list formats compiled (``CompiledNumberFormat``, ``CompiledDateFormat``,
/// ``CompiledListFormat``), ICU kept only where a format does not compile.
///
/// Built from the same ``LocaleResources`` the message path renders with, so every text is the
/// text that path makes; the wire writer (``OrderWireWriter``) only copies and fills.
///
/// Owned by one ``RenderSession``; nothing here locks.
final class OrderProgram {
    /// A text kept in its two output forms.
    struct Prepared {
        var spans: [TextSpan]
        var html: UnsafeRawBufferPointer
    }

    /// A text with holes for one per-order value, and its HTML split at the holes.
    struct Slot {
        var spans: [TextSpan]
        var html: [UnsafeRawBufferPointer]
    }

    /// The summary sentence ("You ordered %@."): the text around the list, and the attributes list
    /// literals take inside it.
    struct Sentence {
        var document: RichDocument
        var prefix: [TextSpan]
        var suffix: [TextSpan]
        var prefixLength: Int
        var literalAttribute: AttributeTable.ID
    }

    /// An amount format: compiled, with ICU's for where it did not compile.
    struct AmountFormat {
        var compiled: CompiledNumberFormat?
        var icu: CurrencyFormatter
    }

    /// A date format: compiled, with ICU's for where it did not compile or a date outside the
    /// zone table.
    struct DateFormat {
        var compiled: CompiledDateFormat?
        var icu: DateFieldFormatter
    }

    let locale: String
    let localization: String
    let resources: LocaleResources
    let maker: SpanMaker
    /// The encoded `RenderNote` of a locale no localization serves, else empty.
    let fallbackNote: UnsafeRawBufferPointer
    let storeHeader: Prepared
    let slogan: Prepared
    let thanks: Prepared
    let subtotal: Slot
    let tip: Slot
    let total: Slot
    let subtotalLabel: Prepared
    let tipLabel: Prepared
    let totalLabel: Prepared
    let orderNumber: Slot
    /// The receipt's HTML up to the order number, and from the thanks to its end.
    let htmlHead: UnsafeRawBufferPointer
    let htmlTail: UnsafeRawBufferPointer
    let list: CompiledListFormat?
    /// Per term of address (wire number 0...3).
    private var greetingSlots: [Slot?] = [nil, nil, nil, nil]
    private var welcomes: [[TextSpan]?] = [nil, nil, nil, nil]
    private var pickups: [Slot?] = [nil, nil, nil, nil]
    private var sentences: [Sentence?] = [nil, nil, nil, nil]
    let greetingHasAgreement: Bool
    /// Greetings of templates with agreement spans, per name and term.
    let greetings = ByteKeyedTable<[TextSpan]>(capacity: 4096)
    var itemCounts: [UInt64: TextSpan] = [:]
    var lines: [UInt64: Line] = [:]
    var receiptLines: [ReceiptLineKey: ReceiptLine] = [:]
    var ingredients: [Int: Prepared] = [:]
    var taxes: [Int: (label: Prepared, slot: Slot)] = [:]
    var amounts: [Int: AmountFormat] = [:]
    var dates: [DateKey: DateFormat] = [:]
    /// The formats of this locale that did not compile, as "locale kind pattern".
    private(set) var fallbacks: [String] = []

    /// The dates an order shows.
    enum OrderDate: Int {
        /// The receipt's date and time.
        case placedAt
        /// The pickup time.
        case pickup

        var skeleton: String {
            switch self {
            case .placedAt: RenderSession.OrderSkeleton.placedAt
            case .pickup: RenderSession.OrderSkeleton.pickup
            }
        }
    }

    /// A date format per zone (its index in the session) and order date.
    struct DateKey: Hashable {
        var zoneAndDate: Int
    }

    struct ReceiptLineKey: Hashable {
        var line: UInt64
        var currency: Int
    }

    /// An order line ("2 large pizzas"): its spans alone and inside the summary sentence, and what
    /// the list format needs to know of it.
    struct Line {
        var spans: [TextSpan]
        var composed: [TextSpan]
        var profile: CompiledListFormat.ItemProfile
        var plain: String
    }

    /// A receipt line in its three forms.
    struct ReceiptLine {
        var spans: [TextSpan]
        var htmlRow: UnsafeRawBufferPointer
        var message: UnsafeRawBufferPointer
    }

    static let hole = SlotText.hole
    static let terms: [TermOfAddress] = [.unknown, .feminine, .masculine, .neutral]

    init(locale: String, resources: LocaleResources, maker: SpanMaker) throws(RenderError) {
        self.locale = locale
        self.resources = resources
        self.maker = maker
        localization = resources.localization
        if let note = resources.fallbackNote {
            fallbackNote = note.singlePassBytes().withUnsafeBytes {
                UnsafeRawBufferPointer(start: maker.arena.store($0), count: $0.count)
            }
        } else {
            fallbackNote = UnsafeRawBufferPointer(start: nil, count: 0)
        }
        func prepared(_ text: PreparedText) -> Prepared {
            Prepared(spans: maker.spans(text.styled), html: maker.arena.bytes(text.html))
        }
        storeHeader = prepared(resources.storeHeader)
        slogan = prepared(resources.slogan)
        thanks = prepared(resources.thankYou)
        subtotalLabel = prepared(resources.subtotalLabel)
        tipLabel = prepared(resources.tipLabel)
        totalLabel = prepared(resources.totalLabel)
        var cache = AgreementCache(capacity: 64)
        subtotal = try Self.labelledSlot(resources.subtotalLabel, resources: resources, maker: maker, cache: &cache)
        tip = try Self.labelledSlot(resources.tipLabel, resources: resources, maker: maker, cache: &cache)
        total = try Self.labelledSlot(resources.totalLabel, resources: resources, maker: maker, cache: &cache)
        orderNumber = try Self.slot(CatalogKeys.orderNumber, term: .unknown, resources: resources, maker: maker)
        greetingHasAgreement = try resources.hasAgreementSpans(CatalogKeys.greeting)
        list = resources.list.compiled()
        if list == nil { fallbacks.append("\(locale) list") }

        typealias Fragment = ReceiptHTML.Fragment
        htmlHead = maker.arena.bytes(
            Fragment.articleOpen(locale: locale, rightToLeft: resources.isRightToLeft)
                + "\(Fragment.headerOpen)\(resources.storeHeader.html)\(Fragment.sloganOpen)\(resources.slogan.html)"
                + "\(Fragment.headerClose)\(Fragment.numberOpen)"
        )
        htmlTail = maker.arena.bytes(
            "\(Fragment.thanksOpen)\(resources.thankYou.html)\(Fragment.paragraphClose)\(Fragment.articleClose)"
        )
    }

    /// A catalog string rendered once with a hole for its argument; `nil`-free: a string with
    /// agreement spans cannot be, and makes the program refuse (the order renders the message way).
    static func slot(
        _ key: String,
        term: TermOfAddress,
        resources: LocaleResources,
        maker: SpanMaker
    ) throws(RenderError) -> Slot {
        var cache = AgreementCache(capacity: 4)
        guard let text = try resources.slotText(key, termOfAddress: term, cache: &cache) else {
            throw RenderError(.renderFailed, "'\(key)' has agreement spans")
        }
        return Slot(
            spans: maker.spans(text.styled(String(hole)), hole: hole),
            html: maker.htmlPieces(text.html(String(hole)), hole: hole)
        )
    }

    /// "%1$@: %2$@" with `label` in its first slot and a hole in its second.
    static func labelledSlot(
        _ label: PreparedText,
        resources: LocaleResources,
        maker: SpanMaker,
        cache: inout AgreementCache
    ) throws(RenderError) -> Slot {
        guard let text = try resources.slotText(CatalogKeys.labelledAmount, label: label, cache: &cache) else {
            throw RenderError(.renderFailed, "'\(CatalogKeys.labelledAmount)' has agreement spans")
        }
        return Slot(spans: maker.spans(text.styled(String(hole)), hole: hole), html: [])
    }

    // MARK: Per term of address

    func greetingSlot(term: Int) throws(RenderError) -> Slot {
        if let made = greetingSlots[term] { return made }
        let made = try Self.slot(CatalogKeys.greeting, term: Self.terms[term], resources: resources, maker: maker)
        greetingSlots[term] = made
        return made
    }

    /// The greeting of a customer called `name` (bytes of the frame), for a template with
    /// agreement spans: rendered once per name and term.
    func greeting(name: UnsafeRawBufferPointer, term: Int, cache: inout AgreementCache) throws(RenderError)
        -> [TextSpan]
    {
        if let made = greetings.value(name, tag: UInt8(term)) { return made }
        let text = String(decoding: name, as: UTF8.self)
        let document = try resources.document(
            CatalogKeys.greeting,
            [.string(text)],
            termOfAddress: Self.terms[term],
            cache: &cache
        )
        let made = maker.spans(StyledOutput.styledText(document))
        greetings.insert(made, for: name, tag: UInt8(term))
        return made
    }

    func welcome(term: Int, cache: inout AgreementCache) throws(RenderError) -> [TextSpan] {
        if let made = welcomes[term] { return made }
        let document = try resources.document("Welcome", [], termOfAddress: Self.terms[term], cache: &cache)
        let made = maker.spans(StyledOutput.styledText(document))
        welcomes[term] = made
        return made
    }

    func pickup(term: Int) throws(RenderError) -> Slot {
        if let made = pickups[term] { return made }
        let made = try Self.slot(CatalogKeys.pickup, term: Self.terms[term], resources: resources, maker: maker)
        pickups[term] = made
        return made
    }

    func sentence(term: Int, cache: inout AgreementCache) throws(RenderError) -> Sentence {
        if let made = sentences[term] { return made }
        let placeholder = RenderSession.placeholder
        let document = try resources.document(
            CatalogKeys.summary,
            [.string(String(placeholder))],
            termOfAddress: Self.terms[term],
            cache: &cache
        )
        let plain = document.plainText
        let holes = plain.unicodeScalars.filter { $0 == placeholder }.count
        guard holes == 1, let index = plain.unicodeScalars.firstIndex(of: placeholder) else {
            throw RenderError(.renderFailed, "'\(CatalogKeys.summary)' does not hold the list once")
        }
        let prefixLength = plain.unicodeScalars[..<index].reduce(0) { $0 + UTF8.width($1) }
        // A one-letter literal shows the attributes list text takes inside the sentence.
        let sample = StyledOutput.styledText(document.substituting(placeholder, with: [RichDocument(text: "x")]))
        let parts = maker.split(sample, at: [prefixLength, prefixLength + 1])
        let made = Sentence(
            document: document,
            prefix: parts[0],
            suffix: parts[2],
            prefixLength: prefixLength,
            literalAttribute: parts[1].first?.attribute ?? AttributeTable.none
        )
        sentences[term] = made
        return made
    }

    // MARK: Per line, item, store, currency and zone

    /// What an order line's texts depend on.
    struct LineRequest {
        var line: PricedOrder.Line
        /// The term of address, as its wire number.
        var term: Int
    }

    /// An order line, rendered and agreed once per (quantity, size, item, term).
    func line(_ key: UInt64, _ request: LineRequest, cache: inout AgreementCache) throws(RenderError) -> Line {
        if let made = lines[key] { return made }
        let term = request.term
        let document = try resources.orderLine(request.line, termOfAddress: Self.terms[term], cache: &cache)
        let sentence = try self.sentence(term: term, cache: &cache)
        let styled = StyledOutput.styledText(document)
        let lineLength = styled.plain.utf8.count
        let composed = StyledOutput.styledText(
            sentence.document.substituting(RenderSession.placeholder, with: [document])
        )
        let parts = maker.split(composed, at: [sentence.prefixLength, sentence.prefixLength + lineLength])
        let made = Line(
            spans: maker.spans(styled),
            composed: parts[1],
            profile: list?.profile(styled.plain) ?? .plain,
            plain: styled.plain
        )
        if lines.count >= 4096 { lines.removeAll(keepingCapacity: true) }
        lines[key] = made
        return made
    }

    /// A receipt line, made once per order line and currency.
    func receiptLine(
        _ key: ReceiptLineKey,
        _ request: LineRequest,
        currency: Currency,
        cache: inout AgreementCache
    ) throws(RenderError) -> ReceiptLine {
        if let made = receiptLines[key] { return made }
        let line = request.line
        let description = try resources.orderLine(line, termOfAddress: Self.terms[request.term], cache: &cache)
        let prepared = try resources.receiptLine(
            description: description,
            unitPrice: line.unitPrice,
            linePrice: line.linePrice,
            currency: currency,
            cache: &cache
        )
        let message = prepared.message.singlePassBytes()
        let made = ReceiptLine(
            spans: maker.spans(prepared.styled),
            htmlRow: maker.arena.bytes(prepared.htmlRow),
            message: message.withUnsafeBytes { UnsafeRawBufferPointer(start: maker.arena.store($0), count: $0.count) }
        )
        if receiptLines.count >= 4096 { receiptLines.removeAll(keepingCapacity: true) }
        receiptLines[key] = made
        return made
    }

    func ingredients(_ item: Menu.Item, index: Int, cache: inout AgreementCache) throws(RenderError) -> Prepared {
        if let made = ingredients[index] { return made }
        let sentence = try resources.ingredientSentence(item, cache: &cache)
        let made = Prepared(spans: maker.spans(sentence.styled), html: maker.arena.bytes(sentence.html))
        ingredients[index] = made
        return made
    }

    /// "Tax (8.625%)" and its labelled slot, per store.
    func tax(_ store: Menu.Store, index: Int, cache: inout AgreementCache) throws(RenderError) -> (
        label: Prepared, slot: Slot
    ) {
        if let made = taxes[index] { return made }
        let rate = resources.percent.string(decimal: store.taxRateText)
        let label = PreparedText(try resources.document(CatalogKeys.tax, [.string(rate)], cache: &cache))
        let made = (
            Prepared(spans: maker.spans(label.styled), html: maker.arena.bytes(label.html)),
            try Self.labelledSlot(label, resources: resources, maker: maker, cache: &cache)
        )
        taxes[index] = made
        return made
    }

    /// The item count ("24 items"), per total quantity.
    func itemCount(_ quantity: UInt64) throws(RenderError) -> TextSpan {
        if let made = itemCounts[quantity] { return made }
        let text = try resources.pluralText(CatalogKeys.itemCount, [.unsignedInteger(quantity)])
        let made = maker.arena.span(text, AttributeTable.none)
        if itemCounts.count >= 4096 { itemCounts.removeAll(keepingCapacity: true) }
        itemCounts[quantity] = made
        return made
    }

    func amountFormat(_ currency: Currency, index: Int) throws(RenderError) -> AmountFormat {
        if let made = amounts[index] { return made }
        let formatter: CurrencyFormatter
        do {
            formatter = try CurrencyFormatter(locale: locale, currency: currency)
        } catch {
            throw RenderError(.renderFailed, field: "currencyCode", "\(error)")
        }
        let made = AmountFormat(compiled: formatter.compiled(), icu: formatter)
        if made.compiled == nil { fallbacks.append("\(locale) currency \(currency.code)") }
        amounts[index] = made
        return made
    }

    func dateFormat(zone: ZoneTransitions, index: Int, date: OrderDate) throws(RenderError) -> DateFormat {
        let key = DateKey(zoneAndDate: index << 1 | date.rawValue)
        if let made = dates[key] { return made }
        let formatter = try resources.date(timeZone: zone.identifier, skeleton: date.skeleton)
        let made = DateFormat(compiled: formatter.compiled(zone: zone), icu: formatter)
        if made.compiled == nil { fallbacks.append("\(locale) date \(formatter.pattern)") }
        dates[key] = made
        return made
    }
}
