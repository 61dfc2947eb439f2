import CaffeProtocol
import Foundation
import GrammarAgreement
import Localization
import RichText

/// A confirmation and a receipt rendered from one order.
public struct RenderedOrder: Sendable {
    public var confirmation: Caffe_V1_Confirmation
    public var receipt: Caffe_V1_Receipt

    public init(confirmation: Caffe_V1_Confirmation, receipt: Caffe_V1_Receipt) {
        self.confirmation = confirmation
        self.receipt = receipt
    }
}

/// Renders orders and complication requests on one thread, with that thread's caches: compiled
/// templates and formatters per locale, agreement decisions. Make one per thread from a
/// ``RenderingCore``; a session is not `Sendable` and never locks.
public final class RenderSession {
    public let core: RenderingCore
    private var locales: [String: LocaleResources] = [:]
    private var complicationFormats: [ComplicationFormats.Key: ComplicationFormats] = [:]
    /// Locale tags already checked, so ICU parses each tag once per session, not once per order.
    private var checkedLocales: [String: Bool] = [:]
    var agreementCache = AgreementCache()
    /// Buffers and compiled programs for rendering from bytes to bytes, made on first use.
    private var wireState: WireSession?
    private let notices = AgreementNoticeSink()

    /// The words agreement left as written in the renders since the last call (each text is
    /// rendered once per session and then reused, so a word is reported once per text, not per
    /// order). At most 256 are kept between two calls.
    public func takeAgreementNotices() -> [AgreementNotice] {
        notices.notices.isEmpty ? [] : notices.take()
    }

    /// The wire state, started over when its arena has grown past ``WireSession/arenaLimit`` (the
    /// caches have started over many times, leaving their old texts behind).
    var wire: WireSession {
        if let state = wireState, state.arena.bytesAllocated <= WireSession.arenaLimit { return state }
        let statistics = wireState?.statistics ?? WireStatistics()
        let made = WireSession(core: core)
        made.statistics = statistics
        wireState = made
        return made
    }

    /// Where a rendered list item or order line goes inside a larger string.
    static let placeholder: Unicode.Scalar = "\u{FFFC}"

    init(core: RenderingCore) {
        self.core = core
    }

    /// Checks, prices and renders `order`: its confirmation and receipt in every form.
    ///
    /// - Throws: ``RenderError`` naming the first problem; nothing is rendered then.
    public func render(_ order: Caffe_V1_OrderEvent) throws(RenderError) -> RenderedOrder {
        let priced = try PricedOrder(
            order,
            menu: core.menu,
            defaults: core.defaults,
            isWellFormedLocale: isWellFormedLocale
        )
        return try render(priced)
    }

    /// Renders an order already checked and priced.
    public func render(_ order: PricedOrder) throws(RenderError) -> RenderedOrder {
        let resources = try self.resources(for: order.locale)
        var notes = order.notes
        if let note = resources.fallbackNote { notes.append(note) }
        let lines = try order.lines.map { line throws(RenderError) in
            try resources.orderLine(line, termOfAddress: order.termOfAddress, cache: &agreementCache)
        }
        var confirmation = try confirmation(order, lines: lines, resources: resources)
        confirmation.notes = notes
        var receipt = try receipt(order, lines: lines, resources: resources)
        receipt.notes = notes
        return RenderedOrder(confirmation: confirmation, receipt: receipt)
    }

    func isWellFormedLocale(_ tag: String) -> Bool {
        if let known = checkedLocales[tag] { return known }
        let checked = LocaleTag.isWellFormed(tag)
        if checkedLocales.count >= 4096 { checkedLocales.removeAll(keepingCapacity: true) }
        checkedLocales[tag] = checked
        return checked
    }

    func resources(for locale: String) throws(RenderError) -> LocaleResources {
        if let made = locales[locale] { return made }
        let made = try LocaleResources(locale: locale, core: core, notices: notices)
        if locales.count >= 256 { locales.removeAll(keepingCapacity: true) }
        locales[locale] = made
        return made
    }

    func formats(for key: ComplicationFormats.Key) throws(RenderError) -> ComplicationFormats {
        if let made = complicationFormats[key] { return made }
        let made = try ComplicationFormats(key)
        if complicationFormats.count >= 4096 { complicationFormats.removeAll(keepingCapacity: true) }
        complicationFormats[key] = made
        return made
    }

    /// The list of `documents` as the locale joins them ("a, b, and c"), each keeping its styling.
    func list(_ documents: [RichDocument], resources: LocaleResources) -> RichDocument {
        let pieces = resources.list.pieces(documents.map(\.plainText))
        var nodes: [RichNode] = []
        for piece in pieces {
            switch piece {
            case .literal(let text): nodes.append(.text(text))
            case .item(let index): nodes += documents[index].nodes
            }
        }
        return RichDocument(nodes: nodes)
    }
}

extension Caffe_V1_EventRef {
    @_spi(Benchmarks)
    public init(_ event: Caffe_V1_OrderEvent) {
        self.init()
        sourceID = event.sourceID
        sequence = event.sequence
        orderID = event.orderID
    }
}
