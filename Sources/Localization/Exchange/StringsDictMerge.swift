import Foundation

/// Translations merged into a language's `.stringsdict`, edited in place: a changed value's
/// `<string>` text replaced, a missing plural category inserted where CLDR orders it, a missing
/// variable or entry made from the development language's structure, the file made when the
/// language has none. Every other byte stays; indentation follows the file's.
///
/// Unit ids are Xcode's: `/KEY:dict/NSStringLocalizedFormatKey:dict/:string` and
/// `/KEY:dict/VARIABLE:dict/CATEGORY:dict/:string`.
struct StringsDictMerge {
    var changes: [LocalizationImport.Change] = []
    var refused: [LocalizationImport.Refusal] = []
    var unchanged = 0
    /// The file's new bytes; `nil` when nothing changed.
    var bytes: [UInt8]?

    static let formatKey = "NSStringLocalizedFormatKey"

    /// The key and path a unit id names: (`KEY`, [`NSStringLocalizedFormatKey`]) or (`KEY`,
    /// [`VARIABLE`, `CATEGORY`]); `nil` for an id of another shape. Read from the end, so a key
    /// may itself contain `:dict/`.
    static func path(of id: String) -> (key: String, path: [String])? {
        guard id.hasPrefix("/"), id.hasSuffix(":dict/:string") else { return nil }
        let parts = id.dropFirst().dropLast(":dict/:string".count).components(separatedBy: ":dict/")
        if parts.count >= 2, parts.last == formatKey {
            return (parts.dropLast().joined(separator: ":dict/"), [formatKey])
        }
        guard parts.count >= 3, PluralCategory(rawValue: parts[parts.count - 1]) != nil else { return nil }
        return (parts.dropLast(2).joined(separator: ":dict/"), Array(parts.suffix(2)))
    }

    /// Merges `units` (translated, in file order) into `target` (the language's file; `nil` when
    /// it has none), taking missing structure from `source` (the development language's file).
    init(path: String, target: [UInt8]?, source: [UInt8], sourcePath: String, units: [XLIFFDocument.Unit]) {
        let sourceOutline: PropertyListOutline
        let targetOutline: PropertyListOutline?
        do throws(LocalizationError) {
            sourceOutline = try PropertyListOutline(source, file: sourcePath)
            targetOutline = try target.map { bytes throws(LocalizationError) in
                try PropertyListOutline(bytes, file: path)
            }
        } catch {
            refused = units.map { .init(file: path, id: $0.id, reason: "not imported: \(error.message)") }
            return
        }
        if let targetOutline, !targetOutline.root.isDictionary {
            refused = units.map {
                .init(file: path, id: $0.id, reason: "not imported: \(path)'s root is not a dictionary")
            }
            return
        }
        var editor = Editor(outline: targetOutline)
        // Units grouped by key, keys in the order they come.
        var keys: [String] = []
        var byKey: [String: [(unit: XLIFFDocument.Unit, path: [String])]] = [:]
        for unit in units {
            guard let (key, path) = Self.path(of: unit.id) else {
                refuse(unit, path, "'\(unit.id)' is not a .stringsdict unit id")
                continue
            }
            if byKey[key] == nil { keys.append(key) }
            byKey[key, default: []].append((unit, path))
        }
        for key in keys {
            let items = byKey[key] ?? []
            let sourceEntry = sourceOutline.root[key]
            if let entry = targetOutline?.root[key] {
                guard entry.isDictionary else {
                    for item in items { refuse(item.unit, path, "'\(key)' is not a dictionary in \(path)") }
                    continue
                }
                mergeEntry(entry, items, sourceEntry: sourceEntry, path: path, editor: &editor)
            } else {
                guard let sourceEntry, sourceEntry.isDictionary else {
                    for item in items { refuse(item.unit, path, "\(sourcePath) has no entry '\(key)'") }
                    continue
                }
                guard let value = newEntry(key, items, source: sourceEntry, path: path) else { continue }
                editor.add(key: key, value: value, to: targetOutline?.root, order: editor.nextOrder())
            }
        }
        guard editor.hasEdits else { return }
        bytes = editor.apply()
    }

    private mutating func refuse(_ unit: XLIFFDocument.Unit, _ path: String, _ reason: String) {
        refused.append(.init(file: path, id: unit.id, reason: "not imported: \(reason)"))
    }

