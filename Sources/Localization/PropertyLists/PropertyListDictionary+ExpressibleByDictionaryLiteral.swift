extension PropertyListDictionary: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary whose entries are the literal's pairs, in order, with unknown locations.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self.init(elements.map { Entry(key: $0.0, value: $0.1) })
    }
}
