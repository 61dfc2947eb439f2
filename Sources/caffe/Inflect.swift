import ArgumentParser
import Foundation
import GrammarAgreement
import Localization
import RichText

struct Inflect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply automatic grammar agreement to Markdown templates, one per input line.",
        discussion: """
            Plain mode reads one template per line with the numbers and words already in it \
            (^[2 ensalada pequeño](inflect: true)) and prints the inflected text. With --jsonl each line \
            is {"template": "…%1$lld %3$@ %2$@…", "args": [2, "pequeño", "ensalada"]} and each output \
            line is the JSON string of the result, or {"error": "…"}. Numbers keep the digits they were \
            written with: 1.0 is plural in English. Ambiguous words are reported on standard error.
            """
    )

    @Option(help: "BCP 47 locale identifier, such as en-US or es-MX.")
    var locale: String

    @Option(help: "How the reader is addressed: feminine, masculine or neutral (default: unknown).")
    var termOfAddress: String?

    @Flag(help: "JSON objects with a template and its arguments in, JSON strings out.")
    var jsonl = false

    func validate() throws {
        if let termOfAddress, TermOfAddress(termOfAddress) == nil {
            throw ValidationError("--term-of-address must be feminine, masculine or neutral")
        }
    }

    func run() throws {
        let term = termOfAddress.flatMap(TermOfAddress.init) ?? .unknown
        let engine = try GrammarAgreement.engine(for: locale)
        if !engine.isSupported {
            warn("no agreement rules for '\(engine.language)'; text is left as written")
        }
        let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        // Split on scalars: in Swift "\r\n" is one Character, which a split on "\n" would miss.
        let lines = input.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line[...]))
        }
        var failed = false
        for (index, line) in lines.enumerated() {
            if index == lines.count - 1, line.isEmpty { break }  // the final newline
            let result = jsonl ? inflectJSONLine(line, term: term) : inflectPlain(line, engine: engine, term: term)
            switch result {
            case .success(let inflected):
                for warning in inflected.warnings { warn("line \(index + 1): \(warning)") }
                print(jsonl ? JSONValue.string(inflected.plainText).jsonText : inflected.plainText)
            case .failure(let error):
                failed = true
                if jsonl {
                    print(JSONValue.object(["error": .string(error.description)]).jsonText)
                } else {
                    warn("line \(index + 1): \(error)")
                    print()
                }
            }
        }
        if failed, !jsonl { throw ExitCode(1) }
    }

    /// A template with its words in place: the Markdown is parsed as is, `%` included.
    private func inflectPlain(_ line: String, engine: AgreementEngine, term: TermOfAddress)
        -> Result<InflectedText, InflectError>
    {
        do {
            let document = try RichTextParser.parse(line)
            return .success(engine.inflect(document, termOfAddress: term))
        } catch {
            return .failure(InflectError(description: error.description))
        }
    }

    private func inflectJSONLine(_ line: String, term: TermOfAddress) -> Result<InflectedText, InflectError> {
        guard case .object(let members)? = try? JSONLine.parse(line) else {
            return .failure(InflectError(description: "the line is not a JSON object"))
        }
        guard case .string(let template)? = members["template"] else {
            return .failure(InflectError(description: "\"template\" must be a string"))
        }
        var arguments: [FormatArgument] = []
        switch members["args"] {
        case nil, .null?: break
        case .array(let values)?:
            for value in values {
                switch value {
                case .string(let text): arguments.append(.string(text))
                case .number(let digits): arguments.append(FormatArgument(parsing: digits))
                default: return .failure(InflectError(description: "\"args\" holds numbers and strings only"))
                }
            }
        default:
            return .failure(InflectError(description: "\"args\" must be an array"))
        }
        do {
            return .success(
                try GrammarAgreement.inflect(template, arguments: arguments, locale: locale, termOfAddress: term)
            )
        } catch {
            return .failure(InflectError(description: error.description))
        }
    }

    private func warn(_ message: String) {
        FileHandle.standardError.write(Data("caffe inflect: \(message)\n".utf8))
    }
}

/// One line's failure, as printed.
struct InflectError: Error, CustomStringConvertible {
    var description: String
}
