import CICUFloor
@_spi(Benchmarks) import CaffeCore
import CaffeProtocol
import Foundation
import GrammarAgreement
@_spi(Benchmarks) import Localization
import SwiftProtobuf

/// The formatting calls a set of orders needs — every unit and line price, subtotal, tax, tip and
/// total, the tax rate as a percentage, the summary list and each food's ingredient list, the
/// receipt date and the pickup time — made two ways in the same run: through the formats the core
/// compiles (`Localization`'s ``CompiledNumberFormat``, ``CompiledListFormat``,
/// ``CompiledDateFormat``, ICU where one did not compile), writing UTF-8 into a buffer, and from C
/// straight into the ICU objects they were compiled from (the floor), writing UTF-16.
///
/// Every call's compiled output is checked equal to ICU's before anything is timed.
final class FormattingCalls {
    private enum Call {
        case currency(CurrencyFormatter, CompiledNumberFormat?, Money)
        case percent(PercentFormatter, CompiledNumberFormat?, [UInt8])
        /// A list: the items' UTF-8 and their profiles, as the core keeps them per line.
        case list(ListFormatter, CompiledListFormat?, [[UInt8]], [CompiledListFormat.ItemProfile])
        case date(DateFieldFormatter, CompiledDateFormat?, Date)
    }

    let orderCount: Int
    private var calls: [Call] = []
    private var floorCalls: [caffe_icu_call] = []
    /// What one pass writes: UTF-16 units from C, UTF-8 bytes from the compiled formats.
    private(set) var floorUnitsPerPass = 0
    private(set) var coreBytesPerPass = 0
    /// Memory the C calls point into, freed with the workload.
    private var allocations: [UnsafeMutableRawPointer] = []
    private var currencies: [String: (CurrencyFormatter, CompiledNumberFormat?)] = [:]
    private var percents: [String: (PercentFormatter, CompiledNumberFormat?)] = [:]
    private var lists: [String: (ListFormatter, CompiledListFormat?)] = [:]
    private var dates: [String: (DateFieldFormatter, CompiledDateFormat?)] = [:]
    private var zones: [String: ZoneTransitions] = [:]
    private var names: [String: Localizer] = [:]
    private let output = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    private var pieces = [CompiledListFormat.Piece](repeating: .item(0), count: 1024)

    var callsPerOrder: Double { Double(calls.count) / Double(max(orderCount, 1)) }

    /// - Parameter orders: each order priced, beside what the core rendered for it (the summary's
    ///   items are its rendered lines).
    init(orders: [(order: PricedOrder, rendered: RenderedOrder)], core: RenderingCore) throws {
        orderCount = orders.count
        for (order, rendered) in orders {
            let locale = order.locale
            let money = try currency(locale, order.currency)
            for line in order.lines {
                try add(.currency(money.0, money.1, line.unitPrice))
                try add(.currency(money.0, money.1, line.linePrice))
            }
            try add(.currency(money.0, money.1, order.subtotal))
            let percent = try self.percent(locale)
            try add(.percent(percent.0, percent.1, Array(order.store.taxRateText.utf8)))
            try add(.currency(money.0, money.1, order.tax))
            if !order.event.tip.isEmpty { try add(.currency(money.0, money.1, order.tip)) }
            try add(.currency(money.0, money.1, order.total))
            let list = try self.list(locale)
            try add(list: list, rendered.receipt.lines.map(\.description_p.plain))
            var seen: Set<String> = []
            let localizer = try names(locale, core: core)
            for line in order.lines where line.item.category == .food && line.quantity > 0 {
                guard seen.insert(line.item.id).inserted else { continue }
                let ingredients = line.item.ingredientKeys.map {
                    localizer.value($0, table: core.menu.nameTable).map { displayedName($0.value) }
                        ?? (try? localizer.string($0, table: core.menu.nameTable).text) ?? $0
                }
                try add(list: list, ingredients)
            }
            let skeletons = RenderSession.OrderSkeleton.self
            let placed = try date(locale, order.timeZone, skeletons.placedAt)
            try add(.date(placed.0, placed.1, order.event.placedAt.date))
            if order.event.hasPickupAt {
                let pickup = try date(locale, order.timeZone, skeletons.pickup)
                try add(.date(pickup.0, pickup.1, order.event.pickupAt.date))
            }
        }
    }

