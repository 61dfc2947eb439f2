import Foundation

/// Reads `.strings` files in every form Apple tools write them.
///
/// * OpenStep text, `"key" = "value";`, as genstrings, ibtool and translation platforms write it: UTF-8
///   with or without a byte-order mark, or UTF-16 with a byte-order mark (or, without one, when the
///   bytes are evidently UTF-16).
/// * An XML property list whose root is a dictionary of strings.
/// * A binary property list (`bplist00`), as Xcode compiles `.strings` files into a built bundle; its
///   entries come out sorted by key and without locations.
///
/// The reader never throws and never traps. A syntax error is reported with its line and column, and
/// reading resumes after the next `;` (or at the end of the line), so one bad entry does not lose the
/// others. Repeated keys are all kept, each repeat with a `.duplicateKey` warning.
///
/// ```swift
/// let result = StringsFileReader.read(data, file: "cs.lproj/Localizable.strings")
/// let table = Dictionary(result.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
/// ```
public enum StringsFileReader {
    /// Reads a `.strings` file.
    ///
    /// OpenStep syntax: `/* */` and `//` comments and white space anywhere between tokens; quoted
    /// strings (`"…"`, or `'…'`) with the escapes `\n \t \r \" \' \\ \a \b \f \v`, `\Uxxxx` and `\uxxxx`
    /// (UTF-16 code units; surrogate pairs are combined), octal `\ooo`, and any other `\x` standing for
    /// `x`; unquoted strings of `A–Z a–z 0–9 _ . $ : / -`; and the short form `"key";`, whose value is
    /// the key. U+FEFF at the very start of the decoded text (a second byte-order mark) is skipped.
    ///
    /// Lines and columns are counted in the decoded text, columns in characters.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The entries and the diagnostics.
    public static func read(_ data: Data, file: String) -> StringsFileReadResult {
        let bytes = [UInt8](data)
        if PropertyListReader.isBinaryPropertyList(bytes) {
            var collector = DiagnosticCollector(file: file)
            let value = PropertyListReader.readBinary(data, collector: &collector)
            let entries = entries(from: value, collector: &collector)
            return StringsFileReadResult(entries: entries, diagnostics: collector.diagnostics)
        }

        let decoded = TextDecoder.decode(bytes)
        var collector = DiagnosticCollector(file: file, text: decoded.utf8)
        PropertyListReader.reportDecodingError(decoded, collector: &collector)
        let start = PropertyListReader.firstSignificantOffset(decoded.utf8)
        if start < decoded.utf8.count && decoded.utf8[start] == UInt8(ascii: "<") {
            var parser = XMLPropertyListParser(utf8: decoded.utf8, start: start, collector: collector)
            let value = parser.parseDocument()
            collector = parser.collector
            let entries = entries(from: value, collector: &collector)
            return StringsFileReadResult(entries: entries, diagnostics: collector.diagnostics)
        }

        var parser = OpenStepStringsParser(utf8: decoded.utf8, collector: collector)
        parser.parse()
        return StringsFileReadResult(entries: parser.entries, diagnostics: parser.collector.diagnostics)
    }

    /// The string entries of a property list's root dictionary; anything else is reported.
    private static func entries(
        from value: PropertyListValue?,
        collector: inout DiagnosticCollector
    ) -> [StringsFileEntry] {
        guard let value else { return [] }
        guard let dictionary = value.dictionaryValue else {
            collector.report(
                .error,
                .unexpectedValueType,
                message: "the property list's root is \(value.kindDescription), not a dictionary of strings"
            )
            return []
        }
        var entries: [StringsFileEntry] = []
        entries.reserveCapacity(dictionary.count)
        for entry in dictionary.entries {
            guard let string = entry.value.stringValue else {
                collector.report(
                    .error,
                    .unexpectedValueType,
                    location: entry.location,
                    key: entry.key,
                    message: "the value is \(entry.value.kindDescription), not a string; the entry is left out"
                )
                continue
            }
            entries.append(StringsFileEntry(key: entry.key, value: string, location: entry.location))
        }
        return entries
    }
}
