/// A lexicon file that cannot be read: the line and what is wrong with it.
public struct LexiconError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The lexicon's name (its file name for bundled lexicons).
    public var source: String
    /// 1-based line; 0 when the whole file is at fault.
    public var line: Int
    public var message: String

    public init(source: String, line: Int, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String {
        line == 0 ? "\(source): \(message)" : "\(source):\(line): \(message)"
    }
}
