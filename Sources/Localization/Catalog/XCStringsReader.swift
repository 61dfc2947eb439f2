import Foundation

/// Turns an Xcode String Catalog (`.xcstrings`, JSON) into catalog entries for every language.
///
/// Each key is interpreted on its own, so one malformed key is reported and the rest still load.
enum XCStringsReader {
    struct Result {
        var entries: [CatalogEntry] = []
        var diagnostics: [CatalogDiagnostic] = []
        var sourceLanguage: String?
    }

    static func entries(data: Data, file: String, table: String) -> Result {
        var result = Result()
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Keep the keys before the damage: a file cut short loses only its last key.
            let recovered = recoverEntries(of: data)
            let keptCount = (recovered?["strings"] as? [String: Any])?.count
            let consequence =
                keptCount.map {
                    "the \($0) key\($0 == 1 ? "" : "s") before it \($0 == 1 ? "is" : "are") loaded, the rest is not"
                }
                ?? "nothing in the file is loaded"
            result.diagnostics.append(
                CatalogDiagnostic(
                    .error,
                    .syntaxError,
                    file: file,
                    location: jsonErrorLocation(error, in: data),
                    message: "not valid JSON: \(jsonErrorReason(error)); \(consequence)"
                )
            )
            guard let recovered, keptCount != nil else { return result }
            json = recovered
        }
        guard let root = json as? [String: Any] else {
            result.diagnostics.append(
                CatalogDiagnostic(
                    .error,
                    .invalidEntry,
                    file: file,
                    message: "the root of a String Catalog must be an object"
                )
            )
            return result
        }
        // The key-as-value entries need a language; only a declared one speaks for the catalog.
        let sourceLanguage = root["sourceLanguage"] as? String ?? "en"
        result.sourceLanguage = root["sourceLanguage"] as? String
        if root["sourceLanguage"] as? String == nil {
            result.diagnostics.append(
                CatalogDiagnostic(.warning, .invalidEntry, file: file, message: "no sourceLanguage; assuming 'en'")
            )
        }
        guard let strings = root["strings"] as? [String: Any] else {
            result.diagnostics.append(
                CatalogDiagnostic(
                    .error,
                    .invalidEntry,
                    file: file,
                    message: "a String Catalog needs a \"strings\" object"
                )
            )
            return result
        }
        for key in strings.keys.sorted() {
            var reader = KeyReader(key: key, file: file, table: table, sourceLanguage: sourceLanguage)
            reader.read(strings[key])
            result.entries += reader.entries
            result.diagnostics += reader.diagnostics
        }
        return result
    }

    /// The root object of the longest prefix of a broken file that ends after a complete member
    /// of `"strings"` and parses once closed with `}}`; `nil` when there is none.
    ///
    /// Members of the `strings` object sit at depth 2 (the root is depth 1), so a `,` there ends
    /// one. Prefixes that end before the damage parse and those after it do not, so the longest
    /// good one is found by bisection.
    static func recoverEntries(of data: Data) -> [String: Any]? {
        let ends = memberEnds(in: data)
        func parsed(_ index: Int) -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: data.prefix(ends[index]) + Data("}}".utf8))) as? [String: Any]
        }
        var low = 0
        var high = ends.count - 1
        var best: [String: Any]?
        while low <= high {
            let middle = (low + high) / 2
            if let root = parsed(middle) {
                best = root
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }

    /// The offsets of the commas that end members at depth 2, outside strings.
    private static func memberEnds(in data: Data) -> [Int] {
        var depth = 0
        var inString = false
        var isEscaped = false
        var ends: [Int] = []
        for (offset, byte) in data.enumerated() {
            if inString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 2: ends.append(offset)
            default: break
            }
        }
        return ends
    }

    /// Foundation's own sentence for a JSON error ("Unexpected end of file during JSON parse."),
    /// without the `NSError` wrapping around it.
    static func jsonErrorReason(_ error: any Error) -> String {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        let reason = detail ?? String(describing: error)
        return reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    }

    /// Where a JSON error is: "line 3, column 7" if the message says so, else "character 57"
    /// (a UTF-8 offset, as Foundation on Linux reports it) turned into line and column; the end
    /// of the data for a file cut short.
    static func jsonErrorLocation(_ error: any Error, in data: Data) -> SourceLocation {
        var messages = [String(describing: error)]
        if let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String { messages.append(detail) }
        if messages.contains(where: { $0.contains("Unexpected end of file") }) {
            return location(ofUTF8Offset: data.count, in: data)
        }
        for text in messages {
            func number(after label: String) -> Int? {
                guard let range = text.range(of: label) else { return nil }
                return Int(text[range.upperBound...].prefix(while: \.isNumber))
            }
            if let line = number(after: "line ") {
                return SourceLocation(line: line, column: number(after: "column ") ?? 0)
            }
            if let offset = number(after: "character ") {
                return location(ofUTF8Offset: offset, in: data)
            }
        }
        return .unknown
    }

    /// The 1-based line and column (in characters) of a UTF-8 offset.
    static func location(ofUTF8Offset offset: Int, in data: Data) -> SourceLocation {
        let prefix = data.prefix(max(0, min(offset, data.count)))
        let lines = String(decoding: prefix, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        return SourceLocation(line: lines.count, column: (lines.last?.count ?? 0) + 1)
    }
}

