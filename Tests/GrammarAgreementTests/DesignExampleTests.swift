// Caffe — GrammarAgreement tests.
import GrammarAgreement
import Localization
import RichText
import Testing

/// The examples DESIGN.md and the issue say must hold, through the pure function.
@Suite("Design examples")
struct DesignExampleTests {
    @Test(arguments: [
        (Int64(1), "pequeño", "ensalada", "Añadir 1 ensalada pequeña a tu pedido"),
        (2, "pequeño", "ensalada", "Añadir 2 ensaladas pequeñas a tu pedido"),
        (2, "pequeño", "jugo", "Añadir 2 jugos pequeños a tu pedido"),
        (0, "grande", "pizza", "Añadir 0 pizzas grandes a tu pedido"),
        (21, "mediano", "café", "Añadir 21 cafés medianos a tu pedido"),
    ])
    func spanishOrderLine(quantity: Int64, size: String, food: String, expected: String) throws {
        let text = try GrammarAgreement.inflect(
            "Añadir ^[%1$lld %3$@ %2$@](inflect: true) a tu pedido",
            arguments: [.integer(quantity), .string(size), .string(food)],
            locale: "es-ES"
        )
        #expect(text.plainText == expected)
    }

    @Test(arguments: [
        (FormatArgument.integer(1), "Add 1 large pizza to your order"),
        (.integer(2), "Add 2 large pizzas to your order"),
        (.integer(0), "Add 0 large pizzas to your order"),
        (.decimal("1.0"), "Add 1.0 large pizzas to your order"),
        (.decimal("1.5"), "Add 1.5 large pizzas to your order"),
        (.integer(21), "Add 21 large pizzas to your order"),
    ])
    func englishOrderLine(quantity: FormatArgument, expected: String) throws {
        let text = try GrammarAgreement.inflect(
            "Add ^[%@ %@ %@](inflect: true) to your order",
            arguments: [quantity, "large", "pizza"],
            locale: "en-US"
        )
        #expect(text.plainText == expected)
    }

    @Test func englishQuantityWithAnIntegerSpecifier() throws {
        let text = try GrammarAgreement.inflect(
            "Add ^[%lld %@ %@](inflect: true) to your order",
            arguments: [2, "large", "pizza"],
            locale: "en-US"
        )
        #expect(text.plainText == "Add 2 large pizzas to your order")
        // The argument records follow the inflected text.
        #expect(text.arguments.map(\.argument) == [1, 2, 3])
        #expect(text.arguments.map(\.utf8Range) == [4..<5, 6..<11, 12..<18])
    }

    @Test func agreeWithArgument() throws {
        let template = "Tu ^[%2$@ %1$@](inflect: true) está ^[listo](agreeWithArgument: 2)."
        #expect(
            try GrammarAgreement.inflect(template, arguments: ["pequeño", "ensalada"], locale: "es-ES").plainText
                == "Tu ensalada pequeña está lista."
        )
        #expect(
            try GrammarAgreement.inflect(template, arguments: ["pequeño", "jugo"], locale: "es-ES").plainText
                == "Tu jugo pequeño está listo."
        )
    }

    @Test(arguments: [
        (TermOfAddress.feminine, "Bienvenida"),
        (.masculine, "Bienvenido"),
        (.neutral, "Te damos la bienvenida"),
        (.unknown, "Te damos la bienvenida"),
    ])
    func welcomeFollowsTheTermOfAddress(term: TermOfAddress, expected: String) throws {
        let text = try GrammarAgreement.inflect(
            "^[Bienvenido](inflect: true, inflectionAlternative: 'Te damos la bienvenida')",
            locale: "es-ES",
            termOfAddress: term
        )
        #expect(text.plainText == expected)
    }

    @Test func arabicDigitsStillDecideTheNumber() throws {
        // ar-EG formats 21 as ٢١; Arabic has no rules yet, so the text stays as written and a
        // warning says so.
        let text = try GrammarAgreement.inflect("^[%lld pizza](inflect: true)", arguments: [21], locale: "ar-EG")
        #expect(text.plainText == "٢١ pizza")
        #expect(text.warnings.map(\.code) == [.unsupportedLanguage])
    }

    @Test func numbersFormattedForTheLocaleKeepTheirRawValue() throws {
        // es-ES shows 1,5 and 1000000 as "1.000.000"; the grammar sees 1.5 and 1000000 (many → plural).
        #expect(
            try GrammarAgreement.inflect("^[%@ ensalada](inflect: true)", arguments: [.decimal("1.5")], locale: "es-ES")
                .plainText == "1,5 ensaladas"
        )
        #expect(
            try GrammarAgreement.inflect("^[%@ ensalada](inflect: true)", arguments: [.decimal("1.0")], locale: "es-ES")
                .plainText == "1,0 ensalada"
        )
        #expect(
            try GrammarAgreement.inflect("^[%lld ensalada](inflect: true)", arguments: [1_000_000], locale: "es-ES")
                .plainText == "1.000.000 ensaladas"
        )
    }
}
