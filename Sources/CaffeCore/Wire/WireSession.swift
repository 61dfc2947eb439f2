import CaffeProtocol
import Foundation
import GrammarAgreement
import Localization
import SwiftProtobuf

/// What the core did on its wire path, for benchmarks and metrics.
public struct WireStatistics: Sendable, Equatable {
    /// Orders and complication requests rendered from their bytes by compiled programs.
    public var wireRenders = 0
    /// Those rendered the message way instead (decoded with SwiftProtobuf, rendered as messages,
    /// encoded): anything unusual, and locales whose texts or list do not compile.
    public var messageRenders = 0
    /// Calls into ICU on the wire path (formats that did not compile), and the time they took.
    public var icuCalls = 0
    public var icuNanoseconds: UInt64 = 0

    public init() {}
}

/// A render session's state for rendering straight from input bytes to output bytes: the reusable
/// buffers, the interned attribute sets, the menu by bytes, and one ``OrderProgram`` per customer
/// locale. Owned by one ``RenderSession``; grows while it meets new locales, lines and names, then
/// allocates nothing.
final class WireSession {
    /// How many bytes of kept texts a session holds before it starts over (32 MiB).
    static let arenaLimit = 32 << 20

    let arena = ConstantArena()
    let attributes: AttributeTable
    let maker: SpanMaker
    let writer: StyledTextWriter
    let menu: WireMenu
    /// Where outputs are written, and the receipt's HTML before it is copied in.
    let output = WireBuffer(capacity: 32_768)
    let html = WireBuffer(capacity: 16_384)
    let scratch = ScratchBytes(capacity: 16_384)
    @exclusivity(unchecked) var spans: [TextSpan] = []
    @exclusivity(unchecked) var listPieces: [CompiledListFormat.Piece] = []
    @exclusivity(unchecked) var profiles: [CompiledListFormat.ItemProfile] = []
    @exclusivity(unchecked) var orderLines: [OrderEventView.Line] = []
    @exclusivity(unchecked) var lineEntries: [OrderProgram.Line] = []
    @exclusivity(unchecked) var priced: [PricedLine] = []
    @exclusivity(unchecked) var families: [Int32] = []
    /// A complication's date pieces, and its levels as rendered (spans and display width).
    @exclusivity(unchecked) var dateSpans = [CompiledDateFormat.Span](
        repeating: CompiledDateFormat.Span(start: 0, end: 0, field: nil),
        count: 64
    )
    @exclusivity(unchecked) var levels = [(spans: Range<Int>, width: Int)?](repeating: nil, count: 8)
    /// Per request locale (bytes) and hour cycle (tag): the locale with its cycle, `nil` when not
    /// well formed.
    let complicationLocales = ByteKeyedTable<ComplicationLocale?>(capacity: 1024)
    /// Every program made, for reporting what stays with ICU.
    var orderPrograms: [OrderProgram] = []
    var complicationPrograms: [ComplicationProgram] = []

    /// The formats the programs use that did not compile, each once, sorted.
    var fallbacks: [String] {
        Array(Set(orderPrograms.flatMap(\.fallbacks) + complicationPrograms.flatMap(\.fallbacks))).sorted()
    }
    @exclusivity(unchecked) var statistics = WireStatistics()
    /// Per customer locale (its tag's bytes): its program, or `nil` when it cannot have one.
    let programs = ByteKeyedTable<OrderProgram?>(capacity: 256)
    /// Per zone identifier: its index in `zoneList`, or `nil` for an unknown zone.
    let zones = ByteKeyedTable<Int?>(capacity: 1024)
    private(set) var zoneList: [ZoneTransitions] = []
    let newline: TextSpan
    /// The most tip a currency with `i` minor-unit digits accepts, in minor units (`nil`: the
    /// configured maximum does not fit; tips then render the message way).
    let maximumTips: [Int64?]

    /// An order line checked and priced.
    struct PricedLine {
        var item: Int
        var size: Int
        var quantity: UInt32
        var unitPrice: Money
        var linePrice: Money
    }

    init(core: RenderingCore) {
        attributes = AttributeTable(arena: arena)
        maker = SpanMaker(arena: arena, attributes: attributes)
        writer = StyledTextWriter(attributes: attributes)
        menu = WireMenu(menu: core.menu)
        newline = arena.span("\n", AttributeTable.none)
        maximumTips = (0...Money.maximumFractionDigits).map { digits in
            var scaled = core.defaults.maximumTip
            for _ in 0..<digits { scaled *= 10 }
            guard scaled >= 0, scaled < 9e18, scaled == DecimalAmount.rounded(scaled, fractionDigits: 0) else {
                return nil
            }
            return Int64(exactly: NSDecimalNumber(decimal: scaled).int64Value)
        }
        spans.reserveCapacity(1024)
        listPieces.reserveCapacity(256)
        profiles.reserveCapacity(128)
        orderLines.reserveCapacity(128)
        lineEntries.reserveCapacity(128)
        priced.reserveCapacity(128)
        families.reserveCapacity(16)
    }

    /// The zone with this identifier, read from ICU the first time.
    func zone(_ identifier: UnsafeRawBufferPointer) -> (zone: ZoneTransitions, index: Int)? {
        if let known = zones.value(identifier) {
            guard let index = known else { return nil }
            return (zoneList[index], index)
        }
        let name = String(decoding: identifier, as: UTF8.self)
        guard KnownTimeZones.contains(name), let transitions = try? ZoneTransitions(identifier: name) else {
            zones.insert(nil, for: identifier)
            return nil
        }
        zoneList.append(transitions)
        zones.insert(zoneList.count - 1, for: identifier)
        return (transitions, zoneList.count - 1)
    }

    /// Runs `body`, an ICU call on the wire path, and counts it.
    @inline(__always)
    func icu<Result>(_ body: () -> Result) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = body()
        statistics.icuCalls += 1
        statistics.icuNanoseconds += DispatchTime.now().uptimeNanoseconds - start
        return result
    }

    /// Writes `amount` into the order's scratch with `format`.
    @inline(__always)
    func amount(_ amount: Money, _ format: OrderProgram.AmountFormat) -> TextSpan? {
        if let compiled = format.compiled {
            return scratch.write(maximum: compiled.maximumLength, attribute: AttributeTable.none) { output in
                compiled.write(minorUnits: amount.minorUnits, scale: amount.fractionDigits, to: output)
            }
        }
        let text = icu { format.icu.string(decimal: amount.wireText) }
        return scratch.copy(text, attribute: AttributeTable.none)
    }

    /// Writes `timestamp` into the order's scratch with `format`.
    @inline(__always)
    func date(_ timestamp: WireTimestamp, _ format: OrderProgram.DateFormat) -> TextSpan? {
        let date = Google_Protobuf_Timestamp(seconds: timestamp.seconds, nanos: timestamp.nanos).date
        if let compiled = format.compiled,
            let span = scratch.write(
                maximum: compiled.maximumLength,
                attribute: AttributeTable.none,
                { output in
                    compiled.write(date, to: output)?.bytes
                }
            )
        {
            return span
        }
        let text = icu { format.icu.string(date) }
        return scratch.copy(text, attribute: AttributeTable.none)
    }
}
