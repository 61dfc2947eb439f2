extension CatalogDiagnostic.Code {
    /// A property list holds a kind of value the file format does not allow where it was found, such
    /// as a number in a `.strings` file or an array as its root; the value is left out.
    public static let unexpectedValueType = Self("unexpected-value-type")
}
