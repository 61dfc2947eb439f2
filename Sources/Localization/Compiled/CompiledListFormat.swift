import _FoundationICU

/// A locale's "and" list compiled from ICU's own output, so a list of items already rendered (an
/// order's lines) is laid out without calling ICU — the same literal text around the same items
/// that ``ListFormatter/pieces(_:)`` gives.
///
/// ICU (Apple's, as the toolchain ships it) joins items with four patterns — two items; the start,
/// middle and end of a longer list — read here by formatting placeholder items. Three languages
/// choose a pattern by the neighbouring item, and those rules are kept as named functions:
/// Spanish "y" becomes "e" before an "i" sound, Hebrew "ו" takes a hyphen before a non-Hebrew
/// word, Thai puts spaces next to non-Thai words. Each item is described once by a
/// ``ItemProfile`` (whether ICU isolates it with U+2068…U+2069, what the rules look at); callers
/// keep profiles with their items.
///
/// Immutable: share it across threads freely.
public final class CompiledListFormat: Sendable {
    /// What ICU looks at in one item: whether it isolates it, and what the language's pattern rule
    /// sees at its start and end.
    public struct ItemProfile: Hashable, Sendable {
        public var isolated: Bool
        /// Spanish: starts with an "i" sound; Hebrew: starts with a non-Hebrew letter; Thai: starts
        /// with a non-Thai character.
        public var changesPatternBefore: Bool
        /// Thai: ends with a non-Thai character.
        public var changesPatternAfter: Bool

        public init(isolated: Bool, changesPatternBefore: Bool, changesPatternAfter: Bool) {
            self.isolated = isolated
            self.changesPatternBefore = changesPatternBefore
            self.changesPatternAfter = changesPatternAfter
        }

        /// An item nothing reacts to.
        public static let plain = ItemProfile(isolated: false, changesPatternBefore: false, changesPatternAfter: false)
    }

    /// A piece of a laid-out list: the locale's text, or an item by index.
    public enum Piece: Hashable, Sendable {
        case literal(ByteTable.Piece)
        case item(Int)
    }

    /// How the locale's rules pick a pattern.
    enum Rule: Sendable {
        case none, spanish, hebrew, thai
    }

    /// The literal text the pieces point into.
    public let table: ByteTable
    let rule: Rule
    /// Text between two items: `two[variant]`, `start`, `middle`, `end[variant]`. Variants: bit 0
    /// set when the following item changes the pattern, bit 1 when the preceding one does (Thai).
    let two: [ByteTable.Piece]
    let start: ByteTable.Piece
    let middle: ByteTable.Piece
    let end: [ByteTable.Piece]
    let isolateOpen: ByteTable.Piece
    let isolateClose: ByteTable.Piece
    /// Whether the locale's patterns run right to left (ICU then isolates items with left-to-right
    /// text, and otherwise items with right-to-left text).
    let isRightToLeft: Bool

    /// The most pieces a list of `count` items lays out into.
    public static func maximumPieces(items count: Int) -> Int { 4 * count }

    init?(icu: ListFormatter, language: String, isRightToLeft: Bool) {
        self.isRightToLeft = isRightToLeft
        switch language {
        case "es": rule = .spanish
        case "he", "iw": rule = .hebrew
        case "th": rule = .thai
        default: rule = .none
        }
        // Placeholders ICU neither isolates nor reacts to: in the locale's own direction and, for
        // Thai, in Thai.
        let placeholders =
            rule == .thai ? ["ก", "ข", "ค", "ง"] : isRightToLeft ? ["א", "ב", "ג", "ד"] : ["A", "B", "C", "D"]
        // What the rules react to: a Spanish "i", a Latin word in Hebrew, a Latin word in Thai.
        let changing = rule == .spanish ? "i" : "a"
        var builder = ByteTable.Builder()
        func infixes(_ items: [String]) -> [ByteTable.Piece]? {
            guard let found = Self.infixes(icu: icu, items: items) else { return nil }
            return found.map { builder.add($0) }
        }
        guard let pair = infixes(Array(placeholders.prefix(2))), let long = infixes(placeholders) else { return nil }
        start = long[0]
        middle = long[1]
        var two = [pair[0]]
        var end = [long[2]]
        if rule != .none {
            guard let pairChanged = infixes([placeholders[0], changing]),
                let longChanged = infixes(Array(placeholders.prefix(3)) + [changing])
            else { return nil }
            two.append(pairChanged[0])
            end.append(longChanged[2])
        }
        if rule == .thai {
            guard let before = infixes(["a", placeholders[1]]), let both = infixes(["a", "b"]) else { return nil }
            two += [before[0], both[0]]
        }
        self.two = two
        self.end = end
        isolateOpen = builder.add("\u{2068}")
        isolateClose = builder.add("\u{2069}")
        table = builder.build()
    }

