import _FoundationICU

/// Joins items into a list the way a locale does (`.and` lists: "a, b, and c", "a, b y c",
/// "a、b、c"), reporting where each item landed so styled items can be spliced back in.
///
/// In right-to-left locales ICU wraps each item whose text does not start right-to-left in a
/// first-strong isolate (U+2068 … U+2069), so a Latin name cannot reorder an Arabic list; those
/// isolates come back as literal pieces around the item, exactly as Foundation's
/// `ListFormatStyle` (the same ICU) writes them.
///
/// Holds ICU result storage that every call reuses, so an instance belongs to one thread at a time.
public final class ListFormatter {
    /// A piece of a formatted list: text of the locale's pattern, or the item at an index.
    public enum Piece: Hashable, Sendable {
        case literal(String)
        case item(Int)
    }

    public let locale: String
    private let formatter: OpaquePointer
    private let result: OpaquePointer
    private let position: OpaquePointer
    /// The items as UTF-16, end to end, with a pointer and a length per item: grown as needed and
    /// reused by every call.
    private var units: UnsafeMutablePointer<UChar>
    private var unitCapacity = 256
    private var pointers: UnsafeMutablePointer<UnsafePointer<UChar>?>
    private var lengths: UnsafeMutablePointer<Int32>
    private var itemCapacity = 16

    /// - Throws: ``LocalizationError`` `.unknownLocale` if ICU cannot open a list format for `locale`.
    public init(locale: String) throws(LocalizationError) {
        self.locale = locale
        let localeID = ICULocaleID.make(locale)
        var status = U_ZERO_ERROR
        let formatter = swift_ulistfmt_openForType(localeID, ULISTFMT_TYPE_AND, ULISTFMT_WIDTH_WIDE, &status)
        let result = swift_ulistfmt_openResult(&status)
        let position = swift_ucfpos_open(&status)
        guard let formatter, let result, let position, status.rawValue <= U_ZERO_ERROR.rawValue else {
            formatter.map { swift_ulistfmt_close($0) }
            result.map { swift_ulistfmt_closeResult($0) }
            position.map { swift_ucfpos_close($0) }
            throw LocalizationError(.unknownLocale, "ICU cannot format lists for '\(locale)'")
        }
        self.formatter = formatter
        self.result = result
        self.position = position
        units = .allocate(capacity: unitCapacity)
        pointers = .allocate(capacity: itemCapacity)
        lengths = .allocate(capacity: itemCapacity)
    }

    deinit {
        swift_ulistfmt_close(formatter)
        swift_ulistfmt_closeResult(result)
        swift_ucfpos_close(position)
        units.deallocate()
        pointers.deallocate()
        lengths.deallocate()
    }

    /// The ICU object behind the formatter, for the benchmark's C floor to call directly.
    @_spi(Benchmarks) public var icuHandle: UnsafeRawPointer { UnsafeRawPointer(formatter) }

    /// The list of `items` as plain text.
    public func string(_ items: [String]) -> String {
        guard !items.isEmpty else { return "" }
        load(items)
        let count = Int32(items.count)
        return ICUText.read { buffer, capacity, status in
            swift_ulistfmt_format(formatter, pointers, lengths, count, buffer, capacity, &status)
        } ?? items.joined(separator: ", ")
    }

    /// The list of `items` as the locale's literal text around each item, in order. The pattern
    /// may depend on the items (Spanish "y" becomes "e" before "i"); the items are never changed.
    public func pieces(_ items: [String]) -> [Piece] {
        // One item goes through ICU too: it may isolate it.
        guard !items.isEmpty else { return [] }
        var status = U_ZERO_ERROR
        load(items)
        swift_ulistfmt_formatStringsToResult(formatter, pointers, lengths, Int32(items.count), result, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue,
            let value = swift_ulistfmt_resultAsValue(result, &status)
        else { return Self.fallback(items.count) }
        var length: Int32 = 0
        guard let text = swift_ufmtval_getString(value, &length, &status), status.rawValue <= U_ZERO_ERROR.rawValue
        else { return Self.fallback(items.count) }
        let output = UnsafeBufferPointer(start: text, count: Int(length))

        swift_ucfpos_reset(position, &status)
        swift_ucfpos_constrainCategory(position, Int32(UFIELD_CATEGORY_LIST_SPAN.rawValue), &status)
        var pieces: [Piece] = []
        pieces.reserveCapacity(items.count * 2 + 1)
        var offset = 0
        while swift_ufmtval_nextPosition(value, position, &status) != 0, status.rawValue <= U_ZERO_ERROR.rawValue {
            let index = Int(swift_ucfpos_getField(position, &status))
            var start: Int32 = 0
            var limit: Int32 = 0
            swift_ucfpos_getIndexes(position, &start, &limit, &status)
            guard index >= 0, index < items.count, Int(start) >= offset else { continue }
            if Int(start) > offset {
                pieces.append(.literal(ICUText.string(UnsafeBufferPointer(rebasing: output[offset..<Int(start)]))))
            }
            // The span holds the item and, when ICU isolated it, the isolate around it.
            let isolated = limit - start == lengths[index] + 2 && output[Int(start)] == 0x2068
            if isolated { pieces.append(.literal("\u{2068}")) }
            pieces.append(.item(index))
            if isolated { pieces.append(.literal("\u{2069}")) }
            offset = Int(limit)
        }
        if offset < output.count {
            pieces.append(.literal(ICUText.string(UnsafeBufferPointer(rebasing: output[offset...]))))
        }
        return pieces
    }

    /// If ICU fails mid-way: the items separated by commas, nothing dropped.
    private static func fallback(_ count: Int) -> [Piece] {
        (0..<count).flatMap { index in index == 0 ? [Piece.item(0)] : [.literal(", "), .item(index)] }
    }

    /// Lays the items end to end as UTF-16 in the reused buffers, a pointer and a length for each.
    private func load(_ items: [String]) {
        if items.count > itemCapacity {
            itemCapacity = max(items.count, itemCapacity * 2)
            pointers.deallocate()
            lengths.deallocate()
            pointers = .allocate(capacity: itemCapacity)
            lengths = .allocate(capacity: itemCapacity)
        }
        let needed = items.reduce(0) { $0 + $1.utf8.count }
        if needed > unitCapacity {
            unitCapacity = max(needed, unitCapacity * 2)
            units.deallocate()
            units = .allocate(capacity: unitCapacity)
        }
        var offset = 0
        for (index, item) in items.enumerated() {
            let written = ICUText.writeUTF16(item, to: units + offset)
            pointers[index] = UnsafePointer(units + offset)
            lengths[index] = Int32(written)
            offset += written
        }
    }
}
