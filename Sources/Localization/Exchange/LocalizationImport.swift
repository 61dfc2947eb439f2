import Foundation

/// Translations coming back from translators (an XLIFF, or the `.xcloc` holding one) merged into
/// the catalog's files in the format each key lives in, everything else left byte for byte: a
/// String Catalog is rewritten as Xcode writes it (``OrderedJSON``, which gives the same bytes
/// for an unchanged catalog), a `.strings` file has only the changed values' literals replaced
/// and new keys appended, a `.stringsdict` has only the changed `<string>` elements replaced and
/// missing categories, variables and entries inserted (``StringsDictMerge``).
///
/// Nothing that would break the catalog is written: the merged catalog is linted (specifiers,
/// plurals, markup, agreement spans) and every translation that brings an error the catalog did
/// not have is refused with that diagnostic, the others kept. A unit with an empty target is not
/// translated yet and left alone.
public struct LocalizationImport: Sendable {
    /// One value changed or added.
    public struct Change: Hashable, Sendable {
        /// The file written, relative to the catalog folder.
        public var file: String
        /// The unit's id.
        public var id: String
        /// The value before (`nil`: added).
        public var old: String?
        public var new: String
    }

    /// A unit not imported, and why.
    public struct Refusal: Hashable, Sendable {
        public var file: String
        public var id: String
        public var reason: String
    }

    public let language: String
    public private(set) var changes: [Change] = []
    public private(set) var refused: [Refusal] = []
    /// Units whose target equals the catalog's value already.
    public private(set) var unchanged = 0
    /// Units with no target text (not translated yet).
    public private(set) var untranslated = 0
    /// The new bytes of every file to write, by path relative to the catalog folder.
    public private(set) var files: [String: [UInt8]] = [:]

    private let folder: URL

    /// What checks a catalog: ``CatalogLinter`` by default; `caffe catalog import` adds the markup
    /// and agreement checks of `caffe lint` (GrammarAgreement's `CatalogMarkupLinter`).
    public typealias Checker = @Sendable (StringCatalog) -> [CatalogDiagnostic]

    /// ``CatalogLinter`` with `termTables` as the menu-term tables.
    public static func linter(termTables: Set<String> = ["Menu"]) -> Checker {
        { catalog in CatalogLinter(catalog: catalog, termTables: termTables).lint().findings }
    }

    /// Plans the import of `document` into the catalog at `catalogFolder` (nothing is written
    /// until ``write()``); `check` finds the errors a translation must not bring.
    public init(
        document: XLIFFDocument,
        catalogFolder: URL,
        check: @escaping Checker = LocalizationImport.linter()
    ) throws(LocalizationError) {
        folder = catalogFolder
        let languages = Set(document.files.map(\.targetLanguage))
        guard languages.count == 1, let language = languages.first, !language.isEmpty else {
            throw LocalizationError(
                .unreadableCatalog,
                "the XLIFF must name one target-language, it names \(languages.sorted().joined(separator: ", "))"
            )
        }
        guard Self.isLanguageTag(language) else {
            throw LocalizationError(
                .unreadableCatalog,
                "the XLIFF's target-language '\(language)' is not a language tag"
            )
        }
        self.language = language
        var excluded: Set<UnitReference> = []
        // Merge, lint, refuse the units of every key that gains an error, merge again without
        // them. A new error no merged key explains (or one that stays) refuses everything: the
        // import never writes a catalog worse than it found.
        let before = try Self.errors(in: catalogFolder, check: check)
        for round in 0..<4 {
            try merge(document, excluding: excluded)
            let new = try lintMerged(check: check).subtracting(before)
            if new.isEmpty { return }
            var byKey: [TableKey: [Change]] = [:]
            for change in changes {
                byKey[TableKey(file: change.file, key: Self.lookupKey(change.id, file: change.file)), default: []]
                    .append(change)
            }
            var unexplained: [CatalogDiagnostic] = []
            var refusedMore = false
            for error in new.sorted(by: { $0.description < $1.description }) {
                guard let key = error.key, let touched = byKey[TableKey(file: error.file, key: key)] else {
                    unexplained.append(error)
                    continue
                }
                // Every unit of the key goes (a plural is one value), each listed.
                for change in touched where excluded.insert(UnitReference(file: change.file, id: change.id)).inserted {
                    refused.append(Refusal(file: change.file, id: change.id, reason: error.description))
                    refusedMore = true
                }
            }
            if !unexplained.isEmpty || !refusedMore || round == 3 {
                let reason =
                    "the merged catalog would have an error no translation explains: "
                    + (unexplained.first ?? new.sorted { $0.description < $1.description }[0]).description
                refused += changes.filter { !excluded.contains(UnitReference(file: $0.file, id: $0.id)) }.map {
                    Refusal(file: $0.file, id: $0.id, reason: reason)
                }
                changes = []
                files = [:]
                return
            }
        }
    }