    /// The text ICU puts between consecutive items, or `nil` when ICU puts text before the first
    /// item or after the last (no locale does; the compiled format would not know where).
    private static func infixes(icu: ListFormatter, items: [String]) -> [String]? {
        // The isolates ICU puts around an item come as pieces of their own; they are the item's.
        let isolates: Set<ListFormatter.Piece> = [.literal("\u{2068}"), .literal("\u{2069}")]
        let pieces = icu.pieces(items).filter { !isolates.contains($0) }
        guard case .item(0) = pieces.first, case .item(items.count - 1) = pieces.last else { return nil }
        var infixes: [String] = []
        var pending = ""
        var expected = 0
        for piece in pieces {
            switch piece {
            case .literal(let text): pending += text
            case .item(let index):
                guard index == expected else { return nil }
                if index > 0 { infixes.append(pending) }
                pending = ""
                expected += 1
            }
        }
        return infixes.count == items.count - 1 ? infixes : nil
    }

    // MARK: Items

    /// What ICU and the locale's rule see in `text`: computed once per item and kept with it.
    public func profile(_ text: String) -> ItemProfile {
        let isolated = needsIsolation(text)
        let first = text.unicodeScalars.first
        let last = text.unicodeScalars.last
        switch rule {
        case .none:
            return ItemProfile(isolated: isolated, changesPatternBefore: false, changesPatternAfter: false)
        case .spanish:
            return ItemProfile(
                isolated: isolated,
                changesPatternBefore: Self.startsWithSpanishI(text),
                changesPatternAfter: false
            )
        case .hebrew:
            return ItemProfile(
                isolated: isolated,
                changesPatternBefore: first.map { Self.script(of: $0) != USCRIPT_HEBREW } ?? false,
                changesPatternAfter: false
            )
        case .thai:
            return ItemProfile(
                isolated: isolated,
                changesPatternBefore: first.map { Self.script(of: $0) != USCRIPT_THAI } ?? false,
                changesPatternAfter: last.map { Self.script(of: $0) != USCRIPT_THAI } ?? false
            )
        }
    }

    /// Spanish "y" becomes "e" before a word starting with an "i" sound: "i…", or "hi…" but not
    /// "hie…"/"hia…" (*agua e hielo* is wrong; *hierro y hielo*), case-insensitive (RAE, *Ortografía*
    /// 2010, and ICU's rule).
    static func startsWithSpanishI(_ text: String) -> Bool {
        let units = Array(text.utf16.prefix(3))
        guard let first = units.first else { return false }
        let lower = units.map { $0 | 0x20 }
        if first | 0x20 == 0x69 { return true }
        guard lower[0] == 0x68, units.count > 1, lower[1] == 0x69 else { return false }
        return units.count == 2 || !(lower[2] == 0x61 || lower[2] == 0x65)
    }

    /// ICU isolates an item holding any character whose direction is opposite to the patterns'
    /// (strong left-to-right in a right-to-left locale; right-to-left letters or Arabic digits in a
    /// left-to-right one), so it cannot reorder the list around it.
    func needsIsolation(_ text: String) -> Bool {
        for scalar in text.unicodeScalars {
            let direction = swift_u_charDirection(Int32(scalar.value))
            switch direction {
            case U_LEFT_TO_RIGHT, U_LEFT_TO_RIGHT_EMBEDDING, U_LEFT_TO_RIGHT_OVERRIDE:
                if isRightToLeft { return true }
            case U_RIGHT_TO_LEFT, U_ARABIC_NUMBER, U_RIGHT_TO_LEFT_ARABIC, U_RIGHT_TO_LEFT_EMBEDDING,
                U_RIGHT_TO_LEFT_OVERRIDE:
                if !isRightToLeft { return true }
            default: continue
            }
        }
        return false
    }

