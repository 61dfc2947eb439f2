import Foundation

/// A localization catalog for translators, as `xcodebuild -exportLocalizations` writes one: an
/// `.xcloc` folder holding `contents.json`, `Localized Contents/<language>.xliff` (XLIFF 1.2), the
/// development language's files in `Source Contents/` and an empty `Notes/`.
///
/// Every table of the development language becomes a `<file>` of the XLIFF and every string a
/// `<trans-unit>` with the development language's text as `<source>`, the target language's as
/// `<target>` (with its String Catalog `state`; `translated` for the other formats) when it has
/// one, and the comment as `<note>`. Unit ids follow Xcode's (WWDC23 "Discover String Catalogs"):
/// a key alone for plain strings, `key|==|plural.one` (a dot-separated path of variations, such as
/// `device.applewatch` or `substitutions.coffees.plural.few`) for String Catalog variants, and
/// `/key:dict/coffees:dict/few:dict/:string` for `.stringsdict` entries. Plural variants are
/// expanded to the target language's CLDR categories: a Russian export carries `few` and `many`
/// even where English has only `one` and `other`, with an empty `new` target to fill.
public struct LocalizationExport: Sendable {
    /// One `<trans-unit>`.
    public struct Unit: Hashable, Sendable {
        public var id: String
        public var source: String
        /// `nil`: the target language has no text for it yet (written as an empty `new` target).
        public var target: String?
        /// XLIFF 1.2's `translated`, `needs-review-translation` or `new` (no target).
        public var state: String
        public var note: String?
    }

    /// One `<file>`: a table file of the development language, as its path in the catalog folder.
    public struct File: Hashable, Sendable {
        public var original: String
        /// The language of the sources (a String Catalog's `sourceLanguage`).
        public var sourceLanguage: String
        public var units: [Unit]
    }

    public let developmentLanguage: String
    public let language: String
    public private(set) var files: [File] = []
    /// Source files read, relative to the catalog folder (copied to `Source Contents/`).
    public private(set) var sources: [String] = []
    /// What was left out and why (variations of a kind the exporter does not know).
    public private(set) var skipped: [String] = []

