/// What rendered output must never contain, whatever the input: checked on every input, so a
/// fuzzer fails on an escaping bug as it does on a crash.
public enum OutputChecks {
    /// Elements `HTMLRenderer` writes: CommonMark's inline tags (`<img />` too), `<del>` and `<span data-…>`.
    static let htmlElements: Set<String> = ["em", "strong", "code", "a", "br", "del", "span", "img"]

    /// Schemes that run code or carry a document of their own; never a link under the default
    /// allow-list.
    static let dangerousSchemes = ["javascript:", "vbscript:", "data:", "file:"]

    /// Checks an HTML fragment from `HTMLRenderer`: every `<` opens one of its elements, every
    /// attribute is `name="value"` with the value escaped, and, when `safeLinks`, no `href` or `src`
    /// starts with a dangerous scheme. Returns what is wrong, or `nil`.
    public static func htmlProblem(_ html: String, safeLinks: Bool) -> String? {
        let scalars = Array(html.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == ">" { return "a bare '>' in text at scalar \(index - 1)" }
            if scalar == "\"" { return "a bare '\"' in text at scalar \(index - 1)" }
            guard scalar == "<" else { continue }
            if index < scalars.count, scalars[index] == "/" { index += 1 }
            let name = word(scalars, &index)
            guard htmlElements.contains(name) else { return "an element '<\(name)' the renderer never writes" }
            while true {
                while index < scalars.count, scalars[index] == " " { index += 1 }
                guard index < scalars.count else { return "an unterminated '<\(name)'" }
                if scalars[index] == ">" {
                    index += 1
                    break
                }
                if scalars[index] == "/", index + 1 < scalars.count, scalars[index + 1] == ">" {
                    index += 2
                    break
                }
                let attribute = word(scalars, &index)
                guard !attribute.isEmpty, index + 1 < scalars.count, scalars[index] == "=", scalars[index + 1] == "\""
                else { return "a malformed attribute in '<\(name)' at scalar \(index)" }
                index += 2
                var value = String.UnicodeScalarView()
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "<" || scalars[index] == ">" {
                        return "an unescaped '<' or '>' in '\(attribute)'"
                    }
                    value.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count else { return "an unterminated value of '\(attribute)'" }
                index += 1
                if safeLinks, attribute == "href" || attribute == "src" {
                    let href = String(value).lowercased()
                    if let scheme = dangerousSchemes.first(where: href.hasPrefix) {
                        return "a '\(scheme)' link under the safe allow-list: \(href)"
                    }
                }
            }
        }
        return nil
    }

    /// Checks terminal output from `ANSIRenderer`: the only escape sequences are its own SGR
    /// (`ESC [ digits;… m`) and OSC 8 hyperlinks (`ESC ] 8 ; ; uri ESC \`), and no other C0 or C1
    /// control character than newline and tab appears. Returns what is wrong, or `nil`.
    public static func ansiProblem(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard isControl(scalar) else { continue }
            guard scalar == "\u{1B}", index < scalars.count else {
                return "control character U+\(String(scalar.value, radix: 16)) at scalar \(index - 1)"
            }
            switch scalars[index] {
            case "[":
                index += 1
                while index < scalars.count, scalars[index] == ";" || ("0"..."9").contains(scalars[index]) {
                    index += 1
                }
                guard index < scalars.count, scalars[index] == "m" else { return "an escape that is not SGR" }
                index += 1
            case "]":
                guard Array(scalars[index..<min(index + 4, scalars.count)]) == ["]", "8", ";", ";"] else {
                    return "an operating-system command that is not a hyperlink"
                }
                index += 4
                while index < scalars.count, !isControl(scalars[index]) { index += 1 }
                guard index + 1 < scalars.count, scalars[index] == "\u{1B}", scalars[index + 1] == "\\" else {
                    return "a hyperlink with a control character in its address"
                }
                index += 2
            default:
                return "an escape sequence the renderer never writes"
            }
        }
        return nil
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
    }

    /// ASCII letters, digits and `-` from `index` on.
    private static func word(_ scalars: [Unicode.Scalar], _ index: inout Int) -> String {
        var word = String.UnicodeScalarView()
        while index < scalars.count,
            ("a"..."z").contains(scalars[index]) || ("A"..."Z").contains(scalars[index])
                || ("0"..."9").contains(scalars[index]) || "-_.".unicodeScalars.contains(scalars[index])
        {
            word.append(scalars[index])
            index += 1
        }
        return String(word)
    }
}