    deinit {
        for allocation in allocations { allocation.deallocate() }
        output.deallocate()
    }

    /// Makes every call `passes` times through the compiled formats; the nanoseconds taken and the
    /// bytes written.
    func runCore(passes: Int) -> (nanoseconds: Double, bytes: Int) {
        var bytes = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<passes {
            for index in calls.indices { bytes &+= core(index) }
        }
        return (Double(DispatchTime.now().uptimeNanoseconds - start), bytes)
    }

    /// The same calls from C; nil if ICU reported an error.
    func runFloor(passes: Int) -> (nanoseconds: Double, units: Int)? {
        var units: UInt64 = 0
        let elapsed = floorCalls.withUnsafeBufferPointer { buffer in
            caffe_icu_floor_run(buffer.baseAddress, buffer.count, passes, &units)
        }
        return elapsed < 0 ? nil : (Double(elapsed), Int(units))
    }

    /// One call as the core makes it, into the output buffer; the bytes written.
    private func core(_ index: Int) -> Int {
        switch calls[index] {
        case .currency(let formatter, let compiled, let amount):
            if let compiled {
                return compiled.write(minorUnits: amount.minorUnits, scale: amount.fractionDigits, to: output)
            }
            return copy(formatter.string(decimal: amount.wireText))
        case .percent(let formatter, let compiled, let rate):
            if let compiled, let written = rate.withUnsafeBytes({ compiled.write(decimal: $0, to: output) }) {
                return written
            }
            return copy(formatter.string(decimal: String(decoding: rate, as: UTF8.self)))
        case .list(let formatter, let compiled, let items, let profiles):
            guard let compiled else { return copy(formatter.string(items.map { String(decoding: $0, as: UTF8.self) })) }
            return layout(compiled, items, profiles)
        case .date(let formatter, let compiled, let date):
            if let compiled, let written = compiled.write(date, to: output) { return written.bytes }
            return copy(formatter.string(date))
        }
    }

