import Foundation

/// Reads XML and binary property lists into ordered, located ``PropertyListValue``s.
///
/// XML property lists (`.stringsdict`, XML `.strings`) are parsed by this module rather than by
/// Foundation, so dictionaries keep file order and every key knows its line and column. Binary
/// property lists (`bplist00`, as Xcode compiles `.strings` into a bundle) are decoded with Foundation's
/// `PropertyListSerialization`; their dictionaries are sorted by key, since Foundation does not keep
/// the order, and their locations are ``SourceLocation/unknown``.
///
/// The reader never throws and never traps: problems become diagnostics and as much of the file as
/// possible is returned. An entry whose value is broken is left out of its dictionary; the rest stay.
///
/// ```swift
/// let result = PropertyListReader.read(data, file: "pl.lproj/Localizable.stringsdict")
/// for diagnostic in result.diagnostics { print(diagnostic) }
/// let keys = result.value?.dictionaryValue?.keys ?? []
/// ```
public enum PropertyListReader {
    /// Reads a property list, sniffing whether it is binary or XML.
    ///
    /// Binary property lists start with `bplist`. Anything else is decoded as text (UTF-8, or UTF-16
    /// with a byte-order mark) and must start, after white space, with `<` (`<?xml`, `<!DOCTYPE`,
    /// `<plist>`).
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The root value, if one could be read, and the diagnostics.
    public static func read(_ data: Data, file: String) -> PropertyListReadResult {
        let bytes = [UInt8](data)
        if isBinaryPropertyList(bytes) {
            var collector = DiagnosticCollector(file: file)
            let value = readBinary(data, collector: &collector)
            return PropertyListReadResult(value: value, diagnostics: collector.diagnostics)
        }

        let decoded = TextDecoder.decode(bytes)
        var collector = DiagnosticCollector(file: file, text: decoded.utf8)
        reportDecodingError(decoded, collector: &collector)
        let start = firstSignificantOffset(decoded.utf8)
        guard start < decoded.utf8.count else {
            collector.report(
                .error,
                .unreadableFile,
                message: bytes.isEmpty ? "the file is empty" : "the file holds only white space"
            )
            return PropertyListReadResult(value: nil, diagnostics: collector.diagnostics)
        }
        guard decoded.utf8[start] == UInt8(ascii: "<") else {
            collector.report(
                .error,
                .unreadableFile,
                location: collector.location(at: start),
                message: "not a property list: expected an XML property list ('<?xml') or a binary one ('bplist00')"
            )
            return PropertyListReadResult(value: nil, diagnostics: collector.diagnostics)
        }
        var parser = XMLPropertyListParser(utf8: decoded.utf8, start: start, collector: collector)
        let value = parser.parseDocument()
        return PropertyListReadResult(value: value, diagnostics: parser.collector.diagnostics)
    }

    // MARK: Shared with StringsFileReader

    static func isBinaryPropertyList(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: "bplist".utf8)
    }

    /// Adds the `.unreadableFile` diagnostic for text that did not decode cleanly, if any.
    static func reportDecodingError(_ decoded: TextDecoder.Result, collector: inout DiagnosticCollector) {
        guard let offset = decoded.firstErrorOffset else { return }
        collector.report(
            .error,
            .unreadableFile,
            location: collector.location(at: offset),
            message: decoded.errorDescription ?? "the file's text could not be decoded"
        )
    }

    /// The offset of the first byte that is neither white space nor U+FEFF (a byte-order mark).
    static func firstSignificantOffset(_ utf8: [UInt8]) -> Int {
        var index = 0
        while index < utf8.count {
            switch utf8[index] {
            case 0x09, 0x0A, 0x0D, 0x20:
                index += 1
            case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBB && utf8[index + 2] == 0xBF:
                index += 3
            default:
                return index
            }
        }
        return index
    }
}
