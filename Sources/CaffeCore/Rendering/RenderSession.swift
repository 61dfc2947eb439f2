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
    /// Resources by the tag orders use (a front to ``localeCache``, cleared when it evicts).
    private var locales: [String: LocaleResources] = [:]
    /// Compiled locales by formatting key, bounded in bytes.
    let localeCache: LocaleCache
    /// What to do with an order whose locale is not compiled (the worker's pipeline thread defers).
    public var newLocales = NewLocalePolicy.compile
    /// Set by ``resources(for:)`` when it approximated: the key asked for and the one used.
    private var approximation: (asked: String, used: String)?
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
        // Programs hold spans of the old arena and attribute table: they go with it.
        localeCache.dropPrograms()
        let made = WireSession(core: core)
        made.statistics = statistics
        wireState = made
        return made
    }

    /// Where a rendered list item or order line goes inside a larger string.
    static let placeholder: Unicode.Scalar = "\u{FFFC}"

    /// The default bound on a session's compiled locales: 16 MiB (the worker's
    /// `render.locale_cache_bytes` default is this one value).
    public static let defaultLocaleCacheBytes = 16 << 20

    init(core: RenderingCore, localeCacheBytes: Int = RenderSession.defaultLocaleCacheBytes) {
        self.core = core
        localeCache = LocaleCache(bound: localeCacheBytes)
        localeCache.pinned = localeCache.key(for: core.defaults.locale)
    }

    /// What this session's locale cache has done.
    public var localeStatistics: LocaleCacheStatistics { localeCache.statistics }

    /// Compiles `locales` now (resources, and the wire program), so that orders in them never wait
    /// for a compilation; the worker prepares the catalog's localizations and the default locale.
    public func prepare(locales: [String]) {
        let policy = newLocales
        newLocales = .compile
        defer { newLocales = policy }
        for locale in locales where LocaleTag.isWellFormed(locale) {
            _ = try? resources(for: locale)
            var tag = locale
            tag.withUTF8 { _ = wire.program(UnsafeRawBufferPointer($0), session: self) }
        }
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
        approximation = nil
        let resources = try self.resources(for: order.locale)
        var notes = order.notes
        if let note = resources.fallbackNote { notes.append(note) }
        if let approximation {
            notes.append(
                .note(
                    "locale-approximated",
                    "formatted as \(approximation.used) while \(approximation.asked) is prepared"
                )
            )
        }
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

    /// The resources of `locale`: compiled before (by its formatting key), or compiled now, or —
    /// as ``newLocales`` says — refused or approximated.
    func resources(for locale: String) throws(RenderError) -> LocaleResources {
        if let made = locales[locale] {
            made.lastUse = localeCache.tick()
            return made
        }
        let key = localeCache.key(for: locale)
        let made: LocaleResources
        if let compiled = localeCache.resources(key) {
            made = compiled
        } else {
            switch newLocales {
            case .compile:
                // Lexicons are the core's, shared by every session and locale: loaded before the
                // compilation is measured, so they are not counted as this locale's bytes.
                for localization in core.catalog.fallbackChain(for: key) { _ = try? core.engine(for: localization) }
                made = try localeCache.compile(key) { () throws(RenderError) in
                    try LocaleResources(locale: key, core: core, notices: notices)
                }
                forgetEvicted()
            case .defer:
                // The message is the key: the caller may count deferrals per locale.
                throw RenderError(.localeNotReady, field: "customer.locale", key)
            case .approximate:
                let nearest = try nearestCompiled(to: key)
                approximation = (key, nearest.locale)
                nearest.lastUse = localeCache.tick()
                return nearest
            }
        }
        made.lastUse = localeCache.tick()
        if locales.count >= 256 { locales.removeAll(keepingCapacity: true) }
        locales[locale] = made
        return made
    }

    /// The compiled locale nearest to `key`: its closest CLDR ancestor compiled, else the default
    /// locale (compiled now if it must be: the approximation of last resort).
    private func nearestCompiled(to key: String) throws(RenderError) -> LocaleResources {
        for ancestor in LocalizationMatcher.ancestry(of: key).dropFirst() {
            if let compiled = localeCache.resources(localeCache.key(for: ancestor)) { return compiled }
        }
        let fallback = localeCache.key(for: core.defaults.locale)
        if let compiled = localeCache.resources(fallback) { return compiled }
        let made = try localeCache.compile(fallback) { () throws(RenderError) in
            try LocaleResources(locale: fallback, core: core, notices: notices)
        }
        forgetEvicted()
        return made
    }

    /// After the cache evicted, drops every other reference to what it evicted.
    func forgetEvicted() {
        guard localeCache.takeEvicted() else { return }
        locales.removeAll(keepingCapacity: true)
        wireState?.forgetPrograms(keeping: localeCache)
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
