// Caffe — GrammarAgreement tests.
import Foundation
import GrammarAgreement
import RichText
import Testing

@Suite("AttributedString.inflected")
struct AttributedStringTests {
    @Test func inflectsLikeFoundation() throws {
        let text = try RichTextParser.parse("Añadir ^[2 ensalada **pequeño**](inflect: true)").attributedString()
        let inflected = try text.inflected(locale: Locale(identifier: "es-ES"))
        #expect(String(inflected.characters) == "Añadir 2 ensaladas pequeñas")
        // The changed word keeps its attributes: the strong run is still strong.
        let strong = inflected.runs.filter { $0.inlinePresentationIntent == .stronglyEmphasized }
        #expect(strong.map { String(inflected[$0.range].characters) } == ["pequeñas"])
    }

    @Test func termOfAddressAndAlternative() throws {
        let text = try RichTextParser.parse("^[Bienvenido](inflect: true, inflectionAlternative: 'Hola')")
            .attributedString()
        let spanish = Locale(identifier: "es_MX")
        #expect(String(try text.inflected(locale: spanish, userTermOfAddress: .feminine).characters) == "Bienvenida")
        #expect(String(try text.inflected(locale: spanish).characters) == "Hola")
    }
}
