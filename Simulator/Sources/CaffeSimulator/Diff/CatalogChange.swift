import Foundation
import Localization

/// One key whose text a customer could see differently between two catalogs: changed, added or
/// removed, in one localization of one table (``StringCatalog/nonLocalized`` for a table outside
/// the `.lproj` folders). The menu file counts as one pseudo-key, ``menuFile``.
public struct CatalogChange: Hashable, Sendable, Comparable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        case changed, added, removed
    }

    public var table: String
    public var key: String
    public var localization: String
    public var kind: Kind

    public init(table: String, key: String, localization: String, kind: Kind) {
        self.table = table
        self.key = key
        self.localization = localization
        self.kind = kind
    }

    /// The menu file (`menu.json`): item prices, sizes and name keys.
    public static let menuFile = CatalogChange(table: "", key: "menu.json", localization: "", kind: .changed)

    /// `Table:key`, as `--allow` takes it (`menu.json` for the menu).
    public var name: String { table.isEmpty ? key : "\(table):\(key)" }

    /// `Table:key [localization]`.
    public var description: String { localization.isEmpty ? name : "\(name) [\(localization)]" }

    /// Whether `--allow` entry `allowed` names this change: `Table:key` or the bare key.
    public func isAllowed(by allowed: some Collection<String>) -> Bool {
        allowed.contains(name) || allowed.contains(key)
    }

    public static func < (lhs: CatalogChange, rhs: CatalogChange) -> Bool {
        (lhs.table, lhs.key, lhs.localization) < (rhs.table, rhs.key, rhs.localization)
    }

    /// Every key whose compiled value differs between `before` and `after`, sorted.
    public static func changes(from before: StringCatalog, to after: StringCatalog) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        for table in Set(before.tableNames).union(after.tableNames).sorted() {
            let localizations = Set(before.localizations(table: table)).union(after.localizations(table: table))
            for localization in localizations.sorted() {
                changes += compare(
                    table: table,
                    localization: localization,
                    before.entries(table: table, localization: localization),
                    after.entries(table: table, localization: localization)
                )
            }
            changes += compare(
                table: table,
                localization: StringCatalog.nonLocalized,
                before.nonLocalizedEntries(table: table),
                after.nonLocalizedEntries(table: table)
            )
        }
        return changes.sorted()
    }

    private static func compare(
        table: String,
        localization: String,
        _ before: [CatalogEntry],
        _ after: [CatalogEntry]
    ) -> [CatalogChange] {
        let old = Dictionary(before.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var changes: [CatalogChange] = []
        for key in Set(old.keys).union(new.keys) {
            let kind: Kind
            switch (old[key], new[key]) {
            case (let was?, let now?) where was != now: kind = .changed
            case (nil, .some): kind = .added
            case (.some, nil): kind = .removed
            default: continue
            }
            changes.append(CatalogChange(table: table, key: key, localization: localization, kind: kind))
        }
        return changes
    }
}
