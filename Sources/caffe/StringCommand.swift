import ArgumentParser
import Foundation
import GrammarAgreement
import Localization
import RichText

/// `caffe string`: one catalog string, as `AttributedString(localized:)` gives it.
struct StringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "string",
        abstract: "Render one catalog string for a locale, as AttributedString(localized:) does.",
        discussion: """
            Looks the key up along the locale's fallback chain, chooses its variants, formats the \\
            arguments for the locale, reads its Markdown and applies grammar agreement for the \\
            language of the text and the term of address. --raw prints the formatted value as \\
            written instead (markup untouched), as String(localized:) gives it. Arguments that parse \\
            as numbers are numbers, negative ones too; everything else is text (put -- before text \\
            that starts with a dash). Exits 1 when the key's entry or a file of its table is broken \\
            (errors elsewhere in the catalog are counted, not fatal), when no localization has the \\
            key (the key is printed, as Apple shows it), or when the arguments do not fit.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case plain, ansi, html, json
    }

    @Option(help: "A catalog folder (.lproj folders and .xcstrings files) or one catalog file.")
    var catalog: String

    @Option(help: "BCP 47 locale identifier, such as es-MX.")
    var locale: String

    @Option(
        name: .customLong("table"),
        help:
            "The table (file name without extension). Default: the file's own name for one catalog file, else Localizable."
    )
    var tableName: String?

    /// The table to look in: as given; for a single catalog file its own name, as Bundle names a
    /// table after its file (`Positional.xcstrings` is table `Positional`); else `Localizable`.
    /// Asks the file system: read it once.
    private var table: String {
        if let tableName { return tableName }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: catalog, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return StringCatalog.defaultTable
        }
        return StringCatalog.table(ofFile: catalog)
    }

    @Option(help: "The device whose variants to use: iphone, ipad, mac, applewatch, appletv, applevision, other.")
    var device: String = "iphone"

    @Option(help: "The development language, when the catalog does not say (no String Catalog, several localizations).")
    var developmentLanguage: String?

    @Option(help: "How the reader is addressed: feminine, masculine or neutral (default: unknown).")
    var termOfAddress: String?

    @Option(help: "Output: plain, ansi, html (a fragment) or json (the runs).")
    var format: Format = .plain

    @Flag(help: "Print the formatted value as written: no Markdown, no agreement.")
    var raw = false

    @Flag(help: "Wrap substituted values in bidi isolates (FSI…PDI) for right-to-left locales.")
    var isolate = false

    @Argument(help: "The key.")
    var key: String

    // `.allUnrecognized`: -1 is an argument here, not an option.
    @Argument(parsing: .allUnrecognized, help: "Arguments for the string's format specifiers, in order.")
    var arguments: [String] = []

    func validate() throws {
        if let termOfAddress, TermOfAddress(termOfAddress) == nil {
            throw ValidationError("--term-of-address must be feminine, masculine or neutral")
        }
        guard DeviceClass(rawValue: device) != nil else { throw ValidationError("unknown device '\(device)'") }
        if raw, format != .plain { throw ValidationError("--raw prints the value as written; it has no --format") }
        if let option = EndOfOptions.unknownOption(in: arguments) {
            throw ValidationError("unknown option '\(option)' (put -- before arguments that start with --)")
        }
    }

    /// The format arguments as given, without the first `--` (which only ends the options).
    private var formatArguments: [String] { EndOfOptions.values(arguments) }

    func run() throws {
        let loaded = try StringCatalog.load(catalog, developmentLanguage: developmentLanguage, command: "string")
        let table = self.table
        let options = RenderOptions(
            device: DeviceClass(rawValue: device) ?? .iphone,
            bidiIsolation: isolate ? .rightToLeftLocales : .never
        )
        let values = formatArguments.map(FormatArgument.init(parsing:))
        var failed = report(loaded.diagnostics, table: table)
        do {
            let localizer = try RichLocalizer(catalog: loaded, locale: locale, options: options, termTable: "Menu")
            if let note = localizer.localizer.fallbackNote { warn(note) }
            let missing: Bool
            if raw {
                let rendered = try localizer.localizer.string(key, table: table, arguments: values)
                print(rendered.text)
                missing = rendered.isMissing
            } else {
                let rendered = try localizer.text(
                    key,
                    table: table,
                    arguments: values,
                    termOfAddress: termOfAddress.flatMap(TermOfAddress.init) ?? .unknown
                )
                for warning in rendered.inflected.warnings { warn("\(warning)") }
                print(output(rendered))
                missing = rendered.isMissing
            }
            if missing {
                warn("no localization has the key '\(key)' in table \(table)")
                failed = true
            }
        } catch {
            warn("\(error)")
            failed = true
        }
        if failed { throw ExitCode(1) }
    }

    /// Prints the catalog's errors that can affect this key — its own, and whole-file errors in
    /// the table's files, which may have lost it — and counts the rest in one line: one broken
    /// entry does not spoil the others (CFBundle stores a table's entries as they are and looks
    /// each key up on its own). Whether an error affected the lookup.
    private func report(_ diagnostics: [CatalogDiagnostic], table: String) -> Bool {
        let errors = diagnostics.filter { $0.severity == .error }
        let affecting = errors.filter { $0.concerns(key: key, table: table) }
        for diagnostic in affecting { warn("\(diagnostic)") }
        let elsewhere = errors.count - affecting.count
        if elsewhere > 0 {
            warn(
                "\(elsewhere) error\(elsewhere == 1 ? "" : "s") elsewhere in the catalog (other keys or tables) "
                    + "\(elsewhere == 1 ? "does" : "do") not affect this key; caffe lint lists \(elsewhere == 1 ? "it" : "them")"
            )
        }
        return !affecting.isEmpty
    }

    private func output(_ rendered: LocalizedRichText) -> String {
        switch format {
        case .plain: rendered.plainText
        case .ansi: rendered.ansi()
        case .html: rendered.html()
        case .json: rendered.jsonRuns()
        }
    }

    private func warn(_ message: String) {
        FileHandle.standardError.write(Data("caffe string: \(message)\n".utf8))
    }
}
