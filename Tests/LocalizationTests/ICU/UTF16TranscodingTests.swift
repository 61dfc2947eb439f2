import Testing

@testable import Localization

/// The fast UTF-16 → String path gives exactly what the standard library's decoder gives.
@Suite("UTF-16 transcoding")
struct UTF16TranscodingTests {
    static let samples: [[UInt16]] = [
        [],
        Array("$1,234.50".utf16),
        Array("1234,50 €".utf16),
        Array("‏١٬٢٣٤٫٥٠ ج.م.‏".utf16),
        Array("週六 凌晨2:36".utf16),
        Array("Caffé ☕️ 👩🏽‍🍳 done".utf16),
        [0xD83D],  // a high surrogate alone at the end
        [0xDE00, 0x41],  // a low surrogate first
        [0xD83D, 0x41, 0xDE00],  // a pair split by a letter
        [0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0xD7FF, 0xE000],  // the encoding-length boundaries
    ]

    @Test("matches String(decoding:as: UTF16.self)", arguments: samples)
    func matchesStandardLibrary(units: [UInt16]) {
        let expected = String(decoding: units, as: UTF16.self)
        let actual = units.withUnsafeBufferPointer { ICUText.string($0) }
        #expect(actual == expected)
        #expect(Array(actual.utf8) == Array(expected.utf8))
        #expect(ICUText.string(units[...]) == expected)
    }

    @Test("strings written as UTF-16 match the standard library's view")
    func writesUTF16() {
        var texts = Self.samples.map { String(decoding: $0, as: UTF16.self) }
        texts += ["", "a", "é", "€", "𝄞", "x\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}", "プロシュート、チーズ"]
        for text in texts {
            let buffer = UnsafeMutablePointer<UInt16>.allocate(capacity: max(1, text.utf8.count))
            defer { buffer.deallocate() }
            let count = ICUText.writeUTF16(text, to: buffer)
            #expect(
                Array(UnsafeBufferPointer(start: buffer, count: count)) == Array(text.utf16),
                "\(text.debugDescription)"
            )
        }
    }

    @Test("every BMP unit alone and every kind of pair")
    func exhaustiveSingleUnits() {
        for unit in UInt16.min...UInt16.max {
            let units = [unit]
            let actual = units.withUnsafeBufferPointer { ICUText.string($0) }
            #expect(Array(actual.utf8) == Array(String(decoding: units, as: UTF16.self).utf8), "\(unit)")
        }
        for high: UInt16 in [0xD800, 0xDBFF] {
            for low: UInt16 in [0xDC00, 0xDFFF] {
                let units = [high, low]
                let actual = units.withUnsafeBufferPointer { ICUText.string($0) }
                #expect(actual == String(decoding: units, as: UTF16.self))
            }
        }
    }
}
