import CaffeProtocol
import GrammarAgreement
import Localization
import SwiftProtobuf

/// Where an order's outputs landed in the session's output buffer, and what the caller needs to
/// address them.
struct WireOrder {
    var confirmation: Range<Int>
    var receipt: Range<Int>
    var program: OrderProgram
    var store: Menu.Store
}

extension WireSession {
    private typealias Fragment = ReceiptHTML.Fragment

    /// Checks, prices and writes `order` (its frame is `body`) as a `Confirmation` then a `Receipt`
    /// into ``output``; `nil` when anything is out of the ordinary — a missing or unknown field, a
    /// default to apply, an amount to refuse, a locale whose texts do not compile — and the
    /// message path must render it (and, if the order is wrong, say why).
    func writeOrder(_ order: OrderEventView, body: UnsafeRawBufferPointer, session: RenderSession) -> WireOrder? {
        guard let frame = body.baseAddress else { return nil }
        func bytes(_ slice: WireReader.Slice) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: frame + Int(slice.offset), count: Int(slice.count))
        }
        let defaults = session.core.defaults
        guard !order.orderID.isEmpty, let placedAt = order.placedAt, order.hasCustomer, !order.locale.isEmpty,
            !order.timeZone.isEmpty, !order.currencyCode.isEmpty, !order.storeID.isEmpty, !orderLines.isEmpty,
            orderLines.count <= defaults.maximumLines,
            let program = program(bytes(order.locale), session: session),
            let (zone, zoneIndex) = zone(bytes(order.timeZone)),
            let currencyIndex = menu.currency(bytes(order.currencyCode)),
            let storeIndex = menu.store(bytes(order.storeID)),
            program.list != nil
        else { return nil }
        let currency = menu.currencies[currencyIndex]
        let store = menu.menu.stores[storeIndex]

        // Price, as PricedOrder does; anything it would refuse goes the message way.
        priced.removeAll(keepingCapacity: true)
        var subtotal = Money.zero(fractionDigits: currency.fractionDigits)
        var quantity: UInt64 = 0
        for lineIndex in 0..<orderLines.count {
            let line = orderLines[lineIndex]
            guard let item = menu.item(bytes(line.itemID)), let size = menu.size(bytes(line.size)),
                item < 1 << 16, size < 1 << 8,
                let unitPrice = menu.price(item: item, size: size, currency: currencyIndex),
                line.quantity <= UInt64(defaults.maximumQuantity),
                let linePrice = unitPrice.multiplied(by: Int64(line.quantity)),
                let sum = subtotal.adding(linePrice)
            else { return nil }
            subtotal = sum
            quantity += line.quantity
            priced.append(
                PricedLine(
                    item: item,
                    size: size,
                    quantity: UInt32(line.quantity),
                    unitPrice: unitPrice,
                    linePrice: linePrice
                )
            )
        }
        let tax = subtotal.multiplied(byRate: store.parsedTaxRate)
        guard let tip = tip(bytes(order.tip), fractionDigits: currency.fractionDigits),
            let total = subtotal.adding(tax)?.adding(tip)
        else { return nil }
        let term = (0...3).contains(order.termOfAddress) ? Int(order.termOfAddress) : 0

        // Room for every per-order text: amounts, dates, the name, the number, list literals.
        scratch.reset(capacity: 8192 + 4 * body.count + 256 * orderLines.count)
        output.removeAll()
        spans.removeAll(keepingCapacity: true)
        do {
            // The session's agreement cache, moved out so a miss mutates it in place (a copy
            // would copy every cached result).
            var cache = AgreementCache(capacity: 1)
            swap(&cache, &session.agreementCache)
            defer { swap(&cache, &session.agreementCache) }
            let confirmationStart = output.count
            guard
                try writeConfirmation(
                    order,
                    bytes: bytes,
                    program: program,
                    zone: zone,
                    zoneIndex: zoneIndex,
                    term: term,
                    quantity: quantity,
                    cache: &cache
                )
            else { return nil }
            let receiptStart = output.count
            let totals = WireTotals(subtotal: subtotal, tax: tax, tip: tip, total: total, hasTip: !order.tip.isEmpty)
            guard
                try writeReceipt(
                    order,
                    bytes: bytes,
                    program: program,
                    zone: zone,
                    zoneIndex: zoneIndex,
                    currency: currency,
                    currencyIndex: currencyIndex,
                    store: store,
                    storeIndex: storeIndex,
                    term: term,
                    totals: totals,
                    placedAt: placedAt,
                    cache: &cache
                )
            else { return nil }
            return WireOrder(
                confirmation: confirmationStart..<receiptStart,
                receipt: receiptStart..<output.count,
                program: program,
                store: store
            )
        } catch {
            return nil
        }
    }

    /// An order's amounts.
    struct WireTotals {
        var subtotal: Money
        var tax: Money
        var tip: Money
        var total: Money
        /// Whether the order has a tip line (its field was not empty).
        var hasTip: Bool
    }

    /// The program of the customer locale `tag`: the one its formatting key has (made the first
    /// time, as the session's ``RenderSession/newLocales`` allows), `nil` — remembered — when the
    /// tag is not well formed or the locale's texts do not compile for the wire, and `nil` — not
    /// remembered — when the locale is not compiled and may not be now.
    func program(_ tag: UnsafeRawBufferPointer, session: RenderSession) -> OrderProgram? {
        if let known = programs.value(tag) {
            known?.resources.lastUse = session.localeCache.tick()
            return known
        }
        let locale = String(decoding: tag, as: UTF8.self)
        guard session.isWellFormedLocale(locale) else {
            programs.insert(nil, for: tag)
            return nil
        }
        let cache = session.localeCache
        let key = cache.key(for: locale)
        if let made = cache.program(key) {
            programs.insert(made, for: tag)
            return made
        }
        // Compiled now only as the session allows; an approximation is rendered the message way.
        guard let resources = try? session.resources(for: locale), resources.locale == key else { return nil }
        let made = cache.compileProgram(key) { try? OrderProgram(locale: key, resources: resources, maker: maker) }
        if let made {
            if orderPrograms.count >= 1024 { orderPrograms.removeFirst(512) }
            orderPrograms.append(made)
        }
        session.forgetEvicted()
        programs.insert(made, for: tag)
        return made
    }

    /// Forgets every program by tag, and those `cache` no longer holds (it evicted their locales).
    func forgetPrograms(keeping cache: LocaleCache) {
        programs.removeAll()
        orderPrograms.removeAll { cache.program($0.locale) == nil }
    }

    /// A tip in minor units, read as `DecimalAmount.parse` reads it, or `nil` for anything it
    /// refuses (and for a negative zero, an empty field aside, which the message path handles).
    func tip(_ text: UnsafeRawBufferPointer, fractionDigits: Int) -> Money? {
        guard !text.isEmpty else { return .zero(fractionDigits: fractionDigits) }
        guard let maximum = maximumTips[fractionDigits] else { return nil }
        var digits: Int64 = 0
        var count = 0
        var fraction = 0
        var seenPoint = false
        for index in 0..<text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            count += 1
            if seenPoint { fraction += 1 }
            guard count <= DecimalAmount.maximumDigits, fraction <= fractionDigits else { return nil }
            digits = digits * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        guard count > fraction, !seenPoint || fraction > 0 else { return nil }
        var minorUnits = digits
        for _ in fraction..<fractionDigits {
            let (scaled, overflow) = minorUnits.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            minorUnits = scaled
        }
        guard minorUnits <= maximum else { return nil }
        return Money(minorUnits: minorUnits, fractionDigits: fractionDigits)
    }

    // MARK: Confirmation

    private func writeConfirmation(
        _ order: OrderEventView,
        bytes: (WireReader.Slice) -> UnsafeRawBufferPointer,
        program: OrderProgram,
        zone: ZoneTransitions,
        zoneIndex: Int,
        term: Int,
        quantity: UInt64,
        cache: inout AgreementCache
    ) throws(RenderError) -> Bool {
        // Greeting.
        let greetingStart = spans.count
        let name = bytes(order.name)
        if name.isEmpty {
            appendSpans(try program.welcome(term: term, cache: &cache))
        } else if !program.greetingHasAgreement {
            guard fill(try program.greetingSlot(term: term).spans, with: scratch.copy(name, attribute: 0)) else {
                return false
            }
        } else {
            appendSpans(try program.greeting(name: name, term: term, cache: &cache))
        }
        let greetingEnd = spans.count

        // The lines, then the list of them alone and inside the summary sentence.
        guard let list = program.list else { return false }
        lineEntries.removeAll(keepingCapacity: true)
        profiles.removeAll(keepingCapacity: true)
        for lineIndex in 0..<priced.count {
            let line = priced[lineIndex]
            let entry = try program.line(Self.lineKey(line, term: term), request(line, term: term), cache: &cache)
            lineEntries.append(entry)
            profiles.append(entry.profile)
        }
        listPieces.removeAll(keepingCapacity: true)
        let pieceCount = CompiledListFormat.maximumPieces(items: profiles.count)
        for _ in 0..<pieceCount { listPieces.append(.item(0)) }
        let laidOut = profiles.withUnsafeBufferPointer { profileBuffer in
            listPieces.withUnsafeMutableBufferPointer { pieces -> Int in
                guard let base = pieces.baseAddress else { return 0 }
                return list.layout(profileBuffer, into: base)
            }
        }
        let summaryStart = spans.count
        for index in 0..<laidOut {
            switch listPieces[index] {
            case .literal(let piece):
                spans.append(
                    TextSpan(start: list.table.base + Int(piece.offset), count: Int(piece.count), attribute: 0)
                )
            case .item(let item): appendSpans(lineEntries[item].spans)
            }
        }
        let summaryEnd = spans.count

        // The item count and the pickup time.
        let itemCount = try program.itemCount(quantity)
        var pickupRange = 0..<0
        if let pickupAt = order.pickupAt {
            let format = try program.dateFormat(zone: zone, index: zoneIndex, date: .pickup)
            let start = spans.count
            guard fill(try program.pickup(term: term).spans, with: date(pickupAt, format)) else { return false }
            pickupRange = start..<spans.count
        }

        // The whole text: greeting, sentence, count, pickup, a line each.
        let textStart = spans.count
        appendCopy(greetingStart..<greetingEnd)
        spans.append(newline)
        let sentence = try program.sentence(term: term, cache: &cache)
        appendSpans(sentence.prefix)
        for index in 0..<laidOut {
            switch listPieces[index] {
            case .literal(let piece):
                spans.append(
                    TextSpan(
                        start: list.table.base + Int(piece.offset),
                        count: Int(piece.count),
                        attribute: sentence.literalAttribute
                    )
                )
            case .item(let item): appendSpans(lineEntries[item].composed)
            }
        }
        appendSpans(sentence.suffix)
        spans.append(newline)
        spans.append(itemCount)
        if !pickupRange.isEmpty {
            spans.append(newline)
            appendCopy(pickupRange)
        }
        let textEnd = spans.count

        writeReference(order, bytes: bytes)
        output.appendString(2, program.localization)
        spans.withUnsafeBufferPointer { all in
            writer.write(3, spans: UnsafeBufferPointer(rebasing: all[greetingStart..<greetingEnd]), into: output)
            writer.write(4, spans: UnsafeBufferPointer(rebasing: all[summaryStart..<summaryEnd]), into: output)
            withUnsafePointer(to: itemCount) { count in
                writer.write(5, spans: UnsafeBufferPointer(start: count, count: 1), into: output)
            }
            if !pickupRange.isEmpty {
                writer.write(6, spans: UnsafeBufferPointer(rebasing: all[pickupRange]), into: output)
            }
            writer.write(7, spans: UnsafeBufferPointer(rebasing: all[textStart..<textEnd]), into: output)
        }
        writeNotes(8, program: program)
        return true
    }

    // MARK: Receipt

    private func writeReceipt(
        _ order: OrderEventView,
        bytes: (WireReader.Slice) -> UnsafeRawBufferPointer,
        program: OrderProgram,
        zone: ZoneTransitions,
        zoneIndex: Int,
        currency: Currency,
        currencyIndex: Int,
        store: Menu.Store,
        storeIndex: Int,
        term: Int,
        totals: WireTotals,
        placedAt: WireTimestamp,
        cache: inout AgreementCache
    ) throws(RenderError) -> Bool {
        let amounts = try program.amountFormat(currency, index: currencyIndex)
        let placedFormat = try program.dateFormat(zone: zone, index: zoneIndex, date: .placedAt)
        guard let placed = date(placedAt, placedFormat), let number = scratch.copy(bytes(order.orderID), attribute: 0)
        else { return false }
        let tax = try program.tax(store, index: storeIndex, cache: &cache)

        html.removeAll()
        html.append(program.htmlHead)
        appendHTML(program.orderNumber.html, value: number)
        html.append(Fragment.placedAtOpen)
        html.write(maximum: ReceiptHTML.timestampLength) { output in
            ReceiptHTML.writeTimestamp(
                Google_Protobuf_Timestamp(seconds: placedAt.seconds, nanos: placedAt.nanos).date,
                to: output
            )
        }
        html.append(Fragment.placedAtText)
        appendEscaped(placed)
        html.append(Fragment.placedAtClose)

        // Text: store, slogan, number, date, then each line.
        let textStart = spans.count
        appendSpans(program.storeHeader.spans)
        spans.append(newline)
        appendSpans(program.slogan.spans)
        spans.append(newline)
        guard fill(program.orderNumber.spans, with: number) else { return false }
        spans.append(newline)
        spans.append(placed)

        writeReference(order, bytes: bytes)
        output.appendString(2, program.localization)
        output.appendString(3, bytes(order.currencyCode))
        html.append(Fragment.linesOpen)
        for lineIndex in 0..<priced.count {
            let line = priced[lineIndex]
            let entry = try program.receiptLine(
                OrderProgram.ReceiptLineKey(line: Self.lineKey(line, term: term), currency: currencyIndex),
                request(line, term: term),
                currency: currency,
                cache: &cache
            )
            spans.append(newline)
            appendSpans(entry.spans)
            html.append(entry.htmlRow)
            let message = output.beginMessage(4)
            output.append(entry.message)
            output.endMessage(message)
        }
        html.append(Fragment.tableClose)
        html.append(Fragment.totalsOpen)
        func total(_ label: OrderProgram.Prepared, _ slot: OrderProgram.Slot, _ value: Money, isTotal: Bool) -> Bool {
            guard let amount = amount(value, amounts) else { return false }
            spans.append(newline)
            guard fill(slot.spans, with: amount) else { return false }
            html.append(isTotal ? Fragment.totalRow : Fragment.row)
            html.append(Fragment.labelOpen)
            html.append(label.html)
            html.append(Fragment.amountOpen)
            appendEscaped(amount)
            html.append(Fragment.rowClose)
            return true
        }
        guard total(program.subtotalLabel, program.subtotal, totals.subtotal, isTotal: false),
            total(tax.label, tax.slot, totals.tax, isTotal: false),
            !totals.hasTip || total(program.tipLabel, program.tip, totals.tip, isTotal: false),
            total(program.totalLabel, program.total, totals.total, isTotal: true)
        else { return false }
        html.append(Fragment.tableClose)

        // Each food's ingredients once, in the order the lines name them.
        for index in 0..<priced.count where menu.isFood[priced[index].item] && priced[index].quantity > 0 {
            let line = priced[index]
            guard !isListed(line.item, before: index) else { continue }
            let sentence = try program.ingredients(menu.menu.items[line.item], index: line.item, cache: &cache)
            spans.append(newline)
            appendSpans(sentence.spans)
            html.append(Fragment.ingredientsOpen)
            html.append(sentence.html)
            html.append(Fragment.paragraphClose)
        }
        spans.append(newline)
        appendSpans(program.thanks.spans)
        html.append(program.htmlTail)
        let textEnd = spans.count

        writeWireText(5, totals.subtotal)
        writeWireText(6, totals.tax)
        output.appendString(7, store.taxRateText)
        writeWireText(8, totals.tip)
        writeWireText(9, totals.total)
        spans.withUnsafeBufferPointer { all in
            writer.write(
                10,
                spans: UnsafeBufferPointer(rebasing: all[textStart..<textEnd]),
                html: html.bytes(from: 0),
                into: output
            )
        }
        writeNotes(11, program: program)
        return true
    }

    // MARK: Pieces

    /// What a priced line's texts are made from.
    private func request(_ line: PricedLine, term: Int) -> OrderProgram.LineRequest {
        OrderProgram.LineRequest(
            line: PricedOrder.Line(
                item: menu.menu.items[line.item],
                size: menu.menu.sizes[line.size],
                quantity: line.quantity,
                unitPrice: line.unitPrice,
                linePrice: line.linePrice
            ),
            term: term
        )
    }

    /// Key of a line's texts: quantity, size, item and term of address.
    static func lineKey(_ line: PricedLine, term: Int) -> UInt64 {
        UInt64(line.quantity) | UInt64(line.size) << 32 | UInt64(line.item) << 40 | UInt64(term) << 56
    }

    /// Whether a line before `index` lists the food `item` (its ingredients are on the receipt).
    private func isListed(_ item: Int, before index: Int) -> Bool {
        for earlier in 0..<index where priced[earlier].item == item && priced[earlier].quantity > 0 { return true }
        return false
    }

    /// Appends `source` to ``spans``.
    @inline(__always)
    func appendSpans(_ source: [TextSpan]) {
        for index in 0..<source.count { spans.append(source[index]) }
    }

    /// Appends `slot`'s spans with `value` in each hole, taking the hole's attributes.
    private func fill(_ slot: [TextSpan], with value: TextSpan?) -> Bool {
        guard let value, value.count > 0 else { return false }
        for index in 0..<slot.count {
            let span = slot[index]
            if span.isHole {
                spans.append(TextSpan(start: value.start, count: Int(value.count), attribute: span.attribute))
            } else {
                spans.append(span)
            }
        }
        return true
    }

    /// Appends copies of the spans in `range` (already in ``spans``).
    private func appendCopy(_ range: Range<Int>) {
        for index in range { spans.append(spans[index]) }
    }

    /// HTML pieces with `value`, escaped, between them.
    private func appendHTML(_ pieces: [UnsafeRawBufferPointer], value: TextSpan) {
        for index in 0..<pieces.count {
            if index > 0 { appendEscaped(value) }
            html.append(pieces[index])
        }
    }

    /// A span's text escaped for HTML, as `HTMLRenderer.escape` escapes it.
    private func appendEscaped(_ span: TextSpan) {
        guard let start = span.start else { return }
        var clean = 0
        for index in 0..<Int(span.count) {
            let replacement: StaticString
            switch start[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            default: continue
            }
            html.append(start + clean, count: index - clean)
            html.append(replacement.utf8Start, count: replacement.utf8CodeUnitCount)
            clean = index + 1
        }
        html.append(start + clean, count: Int(span.count) - clean)
    }

    private func writeReference(_ order: OrderEventView, bytes: (WireReader.Slice) -> UnsafeRawBufferPointer) {
        let reference = output.beginMessage(1)
        output.appendString(1, bytes(order.sourceID))
        output.appendUInt64(2, order.sequence)
        output.appendString(3, bytes(order.orderID))
        output.endMessage(reference)
    }

    private func writeWireText(_ number: Int, _ amount: Money) {
        output.appendKey(number, wireType: 2)
        let lengthAt = output.count
        output.append(0)
        output.write(maximum: Money.maximumWireTextLength) { amount.writeWireText(to: $0) }
        output.endMessage(lengthAt)
    }

    private func writeNotes(_ number: Int, program: OrderProgram) {
        guard !program.fallbackNote.isEmpty else { return }
        let note = output.beginMessage(number)
        output.append(program.fallbackNote)
        output.endMessage(note)
    }
}
