import CaffeTestKit
import Testing

@testable import Localization

/// The compiled "and" lists lay out exactly what ICU writes, in every ICU locale, for items that
/// trip each language rule (Spanish "e" before an "i" sound, Hebrew "ו-" before a Latin word, Thai
/// spacing) and ICU's bidi isolation.
@Suite("Compiled lists equal ICU")
struct CompiledListFormatTests {
    static let items = [
        "2 large pizzas", "pizza", "ice", "Ignacio", "hielo", "hierro", "hiato", "Hi", "agua", "8 cafés", "11", "o",
        "שלום", "עוגה", "ไก่", "ข้าว", "กาแฟ 2 แก้ว", "قهوة", "١٥", "\u{2068}١\u{2069} × شطيرة", "Café ☕", "x",
    ]

    @Test("every ICU locale")
    func everyLocale() throws {
        var random = SplitMix64(seed: 22)
        var fallbacks: [String] = []
        for locale in ICUInventory.locales() {
            let icu = try ListFormatter(locale: locale)
            guard let compiled = icu.compiled() else {
                fallbacks.append(locale)
                continue
            }
            for count in 1...5 {
                for _ in 0..<12 {
                    let list = (0..<count).map { _ in Self.items[random.next(below: Self.items.count)] }
                    #expect(compiled.string(list) == icu.string(list), "\(locale) \(list)")
                    #expect(Self.merged(compiled, list) == Self.merged(icu.pieces(list)), "\(locale) \(list)")
                }
            }
        }
        // Malayalam and Tigrinya put text after the last item ("… എന്നിവ"): ICU keeps those.
        #expect(
            Set(fallbacks).isSubset(of: ["ml", "ml-IN", "ti", "ti-ER", "ti-ET"]),
            "ICU lays out these: \(fallbacks)"
        )
    }

    @Test func languageRules() throws {
        let spanish = try #require(try ListFormatter(locale: "es-ES").compiled())
        #expect(spanish.string(["agua", "hielo"]) == "agua y hielo")
        #expect(spanish.string(["pan", "Ignacio"]) == "pan e Ignacio")
        #expect(spanish.string(["pan", "queso", "hilo"]) == "pan, queso e hilo")
        #expect(CompiledListFormat.startsWithSpanishI("Hi"))
        #expect(!CompiledListFormat.startsWithSpanishI("hierba"))
        let hebrew = try #require(try ListFormatter(locale: "he-IL").compiled())
        #expect(hebrew.string(["שלום", "pizza"]) == "שלום ו-\u{2068}pizza\u{2069}")
        let arabic = try #require(try ListFormatter(locale: "ar-EG").compiled())
        #expect(arabic.profile("pizza").isolated && !arabic.profile("بيتزا").isolated)
    }

    /// Pieces as (literal text, item index) with neighbouring literals joined.
    static func merged(_ pieces: [ListFormatter.Piece]) -> [String] {
        var result: [String] = []
        var pending = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): pending += text
            case .item(let index):
                result += [pending, "#\(index)"]
                pending = ""
            }
        }
        return result + [pending]
    }

    static func merged(_ compiled: CompiledListFormat, _ texts: [String]) -> [String] {
        let profiles = texts.map(compiled.profile)
        var pieces = [CompiledListFormat.Piece](
            repeating: .item(0),
            count: CompiledListFormat.maximumPieces(items: texts.count)
        )
        let count = profiles.withUnsafeBufferPointer { profileBuffer in
            pieces.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return compiled.layout(profileBuffer, into: base)
            }
        }
        return merged(
            pieces.prefix(count).map { piece -> ListFormatter.Piece in
                switch piece {
                case .literal(let literal): .literal(compiled.table.string(literal))
                case .item(let index): .item(index)
                }
            }
        )
    }
}
