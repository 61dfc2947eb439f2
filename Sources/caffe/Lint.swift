import ArgumentParser
import CaffeCore
import Foundation
import GrammarAgreement
import Localization

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Check a catalog folder or file: unreadable files, missing translations, specifiers, plurals, markup, the menu.",
        discussion: """
            Exit status 1 when any finding is an error (also when there was nothing to check), and \
            with --strict when any is a warning whose code --allow-warning does not name; 64 for \
            arguments it cannot use. With a menu (--menu, or menu.json beside the catalog folder) \
            it also checks the markets: the stores selling in each localization and the items \
            their currency has no price for. Attribute keys the agreement engine does not know \
            are warned about unless the app declares them (--app-attribute-keys; the Caffé app's \
            are the default). caffe lint --list-codes lists every code and its severities.
            """
    )

    @Argument(
        help: "A catalog folder, or one .xcstrings, .strings or .stringsdict file (outside .lproj: non-localized)."
    )
    var path: String?

    @Option(help: "The development language, when the catalog does not say (no String Catalog, several localizations).")
    var developmentLanguage: String?

    @Option(help: "The app's own ^[…](…) keys, comma-separated.")
    var appAttributeKeys: String = "rainbow,foregroundColor,dateField"

    @Flag(help: "Print the findings as a JSON array.")
    var json = false

    @Flag(help: "Also print notes (with --agreement: the lexicon words too).")
    var verbose = false

    @Flag(
        help: """
            Instead: list, per locale, every word that reaches an inflect span (the term table's names \
            and the words written in spans) and how agreement treats it: lexicon, declared, rule, \
            ambiguous, unknown; and the spans of localizations without agreement rules.
            """
    )
    var agreement = false

    @Flag(
        help: """
            Exit 1 on warnings too, except codes --allow-warning names. With --agreement: exit 1 on \
            any unknown, ambiguous or rule word (--accept-rules lets rule words pass) and on agreement \
            spans in localizations without agreement rules.
            """
    )
    var strict = false

    @Option(
        name: .customLong("allow-warning"),
        help: "With --strict: a warning code the team accepts (repeatable, or comma-separated; see --list-codes)."
    )
    var allowWarning: [String] = []

    @Flag(help: "With --agreement --strict: let words inflected by spelling rules (no lexicon lists them) pass.")
    var acceptRules = false

    @Flag(help: "Print every finding code with its severities and meaning, and exit.")
    var listCodes = false

    @Option(help: "The table whose entries name things: menu items, sizes (their names fill the spans).")
    var termTable: String = "Menu"

    @Option(
        help: """
            The menu (default: menu.json beside the catalog folder, when there is one). Checked for \
            market readiness: which stores sell in each localization, and which items their currency \
            has no price for. With --agreement: the items and sizes that fill the order lines \
            (without a menu, every name of the term table is tried in every string slot of every span).
            """
    )
    var menu: String?

    /// Every code `caffe lint` reports, in the order --list-codes prints them.
    static var codes: [LintCode] { CatalogLinter.codes + CatalogMarkupLinter.codes + MarketReadiness.codes }

    /// The codes --allow-warning accepts: those that can be warnings.
    static var warningCodes: [String] { codes.filter { $0.severities.contains(.warning) }.map(\.code.name) }

    /// --allow-warning's codes, split at commas.
    var allowedWarnings: Set<String> {
        Set(allowWarning.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) })
    }

    func validate() throws {
        if listCodes { return }
        guard path != nil else { throw ValidationError("Missing expected argument '<path>'") }
        if !allowWarning.isEmpty, !strict { throw ValidationError("--allow-warning only matters with --strict") }
        if acceptRules, !(agreement && strict) {
            throw ValidationError("--accept-rules only matters with --agreement --strict")
        }
        if agreement, !allowWarning.isEmpty {
            throw ValidationError("--allow-warning is for the catalog's findings, not --agreement's words")
        }
        let unknown = allowedWarnings.subtracting(Self.warningCodes).sorted()
        if !unknown.isEmpty {
            throw ValidationError(
                "--allow-warning: \(unknown.joined(separator: ", ")) is no warning code; the warning codes are "
                    + Self.warningCodes.joined(separator: ", ")
            )
        }
    }

    func run() throws {
        if listCodes { return try printCodes() }
        let path = path ?? ""
        let catalog = try StringCatalog.load(path, developmentLanguage: developmentLanguage, command: "lint")
        let menu = try loadMenu()
        if agreement { return try runAgreement(catalog, menu: menu) }
        let appKeys = Set(appAttributeKeys.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        var report = CatalogLinter(catalog: catalog, termTables: [termTable]).lint()
            .merging(CatalogMarkupLinter(catalog: catalog, appKeys: appKeys).lint())
        let readiness = menu.map { MarketReadiness(menu: $0.menu, catalog: catalog, menuFile: $0.path) }
        if let readiness { report = report.merging(readiness.lint()) }
        let shown = report.findings.filter { verbose || $0.severity != .note }
        let failingWarnings =
            strict
            ? report.findings.filter { $0.severity == .warning && !allowedWarnings.contains($0.code.name) } : []
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(shown.map(LintFinding.init)), as: UTF8.self))
        } else {
            for finding in shown { print(finding) }
            if let readiness {
                print(Self.marketSummary(readiness))
            } else if strict {
                // A gate says what it did not see.
                print("markets: not checked (no menu.json beside \(path); --menu FILE checks them)")
            }
            print(report.summary)
            if strict {
                let codes = Set(failingWarnings.map(\.code.name)).sorted()
                let allowed = allowedWarnings.sorted().joined(separator: ", ")
                print(
                    !failingWarnings.isEmpty
                        ? "strict: \(failingWarnings.count) warning\(failingWarnings.count == 1 ? " fails" : "s fail") "
                            + "(\(codes.joined(separator: ", "))); --allow-warning CODE accepts a code"
                        : allowed.isEmpty ? "strict: passes" : "strict: passes (allowed: \(allowed))"
                )
            }
        }
        if report.errorCount > 0 || !failingWarnings.isEmpty { throw ExitCode(1) }
    }

    /// `--list-codes`: each code, its severities and what it means.
    func printCodes() throws {
        if json {
            struct Code: Encodable {
                var code: String
                var severities: [String]
                var summary: String
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let list = Self.codes.map {
                Code(code: $0.code.name, severities: $0.severities.map(\.rawValue), summary: $0.summary)
            }
            print(String(decoding: try encoder.encode(list), as: UTF8.self))
            return
        }
        let width = Self.codes.map(\.code.name.count).max() ?? 0
        for code in Self.codes {
            let severities = code.severities.map(\.rawValue).joined(separator: "/")
            print(
                code.code.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                    + severities.padding(toLength: 15, withPad: " ", startingAt: 0) + code.summary
            )
        }
    }

    /// `markets (menu.json):` and one line per localization: the stores selling in it, or none,
    /// and how many items each store's currency cannot price.
    static func marketSummary(_ readiness: MarketReadiness) -> String {
        let localizations = readiness.localizations()
        let width = localizations.map(\.localization.count).max() ?? 0
        var lines = ["markets (\(readiness.menuFile)):"]
        for entry in localizations {
            let stores =
                entry.stores.isEmpty
                ? "no store sells in it"
                : entry.stores.map { store in
                    let unpriced =
                        store.unpriced.isEmpty
                        ? "" : ": \(store.unpriced.count) item\(store.unpriced.count == 1 ? "" : "s") without a price"
                    return "\(store.id) (\(store.locale), \(store.currency))\(unpriced)"
                }.joined(separator: ", ")
            lines.append("  " + entry.localization.padding(toLength: width + 2, withPad: " ", startingAt: 0) + stores)
        }
        return lines.joined(separator: "\n")
    }
}