/// Interprets one key of a String Catalog.
private struct KeyReader {
    let key: String
    let file: String
    let table: String
    let sourceLanguage: String
    var entries: [CatalogEntry] = []
    var diagnostics: [CatalogDiagnostic] = []
    /// The argument that chooses every whole-string plural variation of this key, in every
    /// localization: the source text's numeric argument (see ``pluralSelector(localizations:)``).
    private(set) var selector: Int?

    mutating func report(
        _ severity: CatalogDiagnostic.Severity,
        _ code: CatalogDiagnostic.Code,
        _ language: String?,
        _ message: String
    ) {
        diagnostics.append(CatalogDiagnostic(severity, code, file: file, key: key, locale: language, message: message))
    }

    mutating func read(_ value: Any?) {
        guard let object = value as? [String: Any] else {
            report(.error, .invalidEntry, nil, "the key's value is not an object")
            return
        }
        let shouldTranslate = object["shouldTranslate"] as? Bool ?? true
        let extractionState = object["extractionState"] as? String
        let comment = object["comment"] as? String
        let localizations = object["localizations"] as? [String: Any] ?? [:]
        if object["localizations"] != nil, object["localizations"] as? [String: Any] == nil {
            report(.error, .invalidEntry, nil, "\"localizations\" is not an object")
        }
        func entry(_ language: String, _ value: CompiledString, state: TranslationState?, keyAsValue: Bool)
            -> CatalogEntry
        {
            CatalogEntry(
                key: key,
                table: table,
                localization: language,
                value: value,
                format: .xcstrings,
                file: file,
                state: state,
                extractionState: extractionState,
                shouldTranslate: shouldTranslate,
                isKeyAsValue: keyAsValue,
                comment: comment
            )
        }
        selector = pluralSelector(localizations: localizations)
        // The source language falls back to the key itself, as Xcode does.
        if localizations[sourceLanguage] == nil {
            var compiler = TemplateCompiler()
            let value = compiler.compile(key)
            entries.append(entry(sourceLanguage, value, state: nil, keyAsValue: true))
        }
        for language in localizations.keys.sorted() {
            // A key marked "don't translate" renders its source text everywhere.
            if !shouldTranslate && language != sourceLanguage { continue }
            guard let localization = localizations[language] as? [String: Any] else {
                report(.error, .invalidEntry, language, "the localization is not an object")
                continue
            }
            let substitutions = localization["substitutions"] as? [String: Any] ?? [:]
            var states: [TranslationState] = []
            var compiler = TemplateCompiler { name in Self.definition(ofSubstitution: substitutions[name]) }
            guard let node = content(localization, compiler: &compiler, states: &states, language: language) else {
                continue
            }
            let source = (localization["stringUnit"] as? [String: Any])?["value"] as? String ?? ""
            let value = CompiledString(root: node, source: source)
            for issue in compiler.issues(for: value) { report(issue.severity, issue.code, language, issue.message) }
            for (name, substitution) in substitutions.sorted(by: { $0.key < $1.key }) {
                if Self.definition(ofSubstitution: substitution) == nil {
                    report(
                        .error,
                        .invalidEntry,
                        language,
                        "substitution '\(name)' has neither a plural variation nor a stringUnit"
                    )
                }
                states += Self.states(ofSubstitution: substitution)
            }
            entries.append(entry(language, value, state: Self.leastFinished(states), keyAsValue: false))
        }
    }