    /// The list laid out and written: literals and items copied in order.
    private func layout(_ list: CompiledListFormat, _ items: [[UInt8]], _ profiles: [CompiledListFormat.ItemProfile])
        -> Int
    {
        let count = profiles.withUnsafeBufferPointer { profileBuffer in
            pieces.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return list.layout(profileBuffer, into: base)
            }
        }
        var written = 0
        for index in 0..<count {
            switch pieces[index] {
            case .literal(let piece): written += list.table.copy(piece, to: output + written)
            case .item(let item):
                items[item].withUnsafeBufferPointer { source in
                    if let base = source.baseAddress { (output + written).update(from: base, count: source.count) }
                }
                written += items[item].count
            }
        }
        return written
    }

    private func copy(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { source in
            if let base = source.baseAddress { output.update(from: base, count: source.count) }
            return source.count
        }
    }

    /// Adds a call after checking the compiled output is ICU's.
    private func add(_ call: Call) throws {
        let expected: String
        switch call {
        case .currency(let formatter, _, let amount): expected = formatter.string(decimal: amount.wireText)
        case .percent(let formatter, _, let rate):
            expected = formatter.string(decimal: String(decoding: rate, as: UTF8.self))
        case .list(let formatter, _, let items, _):
            expected = formatter.string(items.map { String(decoding: $0, as: UTF8.self) })
        case .date(let formatter, _, let date): expected = formatter.string(date)
        }
        calls.append(call)
        let written = core(calls.count - 1)
        guard String(decoding: UnsafeBufferPointer(start: output, count: written), as: UTF8.self) == expected else {
            throw CatalogBenchmark.Failure(
                description: "a compiled format wrote something else than ICU's '\(expected)'"
            )
        }
        coreBytesPerPass += written
        floorUnitsPerPass += expected.utf16.count
        var floor = caffe_icu_call()
        switch call {
        case .currency(let formatter, _, let amount):
            floor = decimalCall(formatter.icuHandle, amount.wireText)
        case .percent(let formatter, _, let text):
            floor = decimalCall(formatter.icuHandle, String(decoding: text, as: UTF8.self))
        case .list(let formatter, _, let items, _):
            floor.kind = caffe_icu_call_list
            floor.formatter = formatter.icuHandle
            let pointers = UnsafeMutablePointer<UnsafePointer<UInt16>?>.allocate(capacity: items.count)
            let lengths = UnsafeMutablePointer<Int32>.allocate(capacity: items.count)
            allocations += [UnsafeMutableRawPointer(pointers), UnsafeMutableRawPointer(lengths)]
            for (index, item) in items.enumerated() {
                let units = Array(String(decoding: item, as: UTF8.self).utf16)
                let copy = UnsafeMutablePointer<UInt16>.allocate(capacity: max(units.count, 1))
                copy.initialize(from: units, count: units.count)
                allocations.append(UnsafeMutableRawPointer(copy))
                pointers[index] = UnsafePointer(copy)
                lengths[index] = Int32(units.count)
            }
            floor.items = UnsafePointer(pointers)
            floor.item_lengths = UnsafePointer(lengths)
            floor.item_count = Int32(items.count)
        case .date(let formatter, _, let date):
            floor.kind = caffe_icu_call_date
            floor.formatter = formatter.icuHandle
            floor.milliseconds = date.timeIntervalSince1970 * 1000
        }
        floorCalls.append(floor)
    }

    private func add(list: (ListFormatter, CompiledListFormat?), _ items: [String]) throws {
        let profiles = items.map { list.1?.profile($0) ?? .plain }
        try add(.list(list.0, list.1, items.map { Array($0.utf8) }, profiles))
    }

    private func decimalCall(_ formatter: UnsafeRawPointer, _ text: String) -> caffe_icu_call {
        var call = caffe_icu_call()
        call.kind = caffe_icu_call_decimal
        call.formatter = formatter
        (call.decimal, call.decimal_length) = cString(text)
        return call
    }

    private func cString(_ text: String) -> (UnsafePointer<CChar>, Int32) {
        let bytes = Array(text.utf8)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
        copy[bytes.count] = 0
        allocations.append(UnsafeMutableRawPointer(copy))
        return (UnsafePointer(copy), Int32(bytes.count))
    }

    private func currency(_ locale: String, _ currency: Currency) throws -> (CurrencyFormatter, CompiledNumberFormat?) {
        let key = locale + "/" + currency.code
        if let made = currencies[key] { return made }
        let formatter = try CurrencyFormatter(locale: locale, currency: currency)
        let made = (formatter, formatter.compiled())
        currencies[key] = made
        return made
    }

    private func percent(_ locale: String) throws -> (PercentFormatter, CompiledNumberFormat?) {
        if let made = percents[locale] { return made }
        let formatter = try PercentFormatter(locale: locale)
        let made = (formatter, formatter.compiled())
        percents[locale] = made
        return made
    }

    private func list(_ locale: String) throws -> (ListFormatter, CompiledListFormat?) {
        if let made = lists[locale] { return made }
        let formatter = try ListFormatter(locale: locale)
        let made = (formatter, formatter.compiled())
        lists[locale] = made
        return made
    }

    private func date(_ locale: String, _ timeZone: String, _ skeleton: String) throws -> (
        DateFieldFormatter, CompiledDateFormat?
    ) {
        let key = locale + "/" + timeZone + "/" + skeleton
        if let made = dates[key] { return made }
        let formatter = try DateFieldFormatter(locale: locale, timeZone: timeZone, skeleton: skeleton)
        let zone = try zones[timeZone] ?? ZoneTransitions(identifier: timeZone)
        zones[timeZone] = zone
        let made = (formatter, formatter.compiled(zone: zone))
        dates[key] = made
        return made
    }

    private func names(_ locale: String, core: RenderingCore) throws -> Localizer {
        if let made = names[locale] { return made }
        let made = try Localizer(catalog: core.catalog, locale: locale)
        names[locale] = made
        return made
    }
}