    /// A unit, by the file it is merged into and its id.
    private struct UnitReference: Hashable {
        var file: String
        var id: String
    }

    /// A key of a table (`Localizable`, `Menu`: a file's name without folder and extension), as
    /// lint's findings name it and a change touches it, whatever the localization.
    private struct TableKey: Hashable {
        var table: String
        var key: String

        init(file: String, key: String) {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            table = name.split(separator: ".").first.map(String.init) ?? name
            self.key = key
        }
    }

    /// `en`, `pt-BR`, `zh-Hans`, `zh_CN`: letters, digits, `-` and `_`, starting with letters —
    /// never a path.
    static func isLanguageTag(_ text: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        let bytes = Array(text.utf8)
        guard (1...35).contains(bytes.count), isLetter(bytes[0]) else { return false }
        return bytes.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }
    }

    /// A path inside the catalog folder: relative, without `.` or `..` components.
    static func isInsideFolder(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.contains("\\")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                !["", ".", ".."].contains($0)
            }
    }

    /// Writes the merged files into the catalog folder, all at once (``CatalogFolderSwap``): a
    /// failure or a kill leaves every file old or every file new, with its mode kept.
    public func write() throws {
        do {
            try CatalogFolderSwap.replace(files: files, in: folder)
        } catch {
            throw LocalizationError(.unreadableCatalog, error.description)
        }
    }

    // MARK: Merging

    /// The kinds of file an XLIFF `<file>` is merged into.
    private enum Kind {
        case catalog, strings, stringsDict
    }

    /// The units merged into one file (several XLIFF `<file>`s may name it).
    private struct Group {
        var kind: Kind
        var original: String
        var sourceLanguage: String
        var units: [XLIFFDocument.Unit] = []
    }

    private mutating func merge(_ document: XLIFFDocument, excluding excluded: Set<UnitReference>)
        throws(LocalizationError)
    {
        changes = []
        files = [:]
        unchanged = 0
        untranslated = 0
        refused.removeAll { $0.reason.hasPrefix("not imported:") }
        var groups: [String: Group] = [:]
        var order: [String] = []
        for file in document.files {
            func refuseAll(_ reason: String) {
                for unit in file.units {
                    refused.append(Refusal(file: file.original, id: unit.id, reason: "not imported: \(reason)"))
                }
            }
            let kind: Kind
            switch file.original.split(separator: ".").last {
            case "xcstrings": kind = .catalog
            case "strings": kind = .strings
            case "stringsdict": kind = .stringsDict
            default:
                refuseAll("not a catalog file Caffe reads")
                continue
            }
            guard Self.isInsideFolder(file.original), Self.isLanguageTag(file.sourceLanguage) else {
                refuseAll("'\(file.original)' (\(file.sourceLanguage)) names no file inside the catalog folder")
                continue
            }
            let path: String
            if kind == .catalog {
                path = file.original
            } else {
                guard let (_, target) = localizedPath(file.original, sourceLanguage: file.sourceLanguage, file.units)
                else { continue }
                path = target
            }
            if groups[path] == nil {
                order.append(path)
                groups[path] = Group(kind: kind, original: file.original, sourceLanguage: file.sourceLanguage)
            }
            groups[path]?.units += file.units
        }
        for path in order {
            guard let group = groups[path] else { continue }
            let units = translatedUnits(group, path: path, excluding: excluded)
            switch group.kind {
            case .catalog: try mergeCatalog(group.original, units, sourceLanguage: group.sourceLanguage)
            case .strings: try mergeStrings(group.original, units, sourceLanguage: group.sourceLanguage)
            case .stringsDict: try mergeStringsDict(group.original, units, sourceLanguage: group.sourceLanguage)
            }
        }
    }

    /// The group's units that carry a translation, each id once: a unit given twice with the same
    /// target counts once, with different targets it is refused (which one is meant is a guess).
    private mutating func translatedUnits(
        _ group: Group,
        path: String,
        excluding excluded: Set<UnitReference>
    ) -> [XLIFFDocument.Unit] {
        var targets: [String: Set<String>] = [:]
        for unit in group.units {
            guard let target = unit.target, !target.isEmpty else { continue }
            targets[unit.id, default: []].insert(target)
        }
        var seen: Set<String> = []
        var units: [XLIFFDocument.Unit] = []
        for unit in group.units {
            guard let target = unit.target, !target.isEmpty else {
                untranslated += 1
                continue
            }
            guard seen.insert(unit.id).inserted else { continue }
            if let problem = Self.unacceptable(unit.id, target: target) {
                refused.append(Refusal(file: path, id: unit.id, reason: "not imported: \(problem)"))
                continue
            }
            guard targets[unit.id]?.count == 1 else {
                refused.append(
                    Refusal(
                        file: path,
                        id: unit.id,
                        reason: "not imported: the XLIFF gives it \(targets[unit.id]?.count ?? 0) different targets"
                    )
                )
                continue
            }
            if !excluded.contains(UnitReference(file: path, id: unit.id)) { units.append(unit) }
        }
        return units
    }

    /// The deepest variation path a unit id may name (`key|==|device.iphone.plural.one` is four
    /// levels; Xcode writes at most six).
    public static let maxVariationDepth = 16

    /// Why a unit is refused before anything is merged, if it is: a target over the catalog's
    /// value cap or holding a character no translation has, or an id naming a path too deep.
    static func unacceptable(_ id: String, target: String) -> String? {
        let depth = split(id).path.count
        if depth > maxVariationDepth {
            return "its id names a variation path \(depth) levels deep; at most \(maxVariationDepth)"
        }
        if target.utf8.count > StringCatalog.maxValueBytes {
            return "the translation is \(target.utf8.count) bytes; a value is at most \(StringCatalog.maxValueBytes)"
        }
        if let scalar = TranslationText.forbiddenScalar(in: target) {
            return "the translation holds \(TranslationText.describe(scalar)), which no translation has"
        }
        return nil
    }

    /// A String Catalog: each unit's target set at its id's path under the language.
    private mutating func mergeCatalog(_ path: String, _ units: [XLIFFDocument.Unit], sourceLanguage: String)
        throws(LocalizationError)
    {
        let url = folder.appendingPathComponent(path)
        let bytes = try Self.read(url)
        var document = try OrderedJSON.parse(bytes)
        var strings = document["strings"] ?? .object([])
        for unit in units {
            let (key, variation) = Self.split(unit.id)
            guard var entry = strings[key] else {
                refused.append(
                    Refusal(file: path, id: unit.id, reason: "not imported: the catalog has no key '\(key)'")
                )
                continue
            }
            var localizations = entry["localizations"] ?? .object([])
            var tree = localizations[language] ?? .object([])
            let source = localizations[sourceLanguage]
            let old = Self.value(in: tree, at: variation)
            guard old != unit.target else {
                unchanged += 1
                continue
            }
            guard let target = unit.target,
                Self.set(&tree, at: variation, value: target, state: Self.catalogState(unit.state), source: source)
            else {
                refused.append(
                    Refusal(
                        file: path,
                        id: unit.id,
                        reason: "not imported: '\(unit.id)' names no value of this catalog"
                    )
                )
                continue
            }
            localizations[language] = tree
            entry["localizations"] = localizations
            strings[key] = entry
            changes.append(Change(file: path, id: unit.id, old: old, new: target))
        }
        document["strings"] = strings
        let text = document.xcodeText(endingWithNewline: bytes.last == 0x0A)
        if Array(text.utf8) != bytes { files[path] = Array(text.utf8) }
    }

    /// `<dev>.lproj/T.strings` into `<language>.lproj/T.strings`: changed literals replaced, new
    /// keys appended, the file made when the language has none.
    private mutating func mergeStrings(_ original: String, _ units: [XLIFFDocument.Unit], sourceLanguage: String)
        throws(LocalizationError)
    {
        guard let (_, path) = localizedPath(original, sourceLanguage: sourceLanguage, units) else { return }
        let url = folder.appendingPathComponent(path)
        var bytes = FileManager.default.fileExists(atPath: url.path) ? try Self.read(url) : []
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            for unit in units {
                refused.append(
                    Refusal(
                        file: path,
                        id: unit.id,
                        reason: "not imported: \(path) is UTF-16; only UTF-8 .strings are edited"
                    )
                )
            }
            return
        }
        let values = try StringsFileSpans.values(in: bytes, file: path)
        var replacements: [(range: Range<Int>, bytes: [UInt8])] = []
        var appended: [UInt8] = []
        for unit in units {
            guard let target = unit.target else { continue }
            if let existing = values[unit.id] {
                guard existing.value != target else {
                    unchanged += 1
                    continue
                }
                replacements.append((existing.range, Array(StringsFileSpans.literal(target).utf8)))
                changes.append(Change(file: path, id: unit.id, old: existing.value, new: target))
            } else {
                appended += Array("\(StringsFileSpans.literal(unit.id)) = \(StringsFileSpans.literal(target));\n".utf8)
                changes.append(Change(file: path, id: unit.id, old: nil, new: target))
            }
        }
        guard !replacements.isEmpty || !appended.isEmpty else { return }
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(replacement.range, with: replacement.bytes)
        }
        if !appended.isEmpty {
            if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
            bytes += appended
        }
        files[path] = bytes
    }

    /// `<dev>.lproj/T.stringsdict` into `<language>.lproj/T.stringsdict`, edited in place or made.
    private mutating func mergeStringsDict(
        _ original: String,
        _ units: [XLIFFDocument.Unit],
        sourceLanguage: String
    ) throws(LocalizationError) {
        guard let (source, path) = localizedPath(original, sourceLanguage: sourceLanguage, units) else { return }
        let sourceURL = folder.appendingPathComponent(source)
        guard FileManager.default.fileExists(atPath: sourceURL.path) else {
            for unit in units {
                refused.append(
                    Refusal(file: original, id: unit.id, reason: "not imported: the catalog has no \(source)")
                )
            }
            return
        }
        let url = folder.appendingPathComponent(path)
        let target = FileManager.default.fileExists(atPath: url.path) ? try Self.read(url) : nil
        let merge = StringsDictMerge(
            path: path,
            target: target,
            source: try Self.read(sourceURL),
            sourcePath: source,
            units: units
        )
        changes += merge.changes
        refused += merge.refused
        unchanged += merge.unchanged
        if let bytes = merge.bytes { files[path] = bytes }
    }

    /// The development-language file an XLIFF `<file original>` names and the language's file for
    /// it (`en.lproj/T` → `ru.lproj/T`). A bare table name (`T.stringsdict`, as Xcode 12 and
    /// translation services write `original`) is the development language's `T` when the catalog
    /// has one. `nil`, with `units` refused, for any other path.
    private mutating func localizedPath(
        _ original: String,
        sourceLanguage: String,
        _ units: [XLIFFDocument.Unit]
    ) -> (source: String, target: String)? {
        var components = original.split(separator: "/").map(String.init)
        let bare = "\(sourceLanguage).lproj/\(original)"
        if components.count == 1,
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(bare).path)
        {
            return (bare, "\(language).lproj/\(original)")
        }
        guard let index = components.lastIndex(of: "\(sourceLanguage).lproj") else {
            for unit in units {
                refused.append(
                    Refusal(
                        file: original,
                        id: unit.id,
                        reason: "not imported: \(original) is in no \(sourceLanguage).lproj folder"
                    )
                )
            }
            return nil
        }
        components[index] = "\(language).lproj"
        return (original, components.joined(separator: "/"))
    }

    // MARK: Checking

    /// The catalog's errors (lint and markup), as comparable diagnostics without their lines.
    private static func errors(in folder: URL, check: Checker) throws(LocalizationError) -> Set<CatalogDiagnostic> {
        let catalog = try StringCatalog(directory: folder)
        return Set(
            (check(catalog) + catalog.diagnostics).filter { $0.severity == .error }.map { finding in
                var finding = finding
                finding.location = .unknown
                return finding
            }
        )
    }

    /// The errors of the catalog with the merged files in place (in a copy).
    private func lintMerged(check: Checker) throws(LocalizationError) -> Set<CatalogDiagnostic> {
        // Beside the folder, named as the swap names its staging copies: one a kill leaves behind
        // is removed by the next import. A folder whose parent cannot be written (a dry run on a
        // read-only checkout) is checked in a copy in the temporary folder instead.
        do {
            try CatalogFolderSwap.refuseLinks(files, in: folder)
        } catch {
            throw LocalizationError(.unreadableCatalog, error.description)
        }
        let copy: URL
        do {
            CatalogFolderSwap.removeAbandoned(besides: folder.resolvingSymlinksInPath())
            copy = try CatalogFolderSwap.stage(folder.resolvingSymlinksInPath())
        } catch {
            copy = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-import-\(UUID().uuidString)")
            do {
                try FileManager.default.copyItem(at: folder, to: copy)
            } catch {
                throw LocalizationError(
                    .unreadableCatalog,
                    "cannot stage the merged catalog: \(error.localizedDescription)"
                )
            }
        }
        defer { try? FileManager.default.removeItem(at: copy) }
        do {
            for (path, bytes) in files {
                let url = copy.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
                try Data(bytes).write(to: url)
            }
        } catch {
            throw LocalizationError(
                .unreadableCatalog,
                "cannot stage the merged catalog: \(error.localizedDescription)"
            )
        }
        return try Self.errors(in: copy, check: check)
    }

    // MARK: Ids and trees

    /// `key|==|plural.one` → (`key`, [`plural`, `one`]); a plain id → (id, []).
    static func split(_ id: String) -> (key: String, path: [String]) {
        guard let range = id.range(of: "|==|") else { return (id, []) }
        return (String(id[..<range.lowerBound]), id[range.upperBound...].split(separator: ".").map(String.init))
    }

    /// The catalog key a unit id of `file` looks up (what lint's diagnostics name).
    static func lookupKey(_ id: String, file: String) -> String {
        file.hasSuffix(".stringsdict") ? StringsDictMerge.path(of: id)?.key ?? id : split(id).key
    }

    /// The text at `path` of a localization tree.
    static func value(in tree: OrderedJSON, at path: [String]) -> String? {
        guard let node = node(tree, path) else { return nil }
        return node["stringUnit"]?["value"]?.string
    }

    private static func node(_ tree: OrderedJSON, _ path: [String]) -> OrderedJSON? {
        var current: OrderedJSON? = tree
        var rest = path[...]
        while let step = rest.first, rest.count >= 2 {
            let name = rest[rest.index(after: rest.startIndex)]
            current = step == "substitutions" ? current?["substitutions"]?[name] : current?["variations"]?[step]?[name]
            rest = rest.dropFirst(2)
        }
        return rest.isEmpty ? current : nil
    }

    /// Sets the text at `path`, making the variation objects on the way (a substitution copies its
    /// `argNum` and `formatSpecifier` from the source language's); `false` for a path that is not
    /// pairs of names.
    static func set(_ tree: inout OrderedJSON, at path: [String], value: String, state: String, source: OrderedJSON?)
        -> Bool
    {
        guard path.count.isMultiple(of: 2) else { return false }
        if path.isEmpty {
            tree["stringUnit"] = .object([
                .init(key: "state", value: .string(state)), .init(key: "value", value: .string(value)),
            ])
            return true
        }
        let step = path[0]
        let name = path[1]
        let rest = Array(path.dropFirst(2))
        if step == "substitutions" {
            var substitutions = tree["substitutions"] ?? .object([])
            var substitution = substitutions[name] ?? .object([])
            let sourceSubstitution = source?["substitutions"]?[name]
            for field in ["argNum", "formatSpecifier"] where substitution[field] == nil {
                if let copied = sourceSubstitution?[field] { substitution[field] = copied }
            }
            guard set(&substitution, at: rest, value: value, state: state, source: sourceSubstitution) else {
                return false
            }
            substitutions[name] = substitution
            tree["substitutions"] = substitutions
        } else {
            guard ["plural", "device"].contains(step) else { return false }
            var variations = tree["variations"] ?? .object([])
            var cases = variations[step] ?? .object([])
            var branch = cases[name] ?? .object([])
            guard set(&branch, at: rest, value: value, state: state, source: source?["variations"]?[step]?[name]) else {
                return false
            }
            cases[name] = branch
            variations[step] = cases
            tree["variations"] = variations
        }
        return true
    }

    /// An XLIFF state as a String Catalog's.
    static func catalogState(_ state: String?) -> String {
        switch state {
        case "needs-review-translation", "needs-review-l10n", "needs-review-adaptation": "needs_review"
        default: "translated"
        }
    }

    private static func read(_ url: URL) throws(LocalizationError) -> [UInt8] {
        do {
            return try [UInt8](Data(contentsOf: url))
        } catch {
            throw LocalizationError(.unreadableCatalog, "\(url.lastPathComponent): \(error.localizedDescription)")
        }
    }
}

