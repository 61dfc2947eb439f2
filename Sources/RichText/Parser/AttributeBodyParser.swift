import Foundation

/// Parses the body of Apple's `^[text](body)`: JSON5 with an implied top-level object, so
/// `(rainbow: 'fun')` and `({rainbow: 'fun'})` mean the same.
enum AttributeBodyParser {
    struct Failure: Error {
        var message: String
        /// Offset of the problem in the body, in Unicode scalars.
        var offset: Int
    }

    static func parse(_ body: String) throws(Failure) -> [String: JSONValue] {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        let isExplicitObject = trimmed.hasPrefix("{")
        // The newline ends a trailing `// comment` before the closing brace.
        let document = isExplicitObject ? body : "{" + body + "\n}"
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        do {
            return try decoder.decode([String: JSONValue].self, from: Data(document.utf8))
        } catch {
            let offset = characterOffset(in: error).map { max(0, $0 - (isExplicitObject ? 0 : 1)) } ?? 0
            let reason = (error as? DecodingError).map(describe) ?? String(describing: error)
            throw Failure(message: reason, offset: min(offset, body.unicodeScalars.count))
        }
    }

    /// Foundation reports JSON errors "around character N" (a UTF-8 offset); convert to scalars.
    private static func characterOffset(in error: any Error) -> Int? {
        var texts = [String(describing: error)]
        if case DecodingError.dataCorrupted(let context) = error {
            texts.append(context.debugDescription)
            if let underlying = context.underlyingError { texts.append(String(describing: underlying)) }
        }
        for text in texts {
            if let range = text.range(of: "character ") {
                return Int(text[range.upperBound...].prefix(while: \.isNumber))
            }
        }
        return nil
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return "not valid JSON5: \(context.debugDescription)\(underlying)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            return "not a JSON5 object: \(context.debugDescription)"
        @unknown default:
            return "not valid JSON5"
        }
    }
}