    /// A localization's content: a `stringUnit`, or `variations` by plural or device (nestable).
    private mutating func content(
        _ object: [String: Any],
        compiler: inout TemplateCompiler,
        states: inout [TranslationState],
        language: String
    ) -> TemplateNode? {
        if let variations = object["variations"] as? [String: Any] {
            if let plural = variations["plural"] as? [String: Any] {
                var cases: [PluralCategory: TemplateNode] = [:]
                for (name, value) in plural {
                    guard let category = PluralCategory(rawValue: name) else {
                        report(.warning, .unknownPluralCategory, language, "unknown plural category '\(name)'")
                        continue
                    }
                    if let case_ = value as? [String: Any],
                        let node = content(case_, compiler: &compiler, states: &states, language: language)
                    {
                        cases[category] = node
                    }
                }
                return .plural(PluralSwitch(argument: selector ?? Self.firstArgument(of: cases), cases: cases))
            }
            if let device = variations["device"] as? [String: Any] {
                var cases: [DeviceClass: TemplateNode] = [:]
                for (name, value) in device {
                    guard let deviceClass = DeviceClass(catalogName: name) else {
                        report(.warning, .unsupportedRuleType, language, "unknown device '\(name)'")
                        continue
                    }
                    if let case_ = value as? [String: Any],
                        let node = content(case_, compiler: &compiler, states: &states, language: language)
                    {
                        cases[deviceClass] = node
                    }
                }
                return .device(cases)
            }
            report(.error, .invalidEntry, language, "variations must vary by plural or device")
            return nil
        }
        guard let unit = object["stringUnit"] as? [String: Any] else {
            report(.error, .invalidEntry, language, "the localization has neither stringUnit nor variations")
            return nil
        }
        guard let text = unit["value"] as? String else {
            report(.error, .invalidEntry, language, "stringUnit has no string value")
            return nil
        }
        if let state = (unit["state"] as? String).flatMap(TranslationState.init(rawValue:)) { states.append(state) }
        return compiler.compileVariant(text)
    }

    /// The argument whose plural category chooses a whole-string plural variation.
    ///
    /// Xcode offers a whole-string plural only when the source string has one numeric argument
    /// (with several it makes substitutions), and its build infers the plural's argument from the
    /// numeric specifiers ("Cannot infer format specifier for string group because no numerical
    /// specifiers were found" when there is none). So the selector is the numeric argument of the
    /// source-language text — its value or, without one, the key — whatever order a translation
    /// writes its arguments in, and whether or not a variant shows the number ("jedna shoda").
    /// `nil` when no localization varies by plural.
    private mutating func pluralSelector(localizations: [String: Any]) -> Int? {
        guard localizations.values.contains(where: Self.hasPluralVariation) else { return nil }
        var texts: [String] = []
        if let source = localizations[sourceLanguage] { Self.collectTexts(source, into: &texts) }
        if texts.isEmpty { texts = [key] }
        var numeric: [Int] = []
        var any: [Int] = []
        for text in texts {
            var compiler = TemplateCompiler()
            compiler.compileVariant(text).visit { use in
                guard case .argument(let index, let specifier) = use else { return }
                if !any.contains(index) { any.append(index) }
                if specifier.isNumeric, !numeric.contains(index) { numeric.append(index) }
            }
        }
        if numeric.count > 1 {
            report(
                .warning,
                .ambiguousPluralArgument,
                sourceLanguage,
                "the source has several numeric arguments (\(numeric.map { "\($0 + 1)" }.joined(separator: ", "))); "
                    + "argument \(numeric[0] + 1) chooses the plural variants (Xcode varies such strings by substitutions)"
            )
        } else if numeric.isEmpty {
            report(
                .warning,
                .ambiguousPluralArgument,
                sourceLanguage,
                "the source has no numeric argument to choose the plural variants by (Xcode does not build this); "
                    + (any.first.map { "argument \($0 + 1) is used" } ?? "they are chosen by argument 1")
            )
        }
        return numeric.first ?? any.first
    }

