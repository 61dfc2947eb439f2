import Foundation
import Synchronization

/// A lexicon file compiled from dictionaries, kept as its bytes with two hash indexes — lemmas and
/// irregular forms to the lines that hold them — and read a line at a time when a word is looked up.
///
/// The dictionary lexicons hold 60,000–100,000 entries per language; made into objects they took
/// ~150 MB for the five languages. As bytes plus indexes they take about their file's size, and an
/// entry is made only for a word that is looked up (and kept, up to ``cacheLimit`` of them).
final class CompactLexiconTable: Sendable {
    let source: String
    private let bytes: [UInt8]
    private let hasGenderColumn: Bool
    /// Lemma index: each slot holds a line's start + 1 (0: empty); `lemmaHashes` the key's hash.
    private let lemmaSlots: [UInt32]
    private let lemmaHashes: [UInt32]
    /// Form index: each slot holds `(line start + 1) << 3 | kind`; `formHashes` the form's hash.
    private let formSlots: [UInt32]
    private let formHashes: [UInt32]
    /// Lemmas (lowercase) of several words, by their first word, and the most words in one.
    let phraseStarts: WordTable<Bool>
    let longestPhrase: Int
    /// Lemmas indexed.
    let count: Int
    /// Entries made so far, by line start.
    private let made = Mutex<[UInt32: LexiconEntry]>([:])

    /// Entries kept made at most; beyond, the cache starts over.
    static let cacheLimit = 16_384

    /// The form kinds a forms column names, by key.
    private static let formKeys: [(key: [UInt8], kind: Lexicon.FormKind)] = [
        (Array("pl".utf8), .plural), (Array("f".utf8), .feminine), (Array("fpl".utf8), .femininePlural),
        (Array("apl".utf8), .plural), (Array("apocope".utf8), .apocope), (Array("dpl".utf8), .dativePlural),
        (Array("obl".utf8), .oblique),
    ]
    private static let kinds: [Lexicon.FormKind] = [
        .plural, .feminine, .femininePlural, .apocope, .dativePlural, .oblique,
    ]

