// Caffe — GrammarAgreement tests.
import CaffeTestKit
import Foundation
import Testing

@Suite("caffe inflect as a process", .enabled(if: ExecutableRunner.locate("caffe") != nil))
struct InflectCommandTests {
    func caffe(_ arguments: [String], input: String) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run(try #require(ExecutableRunner.locate("caffe")), ["inflect"] + arguments, input: input)
    }

    @Test func plainModeReadsOneTemplatePerLine() throws {
        let input = """
            Añadir ^[2 ensalada pequeño](inflect: true) a tu pedido
            ^[Bienvenido](inflect: true, inflectionAlternative: 'Te damos la bienvenida')

            """
        let feminine = try caffe(["--locale", "es-MX", "--term-of-address", "feminine"], input: input)
        #expect(feminine.status == 0)
        #expect(feminine.standardOutput == "Añadir 2 ensaladas pequeñas a tu pedido\nBienvenida\n")
        let unknown = try caffe(["--locale", "es-MX"], input: input)
        #expect(unknown.standardOutput == "Añadir 2 ensaladas pequeñas a tu pedido\nTe damos la bienvenida\n")
    }

    @Test func jsonlTakesArgumentsAndAnswersLineByLine() throws {
        let input =
            [
                #"{"template": "Añadir ^[%1$lld %3$@ %2$@](inflect: true) a tu pedido", "args": [2, "pequeño", "ensalada"]}"#,
                #"{"template": "^[%@ ensalada](inflect: true)", "args": [1.0]}"#,
                #"{"template": "^[%lld ensalada](inflect: true)", "args": []}"#,
                #"not json"#,
            ].joined(separator: "\n") + "\n"
        let result = try caffe(["--locale", "es-ES", "--jsonl"], input: input)
        #expect(result.status == 0)
        #expect(
            result.standardOutput.split(separator: "\n") == [
                #""Añadir 2 ensaladas pequeñas a tu pedido""#,
                #""1,0 ensalada""#,
                #"{"error":"%lld needs argument 1, but 0 were given"}"#,
                #"{"error":"the line is not a JSON object"}"#,
            ]
        )
    }

    @Test func englishOneAndOnePointZero() throws {
        let input =
            #"{"template": "Add ^[%@ large pizza](inflect: true)", "args": [1]}"# + "\n"
            + #"{"template": "Add ^[%@ large pizza](inflect: true)", "args": [1.0]}"# + "\n"
        let result = try caffe(["--locale", "en-US", "--jsonl"], input: input)
        #expect(result.standardOutput == "\"Add 1 large pizza\"\n\"Add 1.0 large pizzas\"\n")
    }

    @Test func badLinesExitOneAndKeepTheOthers() throws {
        let result = try caffe(["--locale", "en-US"], input: "^[2 pizza](inflect: nope)\n^[2 pizza](inflect: true)\n")
        #expect(result.status == 1)
        #expect(result.standardOutput == "\n2 pizzas\n")
        #expect(result.standardError.hasPrefix("caffe inflect: line 1: "))
    }

    @Test func ambiguousWordsAreWarnedOncePerString() throws {
        let result = try caffe(
            ["--locale", "en-US"],
            input: "^[2 juice](inflect: true) and ^[3 juice](inflect: true)\n"
        )
        #expect(result.standardOutput == "2 juices and 3 juices\n")
        #expect(
            result.standardError
                == "caffe inflect: line 1: 'juice' can be noun or verb; read as noun by its position "
                + "(add morphology: {partOfSpeech: 'noun'} to say so)\n"
        )
    }

    @Test func rejectsAnUnknownTermOfAddress() throws {
        let result = try caffe(["--locale", "es-ES", "--term-of-address", "formal"], input: "")
        #expect(result.status != 0)
        #expect(result.standardError.contains("--term-of-address must be feminine, masculine or neutral"))
    }

    @Test func aLineOfTwentyThousandSpans() throws {
        // Once quadratic in the JSON reader and in looking around spans; now about a second.
        let template = Array(repeating: "^[2 pizza](inflect: true)", count: 20_000).joined(separator: " ")
        let result = try caffe(
            ["--locale", "es-ES", "--jsonl"],
            input: #"{"template": "\#(template)", "args": []}"# + "\n"
        )
        let expected = Array(repeating: "2 pizzas", count: 20_000).joined(separator: " ")
        #expect(result.standardOutput == "\"" + expected + "\"\n")
    }

    @Test func jsonEscapesAndNonASCIIArguments() throws {
        let input =
            #"{"template": "\u00a1A\u00f1adir ^[%1$lld %2$@](inflect: true)!\t\"ok\"", "args": [2, "lim\u00f3n"]}"#
            + "\n"
        let result = try caffe(["--locale", "es-ES", "--jsonl"], input: input)
        #expect(result.standardOutput == #""¡Añadir 2 limones!\t\"ok\"""# + "\n")
    }
}
