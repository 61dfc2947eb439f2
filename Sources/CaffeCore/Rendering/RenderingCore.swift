import Foundation
import GrammarAgreement
import Localization
import Synchronization

/// What the core uses when an input leaves something out, and the limits it enforces.
public struct CoreDefaults: Hashable, Sendable {
    /// For a customer or request without a locale (stated in the output's notes).
    public var locale: String
    /// For a customer or request without a time zone (stated in the output's notes).
    public var timeZone: String
    /// The largest quantity one order line may have.
    public var maximumQuantity: UInt32
    /// The most lines one order may have.
    public var maximumLines: Int
    /// The largest tip accepted, in the currency's major units.
    public var maximumTip: Decimal

    public init(
        locale: String = "en-US",
        timeZone: String = "UTC",
        maximumQuantity: UInt32 = 999,
        maximumLines: Int = 100,
        maximumTip: Decimal = 1_000_000
    ) {
        self.locale = locale
        self.timeZone = timeZone
        self.maximumQuantity = maximumQuantity
        self.maximumLines = maximumLines
        self.maximumTip = maximumTip
    }
}

/// A configuration the core cannot start with: a catalog or menu that does not load, or a menu
/// whose names the catalog lacks.
public enum CoreConfigurationError: Error, CustomStringConvertible {
    case catalog(LocalizationError)
    case menu(MenuError)

    /// The configuration key of the file at fault: `catalog` or `menu`.
    public var key: String {
        switch self {
        case .catalog: "catalog"
        case .menu: "menu"
        }
    }

    public var description: String {
        switch self {
        case .catalog(let error): "catalog: \(error)"
        case .menu(let error): "\(error)"
        }
    }
}

/// The formatting core's shared, immutable state: the string catalog, the menu and the defaults.
/// Make one per configuration (a reload makes a new one) and a ``RenderSession`` from it per
/// thread; sessions never lock and never share mutable state.
///
/// ```swift
/// let core = try RenderingCore(configurationDirectory: URL(fileURLWithPath: "config"))
/// let session = core.makeSession()
/// let rendered = try session.render(order)   // confirmation and receipt
/// print(rendered.receipt.text.plain)
/// ```
public final class RenderingCore: Sendable {
    public let catalog: StringCatalog
    public let menu: Menu
    public let defaults: CoreDefaults

    /// Checks that the development language names every item, size and ingredient of `menu`.
    public init(catalog: StringCatalog, menu: Menu, defaults: CoreDefaults = CoreDefaults())
        throws(CoreConfigurationError)
    {
        let named = Set(
            catalog.entries(table: menu.nameTable, localization: catalog.developmentLanguage).map(\.key)
        )
        if let missing = menu.nameKeys.subtracting(named).sorted().first {
            throw .menu(
                MenuError(
                    path: "nameTable",
                    "'\(missing)' has no name in \(menu.nameTable) (\(catalog.developmentLanguage))"
                )
            )
        }
        self.catalog = catalog
        self.menu = menu
        self.defaults = defaults
    }

    /// Loads `<directory>/Localizations` and `<directory>/menu.json` (the layout of `config/`).
    public convenience init(configurationDirectory directory: URL, defaults: CoreDefaults = CoreDefaults())
        throws(CoreConfigurationError)
    {
        let catalog: StringCatalog
        do {
            catalog = try StringCatalog(directory: directory.appendingPathComponent("Localizations"))
        } catch {
            throw .catalog(error)
        }
        let menu: Menu
        do {
            menu = try Menu(contentsOf: directory.appendingPathComponent("menu.json"))
        } catch {
            throw .menu(error)
        }
        try self.init(catalog: catalog, menu: menu, defaults: defaults)
    }

    /// A session for one thread, its compiled locales bounded to `localeCacheBytes`.
    public func makeSession(localeCacheBytes: Int = RenderSession.defaultLocaleCacheBytes) -> RenderSession {
        RenderSession(core: self, localeCacheBytes: localeCacheBytes)
    }

    /// The locales a render thread compiles before it takes work: the catalog's localizations and
    /// the default locale.
    public var preparedLocales: [String] {
        [defaults.locale] + catalog.localizations.filter { $0 != "Base" && $0 != defaults.locale }
    }

    /// Agreement engines by localization, with the terms the menu's name table declares.
    private let engines = Mutex<[String: AgreementEngine]>([:])

    /// The agreement engine for a catalog localization: the shared one for its locale, or, when the
    /// menu's name table declares terms for it (gender, plural: ``DeclaredTerm``), one with those
    /// terms over its lexicon. Made once per localization and shared by every session.
    public func engine(for localization: String) throws(AgreementError) -> AgreementEngine {
        if let made = engines.withLock({ $0[localization] }) { return made }
        let terms = DeclaredTerm.declared(in: catalog, table: menu.nameTable, localization: localization)
        let engine =
            terms.isEmpty
            ? try GrammarAgreement.engine(for: localization)
            : try AgreementEngine(locale: localization, declaring: terms)
        return engines.withLock { cache in
            if let existing = cache[localization] { return existing }
            cache[localization] = engine
            return engine
        }
    }

    /// Makes the agreement engines of every localization the catalog has, reading their lexicons
    /// now rather than on the first order in each language (the worker calls it before it takes
    /// events, so no order waits for a lexicon to load). Returns the localizations made.
    @discardableResult
    public func prepareAgreement() -> [String] {
        var made: [String] = []
        for localization in catalog.localizations {
            if (try? engine(for: localization)) != nil { made.append(localization) }
        }
        return made
    }
}
