import Foundation

/// Formats one argument for one specifier in one locale: type-checked, never through C `printf`.
struct ArgumentFormatter {
    let numbers: LocaleNumberFormats

    /// The text for `argument` under `specifier`.
    ///
    /// - Throws: ``LocalizationError`` `.argumentMismatch` when the value does not fit the
    ///   specifier, `.unsupportedSpecifier` for conversions not rendered here.
    func format(_ argument: FormatArgument, as specifier: FormatSpecifier, position: Int) throws(LocalizationError)
        -> String
    {
        var text: String
        var isNumeric = true
        switch specifier.argumentKind {
        case .object:
            switch argument {
            case .string(let value):
                text = value
                isNumeric = false
            case .integer(let value): text = numbers.string(value)
            case .unsignedInteger(let value): text = numbers.integer.string(decimal: String(value))
            case .double(let value): text = numbers.general.string(value)
            case .decimal(let value): text = decimal(value)
            }
        case .integer:
            text = minimumDigits(try integer(argument, specifier, position), specifier.precision)
        case .unsignedInteger:
            text = try unsigned(argument, specifier, position)
        case .floatingPoint:
            text = try floatingPoint(argument, specifier, position)
        case .string:
            guard case .string(let value) = argument else {
                throw mismatch(argument, specifier, position, "text")
            }
            text = value
            isNumeric = false
        case .character:
            switch argument {
            case .string(let value) where value.count == 1:
                text = value
            case .integer(let value):
                guard let scalar = UInt32(exactly: value).flatMap(Unicode.Scalar.init) else {
                    throw mismatch(argument, specifier, position, "a Unicode scalar value")
                }
                text = String(Character(scalar))
            default:
                throw mismatch(argument, specifier, position, "one character")
            }
            isNumeric = false
        }
        if isNumeric, specifier.flags.contains(.plusSign) || specifier.flags.contains(.spaceSign),
            !text.hasPrefix("-"), !text.hasPrefix("\u{2212}"), !text.hasPrefix("\u{200F}-"), !text.hasPrefix("\u{61C}-")
        {
            text = (specifier.flags.contains(.plusSign) ? "+" : " ") + text
        }
        if let width = specifier.width, text.count < width {
            let padding = width - text.count
            if specifier.flags.contains(.leftAlign) {
                text += String(repeating: " ", count: padding)
            } else if specifier.flags.contains(.zeroPad), isNumeric {
                let sign = text.first.map { "+- ".contains($0) } == true ? String(text.removeFirst()) : ""
                text = sign + String(repeating: numbers.zeroDigit, count: padding) + text
            } else {
                text = String(repeating: " ", count: padding) + text
            }
        }
        return text
    }

    /// printf's integer precision: at least `precision` digits, padded with the locale's zero.
    private func minimumDigits(_ text: String, _ precision: Int?) -> String {
        guard let precision else { return text }
        let digitCount = text.count { $0.isNumber }
        guard digitCount < precision else { return text }
        let padding = String(repeating: numbers.zeroDigit, count: precision - digitCount)
        if let first = text.first, first == "-" || first == "\u{2212}" {
            return String(first) + padding + text.dropFirst()
        }
        return padding + text
    }

    /// A decimal given as text, shown with the fraction digits it was written with.
    private func decimal(_ text: String) -> String {
        let digits = DecimalText.visibleFractionDigits(text)
        let formatter =
            digits < numbers.fixed.count
            ? numbers.fixed[digits]
            : numbers.formatter(.decimal(minimumFractionDigits: digits, maximumFractionDigits: digits, grouping: true))
        return (formatter ?? numbers.general).string(decimal: text)
    }

    private func integer(_ argument: FormatArgument, _ specifier: FormatSpecifier, _ position: Int)
        throws(LocalizationError) -> String
    {
        switch argument {
        case .integer(let value): return numbers.string(value)
        case .unsignedInteger(let value): return numbers.integer.string(decimal: String(value))
        case .decimal(let text) where !text.contains("."): return numbers.integer.string(decimal: text)
        default: throw mismatch(argument, specifier, position, "an integer")
        }
    }

