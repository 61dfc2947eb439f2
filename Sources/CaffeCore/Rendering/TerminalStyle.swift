import CaffeProtocol
import Foundation

/// ANSI styling for terminal output, off when writing to a file or pipe.
public struct TerminalStyle: Sendable {
    /// Whether escape codes are emitted.
    public var enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

    /// Whether colour is on when no flag says: the descriptor is a terminal and `NO_COLOR` is
    /// unset or empty (no-color.org: a non-empty `NO_COLOR` turns default colour off; an explicit
    /// `--color` still wins).
    public static func colorByDefault(
        on descriptor: Int32 = STDOUT_FILENO,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        isatty(descriptor) != 0 && (environment["NO_COLOR"] ?? "").isEmpty
    }

    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func orange(_ text: String) -> String { wrap(text, "38;5;208") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    /// Each letter in the next colour of the rainbow (the Caffé app's `rainbow` attribute).
    public func rainbow(_ text: String) -> String {
        guard enabled else { return text }
        let colors = ["31", "38;5;208", "33", "32", "36", "34", "35"]
        var index = 0
        return text.map { character -> String in
            guard !character.isWhitespace else { return String(character) }
            defer { index += 1 }
            return "\u{1B}[\(colors[index % colors.count])m\(character)\u{1B}[0m"
        }.joined()
    }

    func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension TerminalStyle {
    /// Styled text for a terminal: emphasis, strong, code and strikethrough as SGR styles, links
    /// underlined, `rainbow` runs letter by letter, `foregroundColor: orange` in orange.
    public func render(_ text: Caffe_V1_StyledText) -> String {
        guard enabled else { return text.plain }
        var output = ""
        for run in text.runs {
            var piece = run.text
            if run.attributes["rainbow"] != nil { piece = rainbow(piece) }
            if run.attributes["foregroundColor"] == "\"orange\"" { piece = orange(piece) }
            if let intents = run.attributes["inlinePresentationIntent"] {
                if intents.contains("\"stronglyEmphasized\"") { piece = bold(piece) }
                if intents.contains("\"emphasized\"") { piece = wrap(piece, "3") }
                if intents.contains("\"code\"") { piece = dim(piece) }
                if intents.contains("\"strikethrough\"") { piece = wrap(piece, "9") }
            }
            if run.attributes["link"] != nil { piece = wrap(piece, "4") }
            output += piece
        }
        return output
    }
}
