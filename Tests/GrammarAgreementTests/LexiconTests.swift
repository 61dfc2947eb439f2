// Caffe — GrammarAgreement tests.
import GrammarAgreement
import RichText
import Testing

@Suite("Lexicons")
struct LexiconTests {
    @Test func readsEveryColumn() throws {
        let lexicon = try Lexicon(
            parsing: """
                # comment
                agua\tnoun\tf\tflags=elA
                grande\tadjective|noun\tm\tapocope=gran
                lunes\tnoun\tm\tpl=lunes
                naranja\tnoun|adjective\tf\tflags=invariable

                """,
            source: "test.tsv",
            hasGenderColumn: true
        )
        #expect(lexicon.count == 4)
        #expect(lexicon.entry("agua")?.takesMasculineArticle == true)
        #expect(lexicon.entry("grande")?.partsOfSpeech == [.adjective, .noun])
        #expect(lexicon.entry("grande")?.isAmbiguous == true)
        #expect(lexicon.entry(forInflectedForm: "gran")?.entry.lemma == "grande")
        #expect(lexicon.entry("naranja")?.isInvariable == true)
    }

    @Test(arguments: [
        ("pizza\tnoun\tx\n", 1, "unknown gender 'x' (m, f, n, several of them, ? or -)"),
        ("pizza\tnoum\tf\n", 1, "unknown part of speech 'noum'"),
        ("# c\npizza\tnoun\t-\n", 2, "the noun 'pizza' needs a gender (m, f, n, several, or ? when unknown)"),
        ("pizza\tnoun\tf\nPizza\tnoun\tf\n", 2, "'Pizza' is listed twice"),
        ("pizza\tnoun\tf\tplural=pizzas\n", 1, "unknown key 'plural'"),
        ("pizza\n", 1, "expected 3 or 4 tab-separated columns, found 1"),
    ])
    func malformedLinesNameTheirLine(text: String, line: Int, message: String) {
        #expect(throws: LexiconError(source: "t.tsv", line: line, message: message)) {
            try Lexicon(parsing: text, source: "t.tsv", hasGenderColumn: true)
        }
    }

    @Test(arguments: [("en", 1000), ("es", 1000), ("fr", 300), ("de", 300), ("it", 300), ("pt", 300)])
    func bundledLexiconsLoad(language: String, minimum: Int) throws {
        let lexicon = try Lexicon.bundled(language: language)
        #expect(lexicon.count > minimum)
    }
}
