/// A property-list dictionary that keeps its entries in file order, each with the location of its key.
///
/// Lookups by key see the last entry with that key, as Foundation does when a file repeats a key.
/// Two dictionaries are equal when they hold the same keys and values in the same order; the
/// locations of the keys are not compared, so a dictionary built in a test with a literal equals
/// one read from a file.
///
/// ```swift
/// let width: PropertyListDictionary = ["1": .string("маленький"), "5": .string("средний")]
/// width["5"]  // .string("средний")
/// width.keys  // ["1", "5"]
/// ```
public struct PropertyListDictionary: Sendable {
    /// One key and its value, where the key was found.
    public struct Entry: Hashable, Sendable {
        /// The text of the `<key>` element.
        public var key: String
        /// The value element that followed the key.
        public var value: PropertyListValue
        /// Where the `<key>` element starts; ``SourceLocation/unknown`` for binary property lists.
        public var location: SourceLocation

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - key: The key.
        ///   - value: The value.
        ///   - location: Where the key was found; ``SourceLocation/unknown`` when it was not read from text.
        public init(key: String, value: PropertyListValue, location: SourceLocation = .unknown) {
            self.key = key
            self.value = value
            self.location = location
        }
    }

    /// The entries in file order, duplicates included.
    public var entries: [Entry]

    /// Creates a dictionary from entries, kept in the given order.
    ///
    /// - Parameter entries: The entries, duplicates allowed.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The value of the last entry with `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The key to look up.
    public subscript(key: String) -> PropertyListValue? {
        entries.last { $0.key == key }?.value
    }

    /// The keys in file order, with repeats when the file repeats a key.
    public var keys: [String] {
        entries.map(\.key)
    }

    /// The number of entries, duplicates included.
    public var count: Int {
        entries.count
    }

    /// Whether the dictionary has no entries.
    public var isEmpty: Bool {
        entries.isEmpty
    }
}
