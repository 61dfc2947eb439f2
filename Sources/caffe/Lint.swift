import ArgumentParser
import Foundation
import GrammarAgreement
import Localization

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Check a catalog folder or file: unreadable files, missing translations, specifiers, plurals, markup.",
        discussion: """
            Exits 1 when any finding is an error, including when there was nothing to check. \
            Attribute keys the agreement engine does not know are warned about unless the app \
            declares them (--app-attribute-keys; the Caffé app's are the default).
            """
    )

    @Argument(help: "A catalog folder, or one .xcstrings, .strings or .stringsdict file (inside its .lproj folder).")
    var path: String

    @Option(help: "The development language, when the catalog does not say (no String Catalog, several localizations).")
    var developmentLanguage: String?

    @Option(help: "The app's own ^[…](…) keys, comma-separated.")
    var appAttributeKeys: String = "rainbow,foregroundColor,dateField"

    @Flag(help: "Print the findings as a JSON array.")
    var json = false

    @Flag(help: "Also print notes.")
    var verbose = false

    func run() throws {
        let catalog = try StringCatalog.load(path, developmentLanguage: developmentLanguage, command: "lint")
        let appKeys = Set(appAttributeKeys.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let report = CatalogLinter(catalog: catalog).lint()
            .merging(CatalogMarkupLinter(catalog: catalog, appKeys: appKeys).lint())
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
