import CaffeCore
import Foundation
import Localization

/// Loads what a configuration names.
public enum WorkerSetup {
    /// The catalog and menu named by `configuration` (or found in its configuration folder).
    ///
    /// - Throws: ``CoreConfigurationError`` when a file cannot be read or the catalog has errors.
    public static func core(for configuration: WorkerConfiguration) throws(CoreConfigurationError) -> RenderingCore {
        let directory = ConfigurationDirectory.resolve(configuration.configDirectory)
        let catalogURL =
            configuration.catalog.isEmpty
            ? directory.appendingPathComponent("Localizations") : URL(fileURLWithPath: configuration.catalog)
        let menuURL =
            configuration.menu.isEmpty
            ? directory.appendingPathComponent("menu.json") : URL(fileURLWithPath: configuration.menu)
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
        return core
    }
}