    /// An entry the language has: values replaced, missing ones inserted.
    private mutating func mergeEntry(
        _ entry: PropertyListOutline.Node,
        _ items: [(unit: XLIFFDocument.Unit, path: [String])],
        sourceEntry: PropertyListOutline.Node?,
        path: String,
        editor: inout Editor
    ) {
        var newVariables: [String: [(category: String, text: String)]] = [:]
        var newVariableOrder: [String] = []
        for (unit, unitPath) in items {
            guard let text = unit.target else { continue }
            if unitPath == [Self.formatKey] {
                set(
                    entry[Self.formatKey],
                    in: entry,
                    key: Self.formatKey,
                    unit,
                    text,
                    path,
                    &editor,
                    before: entry.entries.first
                )
                continue
            }
            let (variable, category) = (unitPath[0], unitPath[1])
            if let rule = entry[variable] {
                guard rule.isDictionary else {
                    refuse(unit, path, "'\(variable)' is not a dictionary in \(path)")
                    continue
                }
                let order = PluralCategory(rawValue: category)
                let next = rule.entries.first { other in
                    guard let otherOrder = PluralCategory(rawValue: other.key), let order else { return false }
                    return otherOrder > order
                }
                set(rule[category], in: rule, key: category, unit, text, path, &editor, before: next, order: order)
            } else if let sourceRule = sourceEntry?[variable], Self.isPluralRule(sourceRule) {
                if newVariables[variable] == nil { newVariableOrder.append(variable) }
                newVariables[variable, default: []].append((category, text))
                changes.append(.init(file: path, id: unit.id, old: nil, new: text))
            } else {
                refuse(unit, path, "'\(variable)' is no variable of '\(Self.path(of: unit.id)?.key ?? unit.id)'")
            }
        }
        for variable in newVariableOrder {
            guard let sourceRule = sourceEntry?[variable] else { continue }
            editor.add(
                key: variable,
                value: Self.rule(from: sourceRule, categories: newVariables[variable] ?? []),
                to: entry,
                order: editor.nextOrder()
            )
        }
    }

    /// Replaces the string `node` (or inserts `key` into `dictionary` before `next` when absent).
    private mutating func set(
        _ node: PropertyListOutline.Node?,
        in dictionary: PropertyListOutline.Node,
        key: String,
        _ unit: XLIFFDocument.Unit,
        _ text: String,
        _ path: String,
        _ editor: inout Editor,
        before next: PropertyListOutline.Entry?,
        order category: PluralCategory? = nil
    ) {
        if let node {
            guard let old = node.string else {
                refuse(unit, path, "'\(key)' is not a string in \(path)")
                return
            }
            guard old != text else {
                unchanged += 1
                return
            }
            editor.replace(node.range, with: Editor.stringElement(text))
            changes.append(.init(file: path, id: unit.id, old: old, new: text))
        } else {
            // Categories inserted at one place go in CLDR order, whatever order the units came in.
            let order = category.flatMap { PluralCategory.allCases.firstIndex(of: $0) } ?? editor.nextOrder()
            editor.add(key: key, value: .string(text), to: dictionary, before: next, order: order)
            changes.append(.init(file: path, id: unit.id, old: nil, new: text))
        }
    }

