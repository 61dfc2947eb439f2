import Foundation

/// Whether JSON text written by hand (`JSONValue.jsonText`, `JSONRunsRenderer`) is JSON.
public enum JSONTextCheck {
    /// Parses `text` with Foundation's strict parser (no JSON5); returns what is wrong, or `nil`.
    public static func problem(_ text: String) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            return nil
        } catch {
            return "not JSON (\(error)): \(text)"
        }
    }

    /// Parses `text` as `Value` and checks that `rewrite` gives the same text back: the writer's
    /// output is canonical (sorted keys, no spaces, integral numbers without a fraction). Slower
    /// than ``problem(_:)``: for fuzzers whose inputs are mostly values.
    public static func problem<Value: Decodable>(
        _ text: String,
        as type: Value.Type,
        rewrite: (Value) -> String
    ) -> String? {
        let value: Value
        do {
            value = try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            return "not JSON (\(error)): \(text)"
        }
        let again = rewrite(value)
        guard again == text else { return "not canonical: \(text) reads back as \(again)" }
        return nil
    }
}
