import ArgumentParser
import CaffeCore
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

    @Argument(
        help: "A catalog folder, or one .xcstrings, .strings or .stringsdict file (outside .lproj: non-localized)."
    )
    var path: String

    @Option(help: "The development language, when the catalog does not say (no String Catalog, several localizations).")
    var developmentLanguage: String?

    @Option(help: "The app's own ^[…](…) keys, comma-separated.")
    var appAttributeKeys: String = "rainbow,foregroundColor,dateField"

    @Flag(help: "Print the findings as a JSON array.")
    var json = false

    @Flag(help: "Also print notes.")
    var verbose = false

    @Flag(
        help: """
            Instead: list, per locale, every word that reaches an inflect span (the term table's names             and the words written in spans) and how agreement treats it: known, declared, ambiguous, unknown.
            """
    )
    var agreement = false

    @Flag(help: "With --agreement: exit 1 when any word is unknown or ambiguous.")
    var strict = false

    @Option(help: "The table whose entries name things: menu items, sizes (their names fill the spans).")
    var termTable: String = "Menu"

    @Option(
        help: """
            With --agreement: the menu whose items and sizes fill the order lines (default: menu.json beside \
            the catalog folder, when there is one); without one, every name of the term table is tried \
            in every string slot of every span.
            """
    )
    var menu: String?

    func run() throws {
        let catalog = try StringCatalog.load(path, developmentLanguage: developmentLanguage, command: "lint")
        if agreement { return try runAgreement(catalog) }
        let appKeys = Set(appAttributeKeys.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let report = CatalogLinter(catalog: catalog, termTables: [termTable]).lint()
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

extension Lint {
    /// `--agreement`: the preflight report, as text or JSON; with `--strict`, exit 1 on any word
    /// agreement would leave as written or has to guess.
    func runAgreement(_ catalog: StringCatalog) throws {
        let report = AgreementPreflight(catalog: catalog, termTable: termTable, uses: try menuUses()).run()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            for locale in report.locales {
                print(
                    "\(locale.locale): \(locale.words.count) words reach inflect spans: \(locale.known) known, "
                        + "\(locale.declared) declared, \(locale.ambiguous) ambiguous, \(locale.unknown) unknown"
                )
                for word in locale.words where verbose || word.treatment >= .declared {
                    let reason = word.reason.map { " — \($0)" } ?? ""
                    print("  \(word.treatment.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(word.word)"
                        + "  (\(word.from.joined(separator: ", ")))\(reason)")
                }
            }
            if !report.withoutRules.isEmpty {
                print("no agreement rules (left as written): \(report.withoutRules.joined(separator: ", "))")
            }
            print("\(report.unknown) unknown, \(report.ambiguous) ambiguous")
        }
        if strict, report.unknown + report.ambiguous > 0 { throw ExitCode(1) }
    }
}

extension Lint {
    /// Where the menu's names go: its items and sizes into the order line, its items into the
    /// ingredients sentence (``Menu/agreementUses``); `nil` without a menu.
    func menuUses() throws -> [AgreementPreflight.Use]? {
        let url: URL
        if let menu {
            url = URL(fileURLWithPath: menu)
        } else {
            let beside = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
                .appendingPathComponent("menu.json")
            guard FileManager.default.fileExists(atPath: beside.path) else { return nil }
            url = beside
        }
        do {
            return try Menu(contentsOf: url).agreementUses
        } catch {
            throw ValidationError("\(url.path): \(error)")
        }
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
