// Caffe — GrammarAgreement tests.
import Foundation
import GrammarAgreement
import Localization
import RichText

/// Inflects a template that has its words and numbers in place (the CLI's plain mode).
func inflectPlain(
    _ markup: String,
    locale: String,
    term: TermOfAddress = .unknown,
    concepts: [InflectionConcept] = []
) throws -> InflectedText {
    let engine = try GrammarAgreement.engine(for: locale)
    return engine.inflect(try RichTextParser.parse(markup), termOfAddress: term, concepts: concepts)
}

/// The plain text of `inflectPlain`.
func plain(_ markup: String, _ locale: String, term: TermOfAddress = .unknown) throws -> String {
    try inflectPlain(markup, locale: locale, term: term).plainText
}

/// Every output of an evaluation set, written to `$AGREEMENT_OUTPUTS/<set>.txt` when that folder is
/// set, so a change meant to keep behaviour (a grammar moved onto another walk) can be compared
/// before and after, byte for byte (`diff -r`). Each row is rendered with its own term of address
/// and with each of the others, so the reader-agreement paths are covered too.
struct AgreementOutputs {
    /// The terms every row is rendered with besides its own.
    static let terms: [TermOfAddress] = [.unknown, .feminine, .masculine, .neutral]
    private let folder: String?
    private var lines: [String] = []

    init() {
        folder = ProcessInfo.processInfo.environment["AGREEMENT_OUTPUTS"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether outputs are being recorded.
    var isRecording: Bool { folder != nil }

    /// Records one rendering of a row.
    mutating func record(_ id: String, term: TermOfAddress, _ output: String) {
        guard isRecording else { return }
        lines.append("\(id)\t\(term.gender)\t\(output)")
    }

    /// Records a row's `output` with its own term, then `render` with each of the other ``terms``
    /// (rendered only while recording).
    mutating func record(
        _ id: String,
        term: TermOfAddress,
        _ output: String,
        otherTerms render: (TermOfAddress) -> String
    ) {
        guard isRecording else { return }
        record(id, term: term, output)
        for other in Self.terms where other != term { record(id, term: other, render(other)) }
    }

    /// Writes the set's outputs; of a test part (`-test`, `-everyday`), only a hash of each, so a
    /// comparison says which rows changed without showing what the test part's answers are.
    func write(set name: String) throws {
        guard let folder else { return }
        let isTestPart = name.hasSuffix("-test") || name.hasSuffix("-everyday")
        let lines = isTestPart ? lines.map(Self.hashingOutput) : lines
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: "\(folder)/\(name).txt",
            atomically: true,
            encoding: .utf8
        )
    }

    /// `id<TAB>term<TAB>output` with the output replaced by its 64-bit FNV-1a hash.
    private static func hashingOutput(_ line: String) -> String {
        let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (fields.count == 3 ? fields[2] : "").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return fields.prefix(2).joined(separator: "\t") + "\t" + String(hash, radix: 16)
    }
}
