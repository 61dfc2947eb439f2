// Caffe — GrammarAgreement tests.
import Foundation
import GrammarAgreement
import Localization
import RichText
import Testing

/// Issue 21, item 10: Apple's `AttributedString(localized:)` in one call — lookup, variants,
/// formatting, Markdown and agreement — and the markup part of `caffe lint` (item 3).
@Suite("Issue 21: RichLocalizer, AttributedString(localized:) in one call")
struct RichLocalizerTests {
    static let addToOrder = #"Add ^[%lld %@ ^[%@](morphology: { partOfSpeech: "noun" })](inflect: true) to your order"#
    static let freeCoffees = "%lld free coffees"
    static let welcome = "Welcome!"

    static func unit(_ value: String) -> [String: Any] { ["stringUnit": ["state": "translated", "value": value]] }

    /// A String Catalog (en source) with Apple's Caffé strings and their Spanish translations.
    static let catalogJSON: String = {
        let strings: [String: Any] = [
            addToOrder: [
                "localizations": [
                    "es": unit(
                        #"Añadir ^[%1$lld %3$@ ^[%2$@](morphology: { partOfSpeech: "adjective" })](inflect: true) a tu pedido"#
                    )
                ]
            ],
            freeCoffees: [
                "localizations": [
                    "en": [
                        "variations": [
                            "plural": [
                                "zero": unit("No free coffees _yet_"), "one": unit("**One** free coffee"),
                                "other": unit("**%lld** free coffees"),
                            ]
                        ]
                    ],
                    "es": [
                        "variations": [
                            "plural": [
                                "one": unit("**Un** café gratis"), "many": unit("**%lld** de cafés gratis"),
                                "other": unit("**%lld** cafés gratis"),
                            ]
                        ]
                    ],
                ]
            ],
            welcome: [
                "localizations": [
                    "es": unit("¡^[Bienvenido](inflect: true, inflectionAlternative: 'Te damos la bienvenida')!")
                ]
            ],
            "^[Fast](rainbow: 'fun') food, [menu](https://caffe.example/menu)": [String: Any](),
            "Battery 100%": [String: Any](),
            "Thanks, %@": ["localizations": ["es": unit("Gracias, %@")]],
        ]
        let root: [String: Any] = ["sourceLanguage": "en", "version": "1.0", "strings": strings]
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }()

    static func withCatalog<T>(_ body: (StringCatalog) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-rich-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(catalogJSON.utf8).write(to: folder.appendingPathComponent("Localizable.xcstrings"))
        return try body(try StringCatalog(directory: folder))
    }

    @Test(arguments: [
        ("en-US", FormatArgument.integer(1), "Add 1 large pizza to your order"),
        ("en-US", 2, "Add 2 large pizzas to your order"),
        ("es-ES", 2, "Añadir 2 ensaladas pequeñas a tu pedido"),
        ("es-MX", 1, "Añadir 1 ensalada pequeña a tu pedido"),
        // No Ukrainian: the English text, agreed in English, numbers in Ukrainian.
        ("uk", 21, "Add 21 large pizzas to your order"),
    ])
    func theCaffeSampleStringInOneCall(locale: String, count: FormatArgument, expected: String) throws {
        try Self.withCatalog { catalog in
            let localizer = try RichLocalizer(catalog: catalog, locale: locale)
            let (size, item) = locale.hasPrefix("es") ? ("pequeño", "ensalada") : ("large", "pizza")
            let text = try localizer.text(Self.addToOrder, arguments: [count, .string(size), .string(item)])
            #expect(text.plainText == expected)
            #expect(text.localization == (locale.hasPrefix("es") ? "es" : "en"))
            // Agreement keys are instructions: spent, they reach neither the runs nor the HTML.
            #expect(text.jsonRuns() == #"[{"attributes":{},"text":"\#(expected)"}]"#)
            #expect(text.html() == expected)
        }
    }

