import ArgumentParser
import CaffeCore
import Foundation
import Localization

/// `caffe catalog`: the catalog's round trip with translators.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Exchange a catalog with translators (Xcode's localization catalogs, .xcloc).",
        subcommands: [Export.self]
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
}
