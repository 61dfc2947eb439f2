import _FoundationICU

extension CompiledNumberFormat {
    /// What a number format is compiled for: its fraction digits and scaling, and how to ask ICU.
    struct Recipe {
        var minimumFractionDigits: Int
        var maximumFractionDigits: Int
        var multiplierExponent: Int
        /// ICU's output for plain decimal text, the reference the compiled format must equal.
        var icu: (String) -> String?
        /// The UTF-8 of the numbering system's digits 0...9.
        var digits: [[UInt8]]
    }

    /// Reads the format off ICU's output for a few probes, then formats a battery of values both
    /// ways; `nil` when anything differs or does not fit the model (ICU stays the formatter then).
    init?(compiling recipe: Recipe) {
        guard recipe.digits.count == 10, recipe.digits.allSatisfy({ !$0.isEmpty }) else { return nil }
        let reader = ProbeReader(digits: recipe.digits)

        // A long probe shows the separators and the group sizes: 17 integer digits, and fraction
        // digits up to the maximum, none of them zero so none is dropped.
        let integerDigits = "12345678901234567"
        let fraction = String("89123456789123456789".prefix(recipe.maximumFractionDigits))
        let shown = integerDigits + (fraction.isEmpty ? "" : "." + fraction)
        let longText = Self.unscaled(shown, exponent: recipe.multiplierExponent)
        guard let long = recipe.icu(longText).map({ reader.read(Array($0.utf8)) }),
            let layout = long.layout(integerDigits: integerDigits.count, fractionDigits: fraction.count),
            long.digits == Array(integerDigits + fraction).map({ Int($0.asciiValue ?? 0) - 48 })
        else { return nil }
        guard let negativeProbe = recipe.icu("-" + longText).map({ reader.read(Array($0.utf8)) }),
            negativeProbe.middle == long.middle
        else { return nil }

        // The fewest digits the leftmost group needs: probe g1 + 1, g1 + 2, … integer digits.
        var minimumGrouping = 1
        if layout.primaryGroup > 0 {
            guard
                let found = (1...4).first(where: { extra in
                    let integerCount = layout.primaryGroup + extra
                    let shown = String(repeating: "7", count: integerCount)
                    guard let output = recipe.icu(Self.unscaled(shown, exponent: recipe.multiplierExponent)) else {
                        return false
                    }
                    // A separator inside the integer digits (the decimal one follows the last).
                    return reader.read(Array(output.utf8)).separators.keys.contains { $0 < integerCount - 1 }
                })
            else { return nil }
            minimumGrouping = found
        }

        var builder = ByteTable.Builder()
        digits = recipe.digits.map { builder.add($0) }
        decimalSeparator = builder.add(layout.decimalSeparator)
        groupingSeparator = builder.add(layout.groupingSeparator)
        positive = Affixes(prefix: builder.add(long.prefix), suffix: builder.add(long.suffix))
        negative = Affixes(prefix: builder.add(negativeProbe.prefix), suffix: builder.add(negativeProbe.suffix))
        table = builder.build()
        primaryGroup = layout.primaryGroup
        secondaryGroup = layout.secondaryGroup
        self.minimumGrouping = minimumGrouping
        minimumFractionDigits = recipe.minimumFractionDigits
        maximumFractionDigits = recipe.maximumFractionDigits
        multiplierExponent = recipe.multiplierExponent
        maximumLength = Self.maximumLength(
            digits: digits,
            separators: [decimalSeparator, groupingSeparator],
            affixes: [positive.prefix, positive.suffix, negative.prefix, negative.suffix],
            maximumFractionDigits: recipe.maximumFractionDigits
        )
        guard verify(against: recipe) else { return nil }
    }

    /// Formats every value of the battery both ways.
    private func verify(against recipe: Recipe) -> Bool {
        if multiplierExponent == 0, minimumFractionDigits == maximumFractionDigits {
            let scale = maximumFractionDigits
            for magnitude in Self.battery {
                for value in [magnitude, -magnitude] where !(value == 0 && magnitude != 0) {
                    let text = Self.decimalText(minorUnits: value, scale: scale)
                    guard let expected = recipe.icu(text), expected == string(minorUnits: value, scale: scale) else {
                        return false
                    }
                }
            }
            return true
        }
        for text in Self.decimalBattery {
            guard let expected = recipe.icu(text) else { return false }
            // Where the compiled format defers to ICU there is nothing to compare.
            if let compiled = string(decimal: text), compiled != expected { return false }
        }
        return true
    }

    /// Minor-unit amounts across every digit count, group boundary and the 64-bit limit.
    static let battery: [Int64] = {
        var values: [Int64] = [0, 1, 5, 9, 10, 12, 99, 100, 101, 999, 1000, 1001, 1234]
        var power: Int64 = 10
        while power <= 1_000_000_000_000_000_000 / 10 {
            values += [power - 1, power, power + 1, power * 3 + 7]
            power *= 10
        }
        values += [1_000_000_000_000_000_000, Int64.max, Int64.max - 1, Int64.min + 1]
        return values
    }()

    /// Decimal texts for scaled formats (percentages): rounding at the last kept digit, carries,
    /// zeros, many digits.
    static let decimalBattery: [String] = [
        "0", "1", "0.1", "0.05", "0.0825", "0.08625", "0.123456", "0.0000004", "0.0000005", "0.0000015",
        "0.0000025", "0.00000251", "0.9999996", "0.99999949", "12.345678", "1234.5", "99999.99999", "-0.0825",
        "-1234.5", "0.16", "7", "0.00001", "123456789.0123",
    ]