/// Where each value of a UTF-8 `.strings` file lies, for replacing it in place.
enum StringsFileSpans {
    /// Each key's value and the byte range of its quoted literal.
    static func values(in bytes: [UInt8], file: String) throws(LocalizationError) -> [String: (
        value: String, range: Range<Int>
    )] {
        var found: [String: (String, Range<Int>)] = [:]
        var index = 0
        func fail(_ message: String) -> LocalizationError {
            let line = bytes[..<min(index, bytes.count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            return LocalizationError(.unreadableCatalog, "\(file):\(line): \(message)")
        }
        func skip() {
            while index < bytes.count {
                if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                } else if bytes[index...].starts(with: Array("/*".utf8)) {
                    index += 2
                    while index < bytes.count, !bytes[index...].starts(with: Array("*/".utf8)) { index += 1 }
                    index = min(bytes.count, index + 2)
                } else if bytes[index...].starts(with: Array("//".utf8)) {
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                } else {
                    return
                }
            }
        }
        func token() throws(LocalizationError) -> (String, Range<Int>) {
            let start = index
            guard index < bytes.count else { throw fail("a string is expected") }
            if bytes[index] != UInt8(ascii: "\"") {
                while index < bytes.count,
                    !([0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "="), UInt8(ascii: ";")].contains(bytes[index]))
                {
                    index += 1
                }
                guard index > start else { throw fail("a string is expected") }
                return (String(decoding: bytes[start..<index], as: UTF8.self), start..<index)
            }
            index += 1
            var out: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    index += 1
                    switch bytes[index] {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    default: out.append(bytes[index])
                    }
                } else {
                    out.append(bytes[index])
                }
                index += 1
            }
            guard index < bytes.count else { throw fail("a string is never closed") }
            index += 1
            return (String(decoding: out, as: UTF8.self), start..<index)
        }
        while true {
            skip()
            guard index < bytes.count else { break }
            let (key, _) = try token()
            skip()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw fail("'=' expected after \"\(key)\"")
            }
            index += 1
            skip()
            let (value, range) = try token()
            skip()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
                throw fail("';' expected after \"\(key)\"")
            }
            index += 1
            found[key] = (value, range)
        }
        return found
    }

    /// A `.strings` literal: quotes, backslashes, newlines and tabs escaped.
    static func literal(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