    /// Reads the development language's tables (and the target language's texts) from `folder`.
    public init(catalogFolder folder: URL, developmentLanguage: String, language: String) throws(LocalizationError) {
        self.developmentLanguage = developmentLanguage
        self.language = language
        let categories: [PluralCategory]
        do {
            categories = try PluralRules(locale: language).categories
        } catch {
            throw LocalizationError(.unreadableCatalog, "no plural rules for '\(language)': \(error)")
        }
        let root = folder.resolvingSymlinksInPath().standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw LocalizationError(.unreadableCatalog, "cannot list the catalog folder \(folder.path)")
        }
        var paths: [String] = []
        for case let url as URL in enumerator {
            // An export written inside the catalog folder is not part of the catalog.
            if url.pathExtension == "xcloc" {
                enumerator.skipDescendants()
                continue
            }
            let path = url.resolvingSymlinksInPath().standardizedFileURL.path
            guard path.hasPrefix(root.path + "/") else { continue }
            paths.append(String(path.dropFirst(root.path.count + 1)))
        }
        let sourceFolder = "\(developmentLanguage).lproj"
        let tableFiles = Set(paths.filter { $0.hasSuffix(".strings") || $0.hasSuffix(".stringsdict") })
        for path in paths.sorted() {
            let url = root.appendingPathComponent(path)
            var components = path.split(separator: "/").map(String.init)
            if path.hasSuffix(".xcstrings") {
                files.append(try stringCatalogFile(url, original: path, categories: categories))
                sources.append(path)
                continue
            }
            guard tableFiles.contains(path) else { continue }
            guard let folder = components.lastIndex(where: { $0.hasSuffix(".lproj") }) else {
                skipped.append("\(path): a non-localized table (outside any .lproj folder) is not translated")
                continue
            }
            guard components[folder] == sourceFolder else {
                components[folder] = sourceFolder
                if !tableFiles.contains(components.joined(separator: "/")) {
                    skipped.append("\(path): no \(sourceFolder) table of that name to translate from")
                }
                continue
            }
            components[folder] = "\(language).lproj"
            let target = components.joined(separator: "/")
            let targetURL = tableFiles.contains(target) ? root.appendingPathComponent(target) : nil
            if path.hasSuffix(".strings") {
                files.append(try stringsFile(url, target: targetURL, original: path))
            } else {
                files.append(try stringsDictFile(url, target: targetURL, original: path, categories: categories))
            }
            sources.append(path)
        }
        for index in files.indices {
            let original = files[index].original
            var refused: [String] = []
            files[index].units.removeAll { unit in
                let carried = [unit.id, unit.source, unit.target ?? "", unit.note ?? ""].allSatisfy(Self.isXMLText)
                if !carried {
                    refused.append("\(original): \(unit.id.debugDescription): a control character XML cannot carry")
                }
                return !carried
            }
            skipped += refused
        }
        if files.isEmpty {
            throw LocalizationError(
                .unreadableCatalog,
                "nothing to export: no String Catalog and no \(sourceFolder) folder in \(folder.path)"
            )
        }
    }

    // MARK: Formats

    private mutating func stringCatalogFile(
        _ url: URL,
        original: String,
        categories: [PluralCategory]
    ) throws(LocalizationError) -> File {
        let document = try Self.json(url)
        let strings = document["strings"] as? [String: Any] ?? [:]
        let source = (document["sourceLanguage"] as? String) ?? developmentLanguage
        var units: [Unit] = []
        for key in strings.keys.sorted() {
            guard let entry = strings[key] as? [String: Any] else { continue }
            if entry["shouldTranslate"] as? Bool == false { continue }
            let localizations = entry["localizations"] as? [String: Any] ?? [:]
            let comment = entry["comment"] as? String
            let sourceTree = localizations[source] as? [String: Any]
            let targetTree = localizations[language] as? [String: Any]
            guard let sourceTree else {
                // No source text: the key is the text (Xcode's "extracted" strings).
                let target = Self.leaf(targetTree)
                units.append(unit(key, source: key, target: target, comment: comment))
                continue
            }
            let before = units.count
            walk(
                sourceTree,
                target: targetTree,
                key: key,
                path: [],
                comment: comment,
                categories: categories,
                into: &units
            )
            // Variations the translation has and the source does not (a plural the language needs
            // where English needs none): their ids too, with the source's text, so nothing the
            // translators have is lost.
            let emitted = Set(units[before...].map(\.id))
            let sourceText = Self.leaf(sourceTree)?.text ?? key
            for (id, target) in Self.leaves(targetTree, key: key, path: []) where !emitted.contains(id) {
                units.append(unit(id, source: sourceText, target: target, comment: comment))
            }
        }
        return File(original: original, sourceLanguage: source, units: units)
    }

    /// The units of one localization tree: its string unit, then its variations and substitutions.
    private mutating func walk(
        _ source: [String: Any],
        target: [String: Any]?,
        key: String,
        path: [String],
        comment: String?,
        categories: [PluralCategory],
        into units: inout [Unit]
    ) {
        let id = path.isEmpty ? key : key + "|==|" + path.joined(separator: ".")
        if let text = (source["stringUnit"] as? [String: Any])?["value"] as? String {
            units.append(unit(id, source: text, target: Self.leaf(target), comment: comment))
        }
        if let variations = source["variations"] as? [String: Any] {
            let targetVariations = target?["variations"] as? [String: Any]
            for kind in variations.keys.sorted() {
                guard let cases = variations[kind] as? [String: Any] else { continue }
                let targetCases = targetVariations?[kind] as? [String: Any]
                var names = cases.keys.sorted()
                if kind == "plural" {
                    names = Self.pluralOrder(Set(names).union(categories.map(\.rawValue)))
                } else if kind != "device" {
                    skipped.append("\(key): variations of kind '\(kind)'")
                    continue
                }
                for name in names {
                    // A category the source lacks shows the source's `other`.
                    guard let branch = (cases[name] ?? cases["other"]) as? [String: Any] else { continue }
                    walk(
                        branch,
                        target: targetCases?[name] as? [String: Any],
                        key: key,
                        path: path + [kind, name],
                        comment: comment,
                        categories: categories,
                        into: &units
                    )
                }
            }
        }
        if let substitutions = source["substitutions"] as? [String: Any] {
            let targetSubstitutions = target?["substitutions"] as? [String: Any]
            for name in substitutions.keys.sorted() {
                guard let substitution = substitutions[name] as? [String: Any] else { continue }
                walk(
                    substitution,
                    target: targetSubstitutions?[name] as? [String: Any],
                    key: key,
                    path: path + ["substitutions", name],
                    comment: comment,
                    categories: categories,
                    into: &units
                )
            }
        }
    }

    private func stringsFile(_ url: URL, target: URL?, original: String) throws(LocalizationError) -> File {
        let source = try Self.strings(url, original)
        let translated = try target.map { url throws(LocalizationError) in try Self.strings(url, original) } ?? [:]
        let units = source.sorted { $0.key < $1.key }.map { key, entry in
            unit(key, source: entry.value.source, target: translated[key]?.value.source, comment: entry.comment)
        }
        return File(original: original, sourceLanguage: developmentLanguage, units: units)
    }

    private mutating func stringsDictFile(
        _ url: URL,
        target: URL?,
        original: String,
        categories: [PluralCategory]
    ) throws(LocalizationError) -> File {
        let source = try Self.plist(url)
        let translated = try target.map { url throws(LocalizationError) in try Self.plist(url) } ?? [:]
        var units: [Unit] = []
        for key in source.keys.sorted() {
            guard let entry = source[key] as? [String: Any] else {
                skipped.append("\(original): \(key): not a dictionary")
                continue
            }
            let targetEntry = translated[key] as? [String: Any]
            let prefix = "/\(key):dict/"
            if let format = entry["NSStringLocalizedFormatKey"] as? String {
                units.append(
                    unit(
                        prefix + "NSStringLocalizedFormatKey:dict/:string",
                        source: format,
                        target: targetEntry?["NSStringLocalizedFormatKey"] as? String,
                        comment: nil
                    )
                )
            }
            for variable in entry.keys.sorted() where variable != "NSStringLocalizedFormatKey" {
                guard let rule = entry[variable] as? [String: Any] else { continue }
                let targetRule = targetEntry?[variable] as? [String: Any]
                guard rule["NSStringFormatSpecTypeKey"] as? String == "NSStringPluralRuleType" else {
                    skipped.append("\(original): \(key): rule '\(variable)' is not a plural rule")
                    continue
                }
                let present = Set(PluralCategory.allCases.map(\.rawValue)).intersection(rule.keys)
                for category in Self.pluralOrder(present.union(categories.map(\.rawValue))) {
                    guard let text = (rule[category] ?? rule["other"]) as? String else { continue }
                    units.append(
                        unit(
                            prefix + "\(variable):dict/\(category):dict/:string",
                            source: text,
                            target: targetRule?[category] as? String,
                            comment: nil
                        )
                    )
                }
            }
        }
        return File(original: original, sourceLanguage: developmentLanguage, units: units)
    }

    private func unit(_ id: String, source: String, target: (text: String, state: String)?, comment: String?) -> Unit {
        Unit(id: id, source: source, target: target?.text, state: Self.xliffState(target?.state), note: comment)
    }

    /// A String Catalog state as XLIFF 1.2 names it: `needs_review` and `stale` are
    /// `needs-review-translation`; a unit with no target is `new`.
    static func xliffState(_ state: String?) -> String {
        switch state {
        case nil, "new": "new"
        case "needs_review", "stale": "needs-review-translation"
        default: "translated"
        }
    }

    /// Every text of a String Catalog localization tree, by unit id.
    private static func leaves(
        _ tree: [String: Any]?,
        key: String,
        path: [String]
    ) -> [(String, (text: String, state: String))] {
        guard let tree else { return [] }
        var found: [(String, (text: String, state: String))] = []
        if let own = leaf(tree) { found.append((path.isEmpty ? key : key + "|==|" + path.joined(separator: "."), own)) }
        if let variations = tree["variations"] as? [String: Any] {
            for kind in variations.keys.sorted() {
                let cases = variations[kind] as? [String: Any] ?? [:]
                let names = kind == "plural" ? pluralOrder(Set(cases.keys)) : cases.keys.sorted()
                for name in names {
                    found += leaves(cases[name] as? [String: Any], key: key, path: path + [kind, name])
                }
            }
        }
        if let substitutions = tree["substitutions"] as? [String: Any] {
            for name in substitutions.keys.sorted() {
                found += leaves(substitutions[name] as? [String: Any], key: key, path: path + ["substitutions", name])
            }
        }
        return found
    }

    private func unit(_ id: String, source: String, target: String?, comment: String?) -> Unit {
        Unit(id: id, source: source, target: target, state: target == nil ? "new" : "translated", note: comment)
    }

    /// A String Catalog localization's own text and state.
    private static func leaf(_ tree: [String: Any]?) -> (text: String, state: String)? {
        guard let unit = tree?["stringUnit"] as? [String: Any], let value = unit["value"] as? String else { return nil }
        return (value, unit["state"] as? String ?? "translated")
    }

    /// CLDR's order: zero, one, two, few, many, other.
    private static func pluralOrder(_ names: Set<String>) -> [String] {
        PluralCategory.allCases.map(\.rawValue).filter(names.contains)
    }

    // MARK: Reading

    private static func json(_ url: URL) throws(LocalizationError) -> [String: Any] {
        do {
            guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
                throw LocalizationError(.unreadableCatalog, "\(url.lastPathComponent) is not a String Catalog")
            }
            return object
        } catch let error as LocalizationError {
            throw error
        } catch {
            throw LocalizationError(.unreadableCatalog, "\(url.lastPathComponent): \(error.localizedDescription)")
        }
    }

    private static func plist(_ url: URL) throws(LocalizationError) -> [String: Any] {
        do {
            let object = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
            guard let dictionary = object as? [String: Any] else {
                throw LocalizationError(.unreadableCatalog, "\(url.lastPathComponent) is not a dictionary")
            }
            return dictionary
        } catch let error as LocalizationError {
            throw error
        } catch {
            throw LocalizationError(.unreadableCatalog, "\(url.lastPathComponent): \(error.localizedDescription)")
        }
    }

    private static func strings(_ url: URL, _ original: String) throws(LocalizationError) -> [String: CatalogEntry] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw LocalizationError(.unreadableCatalog, "\(url.lastPathComponent): \(error.localizedDescription)")
        }
        let read = StringsTableReader.entries(data: data, file: original, table: "", localization: "")
        return Dictionary(read.entries.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }

    // MARK: Writing

    /// The XLIFF 1.2 document, as Xcode lays it out (two-space indents, one `<file>` per table).
    public func xliff(toolVersion: String) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" "
        xml += "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" version=\"1.2\" "
        xml += "xsi:schemaLocation=\"urn:oasis:names:tc:xliff:document:1.2 "
        xml += "http://docs.oasis-open.org/xliff/v1.2/os/xliff-core-1.2-strict.xsd\">\n"
        for file in files {
            xml += "  <file original=\"\(Self.escape(file.original, attribute: true))\" "
            xml += "source-language=\"\(Self.escape(file.sourceLanguage, attribute: true))\" "
            xml += "target-language=\"\(Self.escape(language, attribute: true))\" datatype=\"plaintext\">\n"
            xml += "    <header>\n"
            xml += "      <tool tool-id=\"caffe\" tool-name=\"caffe\" "
            xml += "tool-version=\"\(Self.escape(toolVersion, attribute: true))\"/>\n"
            xml += "    </header>\n    <body>\n"
            for unit in file.units {
                xml += "      <trans-unit id=\"\(Self.escape(unit.id, attribute: true))\" xml:space=\"preserve\">\n"
                xml += "        <source>\(Self.escape(unit.source))</source>\n"
                xml +=
                    "        <target state=\"\(Self.escape(unit.state))\">\(Self.escape(unit.target ?? ""))</target>\n"
                if let note = unit.note, !note.isEmpty { xml += "        <note>\(Self.escape(note))</note>\n" }
                xml += "      </trans-unit>\n"
            }
            xml += "    </body>\n  </file>\n"
        }
        return xml + "</xliff>\n"
    }

    /// `contents.json`: the catalog's development region, target locale and the tool.
    public func contents(toolVersion: String) -> String {
        """
        {
          "developmentRegion" : "\(Self.jsonEscape(developmentLanguage))",
          "project" : "config",
          "targetLocale" : "\(Self.jsonEscape(language))",
          "toolInfo" : {
            "toolBuildNumber" : "\(Self.jsonEscape(toolVersion))",
            "toolID" : "caffe",
            "toolName" : "caffe",
            "toolVersion" : "\(Self.jsonEscape(toolVersion))"
          },
          "version" : "1.0"
        }

        """
    }

    /// Writes `<folder>/<language>.xcloc` (replacing one there) and returns it.
    @discardableResult
    public func write(to folder: URL, catalogFolder: URL, toolVersion: String) throws -> URL {
        let bundle = folder.appendingPathComponent("\(language).xcloc")
        let manager = FileManager.default
        if manager.fileExists(atPath: bundle.path) { try manager.removeItem(at: bundle) }
        let localized = bundle.appendingPathComponent("Localized Contents")
        let sourceContents = bundle.appendingPathComponent("Source Contents")
        for made in [localized, sourceContents, bundle.appendingPathComponent("Notes")] {
            try manager.createDirectory(at: made, withIntermediateDirectories: true)
        }
        try Data(contents(toolVersion: toolVersion).utf8).write(to: bundle.appendingPathComponent("contents.json"))
        try Data(xliff(toolVersion: toolVersion).utf8).write(to: localized.appendingPathComponent("\(language).xliff"))
        for source in sources {
            let destination = sourceContents.appendingPathComponent(source)
            try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: catalogFolder.appendingPathComponent(source), to: destination)
        }
        return bundle
    }

    /// Text as XML character data or an attribute value. `quotes: false` leaves `"` as written,
    /// as Xcode writes property lists' character data (the import's `.stringsdict` edits).
    static func escape(_ text: String, attribute: Bool = false, quotes: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "\r": out += "&#13;"
            // In an attribute a parser turns a raw newline or tab into a space.
            case "\n" where attribute: out += "&#10;"
            case "\t" where attribute: out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether XML 1.0 can carry `text` at all: control characters other than tab, newline and
    /// carriage return, and U+FFFE/U+FFFF, cannot be written even as character references.
    static func isXMLText(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x9, 0xA, 0xD: true
            case 0..<0x20, 0xFFFE, 0xFFFF: false
            default: true
            }
        }
    }

    static func jsonEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
