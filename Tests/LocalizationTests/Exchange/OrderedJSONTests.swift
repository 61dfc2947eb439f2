// Caffe — Localization tests.
import Foundation
import Testing

@testable import Localization

/// String Catalogs read and written back unchanged are the same bytes: this repository's, and
/// every one in the corpus of real apps' catalogs (written by Xcode, not by us).
@Suite("Ordered JSON (String Catalogs as Xcode writes them)")
struct OrderedJSONTests {
    static var catalogs: [URL] {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/catalogs")
        var found = [LocalizationExportTests.catalog.appendingPathComponent("Localizable.xcstrings")]
        if let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where url.pathExtension == "xcstrings" { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    @Test("every String Catalog round-trips byte for byte")
    func roundTrips() throws {
        var checked = 0
        var mismatched: [String] = []
        for url in Self.catalogs {
            let bytes = try [UInt8](Data(contentsOf: url))
            let text = try OrderedJSON.parse(bytes).xcodeText(endingWithNewline: bytes.last == 0x0A)
            if Array(text.utf8) != bytes {
                let written = Array(text.utf8)
                let first =
                    zip(written, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(written.count, bytes.count)
                let context = String(decoding: bytes[max(0, first - 40)..<min(bytes.count, first + 40)], as: UTF8.self)
                mismatched.append("\(url.lastPathComponent) at byte \(first): …\(context.debugDescription)…")
            }
            checked += 1
        }
        #expect(checked >= 2)
        #expect(mismatched.isEmpty, "\(mismatched.joined(separator: "\n"))")
    }

    @Test("a damaged catalog nested past 64 levels is refused, not a stack overflow")
    func nestingBound() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: LocalizationError.self) { try OrderedJSON.parse(Array(deep.utf8)) }
        let fine = String(repeating: "{\"a\":", count: 60) + "1" + String(repeating: "}", count: 60)
        #expect((try? OrderedJSON.parse(Array(fine.utf8))) != nil)
    }
}