    /// Whether a localization object varies by plural at its top (or under a device variation).
    private static func hasPluralVariation(_ localization: Any) -> Bool {
        guard let variations = (localization as? [String: Any])?["variations"] as? [String: Any] else { return false }
        if variations["plural"] is [String: Any] { return true }
        return (variations["device"] as? [String: Any])?.values.contains(where: hasPluralVariation) ?? false
    }

    /// Every `stringUnit` value of a localization, variants included.
    private static func collectTexts(_ value: Any, into texts: inout [String]) {
        guard let object = value as? [String: Any] else { return }
        if let text = (object["stringUnit"] as? [String: Any])?["value"] as? String { texts.append(text) }
        for case let group as [String: Any] in ((object["variations"] as? [String: Any]) ?? [:]).values {
            for name in group.keys.sorted() { collectTexts(group[name] as Any, into: &texts) }
        }
    }

    /// A fallback selector for a plural variation when the source offers none: the first numeric
    /// argument of the variants, else their first argument of any kind.
    private static func firstArgument(of cases: [PluralCategory: TemplateNode]) -> Int {
        var numeric: Int?
        var any: Int?
        for category in [PluralCategory.other, .many, .few, .two, .one, .zero] {
            cases[category]?.visit { use in
                guard case .argument(let index, let specifier) = use else { return }
                if any == nil { any = index }
                if numeric == nil, specifier.isNumeric { numeric = index }
            }
        }
        return numeric ?? any ?? 0
    }

    /// A substitution's definition: its argument, specifier and plural variants (or single value).
    private static func definition(ofSubstitution value: Any?) -> VariableDefinition? {
        guard let object = value as? [String: Any] else { return nil }
        let argumentNumber = object["argNum"] as? Int
        let formatSpecifier = object["formatSpecifier"] as? String ?? "@"
        var cases: [(category: String, text: String)] = []
        for (name, unit) in stringUnits(ofSubstitution: object) {
            if let text = unit["value"] as? String { cases.append((name, text)) }
        }
        guard !cases.isEmpty else { return nil }
        return .substitution(argumentNumber: argumentNumber, formatSpecifier: formatSpecifier, plural: cases)
    }

    /// The states of a substitution's string units.
    private static func states(ofSubstitution value: Any?) -> [TranslationState] {
        guard let object = value as? [String: Any] else { return [] }
        return stringUnits(ofSubstitution: object).compactMap { _, unit in
            (unit["state"] as? String).flatMap(TranslationState.init(rawValue:))
        }
    }

    /// A substitution's string units by plural category (`other` for an unvaried one).
    private static func stringUnits(ofSubstitution object: [String: Any]) -> [(String, [String: Any])] {
        if let plural = (object["variations"] as? [String: Any])?["plural"] as? [String: Any] {
            return plural.sorted { $0.key < $1.key }.compactMap { name, value in
                ((value as? [String: Any])?["stringUnit"] as? [String: Any]).map { (name, $0) }
            }
        }
        if let unit = object["stringUnit"] as? [String: Any] { return [("other", unit)] }
        return []
    }

    private static func leastFinished(_ states: [TranslationState]) -> TranslationState? {
        for state in [TranslationState.stale, .needsReview, .new, .translated] where states.contains(state) {
            return state
        }
        return nil
    }
}
