/// A CLDR plural category, as catalogs name them (`zero`, `one`, `two`, `few`, `many`, `other`).
public enum PluralCategory: String, CaseIterable, Hashable, Sendable, Codable, Comparable {
    case zero, one, two, few, many, other

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