    /// A whole entry the language lacks, in the source's order; `nil` (the units refused) when
    /// its format would have to be guessed.
    private mutating func newEntry(
        _ key: String,
        _ items: [(unit: XLIFFDocument.Unit, path: [String])],
        source: PropertyListOutline.Node,
        path: String
    ) -> Editor.Value? {
        if let rule = source.entries.first(where: { $0.value.isDictionary && !Self.isPluralRule($0.value) }) {
            for item in items {
                refuse(
                    item.unit,
                    path,
                    "'\(key)' is new in \(path) and has a rule '\(rule.key)' that is not a plural (a device or "
                        + "width rule); the import makes plural rules only, so add the entry by hand"
                )
            }
            return nil
        }
        var members: [(String, Editor.Value)] = []
        var taken: Set<String> = []
        for member in source.entries {
            if member.key == Self.formatKey {
                if let item = items.first(where: { $0.path == [Self.formatKey] }), let text = item.unit.target {
                    members.append((member.key, .string(text)))
                    taken.insert(item.unit.id)
                } else if let format = member.value.string, Self.isLanguageNeutral(format) {
                    members.append((member.key, .string(format)))
                } else {
                    for item in items {
                        refuse(
                            item.unit,
                            path,
                            "'\(key)' is new in \(path) and its \(Self.formatKey) is not translated"
                        )
                    }
                    return nil
                }
            } else if member.value.isDictionary {
                let categories = items.compactMap { item -> (category: String, text: String)? in
                    guard item.path.count == 2, item.path[0] == member.key, let text = item.unit.target else {
                        return nil
                    }
                    taken.insert(item.unit.id)
                    return (item.path[1], text)
                }
                members.append((member.key, Self.rule(from: member.value, categories: categories)))
            }
        }
        for item in items {
            if taken.contains(item.unit.id) {
                changes.append(.init(file: path, id: item.unit.id, old: nil, new: item.unit.target ?? ""))
            } else {
                refuse(item.unit, path, "'\(item.path.joined(separator: "/"))' is no value of '\(key)'")
            }
        }
        return .dictionary(members)
    }

    /// A plural rule: the source rule's settings (`NSStringFormatSpecTypeKey`,
    /// `NSStringFormatValueTypeKey`), then the translated categories in CLDR order.
    private static func rule(
        from source: PropertyListOutline.Node,
        categories: [(category: String, text: String)]
    ) -> Editor.Value {
        var members: [(String, Editor.Value)] = source.entries.compactMap { member in
            guard PluralCategory(rawValue: member.key) == nil, let text = member.value.string else { return nil }
            return (member.key, .string(text))
        }
        let sorted = categories.sorted {
            (PluralCategory(rawValue: $0.category) ?? .other) < (PluralCategory(rawValue: $1.category) ?? .other)
        }
        members += sorted.map { ($0.category, .string($0.text)) }
        return .dictionary(members)
    }

    /// Whether a rule is a plural one (`NSStringFormatSpecTypeKey` `NSStringPluralRuleType`).
    static func isPluralRule(_ rule: PropertyListOutline.Node) -> Bool {
        rule["NSStringFormatSpecTypeKey"]?.string == "NSStringPluralRuleType"
    }

    /// Whether a format has nothing to translate: only specifiers, variables and punctuation
    /// (`%#@coffees@`, `%1$#@lines@, %2$#@items@`).
    static func isLanguageNeutral(_ format: String) -> Bool {
        FormatStringScanner.scan(format).allSatisfy { token in
            guard case .literal(let text) = token else { return true }
            return !text.contains { $0.isLetter }
        }
    }
}

/// Byte edits to one property list, applied at once from the end so offsets stay valid.
private struct Editor {
    indirect enum Value {
        case string(String)
        case dictionary([(String, Value)])
    }

    private enum Anchor: Hashable {
        /// Before the `<key>` starting at this offset.
        case before(Int)
        /// At the end of the dictionary whose element starts at this offset.
        case end(Int)
    }

    private struct Insertion {
        var dictionary: PropertyListOutline.Node?
        var key: String
        var value: Value
        var order: Int
    }

    let outline: PropertyListOutline?
    private var replacements: [(range: Range<Int>, bytes: [UInt8])] = []
    private var insertions: [Anchor: [Insertion]] = [:]
    private var counter = 0

    /// The file's line break (`\r\n` when it uses that), for the lines inserted.
    private let newline: String

    init(outline: PropertyListOutline?) {
        self.outline = outline
        if let bytes = outline?.bytes, let lineFeed = bytes.firstIndex(of: 0x0A), lineFeed > 0,
            bytes[lineFeed - 1] == 0x0D
        {
            newline = "\r\n"
        } else {
            newline = "\n"
        }
    }

    var hasEdits: Bool { !replacements.isEmpty || !insertions.isEmpty }

    mutating func nextOrder() -> Int {
        counter += 1
        return counter
    }

    mutating func replace(_ range: Range<Int>, with text: String) {
        replacements.append((range, Array(text.utf8)))
    }

    /// Adds `key` to `dictionary` (the file's root when `nil`, a new file when there is none),
    /// before the entry `next` or at the end.
    mutating func add(
        key: String,
        value: Value,
        to dictionary: PropertyListOutline.Node?,
        before next: PropertyListOutline.Entry? = nil,
        order: Int
    ) {
        let anchor: Anchor = next.map { .before($0.keyStart) } ?? .end(dictionary?.range.lowerBound ?? -1)
        insertions[anchor, default: []].append(Insertion(dictionary: dictionary, key: key, value: value, order: order))
    }

