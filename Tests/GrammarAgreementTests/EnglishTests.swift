import Localization
import RichText
import Testing

// Caffe — GrammarAgreement tests.
@testable import GrammarAgreement

@Suite("English agreement")
struct EnglishTests {
    @Test(arguments: [
        // Regular spelling rules.
        ("glass", "glasses"), ("dish", "dishes"), ("peach", "peaches"), ("box", "boxes"), ("berry", "berries"),
        ("tray", "trays"), ("turkey", "turkeys"), ("cake", "cakes"), ("café", "cafés"),
        // f/fe → ves only where English does it.
        ("knife", "knives"), ("loaf", "loaves"), ("half", "halves"), ("chef", "chefs"), ("roof", "roofs"),
        ("cliff", "cliffs"),
        // Compounds and loans the rules cover.
        ("swordfish", "swordfish"), ("gâteau", "gâteaux"), ("analysis", "analyses"), ("barman", "barmen"),
        ("human", "humans"), ("mother-in-law", "mothers-in-law"), ("add-on", "add-ons"),
    ])
    func regularPlurals(singular: String, plural: String) {
        #expect(EnglishNouns(lexicon: Lexicon()).plural(of: singular) == plural)
    }

    @Test(arguments: [
        ("^[2 cup of coffee](inflect: true)", "2 cups of coffee"),
        ("^[2 café au lait](inflect: true)", "2 cafés au lait"),
        ("^[3 slice of lemon cake](inflect: true)", "3 slices of lemon cake"),
        ("^[2 chicken sandwich](inflect: true)", "2 chicken sandwiches"),
        ("^[2 glass of orange juice](inflect: true)", "2 glasses of orange juice"),
        ("^[2 Pizza](inflect: true)", "2 Pizzas"),
        ("^[2 PIZZA](inflect: true)", "2 PIZZAS"),
        ("^[2 BLT](inflect: true)", "2 BLTs"),
        ("^[1 large pizza](inflect: true)", "1 large pizza"),
        ("^[1 large pizzas](inflect: true)", "1 large pizza"),
        ("^[2 large pizzas](inflect: true)", "2 large pizzas"),
        ("^[this 2 cookie](inflect: true)", "these 2 cookies"),
    ])
    func phrasesInflectTheirHead(markup: String, expected: String) throws {
        #expect(try plain(markup, "en-US") == expected)
    }

    @Test(arguments: [
        ("^[a apple](inflect: true)", "an apple"),
        ("^[a hour](inflect: true)", "an hour"),
        ("^[an unicorn cake](inflect: true)", "a unicorn cake"),
        ("^[a herb salad](inflect: true)", "an herb salad"),
        ("^[an European breakfast](inflect: true)", "a European breakfast"),
        ("^[a one-shot espresso](inflect: true)", "a one-shot espresso"),
        ("^[a unsalted pretzel](inflect: true)", "an unsalted pretzel"),
        ("^[a 8-inch pizza](inflect: true)", "an 8-inch pizza"),
        ("^[A orange](inflect: true)", "An orange"),
        ("Order a ^[espresso](inflect: true) now", "Order an espresso now"),
        ("Order an ^[pizza](inflect: true)", "Order a pizza"),
    ])
    func articlesFollowTheSound(markup: String, expected: String) throws {
        #expect(try plain(markup, "en-US") == expected)
    }

    @Test func verbsAgreeWithAnArgument() throws {
        let template = "Your ^[%lld %@](inflect: true) ^[is](agreeWithArgument: 1) ready."
        #expect(
            try GrammarAgreement.inflect(template, arguments: [1, "bagel"], locale: "en-US").plainText
                == "Your 1 bagel is ready."
        )
        #expect(
            try GrammarAgreement.inflect(template, arguments: [3, "bagel"], locale: "en-US").plainText
                == "Your 3 bagels are ready."
        )
    }

    @Test(arguments: [
        (TermOfAddress.feminine, "She picked up her order; the latte is hers. She treated herself."),
        (.masculine, "He picked up his order; the latte is his. He treated himself."),
        (.neutral, "They picked up their order; the latte is theirs. They treated themselves."),
        (.unknown, "They picked up their order; the latte is theirs. They treated themselves."),
    ])
    func pronounsFollowTheTermOfAddress(term: TermOfAddress, expected: String) throws {
        let markup = """
            ^[They](referentConcept: 1) picked up ^[their](referentConcept: 1) order; the latte is \
            ^[theirs](referentConcept: 1). ^[They](referentConcept: 1) treated ^[themselves](referentConcept: 1).
            """
        let text = try inflectPlain(markup, locale: "en-US", concepts: [.termsOfAddress([term])])
        #expect(text.plainText == expected)
    }

    @Test func herIsAnObjectOrAPossessiveByWhatFollows() throws {
        let markup = "Tell ^[her](referentConcept: 1) that ^[her](referentConcept: 1) coffee is ready."
        #expect(
            try inflectPlain(markup, locale: "en-US", concepts: [.termsOfAddress([.masculine])]).plainText
                == "Tell him that his coffee is ready."
        )
    }

    @Test func customPronouns() throws {
        let xe = PronounSet(
            subject: "xe",
            object: "xem",
            possessiveDeterminer: "xyr",
            possessivePronoun: "xyrs",
            reflexive: "xemself"
        )
        let text = try inflectPlain(
            "^[They](referentConcept: 1) liked ^[their](referentConcept: 1) muffin",
            locale: "en-GB",
            concepts: [.termsOfAddress([TermOfAddress(gender: .neutral, pronouns: xe)])]
        )
        #expect(text.plainText == "Xe liked xyr muffin")
    }

    @Test func phraseConceptsGiveItOrThey() throws {
        let markup = "^[It](referentConcept: 1) ^[is](agreeWithConcept: 1) on the counter."
        #expect(
            try inflectPlain(markup, locale: "en-US", concepts: [.localizedPhrase("your muffins")]).plainText
                == "They are on the counter."
        )
        #expect(
            try inflectPlain(markup, locale: "en-US", concepts: [.localizedPhrase("your muffin")]).plainText
                == "It is on the counter."
        )
    }

    @Test func morphologyHintsChooseTheHead() throws {
        // Without a hint the last word is the head; with one, the hinted word is.
        #expect(try plain("^[2 juice box](inflect: true)", "en-US") == "2 juice boxes")
        #expect(
            try plain("^[2 ^[coffee](morphology: {partOfSpeech: 'noun'}) black](inflect: true)", "en-US")
                == "2 coffees black"
        )
    }

    @Test func markupAroundWordsIsKept() throws {
        let text = try inflectPlain("Add ^[2 **large** _pizza_](inflect: true)", locale: "en-US")
        #expect(text.plainText == "Add 2 large pizzas")
        #expect(HTMLRenderer(attributeKeys: []).render(text.document) == "Add 2 <strong>large</strong> <em>pizzas</em>")
    }

    @Test func missingConceptsAreWarnedAboutAndLeaveTheText() throws {
        let text = try inflectPlain("^[They](referentConcept: 2) left", locale: "en-US", concepts: [])
        #expect(text.plainText == "They left")
        #expect(text.warnings.map(\.code) == [.missingConcept])
    }
}