extension Lint {
    /// `--agreement`: the preflight report, as text or JSON; with `--strict`, exit 1 on any word
    /// agreement would leave as written, has to guess the gender of or only knows from spelling
    /// rules (unless `--accept-rules`), and on spans of localizations without rules.
    func runAgreement(_ catalog: StringCatalog, menu: (menu: Menu, path: String)?) throws {
        let report = AgreementPreflight(catalog: catalog, termTable: termTable, uses: menu?.menu.agreementUses).run()
        let failures = strict ? report.strictFailures(acceptingRules: acceptRules) : []
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            for locale in report.locales {
                print(
                    "\(locale.locale): \(locale.words.count) words reach inflect spans: \(locale.lexicon) lexicon, "
                        + "\(locale.declared) declared, \(locale.rule) rule, \(locale.ambiguous) ambiguous, "
                        + "\(locale.unknown) unknown"
                )
                for word in locale.words where verbose || word.treatment >= .declared {
                    let reason = word.reason.map { " — \($0)" } ?? ""
                    print(
                        "  \(word.treatment.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(word.word)"
                            + "  (\(word.from.joined(separator: ", ")))\(reason)"
                    )
                }
            }
            if !report.withoutRules.isEmpty {
                print("no agreement rules (spans shown as written): \(report.withoutRules.joined(separator: ", "))")
                for span in report.spansWithoutRules {
                    print("  \(span.locale): '\(span.key)' (\(span.table)) has an agreement span: shown as written")
                }
            }
            print("\(report.unknown) unknown, \(report.ambiguous) ambiguous, \(report.rule) rule")
            if strict {
                print(
                    failures.isEmpty
                        ? "strict: passes" + (acceptRules && report.rule > 0 ? " (rule words accepted)" : "")
                        : "strict: \(failures.count) fail"
                            + (report.rule > 0 && !acceptRules ? " (--accept-rules lets rule words pass)" : "")
                )
            }
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }
}

extension Lint {
    /// The menu: `--menu`, or `menu.json` beside the catalog folder; `nil` without either.
    func loadMenu() throws -> (menu: Menu, path: String)? {
        let url: URL
        if let menu {
            url = URL(fileURLWithPath: menu)
        } else {
            let beside = URL(fileURLWithPath: path ?? "").standardizedFileURL.deletingLastPathComponent()
                .appendingPathComponent("menu.json")
            guard FileManager.default.fileExists(atPath: beside.path) else { return nil }
            url = beside
        }
        do {
            // Named as the person would: relative to the working directory when it is inside it.
            let here = FileManager.default.currentDirectoryPath + "/"
            return (
                try Menu(contentsOf: url),
                menu ?? (url.path.hasPrefix(here) ? String(url.path.dropFirst(here.count)) : url.path)
            )
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