    private static func script(of scalar: Unicode.Scalar) -> UScriptCode {
        var status = U_ZERO_ERROR
        return swift_uscript_getScript(Int32(scalar.value), &status)
    }

    // MARK: Layout

    /// Lays out `count` items with `profiles` into `pieces` (room for
    /// ``maximumPieces(items:)``); returns the pieces written.
    public func layout(
        _ profiles: UnsafeBufferPointer<ItemProfile>,
        into pieces: UnsafeMutablePointer<Piece>
    ) -> Int {
        let count = profiles.count
        guard count > 0 else { return 0 }
        var written = item(0, profiles, into: pieces, at: 0)
        if count == 2 {
            written += literal(
                two[variant(before: profiles[0], after: profiles[1], count: two.count)],
                into: pieces,
                at: written
            )
            return written + item(1, profiles, into: pieces, at: written)
        }
        for index in 1..<count {
            let infix =
                index == count - 1
                ? end[variant(before: nil, after: profiles[index], count: end.count)] : index == 1 ? start : middle
            written += literal(infix, into: pieces, at: written)
            written += item(index, profiles, into: pieces, at: written)
        }
        return written
    }

    /// Writes item `index`, in isolates when ICU isolates it; the pieces written.
    @inline(__always)
    private func item(
        _ index: Int,
        _ profiles: UnsafeBufferPointer<ItemProfile>,
        into pieces: UnsafeMutablePointer<Piece>,
        at position: Int
    ) -> Int {
        guard profiles[index].isolated else {
            pieces[position] = .item(index)
            return 1
        }
        pieces[position] = .literal(isolateOpen)
        pieces[position + 1] = .item(index)
        pieces[position + 2] = .literal(isolateClose)
        return 3
    }

    /// Writes a literal unless it is empty; the pieces written.
    @inline(__always)
    private func literal(_ piece: ByteTable.Piece, into pieces: UnsafeMutablePointer<Piece>, at position: Int) -> Int {
        guard piece.count > 0 else { return 0 }
        pieces[position] = .literal(piece)
        return 1
    }

    /// Which variant of a pattern the neighbouring items choose.
    @inline(__always)
    private func variant(before: ItemProfile?, after: ItemProfile, count: Int) -> Int {
        var variant = after.changesPatternBefore ? 1 : 0
        if let before, before.changesPatternAfter { variant |= 2 }
        return variant < count ? variant : 0
    }

    /// The list of `texts` as one string (for tests and constant texts).
    public func string(_ texts: [String]) -> String {
        let profiles = texts.map(profile)
        var pieces = [Piece](repeating: .item(0), count: Self.maximumPieces(items: texts.count))
        let count = profiles.withUnsafeBufferPointer { profileBuffer in
            pieces.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return layout(profileBuffer, into: base)
            }
        }
        var result = ""
        for piece in pieces.prefix(count) {
            switch piece {
            case .literal(let literal): result += table.string(literal)
            case .item(let index): result += texts[index]
            }
        }
        return result
    }
}

extension ListFormatter {
    /// This formatter's list compiled (see ``CompiledListFormat``), or `nil` when ICU writes
    /// something it cannot lay out.
    public func compiled() -> CompiledListFormat? {
        var status = U_ZERO_ERROR
        var language = [CChar](repeating: 0, count: 16)
        let localeID = ICULocaleID.make(locale)
        let length = swift_uloc_getLanguage(localeID, &language, Int32(language.count), &status)
        let orientation = swift_uloc_getCharacterOrientation(localeID, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        let code = String(decoding: language.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return CompiledListFormat(icu: self, language: code, isRightToLeft: orientation == ULOC_LAYOUT_RTL)
    }
}
