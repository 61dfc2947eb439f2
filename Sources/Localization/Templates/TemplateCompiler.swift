/// How a `%#@name@` reference is defined: by a `.stringsdict` variable or a String Catalog substitution.
enum VariableDefinition {
    /// `NSStringPluralRuleType`: text per category name, in file order, and the variable's
    /// `NSStringFormatValueTypeKey` (`d`, `lld`, `@`…) when it has one.
    case plural([(category: String, text: String)], valueType: String? = nil)
    /// `NSStringDeviceSpecificRuleType` or `variations.device`: text per device name.
    case device([(device: String, text: String)])
    /// `NSStringVariableWidthRuleType`: text per width.
    case width([(width: String, text: String)])
    /// A rule type Apple does not define (such as `NSStringGenderRuleType`): rendered with its
    /// `other` (or first) variant, and reported.
    case unsupported(ruleType: String, cases: [(name: String, text: String)])
    /// A String Catalog substitution: its argument number and specifier, and its plural variants
    /// (or a single value), whose `%arg` stands for the argument.
    case substitution(argumentNumber: Int?, formatSpecifier: String, plural: [(category: String, text: String)])
}

/// Something the compiler noticed; readers turn these into ``CatalogDiagnostic``s with file and key.
struct CompileIssue: Hashable, Sendable {
    var severity: CatalogDiagnostic.Severity
    var code: CatalogDiagnostic.Code
    var message: String
    /// A `%` with no conversion after it ("100%", "50% Rabatt"): text unless the string is formatted.
    var isLonePercent = false
}

extension CatalogDiagnostic.Code {
    /// A `%` sequence that is not a valid conversion; it renders as written.
    public static let invalidSpecifier = Self("invalid-specifier")
    /// A `%#@name@` with no definition; it renders as written.
    public static let undefinedVariable = Self("undefined-variable")
    /// `%1#@name@`: a position without `$`; read as position 1.
    public static let malformedVariable = Self("malformed-variable")
    /// A variable rule type Apple does not define.
    public static let unsupportedRuleType = Self("unsupported-rule-type")
    /// A plural variant named other than zero/one/two/few/many/other.
    public static let unknownPluralCategory = Self("unknown-plural-category")
    /// A whole-string plural variation whose source has no single numeric argument to choose by.
    public static let ambiguousPluralArgument = Self("ambiguous-plural-argument")
}

/// Compiles catalog text into a ``TemplateNode`` tree, resolving argument numbers.
///
/// Numbering follows Apple's: unnumbered specifiers take the next argument in order; a variable
/// reference takes one argument (its selector); inside a variable's variants, unnumbered
/// specifiers start at the variable's own argument, so `%#@files@` with `one = "%d file"` formats
/// the same number that selected the variant.
struct TemplateCompiler {
    let resolve: (String) -> VariableDefinition?
    private(set) var issues: [CompileIssue] = []
    private static let maximumDepth = 8
    /// Variables being expanded, to report self-reference instead of expanding it.
    private var expanding: Set<String> = []
    /// Pieces compiled so far for this value; bounds fan-out (a variable used ten times per variant).
    private var compiledPieces = 0
    private static let maximumPieces = 10_000

    init(resolve: @escaping (String) -> VariableDefinition? = { _ in nil }) {
        self.resolve = resolve
    }

    /// What to report about `value` (compiled by this compiler): everything, except lone `%`
    /// signs when the value takes no arguments at all. Apple formats only strings that take
    /// arguments, so "100%" and "50% Rabatt" are shown as written; such a `%` matters only next to
    /// real specifiers. Broken specifiers (`%0$d`, a huge width) are always reported.
    func issues(for value: CompiledString) -> [CompileIssue] {
        guard !value.hasArguments else { return issues }
        return issues.filter { !$0.isLonePercent }
    }

