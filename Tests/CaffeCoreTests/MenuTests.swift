import CaffeCore
import Foundation
import Testing

@Suite("Menu")
struct MenuTests {
    @Test("config/menu.json loads whole")
    func loadsConfig() throws {
        let menu = CoreFixture.core.menu
        #expect(
            menu.items.map(\.id) == ["pizza", "salad", "sandwich", "juice", "coffee", "cafe_au_lait", "water", "cortadito"]
        )
        #expect(menu.sizes.map(\.id) == ["small", "large"])
        #expect(menu.item("pizza")?.ingredientKeys == ["prosciutto", "cheese", "flour", "tomatoes"])
        #expect(menu.item("pizza")?.prices["large"]?["JPY"] == Money(minorUnits: 1800, fractionDigits: 0))
        #expect(menu.item("coffee")?.prices["small"]?["BHD"] == Money(minorUnits: 950, fractionDigits: 3))
        #expect(menu.item("coffee")?.prices["small"]?["BHD"]?.decimal == Decimal(string: "0.95"))
        #expect(menu.store("store-us-sfo")?.taxRate == Decimal(string: "0.08625"))
    }

    static let valid = """
        {"version": 1, "nameTable": "Menu", "sizes": [{"id": "small", "nameKey": "small"}],
         "stores": [{"id": "s", "taxRate": "0.1"}],
         "items": [{"id": "pizza", "nameKey": "pizza", "category": "food", "ingredientKeys": ["flour"],
                    "prices": {"small": {"USD": "9.50", "JPY": "1200"}}}]}
        """

    func menuError(_ replace: String, with replacement: String) -> MenuError? {
        let json = Self.valid.replacingOccurrences(of: replace, with: replacement)
        #expect(json != Self.valid, "the test's replacement must change the menu")
        do {
            _ = try Menu(json: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("the valid sample loads")
    func sample() throws {
        let menu = try Menu(json: Data(Self.valid.utf8))
        #expect(menu.items.count == 1)
    }

    @Test("each problem is named by its path")
    func errors() {
        #expect(menuError("\"JPY\": \"1200\"", with: "\"JPY\": \"12.5\"")?.path == "items[0].prices.small.JPY")
        #expect(
            menuError("\"JPY\": \"1200\"", with: "\"JPY\": \"12.5\"")?.message == "'12.5' has 1 decimals; JPY has 0"
        )
        #expect(menuError("\"USD\": \"9.50\"", with: "\"XYZ\": \"9.50\"")?.path == "items[0].prices.small.XYZ")
        #expect(menuError("\"USD\": \"9.50\"", with: "\"USD\": \"-9.50\"")?.message == "'-9.50' is negative")
        #expect(
            menuError("\"USD\": \"9.50\"", with: "\"USD\": \"999999999999999999\"")?.message
                == "'999999999999999999' is too large to be a price"
        )
        #expect(menuError("\"USD\": \"9.50\"", with: "\"USD\": \"9,50\"")?.path == "items[0].prices.small.USD")
        #expect(menuError("\"small\": {\"USD\"", with: "\"huge\": {\"USD\"")?.path == "items[0].prices.huge")
        #expect(menuError("\"taxRate\": \"0.1\"", with: "\"taxRate\": \"1.5\"")?.path == "stores[0].taxRate")
        #expect(
            menuError("\"ingredientKeys\": [\"flour\"]", with: "\"ingredientKeys\": []")?.path
                == "items[0].ingredientKeys"
        )
        #expect(menuError("\"category\": \"food\"", with: "\"category\": \"dessert\"")?.path == "items[0].category")
        #expect(menuError("\"version\": 1", with: "\"version\": 2")?.path == "version")
        #expect(menuError(", \"nameTable\": \"Menu\"", with: "")?.path == "nameTable")
        #expect(menuError("\"id\": \"s\"", with: "\"id\": \"\"")?.path == "stores[0].id")
    }

    @Test("a duplicate item is refused")
    func duplicate() {
        let item =
            "{\"id\": \"pizza\", \"nameKey\": \"pizza\", \"category\": \"drink\", \"ingredientKeys\": [], \"prices\": {\"small\": {\"USD\": \"1\"}}}"
        let error = menuError("\"items\": [", with: "\"items\": [" + item + ", ")
        #expect(error?.path == "items[1].id")
        #expect(error?.message == "'pizza' is listed twice")
    }

    @Test("a menu naming what the catalog lacks is refused")
    func missingNames() throws {
        let json = Self.valid.replacingOccurrences(of: "\"nameKey\": \"pizza\"", with: "\"nameKey\": \"calzone\"")
        let menu = try Menu(json: Data(json.utf8))
        #expect(throws: CoreConfigurationError.self) {
            try RenderingCore(catalog: CoreFixture.core.catalog, menu: menu)
        }
    }
}
