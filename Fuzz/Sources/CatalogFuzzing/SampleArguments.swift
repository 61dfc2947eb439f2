import Localization

/// Arguments that fit the specifiers of a catalog value or a format string, so rendering goes
/// past type checks into number formatting, plural choice and agreement.
public enum SampleArguments {
    /// Most arguments supplied; a value wanting more gets a missing-argument error, which is
    /// still a path worth taking.
    static let limit = 12

    /// Numbers tried, one per render: singular and plural in most languages, then zero, few/many
    /// forms and a large number with grouping.
    static let numbers: [Int64] = [1, 2, 0, 5, 21, 1_234_567, -3]

    /// Words the lexicons know, so agreement has something to inflect.
    static let words = ["pizza", "ensalada", "grande", "pequeño", "café", "Torte"]

    /// The arguments of a compiled catalog value for render number `variant`.
    public static func arguments(for value: CompiledString, variant: Int) -> [FormatArgument] {
        arguments(count: value.argumentCount, specifiers: value.specifiers, variant: variant)
    }

    /// The arguments of a format string (an agreement template) for render number `variant`.
    public static func arguments(for format: String, variant: Int) -> [FormatArgument] {
        let found = FormatStringSpecifiers.find(in: format)
        return arguments(
            count: (found.map(\.argument).max() ?? -1) + 1,
            specifiers: found.map { ($0.argument, $0.specifier) },
            variant: variant
        )
    }

    /// `count` arguments for render number `variant`, each typed by the first specifier that shows
    /// it (integers for plural selectors that none shows).
    static func arguments(
        count: Int,
        specifiers: [(argument: Int, specifier: FormatSpecifier)],
        variant: Int
    ) -> [FormatArgument] {
        let count = min(count, limit)
        guard count > 0 else { return [] }
        var kinds = [FormatSpecifier.ArgumentKind?](repeating: nil, count: count)
        for (argument, specifier) in specifiers where argument < count && kinds[argument] == nil {
            kinds[argument] = specifier.argumentKind
        }
        let number = numbers[variant % numbers.count]
        return kinds.enumerated().map { index, kind in
            switch kind {
            case .integer?, nil: .integer(number)
            case .unsignedInteger?: .unsignedInteger(UInt64(number.magnitude))
            case .floatingPoint?: .double(Double(number) + 0.5)
            case .object?: index.isMultiple(of: 2) ? .integer(number) : .string(words[index % words.count])
            case .string?, .character?: .string(words[(index + variant) % words.count])
            }
        }
    }
}
