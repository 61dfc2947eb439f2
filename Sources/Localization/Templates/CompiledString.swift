/// A catalog value compiled once into literal text, argument slots and variant switches, so
/// rendering never parses.
///
/// Arguments are 0-based indexes into the caller's argument list; positional specifiers
/// (`%2$@`) and sequential ones (`%@`) are both resolved at compile time.
public struct CompiledString: Hashable, Sendable {
    /// The tree to render.
    let root: TemplateNode
    /// The value as written in the catalog (for a plain value); rendered verbatim when the caller
    /// passes no arguments, as `NSLocalizedString` does.
    public let source: String
    /// How many arguments the string consumes (the highest index used, plus one).
    public let argumentCount: Int
    /// Every specifier, with the argument it formats, in order of appearance across all variants.
    public let specifiers: [(argument: Int, specifier: FormatSpecifier)]

    init(root: TemplateNode, source: String) {
        self.root = root
        self.source = source
        var specifiers: [(Int, FormatSpecifier)] = []
        var highest = -1
        root.visit { piece in
            switch piece {
            case .argument(let index, let specifier):
                specifiers.append((index, specifier))
                highest = max(highest, index)
            case .pluralSelector(let index):
                highest = max(highest, index)
            }
        }
        self.specifiers = specifiers
        argumentCount = highest + 1
    }

    /// The UTF-8 bytes of the value's text in every variant together: what a size cap judges.
    public var textBytes: Int {
        var total = 0
        root.visitLiterals { total += $0.utf8.count }
        return max(total, source.utf8.count)
    }

    /// The first character of the value's text (any variant) that has no place in a translation
    /// (``TranslationText/forbiddenScalar(in:)``).
    public var forbiddenScalar: Unicode.Scalar? {
        if let found = TranslationText.forbiddenScalar(in: source) { return found }
        var found: Unicode.Scalar?
        root.visitLiterals { text in if found == nil { found = TranslationText.forbiddenScalar(in: text) } }
        return found
    }

    /// Whether any part of the string depends on arguments (specifiers or plural switches).
    public var hasArguments: Bool { argumentCount > 0 }

    /// Whether the value is text with specifiers only: no variants of any kind. Such a value,
    /// rendered without arguments, is returned exactly as written (`%%` stays `%%`), as
    /// `NSLocalizedString` returns it.
    public var isPlain: Bool {
        guard case .sequence(let pieces) = root else { return false }
        return !pieces.contains { if case .node = $0 { true } else { false } }
    }

    /// For each plural switch (for lint), in order of appearance: its argument and the categories
    /// whose variant shows that argument.
    var pluralCategoriesShowingTheirNumber: [(argument: Int, categories: Set<PluralCategory>)] {
        var result: [(Int, Set<PluralCategory>)] = []
        root.visitSwitches { node in
            guard case .plural(let plural) = node else { return }
            var showing: Set<PluralCategory> = []
            for (category, variant) in plural.cases {
                variant.visit { use in
                    if case .argument(plural.argument, _) = use { showing.insert(category) }
                }
            }
            result.append((plural.argument, showing))
        }
        return result
    }

    /// The literal text of every variant (for lint): what is shown as written.
    var literals: [String] {
        var texts: [String] = []
        root.visitLiterals { texts.append($0) }
        return texts
    }

    /// The specifier each plural switch declares for its argument (for lint), in order of appearance.
    var pluralValueTypes: [(argument: Int, specifier: FormatSpecifier)] {
        var result: [(Int, FormatSpecifier)] = []
        root.visitSwitches { node in
            if case .plural(let plural) = node, let type = plural.valueType { result.append((plural.argument, type)) }
        }
        return result
    }

    /// The plural categories each plural switch covers (for lint), in order of appearance.
    public var pluralSwitches: [(argument: Int, categories: Set<PluralCategory>)] {
        var result: [(Int, Set<PluralCategory>)] = []
        root.visitSwitches { node in
            if case .plural(let plural) = node { result.append((plural.argument, Set(plural.cases.keys))) }
        }
        return result
    }

    public static func == (lhs: CompiledString, rhs: CompiledString) -> Bool {
        lhs.root == rhs.root && lhs.source == rhs.source
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(source)
    }
}

/// A node of a compiled string.
indirect enum TemplateNode: Hashable, Sendable {
    /// Pieces rendered one after another.
    case sequence([TemplatePiece])
    /// A choice by the plural category of one argument.
    case plural(PluralSwitch)
    /// A choice by device (String Catalog `variations.device`, `NSStringDeviceSpecificRuleType`).
    case device([DeviceClass: TemplateNode])
    /// A choice by available width (`NSStringVariableWidthRuleType`), widths ascending.
    case width([WidthVariant])

    /// Calls `body` for every argument use and plural selector in the tree.
    func visit(_ body: (ArgumentUse) -> Void) {
        switch self {
        case .sequence(let pieces):
            for piece in pieces {
                switch piece {
                case .literal: break
                case .argument(let index, let specifier): body(.argument(index, specifier))
                case .node(let node): node.visit(body)
                }
            }
        case .plural(let plural):
            body(.pluralSelector(plural.argument))
            for category in PluralCategory.allCases { plural.cases[category]?.visit(body) }
        case .device(let cases):
            for device in DeviceClass.allCases { cases[device]?.visit(body) }
        case .width(let variants):
            for variant in variants { variant.node.visit(body) }
        }
    }

    /// Calls `body` for every literal piece of text in the tree, in every variant.
    func visitLiterals(_ body: (String) -> Void) {
        switch self {
        case .sequence(let pieces):
            for piece in pieces {
                switch piece {
                case .literal(let text): body(text)
                case .argument: break
                case .node(let node): node.visitLiterals(body)
                }
            }
        case .plural(let plural):
            for category in PluralCategory.allCases { plural.cases[category]?.visitLiterals(body) }
        case .device(let cases):
            for device in DeviceClass.allCases { cases[device]?.visitLiterals(body) }
        case .width(let variants):
            for variant in variants { variant.node.visitLiterals(body) }
        }
    }

    /// Calls `body` for every switch node in the tree.
    func visitSwitches(_ body: (TemplateNode) -> Void) {
        switch self {
        case .sequence(let pieces):
            for case .node(let node) in pieces { node.visitSwitches(body) }
        case .plural(let plural):
            body(self)
            for category in PluralCategory.allCases { plural.cases[category]?.visitSwitches(body) }
        case .device(let cases):
            body(self)
            for device in DeviceClass.allCases { cases[device]?.visitSwitches(body) }
        case .width(let variants):
            body(self)
            for variant in variants { variant.node.visitSwitches(body) }
        }
    }

    enum ArgumentUse {
        case argument(Int, FormatSpecifier)
        case pluralSelector(Int)
    }
}

