// Caffe — Localization tests.
import CaffeTestKit
import Foundation
import Localization
import Testing

/// Issue 21, item 9: floating-point specifiers round the binary value, as printf and Apple's
/// `String(format:)` do; decimals (money) keep their decimal rounding.
@Suite("Issue 21: printf rounding")
struct PrintfRoundingTests {
    typealias Support = RenderingSupport

    @Test func fixedPointRoundsLikePrintf() throws {
        let english = try Localizer(catalog: .empty(), locale: "en")
        var compiled = try Support.withCatalog([
            "en.lproj/Localizable.strings": Support.stringsFile([("share", "%.2f%% (%.2f%% selected)")])
        ]) { catalog in
            try Localizer(catalog: catalog, locale: "en").string("share", arguments: [12.345, 2.675]).text
        }
        #expect(compiled == "12.35% (2.67% selected)")
        compiled = try Support.withCatalog([
            "de.lproj/Localizable.strings": Support.stringsFile([("share", "%.2f %% (%.2f %% ausgewählt)")])
        ]) { catalog in
            try Localizer(catalog: catalog, locale: "de").string("share", arguments: [12.345, 2.675]).text
        }
        #expect(compiled == "12,35 % (2,67 % ausgewählt)")
        let cases: [(FormatSpecifier, Double, String)] = [
            (FormatSpecifier(precision: 2, conversion: .fixed), 0.125, "0.12"),  // an exact tie goes to even
            (FormatSpecifier(precision: 2, conversion: .fixed), 0.375, "0.38"),
            (FormatSpecifier(precision: 1, conversion: .fixed), -0.05, "-0.1"),  // -0.05000000000000000277
            (FormatSpecifier(precision: 3, conversion: .scientific), 12_345.5, "1.235e+04"),
            (FormatSpecifier(precision: 3, conversion: .scientificUpper), 0.000_123_45, "1.234E-04"),
            (FormatSpecifier(precision: 3, conversion: .general), 2.675, "2.67"),
            (FormatSpecifier(flags: .alternate, precision: 3, conversion: .general), 1, "1.00"),
            (FormatSpecifier(precision: 2, conversion: .general), 123_456, "1.2e+05"),
            (FormatSpecifier(precision: 2, conversion: .fixed), 1_234_567.125, "1,234,567.12"),
        ]
        for (specifier, value, expected) in cases {
            #expect(try english.format(.double(value), as: specifier) == expected, "\(specifier) \(value)")
        }
        // Decimals keep their digits and ICU's decimal rounding (money is decimal, never binary).
        #expect(try english.format(.decimal("2.675"), as: FormatSpecifier(precision: 2, conversion: .fixed)) == "2.68")
    }

    @Test func longOutputsAreWhole() throws {
        let english = try Localizer(catalog: .empty(), locale: "en")
        // 1e300 with two fraction digits is 304 characters: longer than the first buffer.
        let text = try english.format(.double(1e300), as: FormatSpecifier(precision: 2, conversion: .fixed))
        #expect(text.replacingOccurrences(of: ",", with: "") == String(format: "%.2f", 1e300))
        // The exact binary value: 301 digits in 101 groups, then ".00".
        #expect(
            text.hasPrefix("1,000,000,000,000,000,052,504,760,255,204,420,248,704,468,581,108,159,154,915,854,115,511")
        )
        #expect(text.count == 301 + 100 + 3)
    }

    @Test func fixedScientificAndGeneralMatchStringFormatOnRandomDoubles() throws {
        let english = try Localizer(catalog: .empty(), locale: "en")
        var generator = SplitMix64(seed: 21)
        for _ in 0..<2_000 {
            let bits = generator.next()
            // Values below 1,000 so grouping (which printf lacks) never differs.
            let value = (Double(bits >> 11) / Double(1 << 53) * 1_998 - 999).rounded(toPlaces: Int(bits % 7))
            let precision = Int((bits >> 3) % 5)
            for conversion in [FormatSpecifier.Conversion.fixed, .scientific, .general] {
                let specifier = FormatSpecifier(precision: precision, conversion: conversion)
                let expected = String(format: "%.\(precision)\(conversion.rawValue)", value)
                #expect(try english.format(.double(value), as: specifier) == expected, "\(specifier) \(value)")
            }
        }
    }
}

extension Double {
    /// The double nearest to `self` rounded to `places` decimals: with one more place than the
    /// precision, many land next to a printf tie.
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