    /// Indexes `text`, a file in the lexicon format whose lemmas are listed once each.
    ///
    /// - Throws: ``LexiconError`` for a lemma listed twice or a line without its columns.
    init(text: String, source: String, hasGenderColumn: Bool) throws(LexiconError) {
        self.source = source
        self.hasGenderColumn = hasGenderColumn
        bytes = Array(text.utf8)
        var lines: [(start: Int, lemmaEnd: Int, end: Int)] = []
        var start = 0
        var phrases = WordTable<Bool>()
        var longest = 1
        bytes.withUnsafeBufferPointer { all in
            while start < all.count {
                var end = start
                while end < all.count, all[end] != 0x0A { end += 1 }
                var lineEnd = end
                if lineEnd > start, all[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if lineEnd > start, all[start] != 0x23 {
                    var tab = start
                    while tab < lineEnd, all[tab] != 0x09 { tab += 1 }
                    lines.append((start, tab, lineEnd))
                }
                start = end + 1
            }
        }
        var lemmaSlots = [UInt32](repeating: 0, count: Self.tableSize(for: lines.count))
        var lemmaHashes = [UInt32](repeating: 0, count: lemmaSlots.count)
        var forms: [(hash: UInt32, value: UInt32, key: String)] = []
        for (number, line) in lines.enumerated() {
            guard line.lemmaEnd < line.end else {
                throw LexiconError(source: source, line: number + 1, message: "a line without its columns")
            }
            let key = String(decoding: bytes[line.start..<line.lemmaEnd], as: UTF8.self).fastLowercased
            let hash = Self.hash(key)
            let mask = lemmaSlots.count - 1
            var slot = Int(hash) & mask
            while lemmaSlots[slot] != 0 {
                if lemmaHashes[slot] == hash, Self.lemmaKey(bytes, at: Int(lemmaSlots[slot] - 1)) == key {
                    throw LexiconError(source: source, line: number + 1, message: "'\(key)' is listed twice")
                }
                slot = (slot + 1) & mask
            }
            lemmaSlots[slot] = UInt32(line.start + 1)
            lemmaHashes[slot] = hash
            if key.utf8.contains(0x20) {
                let words = key.split(separator: " ")
                longest = max(longest, words.count)
                if let first = words.first { phrases[String(first)] = true }
            }
            for (kind, form) in Self.formFields(bytes, hasGenderColumn: hasGenderColumn, lineStart: line.start) {
                let lowered = form.fastLowercased
                guard lowered != key else { continue }
                forms.append((Self.hash(lowered), UInt32(line.start + 1) << 3 | UInt32(kind), lowered))
            }
        }
        var formSlots = [UInt32](repeating: 0, count: Self.tableSize(for: forms.count))
        var formHashes = [UInt32](repeating: 0, count: formSlots.count)
        let formMask = formSlots.count - 1
        var seen = Set<String>()
        seen.reserveCapacity(forms.count)
        for form in forms where seen.insert(form.key).inserted {
            // The first line naming a form keeps it, as an earlier file's entry would.
            var slot = Int(form.hash) & formMask
            while formSlots[slot] != 0 { slot = (slot + 1) & formMask }
            formSlots[slot] = form.value
            formHashes[slot] = form.hash
        }
        self.lemmaSlots = lemmaSlots
        self.lemmaHashes = lemmaHashes
        self.formSlots = formSlots
        self.formHashes = formHashes
        phraseStarts = phrases
        longestPhrase = longest
        count = lines.count
    }

    /// The entry whose lemma, lowercased, is `key`.
    func entry(_ key: String) -> LexiconEntry? {
        guard let start = lemmaLine(key) else { return nil }
        return entry(at: start)
    }

    /// The lemma (lowercase) and kind of the form `word` (lowercase), when a line lists it.
    func form(_ word: String) -> (lemma: String, kind: Lexicon.FormKind)? {
        let hash = Self.hash(word)
        let mask = formSlots.count - 1
        var slot = Int(hash) & mask
        while formSlots[slot] != 0 {
            if formHashes[slot] == hash {
                let value = formSlots[slot]
                let start = Int(value >> 3) - 1
                let kind = Self.kinds[Int(value & 7)]
                if Self.formFields(bytes, hasGenderColumn: hasGenderColumn, lineStart: start).contains(where: {
                    Self.kinds[$0.kind] == kind && $0.form.fastLowercased == word
                }) {
                    return (Self.lemmaKey(bytes, at: start), kind)
                }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Every lemma, lowercase, in file order.
    var lemmas: [String] {
        lemmaSlots.filter { $0 != 0 }.map { Int($0 - 1) }.sorted().map { Self.lemmaKey(bytes, at: $0) }
    }

    // MARK: Lines

    private func lemmaLine(_ key: String) -> Int? {
        let hash = Self.hash(key)
        let mask = lemmaSlots.count - 1
        var slot = Int(hash) & mask
        while lemmaSlots[slot] != 0 {
            if lemmaHashes[slot] == hash, Self.lemmaKey(bytes, at: Int(lemmaSlots[slot] - 1)) == key {
                return Int(lemmaSlots[slot] - 1)
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The entry on the line starting at `start`, made once and kept.
    private func entry(at start: Int) -> LexiconEntry? {
        if let known = made.withLock({ $0[UInt32(start)] }) { return known }
        var end = start
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        guard
            let entry = try? Lexicon.entry(
                from: Substring(line),
                line: 0,
                source: source,
                hasGenderColumn: hasGenderColumn
            )
        else { return nil }
        entry.isCompiled = true
        return made.withLock { cache in
            if let raced = cache[UInt32(start)] { return raced }
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[UInt32(start)] = entry
            return entry
        }
    }

    private static func lemmaKey(_ bytes: [UInt8], at start: Int) -> String {
        var end = start
        while end < bytes.count, bytes[end] != 0x09, bytes[end] != 0x0A { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self).fastLowercased
    }

    /// The forms a line's forms column lists: (index into ``kinds``, form).
    private static func formFields(
        _ bytes: [UInt8],
        hasGenderColumn: Bool,
        lineStart start: Int
    ) -> [(kind: Int, form: String)] {
        var end = start
        var tabs: [Int] = []
        while end < bytes.count, bytes[end] != 0x0A {
            if bytes[end] == 0x09 { tabs.append(end) }
            end += 1
        }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        let column = hasGenderColumn ? 2 : 1
        guard tabs.count > column else { return [] }
        let fieldsStart = tabs[column] + 1
        var found: [(Int, String)] = []
        var fieldStart = fieldsStart
        while fieldStart < end {
            var fieldEnd = fieldStart
            while fieldEnd < end, bytes[fieldEnd] != 0x3B { fieldEnd += 1 }
            if let equals = bytes[fieldStart..<fieldEnd].firstIndex(of: 0x3D) {
                let key = bytes[fieldStart..<equals]
                let value = String(decoding: bytes[(equals + 1)..<fieldEnd], as: UTF8.self)
                    .trimmingCharacters(in: .whitespaces)
                if value != "-", let kind = Self.formKeys.first(where: { $0.key.elementsEqual(key) })?.kind,
                    let index = Self.kinds.firstIndex(of: kind)
                {
                    found.append((index, value))
                }
            }
            fieldStart = fieldEnd + 1
        }
        return found
    }

    private static func tableSize(for count: Int) -> Int {
        var size = 16
        while size < count * 2 { size *= 2 }
        return size
    }

    private static func hash(_ key: String) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in key.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}
