// Caffe — Localization tests.

import CaffeTestKit
import Foundation
import Localization
import Testing

/// Damaged copies of the real files: the readers must never trap or hang, and must report what they
/// could not read. A fixed seed makes every run read the same inputs.
@Suite("Property list and strings readers: damaged real files")
struct ReaderMutationTests {
    typealias Support = PropertyListTestSupport

    static let iterations = Int(ProcessInfo.processInfo.environment["CAFFE_MUTATION_ITERATIONS"] ?? "") ?? 40

    static let files = StringsFileCorpusTests.files + StringsDictCorpusTests.files

    /// Fragments that matter to the parsers, spliced in at random.
    static let fragments: [[UInt8]] =
        [
            "<", ">", "</", "/>", "&", "&#x;", "&#xD800;", "<![CDATA[", "]]>", "<!--", "-->", "<?", "<!DOCTYPE",
            "<dict>", "</dict>", "<key>", "</string>", "<array>", "<data>", "\"", "'", "\\", "\\U", "\\UD83D", "/*",
            "*/", "//", ";", "=", "\n", "\r", "\u{FEFF}", "\u{2028}",
        ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xFE, 0xFF]]

    static func mutate(_ bytes: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
            let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:
                bytes.removeSubrange(index..<bytes.count)
            case 1 where !bytes.isEmpty:
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            case 2 where !bytes.isEmpty:
                bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...64, using: &generator)))
            default:
                bytes.insert(contentsOf: fragments.randomElement(using: &generator) ?? [], at: index)
            }
        }
        return bytes
    }

    @Test(arguments: files)
    func damagedCopiesAreReadWithoutTrapping(path: String) throws {
        let original = [UInt8](try Support.corpusData(path))
        var generator = SplitMix64(
            seed: UInt64(truncatingIfNeeded: path.utf8.reduce(5381) { $0 &* 33 &+ Int($1) })
        )
        for _ in 0..<Self.iterations {
            let damaged = Data(Self.mutate(original, using: &generator))
            let strings = StringsFileReader.read(damaged, file: path)
            let plist = PropertyListReader.read(damaged, file: path)
            for diagnostic in strings.diagnostics + plist.diagnostics where diagnostic.location != .unknown {
                #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1)
            }
            #expect(plist.value != nil || plist.diagnostics.contains { $0.severity == .error })
        }
    }
}
