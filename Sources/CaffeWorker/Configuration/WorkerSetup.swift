import CHeapUsage
import CaffeBooks
import CaffeCore
import Foundation
import Localization
import Logging

/// Loads what a configuration names.
public enum WorkerSetup {
    /// Caps the C heap's arenas at one per core (at least 2) for a long-running worker, unless
    /// `MALLOC_ARENA_MAX` says otherwise: with glibc's eight per core, memory a flood made one
    /// thread free stays out of the others' reach (a million-source flood peaked 18 MB higher).
    public static func limitHeapArenas() {
        _ = caffe_heap_limit_arenas(Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
    }

    /// The catalog folder and the menu file `configuration` names, or its configuration folder's.
    public static func files(of configuration: WorkerConfiguration) -> (catalog: URL, menu: URL) {
        let directory = ConfigurationDirectory.resolve(configuration.configDirectory)
        let catalog =
            configuration.catalog.isEmpty
            ? directory.appendingPathComponent("Localizations") : URL(fileURLWithPath: configuration.catalog)
        let menu =
            configuration.menu.isEmpty
            ? directory.appendingPathComponent("menu.json") : URL(fileURLWithPath: configuration.menu)
        return (catalog, menu)
    }

    /// The catalog and menu named by `configuration` (or found in its configuration folder),
    /// checked against what the worker renders (``CatalogProbe``): with `catalog_check: refuse`
    /// a catalog with strings that fail is refused; with `warn` each failing localization is
    /// logged to `logger`.
    ///
    /// - Throws: ``CoreConfigurationError`` when a file cannot be read, the catalog has errors, or
    ///   its strings fail the probe.
    public static func core(
        for configuration: WorkerConfiguration,
        logger: Logger? = nil
    ) throws(CoreConfigurationError) -> RenderingCore {
        let (catalogURL, menuURL) = files(of: configuration)
        let catalog: StringCatalog
        do {
            catalog = try StringCatalog(directory: catalogURL)
        } catch {
            throw .catalog(error)
        }
        // The catalog reader loads what it can and reports the rest; a service refuses a catalog
        // with errors, so a broken file never replaces working translations.
        if let problem = catalog.diagnostics.first(where: { $0.severity == .error }) {
            let count = catalog.diagnostics.filter { $0.severity == .error }.count
            throw .catalog(
                LocalizationError(
                    .unreadableCatalog,
                    "\(count) error\(count == 1 ? "" : "s") in \(catalogURL.path), the first: \(problem)"
                )
            )
        }
        let menu: Menu
        do {
            menu = try Menu(contentsOf: menuURL)
        } catch {
            throw .menu(error)
        }
        let core = try RenderingCore(catalog: catalog, menu: menu)
        // Lexicons are read here, at start and on reload, not on the first order in a language.
        core.prepareAgreement()
        let failures = CatalogProbe.run(core)
        guard let first = failures.first else { return core }
        switch configuration.catalogCheck {
        case .refuse:
            let names = failures.map(\.localization).joined(separator: ", ")
            throw .catalog(
                LocalizationError(
                    .argumentMismatch,
                    "strings in \(failures.count) localization\(failures.count == 1 ? "" : "s") (\(names)) do not render "
                        + "with the values the worker passes; the first, \(first); "
                        + "fix them, or set catalog_check: warn to load it and park those orders"
                )
            )
        case .warn:
            for failure in failures {
                logger?.error(
                    "catalog strings do not render; orders in this localization are parked until a reload fixes them",
                    metadata: ["localization": "\(failure.localization)", "error": "\(failure.message)"]
                )
            }
            return core
        }
    }
}
