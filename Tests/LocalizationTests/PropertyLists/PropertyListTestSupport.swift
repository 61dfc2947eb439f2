// Caffe — Localization tests.

import Foundation
import Localization

/// Shared helpers for the property-list and `.strings` reader tests.
enum PropertyListTestSupport {
    /// `shared/corpus/catalogs`, the sibling of the repository root.
    static let corpusDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // PropertyLists
        .deletingLastPathComponent()  // LocalizationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("../shared/corpus/catalogs")
        .standardizedFileURL

    /// The bytes of a corpus file, by its path relative to `corpus/catalogs`.
    static func corpusData(_ path: String) throws -> Data {
        try Data(contentsOf: corpusDirectory.appendingPathComponent(path))
    }

    static func readCorpusStrings(_ path: String) throws -> StringsFileReadResult {
        StringsFileReader.read(try corpusData(path), file: path)
    }

    static func readCorpusPropertyList(_ path: String) throws -> PropertyListReadResult {
        PropertyListReader.read(try corpusData(path), file: path)
    }

    static func readStrings(_ text: String) -> StringsFileReadResult {
        StringsFileReader.read(Data(text.utf8), file: "Test.strings")
    }

    static func readPropertyList(_ text: String) -> PropertyListReadResult {
        PropertyListReader.read(Data(text.utf8), file: "Test.plist")
    }

    /// An XML property list with the usual prolog; `body` starts on line 4.
    static func xml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """
    }

    /// Code, line and column of each diagnostic, e.g. `"syntax-error 2:5"`, for exact comparisons.
    static func positions(_ diagnostics: [CatalogDiagnostic]) -> [String] {
        diagnostics.map { "\($0.code) \($0.location.line):\($0.location.column)" }
    }

    static func errors(_ diagnostics: [CatalogDiagnostic]) -> [CatalogDiagnostic] {
        diagnostics.filter { $0.severity == .error }
    }

    /// Key-value pairs, for exact comparisons.
    static func pairs(_ entries: [StringsFileEntry]) -> [[String]] {
        entries.map { [$0.key, $0.value] }
    }
}

extension PropertyListValue {
    /// The value at `key` when this is a dictionary (tests only).
    subscript(key: String) -> PropertyListValue? {
        dictionaryValue?[key]
    }
}
