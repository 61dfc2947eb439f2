import Foundation
import FuzzSupport
import GrammarAgreement
import Localization

/// One catalog file format under test: each input is written to a scratch folder as that file,
/// then goes where `caffe lint` and `caffe string` take a catalog from a stranger.
///
/// 1. ``StringCatalog/init(file:developmentLanguage:)`` reads it (the format's reader, the
///    property-list parsers, the template compiler), which must never throw for a catalog file;
/// 2. `CatalogLinter` and `CatalogMarkupLinter` lint it;
/// 3. ``RichLocalizer`` renders its first entries in its first localizations with arguments
///    that fit their specifiers, as `AttributedString(localized:)` would, and the HTML and ANSI
///    renderings are checked with ``OutputChecks``.
///
/// Work per input is bounded (localizations, entries, renders), so a slow input is the reader's.
public struct CatalogFuzzTarget {
    /// Localizations rendered per input (each costs ICU set-up: plural rules, number formats).
    static let localizationLimit = 2
    /// Entries rendered per localization and table.
    static let entryLimit = 16
    /// Renders per entry (the numbers of ``SampleArguments``).
    static let variants = 2

    /// The scratch file the input is written to.
    let file: URL

    /// A target that writes each input to `relativePath` (`ar.lproj/Localizable.strings`,
    /// `Localizable.xcstrings`) inside a folder of this process's own.
    public init(relativePath: String) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("caffe-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        file = folder.appendingPathComponent(relativePath)
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
        } catch {
            FuzzDriver.fail("cannot create the scratch folder \(folder.path): \(error)")
        }
        ScratchFolders.removeAtExit(folder)
    }

    /// Reads, lints and renders `data` as the catalog file.
    ///
    /// An empty input is skipped: Foundation's reader of a zero-size file on Linux (swift-foundation
    /// `readBytesFromFile`) loses the 4 KiB buffer it reads into, a leak outside Caffe that would
    /// end every run at once. Empty files are `LocalizationTests`' business.
    public func run(_ data: Data) {
        guard !data.isEmpty else { return }
        ScratchFolders.write(data, to: file)
        let catalog: StringCatalog
        do {
            catalog = try StringCatalog(file: file)
        } catch {
            FuzzDriver.fail("a catalog file did not load: \(error)")
        }
        let report = CatalogLinter(catalog: catalog).lint()
            .merging(CatalogMarkupLinter(catalog: catalog).lint())
        _ = report.summary
        for finding in report.findings { _ = finding.description }
        for localization in catalog.localizations.prefix(Self.localizationLimit) {
            render(catalog, in: localization)
        }
    }

    /// Renders the first entries of every table in `localization`.
    private func render(_ catalog: StringCatalog, in localization: String) {
        guard let localizer = try? RichLocalizer(catalog: catalog, locale: localization) else { return }
        for table in catalog.tableNames {
            for entry in catalog.entries(table: table, localization: localization).prefix(Self.entryLimit) {
                _ = try? localizer.localizer.string(entry.key, table: table)
                for variant in 0..<Self.variants {
                    let arguments = SampleArguments.arguments(for: entry.value, variant: variant)
                    _ = try? localizer.localizer.string(entry.key, table: table, arguments: arguments)
                    guard let text = try? localizer.text(entry.key, table: table, arguments: arguments) else {
                        continue
                    }
                    _ = text.jsonRuns()
                    if let problem = OutputChecks.htmlProblem(text.html(), safeLinks: true) {
                        FuzzDriver.fail("HTML of '\(entry.key)': \(problem)")
                    }
                    if let problem = OutputChecks.ansiProblem(text.ansi()) {
                        FuzzDriver.fail("ANSI of '\(entry.key)': \(problem)")
                    }
                }
            }
        }
    }
}