    private func unsigned(_ argument: FormatArgument, _ specifier: FormatSpecifier, _ position: Int)
        throws(LocalizationError) -> String
    {
        let value: UInt64
        switch argument {
        case .integer(let signed) where signed >= 0: value = UInt64(signed)
        case .unsignedInteger(let unsigned): value = unsigned
        case .decimal(let text) where UInt64(text) != nil: value = UInt64(text) ?? 0
        default: throw mismatch(argument, specifier, position, "a non-negative integer")
        }
        switch specifier.conversion {
        case .hexLower, .pointer: return (specifier.flags.contains(.alternate) ? "0x" : "") + String(value, radix: 16)
        case .hexUpper:
            return (specifier.flags.contains(.alternate) ? "0X" : "") + String(value, radix: 16, uppercase: true)
        case .octal: return (specifier.flags.contains(.alternate) ? "0" : "") + String(value, radix: 8)
        default: return numbers.integer.string(decimal: String(value))
        }
    }

    private func floatingPoint(_ argument: FormatArgument, _ specifier: FormatSpecifier, _ position: Int)
        throws(LocalizationError) -> String
    {
        let value: Double
        var decimalText: String?
        switch argument {
        case .double(let double): value = double
        case .integer(let integer): value = Double(integer)
        case .unsignedInteger(let integer): value = Double(integer)
        case .decimal(let text):
            value = Double(text) ?? 0
            decimalText = text
        case .string: throw mismatch(argument, specifier, position, "a number")
        }
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let precision = specifier.precision ?? 6
        let uppercase = [.scientificUpper, .generalUpper].contains(specifier.conversion)
        let digits: PrintfDigits.Parts
        switch specifier.conversion {
        case .fixed, .fixedUpper:
            // A decimal keeps its own digits (and ICU's decimal rounding); a double rounds as printf.
            if let decimalText {
                return try fixedDigits(decimalText, fractionDigits: precision, grouping: true, position)
            }
            digits = PrintfDigits.Parts(mantissa: PrintfDigits.fixed(value, precision: precision), exponent: nil)
        case .scientific, .scientificUpper:
            digits = PrintfDigits.parts(PrintfDigits.scientific(value, precision: precision))
        case .general, .generalUpper:
            // printf: P significant digits, scientific when the exponent is below -4 or at least P,
            // trailing zeros dropped unless `#`.
            digits = PrintfDigits.parts(
                PrintfDigits.general(value, precision: precision, alternate: specifier.flags.contains(.alternate))
            )
        default:
            throw LocalizationError(
                .unsupportedSpecifier,
                "\(specifier) (hexadecimal floating point) is not rendered",
                argument: position
            )
        }
        // Fixed notation is grouped like Apple's localized formatting; a mantissa never is.
        let mantissa = try fixedDigits(
            digits.mantissa,
            fractionDigits: digits.fractionDigits,
            grouping: digits.exponent == nil,
            position
        )
        guard let exponent = digits.exponent else { return mantissa }
        return mantissa + exponentText(exponent, uppercase: uppercase)
    }

    /// Decimal digits as text (`"-12.35"`) in the locale's digits and separators, with exactly
    /// `fractionDigits` after the separator.
    private func fixedDigits(_ text: String, fractionDigits: Int, grouping: Bool, _ position: Int)
        throws(LocalizationError) -> String
    {
        let formatter =
            grouping && fractionDigits < numbers.fixed.count
            ? numbers.fixed[fractionDigits]
            : numbers.formatter(
                .decimal(
                    minimumFractionDigits: fractionDigits,
                    maximumFractionDigits: fractionDigits,
                    grouping: grouping
                )
            )
        guard let formatter else {
            throw LocalizationError(
                .unknownLocale,
                "ICU cannot format \(fractionDigits) fraction digits for \(numbers.localeID)",
                argument: position
            )
        }
        return formatter.string(decimal: text)
    }

    /// printf's exponent, `e+04`, with the locale's digits: a sign and at least two digits.
    private func exponentText(_ exponent: Int, uppercase: Bool) -> String {
        let magnitude = numbers.string(Int64(abs(exponent)))
        let padded = magnitude.count < 2 ? numbers.zeroDigit + magnitude : magnitude
        return (uppercase ? "E" : "e") + (exponent < 0 ? "-" : "+") + padded
    }

    private func mismatch(
        _ argument: FormatArgument,
        _ specifier: FormatSpecifier,
        _ position: Int,
        _ expected: String
    ) -> LocalizationError {
        LocalizationError(
            .argumentMismatch,
            "argument \(position) is \(argument.kindDescription) '\(argument)', but \(specifier) takes \(expected)",
            argument: position
        )
    }
}

extension FormatArgument {
    var kindDescription: String {
        switch self {
        case .integer, .unsignedInteger: "the integer"
        case .double: "the number"
        case .decimal: "the decimal"
        case .string: "the text"
        }
    }
}
