import Foundation

/// Inline Markdown styling, with the names of Apple's `InlinePresentationIntent` (which Foundation
/// on Linux lacks).
public struct InlinePresentationIntent: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `*text*`
    public static let emphasized = InlinePresentationIntent(rawValue: 1 << 0)
    /// `**text**`
    public static let stronglyEmphasized = InlinePresentationIntent(rawValue: 1 << 1)
    /// `` `text` ``
    public static let code = InlinePresentationIntent(rawValue: 1 << 2)
    /// `~~text~~`
    public static let strikethrough = InlinePresentationIntent(rawValue: 1 << 5)
    /// A line ending inside a paragraph.
    public static let softBreak = InlinePresentationIntent(rawValue: 1 << 6)
    /// A hard line break.
    public static let lineBreak = InlinePresentationIntent(rawValue: 1 << 7)

    /// Each intent and its name, in a stable order.
    public static let named: [(InlinePresentationIntent, String)] = [
        (.stronglyEmphasized, "stronglyEmphasized"), (.emphasized, "emphasized"), (.code, "code"),
        (.strikethrough, "strikethrough"), (.softBreak, "softBreak"), (.lineBreak, "lineBreak"),
    ]

    /// The names of the intents in the set, as the JSON runs list them.
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }

    public var description: String { names.joined(separator: ", ") }
}

/// The attribute holding ``InlinePresentationIntent`` (Apple's `NSInlinePresentationIntent`).
public enum InlinePresentationIntentAttribute: CodableAttributedStringKey {
    public typealias Value = InlinePresentationIntent
    public static let name = "NSInlinePresentationIntent"
}
