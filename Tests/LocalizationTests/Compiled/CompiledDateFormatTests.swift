import Foundation
import Glibc
import Testing
import _FoundationICU

@testable import Localization

/// The compiled date formats write exactly what ICU writes: every minute of two years, both DST
/// changes and both year ends, in zones with whole, half and quarter hour offsets, in locales with
/// Latin, Arabic-Indic and Devanagari digits, 12- and 24-hour clocks and flexible day periods.
@Suite("Compiled date formats equal ICU")
struct CompiledDateFormatTests {
    static let cases: [(locale: String, zone: String, skeleton: String)] = [
        ("en-US", "America/Los_Angeles", "yMdjm"),
        ("es-ES", "Europe/Madrid", "yMdjm"),
        ("de-DE", "Europe/Berlin", "EEEjm"),
        ("ja-JP", "Asia/Tokyo", "yMdjm"),
        ("ar-EG", "Africa/Cairo", "yMdjm"),
        ("en-AU", "Australia/Lord_Howe", "EEEjm"),
        ("ne-NP", "Asia/Kathmandu", "yMdjm"),
        ("fr-CA", "America/St_Johns", "yMdjm"),
        ("zh-Hant-TW-u-hc-h12", "Asia/Taipei", "EEEjm"),
    ]

    @Test("every minute of 2026 and 2027", arguments: cases.map { "\($0.locale) \($0.zone) \($0.skeleton)" })
    func everyMinute(_ name: String) throws {
        let parts = name.split(separator: " ").map(String.init)
        let icu = try DateFieldFormatter(locale: parts[0], timeZone: parts[1], skeleton: parts[2])
        let zone = try ZoneTransitions(identifier: parts[1])
        let compiled = try #require(icu.compiled(zone: zone), "\(name) (\(icu.pattern)) does not compile")
        var units = [UInt16](repeating: 0, count: 256)
        var expected = [CChar](repeating: 0, count: 1024)
        var actual = [UInt8](repeating: 0, count: compiled.maximumLength)
        let start = 1_767_225_600.0  // 2026-01-01T00:00:00Z
        let minutes = 2 * 525_600
        var mismatches = 0
        for minute in 0..<minutes {
            let seconds = start + Double(minute) * 60
            var status = U_ZERO_ERROR
            let unitCount = swift_udat_format(icu.format, seconds * 1000, &units, 256, nil, &status)
            var expectedCount: Int32 = 0
            swift_u_strToUTF8(&expected, 1024, &expectedCount, units, unitCount, &status)
            let written = actual.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return compiled.write(Date(timeIntervalSince1970: seconds), to: base)?.bytes ?? -1
            }
            if written != Int(expectedCount) || memcmp(actual, expected, written) != 0 {
                mismatches += 1
                if mismatches <= 3 {
                    let date = Date(timeIntervalSince1970: seconds)
                    Issue.record(
                        "\(name) at \(date): compiled \(compiled.string(date) ?? "-"), ICU \(icu.string(date))"
                    )
                }
            }
            // The fields too, once every 61 minutes (every minute of the hour over time).
            if minute % 61 == 0 {
                let date = Date(timeIntervalSince1970: seconds)
                #expect(compiled.pieces(date) == icu.pieces(date), "\(name) at \(date)")
            }
        }
        #expect(mismatches == 0, "\(name): \(mismatches) minutes differ from ICU")
    }

    /// The core's skeletons in every ICU locale: each compiles or is named as left to ICU.
    @Test("the core's skeletons in every ICU locale")
    func everyLocale() throws {
        let zone = try ZoneTransitions(identifier: "Europe/Paris")
        var compiled = 0
        var fallbacks: [String] = []
        for locale in ICUInventory.locales() {
            for skeleton in ["yMdjm", "jm", "EEEjm", "EEEj", "EEE", "EEEEEE", "EEEEE"] {
                let icu = try DateFieldFormatter(locale: locale, timeZone: "Europe/Paris", skeleton: skeleton)
                if icu.compiled(zone: zone) != nil {
                    compiled += 1
                } else {
                    fallbacks.append("\(locale) \(icu.pattern)")
                }
            }
        }
        #expect(compiled > 5000)
        #expect(fallbacks.count * 100 < compiled, "ICU formats these: \(fallbacks)")
    }

    @Test func zoneOffsetsAndTransitions() throws {
        let losAngeles = try ZoneTransitions(identifier: "America/Los_Angeles")
        #expect(losAngeles.offset(atMilliseconds: 1_767_225_600_000) == Int32(-8 * 3_600_000))
        #expect(losAngeles.offset(atMilliseconds: 1_783_000_000_000) == Int32(-7 * 3_600_000))
        // 2026: DST from 8 March 10:00 UTC to 1 November 09:00 UTC.
        #expect(
            losAngeles.transitions(in: 1_767_225_600_000..<1_798_761_600_000) == [1_772_964_000_000, 1_793_523_600_000]
        )
        #expect(losAngeles.offset(atMilliseconds: 1_772_964_000_000 - 1) == Int32(-8 * 3_600_000))
        #expect(losAngeles.offset(atMilliseconds: 1_772_964_000_000) == Int32(-7 * 3_600_000))
        let kathmandu = try ZoneTransitions(identifier: "Asia/Kathmandu")
        #expect(kathmandu.offset(atMilliseconds: 1_767_225_600_000) == 20_700_000)
        // Outside the table there is no answer: ICU is asked.
        #expect(kathmandu.offset(atMilliseconds: 5_000_000_000_000) == nil)
    }

    @Test func civilDates() {
        #expect(CompiledDateFormat.civil(daysSince1970: 0) == (1970, 1, 1))
        #expect(CompiledDateFormat.civil(daysSince1970: 20_454) == (2026, 1, 1))
        #expect(CompiledDateFormat.civil(daysSince1970: 20_513) == (2026, 3, 1))
        #expect(CompiledDateFormat.civil(daysSince1970: -1) == (1969, 12, 31))
        #expect(CompiledDateFormat.civil(daysSince1970: 11_016) == (2000, 2, 29))
    }

    @Test func patternsAndQuotes() throws {
        let tokens = try #require(DatePatternToken.parse("EEE 'klo' H.mm 'o''clock'"))
        #expect(
            tokens.map { $0.letter.map { "\($0)\($0 == "E" ? "×3" : "")" } ?? $0.text } == [
                "E×3", " klo ", "H", ".", "m", " o'clock",
            ]
        )
        #expect(DatePatternToken.parse("h 'unterminated") == nil)
        // A zone name is not compiled: ICU keeps formatting it.
        let named = try DateFieldFormatter(locale: "en-US", timeZone: "America/Los_Angeles", skeleton: "jmz")
        #expect(named.compiled(zone: try ZoneTransitions(identifier: "America/Los_Angeles")) == nil)
        // A zone other than the formatter's is refused.
        let tokyo = try DateFieldFormatter(locale: "ja-JP", timeZone: "Asia/Tokyo", skeleton: "jm")
        #expect(tokyo.compiled(zone: try ZoneTransitions(identifier: "Europe/Madrid")) == nil)
    }

    @Test func widthsAreSummable() throws {
        let english = try DateFieldFormatter(locale: "en-US", timeZone: "UTC", skeleton: "EEEjm")
        #expect(try #require(english.compiled(zone: ZoneTransitions(identifier: "UTC"))).hasSingleScalarCharacters)
    }
}