    /// Whether an invalid `%` sequence is a percent sign in text rather than a broken specifier:
    /// nothing after the `%` that only a specifier has (a position or width digit, `$`, `#`, `*`, `.`).
    static func isLonePercent(_ invalid: String) -> Bool {
        !invalid.utf8.dropFirst().contains { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "$#*.".utf8.contains(byte)
        }
    }

    /// Compiles a whole value.
    mutating func compile(_ text: String) -> CompiledString {
        var next = 0
        let node = compileSequence(text, next: &next, substitution: nil, depth: 0)
        return CompiledString(root: node, source: text)
    }

    /// Compiles a value whose variants are chosen as a whole (String Catalog `variations`).
    mutating func compileVariant(_ text: String) -> TemplateNode {
        var next = 0
        return compileSequence(text, next: &next, substitution: nil, depth: 0)
    }

    private mutating func issue(
        _ severity: CatalogDiagnostic.Severity,
        _ code: CatalogDiagnostic.Code,
        _ message: String
    ) {
        issues.append(CompileIssue(severity: severity, code: code, message: message))
    }

    private mutating func compileSequence(
        _ text: String,
        next: inout Int,
        substitution: (index: Int, specifier: FormatSpecifier)?,
        depth: Int
    ) -> TemplateNode {
        var pieces: [TemplatePiece] = []
        func appendLiteral(_ literal: String) {
            if case .literal(let previous)? = pieces.last {
                pieces[pieces.count - 1] = .literal(previous + literal)
            } else {
                pieces.append(.literal(literal))
            }
        }
        for token in FormatStringScanner.scan(text, recognizesArg: substitution != nil) {
            compiledPieces += 1
            switch token {
            case .literal(let literal):
                appendLiteral(literal)
            case .specifier(let specifier):
                let index: Int
                if let position = specifier.position {
                    index = position - 1
                } else {
                    index = next
                    next += 1
                }
                pieces.append(.argument(index, specifier))
            case .substitutionArgument:
                if let substitution {
                    pieces.append(.argument(substitution.index, substitution.specifier))
                } else {
                    appendLiteral("%arg")
                }
            case .invalid(let invalidText, _, let reason):
                // Strings never formatted (storyboard titles) legitimately hold "50%"; they render as written.
                issues.append(
                    CompileIssue(
                        severity: .warning,
                        code: .invalidSpecifier,
                        message: "'\(invalidText)' in \"\(text)\": \(reason)",
                        isLonePercent: Self.isLonePercent(invalidText)
                    )
                )
                appendLiteral(invalidText)
            case .variable(let name, let position, let isMalformed):
                let written = "%\(position.map { isMalformed ? "\($0)" : "\($0)$" } ?? "")#@\(name)@"
                if isMalformed {
                    issue(
                        .warning,
                        .malformedVariable,
                        "'\(written)' has a position without '$'; read as argument \(position ?? 1)"
                    )
                }
                let index: Int
                if let position {
                    index = position - 1
                } else {
                    index = next
                    next += 1
                }
                guard depth < Self.maximumDepth else {
                    issue(.error, .undefinedVariable, "variables nest deeper than \(Self.maximumDepth) at '\(written)'")
                    appendLiteral(written)
                    continue
                }
                guard let definition = resolve(name) else {
                    issue(.error, .undefinedVariable, "'\(written)' refers to a variable the entry does not define")
                    appendLiteral(written)
                    continue
                }
                guard !expanding.contains(name) else {
                    issue(.error, .undefinedVariable, "variable '\(name)' refers to itself")
                    appendLiteral(written)
                    continue
                }
                guard compiledPieces < Self.maximumPieces else {
                    issue(.error, .undefinedVariable, "the value expands to more than \(Self.maximumPieces) pieces")
                    appendLiteral(written)
                    continue
                }
                expanding.insert(name)
                pieces.append(.node(compileVariable(name, definition, index: index, depth: depth + 1)))
                expanding.remove(name)
            }
        }
        return .sequence(pieces)
    }