    /// `text` (a value as shown) divided by 10^`exponent`, as decimal text ICU multiplies back.
    static func unscaled(_ text: String, exponent: Int) -> String {
        guard exponent > 0 else { return text }
        var digits = Array(text.utf8)
        var point = digits.firstIndex(of: UInt8(ascii: ".")) ?? digits.count
        if point < digits.count { digits.remove(at: point) }
        point -= exponent
        while point < 1 {
            digits.insert(UInt8(ascii: "0"), at: 0)
            point += 1
        }
        digits.insert(UInt8(ascii: "."), at: point)
        return String(decoding: digits, as: UTF8.self)
    }

    /// `minorUnits` × 10^-`scale` as plain decimal text ("-12.05"), as the wire writes amounts.
    static func decimalText(minorUnits: Int64, scale: Int) -> String {
        var digits = Array(String(minorUnits.magnitude).utf8)
        if scale > 0 {
            while digits.count <= scale { digits.insert(UInt8(ascii: "0"), at: 0) }
            digits.insert(UInt8(ascii: "."), at: digits.count - scale)
        }
        return (minorUnits < 0 ? "-" : "") + String(decoding: digits, as: UTF8.self)
    }
}

extension CompiledNumberFormat {
    /// Compiles the format of an opened ICU number format (its symbols and its output).
    static func compile(
        _ format: UnsafeMutablePointer<UNumberFormat?>,
        minimumFractionDigits: Int,
        maximumFractionDigits: Int,
        multiplierExponent: Int
    ) -> CompiledNumberFormat? {
        guard let digits = ICUDigits.read(format) else { return nil }
        let recipe = Recipe(
            minimumFractionDigits: minimumFractionDigits,
            maximumFractionDigits: maximumFractionDigits,
            multiplierExponent: multiplierExponent,
            icu: { text in ICUDecimal.formatIfPossible(text, with: format) },
            digits: digits
        )
        return CompiledNumberFormat(compiling: recipe)
    }
}

/// Splits a formatted number into prefix, digits with the separators between them, and suffix.
struct ProbeReader {
    let digits: [[UInt8]]

    struct Reading {
        var prefix: [UInt8] = []
        var suffix: [UInt8] = []
        /// The digits in order, and what stands between them: `separators[i]` follows digit `i`.
        var digits: [Int] = []
        var separators: [Int: [UInt8]] = [:]
        /// Everything from the first digit through the last.
        var middle: [UInt8] = []

        /// Separators and group sizes, given how many integer and fraction digits were shown.
        func layout(integerDigits: Int, fractionDigits: Int) -> Layout? {
            guard digits.count == integerDigits + fractionDigits else { return nil }
            var decimal: [UInt8] = []
            if fractionDigits > 0 {
                guard let separator = separators[integerDigits - 1] else { return nil }
                decimal = separator
            }
            // Nothing may stand between fraction digits.
            guard separators.keys.allSatisfy({ $0 < integerDigits }) else { return nil }
            let grouping = separators.filter { $0.key < integerDigits - 1 }
            guard let groupingSeparator = grouping.values.first else {
                return Layout(decimalSeparator: decimal, groupingSeparator: [], primaryGroup: 0, secondaryGroup: 0)
            }
            guard grouping.values.allSatisfy({ $0 == groupingSeparator }), groupingSeparator != decimal else {
                return nil
            }
            // Digits to the right of each separator, nearest the point first.
            let positions = grouping.keys.map { integerDigits - 1 - $0 }.sorted()
            let primary = positions[0]
            let secondary = positions.count > 1 ? positions[1] - positions[0] : primary
            guard primary > 0, secondary > 0 else { return nil }
            for (index, position) in positions.enumerated() where position != primary + index * secondary {
                return nil
            }
            // Every boundary the 17 digits allow is there.
            guard positions.count == (integerDigits - 1 - primary) / secondary + 1 else { return nil }
            return Layout(
                decimalSeparator: decimal,
                groupingSeparator: groupingSeparator,
                primaryGroup: primary,
                secondaryGroup: secondary
            )
        }
    }

    struct Layout {
        var decimalSeparator: [UInt8]
        var groupingSeparator: [UInt8]
        var primaryGroup: Int
        var secondaryGroup: Int
    }

    func read(_ bytes: [UInt8]) -> Reading {
        var reading = Reading()
        var index = 0
        var pending: [UInt8] = []
        var firstDigitAt: Int?
        var lastDigitEnd = 0
        while index < bytes.count {
            if let digit = digit(at: index, in: bytes) {
                if firstDigitAt == nil {
                    firstDigitAt = index
                    reading.prefix = pending
                } else if !pending.isEmpty {
                    reading.separators[reading.digits.count - 1] = pending
                }
                pending = []
                reading.digits.append(digit)
                index += digits[digit].count
                lastDigitEnd = index
            } else {
                pending.append(bytes[index])
                index += 1
            }
        }
        if let first = firstDigitAt {
            reading.suffix = Array(bytes[lastDigitEnd...])
            reading.middle = Array(bytes[first..<lastDigitEnd])
        } else {
            reading.prefix = pending
        }
        return reading
    }

    private func digit(at index: Int, in bytes: [UInt8]) -> Int? {
        for (value, glyph) in digits.enumerated() where index + glyph.count <= bytes.count {
            if bytes[index..<(index + glyph.count)].elementsEqual(glyph) { return value }
        }
        return nil
    }
}
