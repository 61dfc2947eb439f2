/// `--` as the end of options, for the commands whose values may start with `-` (negative numbers)
/// and are therefore taken with `.allUnrecognized` parsing, which hands `--` over as a value.
enum EndOfOptions {
    /// `values` without the first `--`.
    static func values(_ values: [String]) -> [String] {
        guard let terminator = values.firstIndex(of: "--") else { return values }
        return Array(values[..<terminator] + values[(terminator + 1)...])
    }

    /// The first value before any `--` that is spelled like a long option (`--x`), which is an
    /// unknown option rather than a value.
    static func unknownOption(in values: [String]) -> String? {
        values.prefix { $0 != "--" }.first { $0.hasPrefix("--") }
    }
}