    private mutating func compileVariable(
        _ name: String,
        _ definition: VariableDefinition,
        index: Int,
        depth: Int
    ) -> TemplateNode {
        /// Variants number their unnumbered specifiers from the variable's own argument.
        func variant(_ text: String, substitution: (index: Int, specifier: FormatSpecifier)? = nil) -> TemplateNode {
            var next = index
            return compileSequence(text, next: &next, substitution: substitution, depth: depth)
        }
        switch definition {
        case .plural(let cases, let valueType):
            var compiled: [PluralCategory: TemplateNode] = [:]
            for (category, text) in knownCategories(name, cases) { compiled[category] = variant(text) }
            return .plural(
                PluralSwitch(
                    argument: index,
                    cases: compiled,
                    valueType: valueType.flatMap(Self.specifier(fromCatalog:))
                )
            )
        case .substitution(let number, let formatSpecifier, let plural):
            var argument = index
            if let number {
                if (1...FormatStringScanner.maximumPosition).contains(number) {
                    argument = number - 1
                } else {
                    issue(
                        .error,
                        .invalidSpecifier,
                        "substitution '\(name)' has argNum \(number); argument numbers run from 1"
                    )
                }
            }
            let specifier = Self.specifier(fromCatalog: formatSpecifier) ?? FormatSpecifier(conversion: .object)
            if Self.specifier(fromCatalog: formatSpecifier) == nil {
                issue(.error, .invalidSpecifier, "substitution '\(name)' has format specifier '\(formatSpecifier)'")
            }
            var compiled: [PluralCategory: TemplateNode] = [:]
            for (category, text) in knownCategories(name, plural) {
                var next = argument
                compiled[category] = compileSequence(
                    text,
                    next: &next,
                    substitution: (argument, specifier),
                    depth: depth
                )
            }
            return .plural(PluralSwitch(argument: argument, cases: compiled, valueType: specifier))
        case .device(let cases):
            var devices: [DeviceClass: TemplateNode] = [:]
            for (deviceName, text) in cases {
                guard let device = DeviceClass(catalogName: deviceName) else {
                    issue(.warning, .unsupportedRuleType, "variable '\(name)' has unknown device '\(deviceName)'")
                    continue
                }
                devices[device] = variant(text)
            }
            return .device(devices)
        case .width(let cases):
            var variants: [WidthVariant] = []
            for (width, text) in cases {
                guard let value = Int(width) else {
                    issue(.warning, .unsupportedRuleType, "variable '\(name)' has non-numeric width '\(width)'")
                    continue
                }
                variants.append(WidthVariant(width: value, node: variant(text)))
            }
            return .width(variants.sorted { $0.width < $1.width })
        case .unsupported(let ruleType, let cases):
            issue(
                .warning,
                .unsupportedRuleType,
                "variable '\(name)' uses \(ruleType), which Apple does not define; its "
                    + "'\(cases.first { $0.name == "other" }?.name ?? cases.first?.name ?? "")' variant is used"
            )
            let chosen = cases.first { $0.name == "other" } ?? cases.first
            return chosen.map { variant($0.text) } ?? .sequence([])
        }
    }

    /// The cases whose names are CLDR categories; others are reported and dropped.
    private mutating func knownCategories(
        _ name: String,
        _ cases: [(category: String, text: String)]
    ) -> [(PluralCategory, String)] {
        var known: [(PluralCategory, String)] = []
        for (categoryName, text) in cases {
            guard let category = PluralCategory(rawValue: categoryName) else {
                issue(
                    .warning,
                    .unknownPluralCategory,
                    "variable '\(name)' has unknown plural category '\(categoryName)'"
                )
                continue
            }
            known.append((category, text))
        }
        return known
    }

    /// Reads a String Catalog `formatSpecifier` (`lld`, `@`, `%ld`, `.2f`) as a specifier.
    static func specifier(fromCatalog text: String) -> FormatSpecifier? {
        let written = text.hasPrefix("%") ? text : "%" + text
        let tokens = FormatStringScanner.scan(written)
        guard tokens.count == 1, case .specifier(let specifier) = tokens[0] else { return nil }
        return specifier
    }
}
