/// ANSI styling for terminal output, off when writing to a file or pipe.
public struct TerminalStyle: Sendable {
    /// Whether escape codes are emitted.
    public var enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

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

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
