import CICUFloor
@_spi(Benchmarks) import CaffeCore
import CaffeProtocol
import Foundation
@_spi(Benchmarks) import Localization
import SwiftProtobuf

/// The formatting calls a set of orders needs — every unit and line price, subtotal, tax, tip and
/// total, the tax rate as a percentage, the summary list and each food's ingredient list, the
/// receipt date and the pickup time — made two ways in the same run: through the core's formatters
/// (`Localization`, from Swift) and from C straight into the same ICU objects (the floor).
final class FormattingCalls {
    private enum Call {
        case currency(CurrencyFormatter, String)
        case percent(PercentFormatter, String)
        /// The summary: the core splices styled lines into the list's pieces.
        case listPieces(ListFormatter, [String])
        /// An ingredient list, as text.
        case listText(ListFormatter, [String])
        case date(DateFieldFormatter, Date)
    }

    let orderCount: Int
    private var calls: [Call] = []
    private var floorCalls: [caffe_icu_call] = []
    /// Memory the C calls point into, freed with the workload.
    private var allocations: [UnsafeMutableRawPointer] = []
    private var currencies: [String: CurrencyFormatter] = [:]
    private var percents: [String: PercentFormatter] = [:]
    private var lists: [String: ListFormatter] = [:]
    private var dates: [String: DateFieldFormatter] = [:]
    private var names: [String: Localizer] = [:]

    var callsPerOrder: Double { Double(calls.count) / Double(max(orderCount, 1)) }

    /// - Parameter orders: each order priced, beside what the core rendered for it (the summary's
    ///   items are its rendered lines).
    init(orders: [(order: PricedOrder, rendered: RenderedOrder)], core: RenderingCore) throws {
        orderCount = orders.count
        for (order, rendered) in orders {
            let locale = order.locale
            let money = try currency(locale, order.currency)
            for line in order.lines {
                add(.currency(money, line.unitPrice.wireText))
                add(.currency(money, line.linePrice.wireText))
            }
            add(.currency(money, order.subtotal.wireText))
            add(.percent(try percent(locale), order.store.taxRateText))
            add(.currency(money, order.tax.wireText))
            if !order.event.tip.isEmpty { add(.currency(money, order.tip.wireText)) }
            add(.currency(money, order.total.wireText))
            let list = try self.list(locale)
            add(.listPieces(list, rendered.receipt.lines.map(\.description_p.plain)))
            var seen: Set<String> = []
            let localizer = try names(locale, core: core)
            for line in order.lines where line.item.category == .food && line.quantity > 0 {
                guard seen.insert(line.item.id).inserted else { continue }
                let ingredients = line.item.ingredientKeys.map {
                    (try? localizer.string($0, table: core.menu.nameTable).text) ?? $0
                }
                add(.listText(list, ingredients))
            }
            let skeletons = RenderSession.OrderSkeleton.self
            add(.date(try date(locale, order.timeZone, skeletons.placedAt), order.event.placedAt.date))
            if order.event.hasPickupAt {
                add(.date(try date(locale, order.timeZone, skeletons.pickup), order.event.pickupAt.date))
            }
        }
    }

    deinit {
        for allocation in allocations { allocation.deallocate() }
    }

    /// Makes every call `passes` times through the core's formatters; the nanoseconds taken and
    /// the UTF-16 units produced.
    func runCore(passes: Int) -> (nanoseconds: Double, units: Int) {
        var units = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<passes {
            for call in calls {
                switch call {
                case .currency(let formatter, let amount): units &+= formatter.string(decimal: amount).utf16.count
                case .percent(let formatter, let rate): units &+= formatter.string(decimal: rate).utf16.count
                case .listPieces(let formatter, let items):
                    for piece in formatter.pieces(items) {
                        switch piece {
                        case .literal(let text): units &+= text.utf16.count
                        case .item(let index): units &+= items[index].utf16.count
                        }
                    }
                case .listText(let formatter, let items): units &+= formatter.string(items).utf16.count
                case .date(let formatter, let date): units &+= formatter.string(date).utf16.count
                }
            }
        }
        return (Double(DispatchTime.now().uptimeNanoseconds - start), units)
    }

    /// The same calls from C; nil if ICU reported an error.
    func runFloor(passes: Int) -> (nanoseconds: Double, units: Int)? {
        var units: UInt64 = 0
        let elapsed = floorCalls.withUnsafeBufferPointer { buffer in
            caffe_icu_floor_run(buffer.baseAddress, buffer.count, passes, &units)
        }
        return elapsed < 0 ? nil : (Double(elapsed), Int(units))
    }

    private func add(_ call: Call) {
        calls.append(call)
        var floor = caffe_icu_call()
        switch call {
        case .currency(let formatter, let text):
            floor = decimalCall(formatter.icuHandle, text)
        case .percent(let formatter, let text):
            floor = decimalCall(formatter.icuHandle, text)
        case .listPieces(let formatter, let items), .listText(let formatter, let items):
            floor.kind = caffe_icu_call_list
            floor.formatter = formatter.icuHandle
            let pointers = UnsafeMutablePointer<UnsafePointer<UInt16>?>.allocate(capacity: items.count)
            let lengths = UnsafeMutablePointer<Int32>.allocate(capacity: items.count)
            allocations += [UnsafeMutableRawPointer(pointers), UnsafeMutableRawPointer(lengths)]
            for (index, text) in items.enumerated() {
                let units = Array(text.utf16)
                let copy = UnsafeMutablePointer<UInt16>.allocate(capacity: max(units.count, 1))
                copy.initialize(from: units, count: units.count)
                allocations.append(UnsafeMutableRawPointer(copy))
                pointers[index] = UnsafePointer(copy)
                lengths[index] = Int32(units.count)
            }
            floor.items = UnsafePointer(pointers)
            floor.item_lengths = UnsafePointer(lengths)
            floor.item_count = Int32(items.count)
        case .date(let formatter, let date):
            floor.kind = caffe_icu_call_date
            floor.formatter = formatter.icuHandle
            floor.milliseconds = date.timeIntervalSince1970 * 1000
        }
        floorCalls.append(floor)
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

    private func currency(_ locale: String, _ currency: Currency) throws -> CurrencyFormatter {
        let key = locale + "/" + currency.code
        if let made = currencies[key] { return made }
        let made = try CurrencyFormatter(locale: locale, currency: currency)
        currencies[key] = made
        return made
    }

    private func percent(_ locale: String) throws -> PercentFormatter {
        if let made = percents[locale] { return made }
        let made = try PercentFormatter(locale: locale)
        percents[locale] = made
        return made
    }

    private func list(_ locale: String) throws -> ListFormatter {
        if let made = lists[locale] { return made }
        let made = try ListFormatter(locale: locale)
        lists[locale] = made
        return made
    }

    private func date(_ locale: String, _ timeZone: String, _ skeleton: String) throws -> DateFieldFormatter {
        let key = locale + "/" + timeZone + "/" + skeleton
        if let made = dates[key] { return made }
        let made = try DateFieldFormatter(locale: locale, timeZone: timeZone, skeleton: skeleton)
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
