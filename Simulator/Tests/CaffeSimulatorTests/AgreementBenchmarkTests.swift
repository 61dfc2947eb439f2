// Caffe — simulator tests.
import CaffeSimulator
import Testing

@Suite("caffe-sim bench agreement")
struct AgreementBenchmarkTests {
    @Test func everyCaseInflectsAndIsMeasured() throws {
        let report = try AgreementBenchmark(configuration: .init(iterations: 20, rounds: 1)).run()
        #expect(
            report.cases.map(\.output) == [
                "Add 2 large pizzas to your order",
                "Add 2 zesty quokkaberries to your order",
                "Añadir 2 ensaladas pequeñas a tu pedido",
                "Añadir 2 zarzamoradas crujientosas a tu pedido",
                "Ajouter 2 grandes pizzas à votre commande",
                "Ajouter 2 galettes croustillantes à votre commande",
                "1 großen Kaffee hinzufügen",
                "Kaffee mit 2 knusprigen Zwiebelfladen",
                "Aggiungi 2 pizze grandi al tuo ordine",
                "Aggiungi 2 frittelle sfiziose al tuo ordine",
                "Adicionar 2 saladas pequenas ao seu pedido",
                "Adicionar 2 bolachas crocantes ao seu pedido",
                "Dodaj 5 dużych pizz do zamówienia",
                "Kawa z 22 świeżymi rogalikami",
                "Добавить 2 большие пиццы в заказ",
                "Чай с 21 свежим пирожком",
            ]
        )
        for figures in report.cases {
            #expect(figures.fillNanoseconds > 0 && figures.agreementNanoseconds > 0)
            #expect(figures.cachedAgreementNanoseconds > 0 && figures.renderNanoseconds > 0)
        }
        #expect(
            AgreementBenchmark.slavicRatios(report).map(\.name) == [
                "pl paradigms", "pl instrumental", "ru paradigms", "ru instrumental",
            ]
        )
    }
}
