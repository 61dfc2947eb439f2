/// Turns byte offsets in decoded UTF-8 text into 1-based lines and columns counted in characters.
///
/// Lines end at LF, CR or CR LF. Columns count `Character`s (extended grapheme clusters), so a letter
/// with a combining accent is one column. Line starts are found once, on the first query; columns are
/// counted from the previous query on the same line, so a reader that asks in file order pays linear
/// time in total, and a `String` is only built for stretches of a line that are not ASCII.
struct SourceLocator {
    private let bytes: [UInt8]
    private var lineStarts: [Int] = []
    private var cachedLine = -1
    private var cachedOffset = 0
    private var cachedColumn = 1

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The location of the character starting at `offset` (`bytes.count` means the end of the text).
    mutating func location(at offset: Int) -> SourceLocation {
        if lineStarts.isEmpty {
            lineStarts = Self.findLineStarts(bytes)
        }
        let offset = min(max(offset, 0), bytes.count)
        let line = lineIndex(containing: offset)
        let column: Int
        if line == cachedLine && offset >= cachedOffset {
            column = cachedColumn + characterCount(cachedOffset..<offset)
        } else {
            column = 1 + characterCount(lineStarts[line]..<offset)
        }
        cachedLine = line
        cachedOffset = offset
        cachedColumn = column
        return SourceLocation(line: line + 1, column: column)
    }

    private func lineIndex(containing offset: Int) -> Int {
        // The last line start at or before `offset`.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }

    private func characterCount(_ range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        var isASCII = true
        for index in range where bytes[index] >= 0x80 {
            isASCII = false
            break
        }
        return isASCII ? range.count : String(decoding: bytes[range], as: UTF8.self).count
    }

    private static func findLineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                starts.append(index + 1)
            case UInt8(ascii: "\r"):
                if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                }
                starts.append(index + 1)
            default:
                break
            }
            index += 1
        }
        return starts
    }
}
