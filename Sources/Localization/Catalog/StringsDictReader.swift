import Foundation

extension CatalogDiagnostic.Code {
    /// A `.stringsdict` entry that is not shaped as Apple documents.
    public static let invalidEntry = Self("invalid-entry")
}

/// Turns a `.stringsdict` file into catalog entries.
///
/// Each top-level key holds `NSStringLocalizedFormatKey` (with `%#@variable@` references) and one
/// dictionary per variable, whose `NSStringFormatSpecTypeKey` is `NSStringPluralRuleType`,
/// `NSStringDeviceSpecificRuleType` or `NSStringVariableWidthRuleType`. An entry may instead hold a
/// bare device or width rule (`{ NSStringVariableWidthRuleType: { 1: …, 20: … } }`).
enum StringsDictReader {
    static let formatKey = "NSStringLocalizedFormatKey"
    static let specTypeKey = "NSStringFormatSpecTypeKey"
    static let valueTypeKey = "NSStringFormatValueTypeKey"

    static func entries(
        data: Data,
        file: String,
        table: String,
        localization: String
    ) -> (entries: [CatalogEntry], diagnostics: [CatalogDiagnostic]) {
        let result = PropertyListReader.read(data, file: file)
        var diagnostics = result.diagnostics.located(in: localization)
        guard let value = result.value else { return ([], diagnostics) }
        guard let root = value.dictionaryValue else {
            diagnostics.append(
                CatalogDiagnostic(
                    .error,
                    .invalidEntry,
                    file: file,
                    locale: localization,
                    message: "the root of a .stringsdict must be a dictionary"
                )
            )
            return ([], diagnostics)
        }
        var entries: [CatalogEntry] = []
        for item in root.entries {
            func report(_ severity: CatalogDiagnostic.Severity, _ code: CatalogDiagnostic.Code, _ message: String) {
                diagnostics.append(
                    CatalogDiagnostic(
                        severity,
                        code,
                        file: file,
                        location: item.location,
                        key: item.key,
                        locale: localization,
                        message: message
                    )
                )
            }
            guard let definition = item.value.dictionaryValue else {
                report(.error, .invalidEntry, "the entry is not a dictionary")
                continue
            }
            let compiled: CompiledString
            if let format = definition[formatKey] {
                guard let formatText = format.stringValue else {
                    report(.error, .invalidEntry, "\(formatKey) is not a string")
                    continue
                }
                var compiler = TemplateCompiler { name in variable(name, in: definition) }
                compiled = compiler.compile(formatText)
                for issue in compiler.issues(for: compiled) { report(issue.severity, issue.code, issue.message) }
                if formatText.isEmpty {
                    report(.error, .invalidEntry, "\(formatKey) is empty, so the entry is shown as an empty string")
                }
            } else if let bare = bareRule(definition) {
                // The whole value is one variable, selected by the same rule.
                var compiler = TemplateCompiler { name in name == "value" ? bare : nil }
                compiled = compiler.compile("%#@value@")
                for issue in compiler.issues(for: compiled) { report(issue.severity, issue.code, issue.message) }
            } else if definition.entries.isEmpty {
                report(.error, .invalidEntry, "the entry is an empty dictionary: no \(formatKey), no variables")
                continue
            } else {
                report(.error, .invalidEntry, "the entry has no \(formatKey)")
                continue
            }
            entries.append(
                CatalogEntry(
                    key: item.key,
                    table: table,
                    localization: localization,
                    value: compiled,
                    format: .stringsdict,
                    file: file,
                    location: item.location
                )
            )
        }
        return (entries, diagnostics)
    }

    /// The definition of variable `name` in an entry.
    private static func variable(_ name: String, in entry: PropertyListDictionary) -> VariableDefinition? {
        guard let rule = entry[name]?.dictionaryValue else { return nil }
        let ruleType = rule[specTypeKey]?.stringValue ?? "NSStringPluralRuleType"
        let cases = rule.entries.compactMap { item -> (String, String)? in
            guard item.key != specTypeKey, item.key != valueTypeKey, let text = item.value.stringValue else {
                return nil
            }
            return (item.key, text)
        }
        switch ruleType {
        case "NSStringPluralRuleType":
            return .plural(cases.map { (category: $0.0, text: $0.1) }, valueType: rule[valueTypeKey]?.stringValue)
        case "NSStringDeviceSpecificRuleType": return .device(cases.map { (device: $0.0, text: $0.1) })
        case "NSStringVariableWidthRuleType": return .width(cases.map { (width: $0.0, text: $0.1) })
        default: return .unsupported(ruleType: ruleType, cases: cases.map { (name: $0.0, text: $0.1) })
        }
    }

    /// An entry that is a bare device or width rule, without a format key.
    private static func bareRule(_ entry: PropertyListDictionary) -> VariableDefinition? {
        for item in entry.entries {
            guard let rule = item.value.dictionaryValue else { continue }
            let cases = rule.entries.compactMap { inner in inner.value.stringValue.map { (inner.key, $0) } }
            switch item.key {
            case "NSStringDeviceSpecificRuleType": return .device(cases.map { (device: $0.0, text: $0.1) })
            case "NSStringVariableWidthRuleType": return .width(cases.map { (width: $0.0, text: $0.1) })
            default: continue
            }
        }
        return nil
    }
}