/// One piece of a sequence.
enum TemplatePiece: Hashable, Sendable {
    case literal(String)
    case argument(Int, FormatSpecifier)
    case node(TemplateNode)
}

/// Variants chosen by the plural category of an argument.
struct PluralSwitch: Hashable, Sendable {
    /// The 0-based argument whose value selects.
    var argument: Int
    var cases: [PluralCategory: TemplateNode]
    /// How the variable declares its argument (a stringsdict `NSStringFormatValueTypeKey`, a
    /// String Catalog substitution's `formatSpecifier`), when it does: for lint.
    var valueType: FormatSpecifier? = nil

    /// The variant for `category`: itself, else *other*, else the nearest category the entry has
    /// (Polish files sometimes lack *other*; a missing variant never renders nothing silently).
    func node(for category: PluralCategory) -> TemplateNode? {
        if let node = cases[category] ?? cases[.other] { return node }
        return nearest()
    }

    /// The variant for `argument`: an explicit `zero` variant wins for exactly 0 in every language,
    /// as String Catalogs and stringsdict files use it ("No items"), then the CLDR category.
    func node(for argument: FormatArgument, rules: PluralRules) -> TemplateNode? {
        if let zero = cases[.zero], argument.isExactlyZero { return zero }
        return node(for: rules.category(for: argument))
    }

    private func nearest() -> TemplateNode? {
        for fallback in [PluralCategory.many, .few, .two, .one, .zero] {
            if let node = cases[fallback] { return node }
        }
        return nil
    }
}

/// One width variant.
struct WidthVariant: Hashable, Sendable {
    var width: Int
    var node: TemplateNode
}

/// The device classes Apple's catalogs vary by.
public enum DeviceClass: String, CaseIterable, Hashable, Sendable, Codable {
    case iphone, ipad, ipod, mac, applewatch, appletv, applevision, other

    /// Reads a catalog's device name (`iphone`, `applewatch`, `vision`…); unknown names are `nil`.
    init?(catalogName: String) {
        switch catalogName.lowercased() {
        case "iphone": self = .iphone
        case "ipad": self = .ipad
        case "ipod": self = .ipod
        case "mac": self = .mac
        case "applewatch", "watch": self = .applewatch
        case "appletv", "tv": self = .appletv
        case "applevision", "vision": self = .applevision
        case "other": self = .other
        default: return nil
        }
    }
}

extension CompiledString {
    /// The value for people reading a catalog change: as written, or, with plural variants, each
    /// category the value has with its text (`one: %lld café; other: %lld cafés`).
    public var displayText: String {
        let switches = pluralSwitches
        guard !switches.isEmpty else { return isPlain ? source : flattened(choosing: .other) }
        let categories = Set(switches.flatMap(\.categories))
        return PluralCategory.allCases.filter(categories.contains).map { category in
            "\(category.rawValue): \(flattened(choosing: category))"
        }.joined(separator: "; ")
    }

    /// The value as one printf-style string with every plural switch resolved to `category`
    /// (device and width switches to their `other`/widest variant), positions made explicit.
    ///
    /// For comparisons with `String(format:)`; rendering never goes through text like this.
    public func flattened(choosing category: PluralCategory) -> String {
        format { plural in
            plural.node(for: category)
        } device: { cases in
            cases[.other] ?? cases.values.first
        } width: { variants in
            variants.last
        }
    }

    /// The value as one printf-style string with each switch resolved by the given choices:
    /// literal `%` written `%%`, every specifier with its argument position (`%2$@`). This is the
    /// format `String(format:)` would be handed once the variants are chosen.
    func format(
        plural: (PluralSwitch) -> TemplateNode?,
        device: ([DeviceClass: TemplateNode]) -> TemplateNode?,
        width: ([WidthVariant]) -> WidthVariant?
    ) -> String {
        var text = ""
        func walk(_ node: TemplateNode) {
            switch node {
            case .sequence(let pieces):
                for piece in pieces {
                    switch piece {
                    case .literal(let literal):
                        text += Self.escapingPercent(literal)
                    case .argument(let index, var specifier):
                        specifier.position = index + 1
                        text += specifier.description
                    case .node(let inner): walk(inner)
                    }
                }
            case .plural(let cases):
                if let chosen = plural(cases) { walk(chosen) }
            case .device(let cases):
                if let chosen = device(cases) { walk(chosen) }
            case .width(let variants):
                if let chosen = width(variants) { walk(chosen.node) }
            }
        }
        walk(root)
        return text
    }

    /// `text` with every `%` doubled, so a format reads it as literal text.
    public static func escapingPercent(_ text: String) -> String {
        text.split(separator: "%", omittingEmptySubsequences: false).joined(separator: "%%")
    }
}
