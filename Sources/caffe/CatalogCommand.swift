import ArgumentParser
import CaffeCore
import Foundation
import GrammarAgreement
import Localization

/// `caffe catalog`: the catalog's round trip with translators.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Exchange a catalog with translators (Xcode's localization catalogs, .xcloc).",
        subcommands: [Export.self, Import.self]
    )

    /// `caffe catalog export`: what `xcodebuild -exportLocalizations` gives translators.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write <output>/<language>.xcloc: the catalog's strings for translators, as XLIFF 1.2.",
            discussion: """
                Every table of the development language (String Catalogs, <dev>.lproj/*.strings and \
                *.stringsdict) with the language's current texts as targets, comments as notes, and \
                plural variants expanded to the language's CLDR categories (Russian: one, few, many, \
                other), the missing ones with an empty target in state "new".
                """
        )

        @Option(help: "The language to export for, such as ru or fr-CA.")
        var language: String

        @Option(help: "The folder to write <language>.xcloc into (created).")
        var output: String

        @Option(help: "The catalog folder (default: Localizations/ of the configuration, as caffe finds it).")
        var catalog: String?

        @Option(help: "The development language (default: the catalog's).")
        var developmentLanguage: String?

        func validate() throws {
            // The language names the .xcloc written into --output: never a path.
            guard LocaleTag.isWellFormed(language) else {
                throw ValidationError("--language: '\(language)' is not a BCP 47 language tag such as ru or fr-CA")
            }
        }

        func run() throws {
            let folder =
                catalog.map { URL(fileURLWithPath: $0) }
                ?? ConfigurationDirectory.resolve().appendingPathComponent("Localizations")
            let export: LocalizationExport
            do {
                let development =
                    try developmentLanguage
                    ?? StringCatalog(directory: folder).developmentLanguage
                export = try LocalizationExport(
                    catalogFolder: folder,
                    developmentLanguage: development,
                    language: language
                )
            } catch {
                FileHandle.standardError.write(Data("caffe catalog export: \(error)\n".utf8))
                throw ExitCode(1)
            }
            let outputFolder = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
            let bundle = try export.write(to: outputFolder, catalogFolder: folder, toolVersion: CaffeVersion.current)
            let units = export.files.reduce(0) { $0 + $1.units.count }
            let open = export.files.reduce(0) { $0 + $1.units.filter { $0.target == nil }.count }
            print(
                "caffe catalog export: \(bundle.path): \(export.files.count) files, \(units) units, \(open) to translate"
            )
            for note in export.skipped { print("  skipped: \(note)") }
        }
    }

    /// `caffe catalog import`: what `xcodebuild -importLocalizations` does with translators' work.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge the translations of an .xcloc or .xliff into the catalog's files.",
            discussion: """
                Each translated unit goes into the file its key lives in: a String Catalog is \
                rewritten as Xcode writes it (unchanged parts byte for byte), a .strings file of the \
                language gets its changed values replaced and new keys appended (made if missing), a \
                .stringsdict its changed values replaced and missing categories, variables and entries \
                inserted (made if missing), every other byte kept. The merged catalog is checked as \
                caffe lint checks it; a translation that brings an error (a specifier, a plural, \
                markup or an agreement span) is refused with that diagnostic, with the other units of \
                its key, and the others are written. Exit status 1 when any translation was refused.
                """
        )

        @Argument(help: "The .xcloc folder or .xliff file translators sent back.")
        var file: String

        @Option(help: "The catalog folder (default: Localizations/ of the configuration, as caffe finds it).")
        var catalog: String?

        @Flag(help: "Say what would change; write nothing.")
        var dryRun = false

        func run() throws {
            let folder =
                catalog.map { URL(fileURLWithPath: $0) }
                ?? ConfigurationDirectory.resolve().appendingPathComponent("Localizations")
            let merge: LocalizationImport
            let menu = Self.menu(besides: folder)
            do {
                let document = try XLIFFReader.read(try Self.xliffBytes(file))
                merge = try LocalizationImport(document: document, catalogFolder: folder) { catalog in
                    CatalogLinter(catalog: catalog, termTables: ["Menu"]).lint().findings
                        + CatalogMarkupLinter(catalog: catalog, appKeys: []).lint().findings
                        + Self.workerCheck(catalog, menu: menu)
                }
                if !dryRun { try merge.write() }
            } catch {
                FileHandle.standardError.write(Data("caffe catalog import: \(error)\n".utf8))
                throw ExitCode(2)
            }
            let verb = dryRun ? "would change" : "changed"
            print(
                "caffe catalog import (\(merge.language)): \(verb) \(merge.changes.count) values in "
                    + "\(merge.files.count) files; \(merge.unchanged) already so, \(merge.untranslated) not translated, "
                    + "\(merge.refused.count) refused"
            )
            for change in merge.changes {
                print(
                    "  \(change.file): \(change.id.debugDescription): \((change.old ?? "(new)").debugDescription) -> \(change.new.debugDescription)"
                )
            }
            for refusal in merge.refused {
                print("  refused \(refusal.file): \(refusal.id.debugDescription): \(refusal.reason)")
            }
            if menu == nil {
                // Said, not passed over: without a menu the worker's own check could not run.
                print(
                    "note: no menu.json beside \(folder.path): the worker's catalog check (caffe worker "
                        + "--check-config) was not run on the merged catalog; lint's checks were"
                )
            }
            if !dryRun, let note = Self.marketNote(language: merge.language, catalogFolder: folder) { print(note) }
            if !merge.refused.isEmpty { throw ExitCode(1) }
        }

        /// The `menu.json` beside the catalog folder, if there is one that reads.
        static func menu(besides catalogFolder: URL) -> Menu? {
            try? Menu(
                contentsOf: catalogFolder.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(
                    "menu.json"
                )
            )
        }

        /// What `caffe worker --check-config` finds in `catalog` with `menu`: each localization
        /// whose strings do not render with the values the worker passes (``CatalogProbe``), as an
        /// error no one key explains — an import that brings one writes nothing.
        static func workerCheck(_ catalog: StringCatalog, menu: Menu?) -> [CatalogDiagnostic] {
            guard let menu, catalog.diagnostics.allSatisfy({ $0.severity != .error }),
                let core = try? RenderingCore(catalog: catalog, menu: menu)
            else { return [] }
            return CatalogProbe.run(core).map { failure in
                CatalogDiagnostic(
                    .error,
                    CatalogDiagnostic.Code("worker-check"),
                    file: "",
                    locale: failure.localization,
                    message: "caffe worker would refuse the catalog: \(failure)"
                )
            }
        }

        /// What a new language still lacks to reach customers, from the `menu.json` beside the
        /// catalog folder: a store that sells in it, or prices in that store's currency; `nil` when
        /// nothing is missing or there is no menu to ask.
        static func marketNote(language: String, catalogFolder: URL) -> String? {
            let menuURL = catalogFolder.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(
                "menu.json"
            )
            guard let menu = try? Menu(contentsOf: menuURL),
                let catalog = try? StringCatalog(directory: catalogFolder),
                let entry = MarketReadiness(menu: menu, catalog: catalog).localizations()
                    .first(where: { $0.localization == language })
            else { return nil }
            if entry.stores.isEmpty {
                return "note: no store of menu.json sells in \(language) yet, so no order reaches it and caffe-sim has "
                    + "no market for it: add a store with its locale, currency and timeZone, and its prices "
                    + "(caffe lint --menu checks them)"
            }
            let unpriced = entry.stores.filter { !$0.unpriced.isEmpty }
            guard !unpriced.isEmpty else { return nil }
            return "note: "
                + unpriced.map { "\($0.id) has no \($0.currency) price for \($0.unpriced.count) items" }
                .joined(separator: ", ") + " (caffe lint --menu lists them)"
        }

        /// The XLIFF of an `.xcloc` (its one `Localized Contents/*.xliff`) or the file itself.
        static func xliffBytes(_ path: String) throws -> [UInt8] {
            let url = URL(fileURLWithPath: path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw LocalizationError(.unreadableCatalog, "\(path) does not exist")
            }
            guard isFolder.boolValue else { return try read(url) }
            let localized = url.appendingPathComponent("Localized Contents")
            let xliffs =
                (try? FileManager.default.contentsOfDirectory(atPath: localized.path))?
                .filter { $0.hasSuffix(".xliff") } ?? []
            guard xliffs.count == 1 else {
                throw LocalizationError(
                    .unreadableCatalog,
                    "\(path) holds \(xliffs.count) .xliff files in Localized Contents, not one"
                )
            }
            return try read(localized.appendingPathComponent(xliffs[0]))
        }

        /// The largest XLIFF read: a catalog file's cap, as the XLIFF carries one language of it.
        static let maxXLIFFBytes = StringCatalog.maxFileBytes

        private static func read(_ url: URL) throws -> [UInt8] {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
            guard size <= maxXLIFFBytes else {
                throw LocalizationError(
                    .unreadableCatalog,
                    "\(url.path) is \(size) bytes; an XLIFF is at most \(maxXLIFFBytes) (a catalog file's cap)"
                )
            }
            return try [UInt8](Data(contentsOf: url))
        }
    }
}
