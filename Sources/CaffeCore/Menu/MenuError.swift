/// A menu that cannot be used: where (a JSON path such as `items[2].prices.large.JPY`) and why.
public struct MenuError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The JSON path of the offending value; empty for the whole file.
    public var path: String
    public var message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    init(decoding error: DecodingError) {
        func describe(_ context: DecodingError.Context) -> String {
            context.codingPath.reduce("") { path, key in
                if let index = key.intValue { return path + "[\(index)]" }
                return path.isEmpty ? key.stringValue : path + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = describe(context)
            self.init(path: parent.isEmpty ? key.stringValue : parent + "." + key.stringValue, "is missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            self.init(path: describe(context), context.debugDescription)
        case .dataCorrupted(let context):
            self.init(path: describe(context), context.debugDescription)
        @unknown default:
            self.init(path: "", "\(error)")
        }
    }

    public var description: String {
        path.isEmpty ? "menu: \(message)" : "menu: \(path): \(message)"
    }
}