    @Test func pluralVariantsCarryMarkdown() throws {
        try Self.withCatalog { catalog in
            let english = try RichLocalizer(catalog: catalog, locale: "en")
            #expect(try english.text(Self.freeCoffees, arguments: [0]).html() == "No free coffees <em>yet</em>")
            #expect(try english.text(Self.freeCoffees, arguments: [1]).html() == "<strong>One</strong> free coffee")
            let twelve = try english.text(Self.freeCoffees, arguments: [1_200])
            #expect(twelve.html() == "<strong>1,200</strong> free coffees")
            #expect(twelve.format == "**%1$lld** free coffees")
            #expect(
                twelve.jsonRuns()
                    == #"[{"attributes":{"inlinePresentationIntent":["stronglyEmphasized"]},"text":"1,200"},{"attributes":{},"text":" free coffees"}]"#
            )
            #expect(twelve.ansi() == "\u{1B}[1m1,200\u{1B}[0m free coffees")
            let spanish = try RichLocalizer(catalog: catalog, locale: "es")
            #expect(try spanish.text(Self.freeCoffees, arguments: [1_000_000]).plainText == "1.000.000 de cafés gratis")
        }
    }

    @Test func theTermOfAddressChoosesTheForm() throws {
        try Self.withCatalog { catalog in
            let spanish = try RichLocalizer(catalog: catalog, locale: "es-ES")
            #expect(try spanish.text(Self.welcome, termOfAddress: .feminine).plainText == "¡Bienvenida!")
            #expect(try spanish.text(Self.welcome, termOfAddress: .masculine).plainText == "¡Bienvenido!")
            #expect(try spanish.text(Self.welcome).plainText == "¡Te damos la bienvenida!")
        }
    }

    @Test func argumentsAreNeverMarkdownAndPresentationKeysStay() throws {
        try Self.withCatalog { catalog in
            let english = try RichLocalizer(catalog: catalog, locale: "en")
            let thanks = try english.text("Thanks, %@", arguments: ["**Ana** <b>"])
            #expect(thanks.plainText == "Thanks, **Ana** <b>")
            #expect(thanks.html() == "Thanks, **Ana** &lt;b&gt;")
            let slogan = try english.text("^[Fast](rainbow: 'fun') food, [menu](https://caffe.example/menu)")
            #expect(slogan.presentationKeys == ["rainbow"])
            #expect(
                slogan.html()
                    == #"<span data-rainbow="fun">Fast</span> food, <a href="https://caffe.example/menu">menu</a>"#
            )
        }
    }

    @Test func stringsWithoutArgumentsAreNotFormattedAndMissingKeysAreTheirOwnFormat() throws {
        try Self.withCatalog { catalog in
            let english = try RichLocalizer(catalog: catalog, locale: "en")
            #expect(try english.text("Battery 100%").plainText == "Battery 100%")
            let missing = try english.text("Only **%lld** left", arguments: [3])
            #expect(missing.isMissing)
            #expect(missing.html() == "Only <strong>3</strong> left")
            #expect(try english.text("50% *off*").plainText == "50% off")
            #expect(throws: AgreementError.self) { try english.text(Self.freeCoffees) }
            #expect(throws: AgreementError.self) { try english.text(Self.addToOrder, arguments: ["two"]) }
        }
    }

    // MARK: The markup part of `caffe lint`

    @Test func markupLintFindsUnknownKeysAndBrokenBodies() throws {
        let file = """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "Add %@": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "^[%@](grammar: {gender: 'f'}) hinzufügen"}}}},
              "Tea": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "^[Tee](size: 'large)"}}}},
              "One %@": {"localizations": {"es": {"stringUnit": {"state": "translated", "value": "^[Una %@](inflect: 3)"}}}},
              "Fast": {"localizations": {"es": {"stringUnit": {"state": "translated", "value": "^[Rápido](rainbow: 'fun')"}}}}
            }}
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-markup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(file.utf8).write(to: folder.appendingPathComponent("Localizable.xcstrings"))
        let catalog = try StringCatalog(directory: folder)
        let report = CatalogMarkupLinter(catalog: catalog, appKeys: ["rainbow"]).lint()
        let found = report.findings.map { "\($0.severity) \($0.code) \($0.key ?? "") \($0.locale ?? "")" }
        #expect(
            found == [
                "warning unknown-attribute Add %@ de", "error invalid-markup Tea de", "error invalid-markup One %@ es",
            ]
        )
        #expect(
            report.findings[0].message
                == "'grammar' is not an attribute key the agreement engine or the app declares; it is ignored"
        )
        #expect(report.findings[1].message.hasPrefix("invalid attributes: not valid JSON5"))
        #expect(CatalogMarkupLinter(catalog: catalog).lint().findings.count == 4)
    }
}
