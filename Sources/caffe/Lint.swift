import ArgumentParser
import Foundation
import Localization

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Check a catalog folder: unreadable files, missing translations, mismatched specifiers, missing plural categories.",
        discussion: "Exits 1 when any finding is an error."
    )

    @Argument(help: "The catalog folder.")
    var directory: String

    @Flag(help: "Print the findings as a JSON array.")
    var json = false

    @Flag(help: "Also print notes.")
    var verbose = false

    func run() throws {
        let catalog = try StringCatalog(directory: URL(fileURLWithPath: directory))
        let report = CatalogLinter(catalog: catalog).lint()
        let shown = report.findings.filter { verbose || $0.severity != .note }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(shown.map(LintFinding.init)), as: UTF8.self))
        } else {
            for finding in shown { print(finding) }
            print(report.summary)
        }
        if report.errorCount > 0 { throw ExitCode(1) }
    }
}

/// One finding as `caffe lint --json` prints it.
struct LintFinding: Encodable {
    var severity: String
    var code: String
    var file: String
    var line: Int?
    var column: Int?
    var key: String?
    var locale: String?
    var message: String

    init(_ diagnostic: CatalogDiagnostic) {
        severity = diagnostic.severity.rawValue
        code = diagnostic.code.name
        file = diagnostic.file
        line = diagnostic.location.line > 0 ? diagnostic.location.line : nil
        column = diagnostic.location.column > 0 ? diagnostic.location.column : nil
        key = diagnostic.key
        locale = diagnostic.locale
        message = diagnostic.message
    }
}
