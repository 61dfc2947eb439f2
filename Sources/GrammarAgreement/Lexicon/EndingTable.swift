/// Word endings and what each tells (a gender, an adjective-like ending), so a word is matched by
/// looking up its last few suffixes instead of testing every ending in turn.
///
/// The longest listed ending the word ends with decides, as the rules by ending read ("the longest
/// ending wins"); an ending listed twice keeps its first value. Endings and words are NFC, so
/// suffixes are compared as bytes, starting where scalars start.
///
/// ```swift
/// let genders = EndingTable([("ung", Gender.feminine), ("ling", .masculine)])
/// genders.longestMatch(in: "zeitung")   // .feminine
/// ```
struct EndingTable<Value: Sendable>: Sendable {
    private let endings: WordTable<Value>
    /// The most scalars an ending has: suffixes longer than this need no lookup.
    private let longest: Int

    init(_ pairs: some Sequence<(String, Value)>) {
        var table = WordTable<Value>()
        var longest = 0
        for (ending, value) in pairs where table[ending] == nil {
            table[ending] = value
            longest = max(longest, ending.unicodeScalars.count)
        }
        endings = table
        self.longest = longest
    }

    /// A table of groups of endings, each group telling one thing: `EndingTable((feminine,
    /// .feminine), (masculine, .masculine))`.
    init(_ groups: ([String], Value)...) {
        self.init(groups.lazy.flatMap { endings, value in endings.lazy.map { ($0, value) } })
    }

    /// The value of the longest listed ending `word` ends with, or `nil`.
    func longestMatch(in word: String) -> Value? {
        var word = word
        return word.withUTF8 { bytes in
            // Back to the start of the longest suffix worth trying, then forward: the first hit is
            // the longest ending.
            var start = bytes.count
            var scalars = 0
            while start > 0, scalars < longest {
                start -= 1
                if bytes[start] & 0xC0 != 0x80 { scalars += 1 }
            }
            for offset in start..<bytes.count where bytes[offset] & 0xC0 != 0x80 {
                if let value = endings[utf8: UnsafeBufferPointer(rebasing: bytes[offset...])] { return value }
            }
            return nil
        }
    }

    /// Whether `word` ends with a listed ending.
    func matches(_ word: String) -> Bool { longestMatch(in: word) != nil }
}