    /// The edited file.
    func apply() -> [UInt8] {
        guard let outline else { return newFile() }
        var edits = replacements
        for (anchor, items) in insertions {
            let items = items.sorted { $0.order < $1.order }
            guard let dictionary = items[0].dictionary else { continue }
            let own = outline.indent(before: dictionary.range.lowerBound) ?? []
            let unit = indentUnit(outline)
            let child = dictionary.entries.first.flatMap { outline.indent(before: $0.keyStart) } ?? own + unit
            let members = items.map { member($0.key, $0.value, indent: child, unit: unit) }
            switch anchor {
            case .before(let offset):
                // `<key>new</key>…` then a line break and the indent the displaced key had.
                let text = members.map { $0 + newline + String(decoding: child, as: UTF8.self) }.joined()
                edits.append((offset..<offset, Array(text.utf8)))
            case .end:
                let childText = String(decoding: child, as: UTF8.self)
                if let last = dictionary.entries.last {
                    let text = members.map { newline + childText + $0 }.joined()
                    let end = last.value.range.upperBound
                    edits.append((end..<end, Array(text.utf8)))
                } else if let endTag = dictionary.endTag {
                    let closing = outline.indent(before: endTag)
                    let text =
                        (closing == nil ? newline + childText : String(decoding: unit, as: UTF8.self))
                        + members.joined(separator: newline + childText) + newline
                        + String(decoding: closing ?? own, as: UTF8.self)
                    edits.append((endTag..<endTag, Array(text.utf8)))
                } else {
                    // `<dict/>` opened up.
                    let text =
                        "<dict>" + newline + childText + members.joined(separator: newline + childText) + newline
                        + String(decoding: own, as: UTF8.self) + "</dict>"
                    edits.append((dictionary.range, Array(text.utf8)))
                }
            }
        }
        var bytes = outline.bytes
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(edit.range, with: edit.bytes)
        }
        return bytes
    }

    /// A new file as Xcode writes one: tabs, the Apple DOCTYPE.
    private func newFile() -> [UInt8] {
        let members = insertions.values.joined().sorted { $0.order < $1.order }
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>

            """
        for insertion in members {
            text += "\t" + member(insertion.key, insertion.value, indent: [0x09], unit: [0x09]) + newline
        }
        return Array((text + "</dict>" + newline + "</plist>" + newline).utf8)
    }

    /// The file's indentation step: its root's first key's indent less the root's own.
    private func indentUnit(_ outline: PropertyListOutline) -> [UInt8] {
        guard let first = outline.root.entries.first, let child = outline.indent(before: first.keyStart),
            let own = outline.indent(before: outline.root.range.lowerBound), child.count > own.count,
            child.starts(with: own)
        else { return [0x09] }
        return Array(child.dropFirst(own.count))
    }

    /// `<key>KEY</key>`, a line break, then the value at `indent`.
    private func member(_ key: String, _ value: Value, indent: [UInt8], unit: [UInt8]) -> String {
        "<key>\(Self.escaped(key))</key>" + newline + String(decoding: indent, as: UTF8.self)
            + element(value, indent: indent, unit: unit)
    }

    private func element(_ value: Value, indent: [UInt8], unit: [UInt8]) -> String {
        switch value {
        case .string(let text):
            return Self.stringElement(text)
        case .dictionary(let members):
            let inner = indent + unit
            let innerText = String(decoding: inner, as: UTF8.self)
            return "<dict>" + newline
                + members.map { innerText + member($0.0, $0.1, indent: inner, unit: unit) + newline }.joined()
                + String(decoding: indent, as: UTF8.self) + "</dict>"
        }
    }

    /// `<string>text</string>`, the text escaped.
    static func stringElement(_ text: String) -> String {
        "<string>\(escaped(text))</string>"
    }

    /// Text as a property list's character data: `&`, `<`, `>` and a carriage return escaped
    /// (XML readers would read a raw CR as LF), `"` as written, as Xcode writes it.
    static func escaped(_ text: String) -> String { LocalizationExport.escape(text, quotes: false) }
}
