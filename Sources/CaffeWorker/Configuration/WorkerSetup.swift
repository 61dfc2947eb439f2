import CaffeCore
import Foundation
import Localization

/// Loads what a configuration names.
public enum WorkerSetup {
    /// The catalog and menu named by `configuration` (or found in its configuration folder).
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
        let menu: Menu
        do {
            menu = try Menu(contentsOf: menuURL)
        } catch {
            throw .menu(error)
        }
        return try RenderingCore(catalog: catalog, menu: menu)
    }
}
