/// Where the printf-style conversions of a format string are, with their argument numbers resolved.
///
/// For layers that keep specifiers opaque while doing something else with the text — the
/// rich-text template parses Markdown around them. `%%` and `%#@variable@` references are not
/// conversions and are not listed.
public enum FormatStringSpecifiers {
    /// One conversion: its text's UTF-8 range, the 0-based argument it formats, and the specifier.
    public struct Occurrence: Hashable, Sendable {
        public var utf8Range: Range<Int>
        public var argument: Int
        public var specifier: FormatSpecifier
    }

    /// The conversions of `format`, in order; unnumbered ones take the next argument.
    public static func find(in format: String) -> [Occurrence] {
        var occurrences: [Occurrence] = []
        var next = 0
        for case (.specifier(let specifier), let range) in FormatStringScanner.scanWithRanges(format) {
            let argument: Int
            if let position = specifier.position {
                argument = position - 1
            } else {
                argument = next
                next += 1
            }
            occurrences.append(Occurrence(utf8Range: range, argument: argument, specifier: specifier))
        }
        return occurrences
    }

    /// The UTF-8 ranges of `%%` escapes, each to be shown as one `%`.
    public static func percentEscapes(in format: String) -> [Range<Int>] {
        FormatStringScanner.scanWithRanges(format).compactMap { token, range in
            if case .literal("%") = token, range.count == 2 { return range }
            return nil
        }
    }
}
