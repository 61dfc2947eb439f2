import ArgumentParser
import Foundation
import RichText

struct Markdown: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render inline Markdown with ^[text](attributes) from standard input.",
        discussion: """
            Reads one document from standard input. With --jsonl every input line is a JSON string and \
            every output line the JSON-encoded result (a string for plain/html/ansi, the runs array for \
            json), or {"error": "..."} for that line. HTML links only http, https, mailto, tel and relative \
            destinations unless --link-schemes or --commonmark says otherwise.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case plain, html, ansi, json
    }

    @Option(help: "Output format: plain, html, ansi or json (the runs).")
    var format: Format = .plain

    @Flag(help: "Keep every ^[…](…) key as raw JSON, not only the ones the rich-text scope declares.")
    var keepUnknownAttributes = false

    @Flag(help: "One JSON string per input line in, one JSON result per line out.")
    var jsonl = false

    @Option(
        help: "URL schemes HTML output links, comma-separated, or 'all'. Default: http,https,mailto,tel."
    )
    var linkSchemes: String?

    @Flag(
        help: "CommonMark's reference behaviour: a paragraph's outer whitespace trimmed, links of every scheme."
    )
    var commonmark = false

    /// The schemes the HTML renderer links; `nil` for all.
    private var allowedSchemes: Set<String>? {
        switch linkSchemes {
        case nil: commonmark ? nil : HTMLRenderer.safeSchemes
        case "all"?: nil
        case let list?: Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        }
    }

    func run() throws {
        let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        guard jsonl else {
            // The newline that ends the file is not part of the document.
            let document = input.hasSuffix("\r\n") || input.hasSuffix("\n") ? String(input.dropLast()) : input
            switch render(document) {
            case .success(let output):
                print(format == .json ? output.jsonText : output.description, terminator: format == .json ? "\n" : "")
                if format != .json, !(output.description.hasSuffix("\n")) { print() }
            case .failure(let error):
                FileHandle.standardError.write(Data("caffe markdown: \(error)\n".utf8))
                throw ExitCode(1)
            }
            return
        }
        let decoder = JSONDecoder()
        // Split on scalars: in Swift "\r\n" is one Character, which a split on "\n" would miss.
        let lines = input.unicodeScalars.split(separator: "\n").map { line in
            String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line[...]))
        }
        for line in lines where !line.isEmpty {
            let result: JSONValue
            if let document = try? decoder.decode(String.self, from: Data(line.utf8)) {
                switch render(document) {
                case .success(let output): result = output
                case .failure(let error): result = .object(["error": .string(error.description)])
                }
            } else {
                result = .object(["error": .string("the line is not a JSON string")])
            }
            print(result.jsonText)
        }
    }

    /// The output for one document: a string for plain/html/ansi, the runs for json.
    private func render(_ markdown: String) -> Result<JSONValue, RichTextError> {
        Result { () throws(RichTextError) -> JSONValue in
            let document = try RichTextParser.parse(markdown, options: .init(trimsLikeParagraph: commonmark))
            _ = try document.attributedString()  // checks the declared keys' values
            let keys: Set<String>? = keepUnknownAttributes ? nil : RichTextKeys.declared
            switch format {
            case .plain: return .string(PlainTextRenderer().render(document))
            case .html:
                return .string(HTMLRenderer(attributeKeys: keys, allowedSchemes: allowedSchemes).render(document))
            case .ansi: return .string(ANSIRenderer().render(document))
            case .json: return .array(JSONRunsRenderer(attributeKeys: keys).runs(document))
            }
        }
    }
}
