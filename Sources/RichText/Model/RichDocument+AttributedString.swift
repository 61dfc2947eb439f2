import Foundation
@_spi(Reflection) import Swift
import Synchronization

extension RichDocument {
    /// The document as Foundation's `AttributedString` with the keys of ``AttributeScopes/RichTextAttributes``.
    ///
    /// - Parameter keepingUnknownAttributes: also store every `^[…](…)` key, decoded or not, as raw
    ///   JSON under ``MarkdownAttributesAttribute`` (the tooling mode).
    /// - Throws: ``RichTextError`` when a declared key's value does not decode (`inflect: 3`).
    public func attributedString(keepingUnknownAttributes: Bool = false) throws(RichTextError) -> AttributedString {
        try attributedString(
            including: AttributeScopes.RichTextAttributes.self,
            keepingUnknownAttributes: keepingUnknownAttributes
        )
    }

    /// The document as `AttributedString`, decoding only the `^[…](…)` keys `scope` declares
    /// (as `MarkdownDecodableAttributedStringKey`s, found in nested scopes too), the way
    /// `AttributedString(markdown:including:)` does.
    ///
    /// ```swift
    /// let text = try document.attributedString(including: AttributeScopes.CaffeAppAttributes.self)
    /// text.runs.first?.rainbow   // "fun"
    /// ```
    public func attributedString<Scope: AttributeScope>(
        including scope: Scope.Type,
        keepingUnknownAttributes: Bool = false
    ) throws(RichTextError) -> AttributedString {
        let keys = MarkdownKeyCatalog.keys(of: scope)
        var result = AttributedString()
        for run in runs {
            var container = AttributeContainer()
            if !run.intents.isEmpty { container[InlinePresentationIntentAttribute.self] = run.intents }
            if let link = run.link, let url = URL(string: link) {
                container[AttributeScopes.FoundationAttributes.LinkAttribute.self] = url
            }
            if let source = run.imageURL, let url = URL(string: source) {
                container[AttributeScopes.FoundationAttributes.ImageURLAttribute.self] = url
            }
            for (name, value) in run.attributes.sorted(by: { $0.key < $1.key }) {
                guard let key = keys[name] else { continue }
                do {
                    try Self.decode(value, as: key, into: &container)
                } catch {
                    throw RichTextError(
                        message: "attribute '\(name)' has a value its type does not accept: \(value.jsonText)",
                        line: 0,
                        column: 0,
                        sourceLine: run.text
                    )
                }
            }
            if keepingUnknownAttributes, !run.attributes.isEmpty {
                container[MarkdownAttributesAttribute.self] = run.attributes
            }
            result.append(AttributedString(run.text, attributes: container))
        }
        return result
    }

    private static func decode<Key: MarkdownDecodableAttributedStringKey>(
        _ value: JSONValue,
        as key: Key.Type,
        into container: inout AttributeContainer
    ) throws {
        let data = try JSONEncoder().encode(value)
        container[Key.self] = try JSONDecoder().decode(MarkdownValue<Key>.self, from: data).value
    }
}

/// Decodes one key's value through the key's own `decodeMarkdown(from:)`.
private struct MarkdownValue<Key: MarkdownDecodableAttributedStringKey>: Decodable {
    let value: Key.Value

    init(from decoder: any Decoder) throws {
        value = try Key.decodeMarkdown(from: decoder)
    }
}

/// The Markdown keys of attribute scopes, found by reflection as Foundation does, cached per scope.
enum MarkdownKeyCatalog {
    private static let cache = Mutex<[ObjectIdentifier: [String: any MarkdownDecodableAttributedStringKey.Type]]>([:])

    static func keys(of scope: any AttributeScope.Type) -> [String: any MarkdownDecodableAttributedStringKey.Type] {
        let id = ObjectIdentifier(scope)
        if let cached = cache.withLock({ $0[id] }) { return cached }
        var keys: [String: any MarkdownDecodableAttributedStringKey.Type] = [:]
        collect(scope, into: &keys, depth: 0)
        cache.withLock { $0[id] = keys }
        return keys
    }

    private static func collect(
        _ type: Any.Type,
        into keys: inout [String: any MarkdownDecodableAttributedStringKey.Type],
        depth: Int
    ) {
        guard depth < 8 else { return }
        _ = _forEachField(of: type, options: []) { _, _, fieldType, _ in
            if let key = fieldType as? any MarkdownDecodableAttributedStringKey.Type {
                keys[key.markdownName] = key
            } else if fieldType is any AttributeScope.Type {
                collect(fieldType, into: &keys, depth: depth + 1)
            }
            return true
        }
    }
}

/// The `^[…](…)` keys a scope declares.
public enum RichTextKeys {
    /// The keys of ``AttributeScopes/RichTextAttributes``: the grammar-agreement keys.
    public static var declared: Set<String> { declared(in: AttributeScopes.RichTextAttributes.self) }

    /// The Markdown names of every `MarkdownDecodableAttributedStringKey` in `scope`.
    public static func declared(in scope: any AttributeScope.Type) -> Set<String> {
        Set(MarkdownKeyCatalog.keys(of: scope).keys)
    }
}
