import CaffeProtocol
import RichText

/// Turns rendered documents into the wire's ``Caffe_V1_StyledText``: plain text, attributed runs
/// (the RichText JSON form, presentation attributes only) and, where asked, HTML.
@_spi(Benchmarks)
public enum StyledOutput {
    /// The `^[…](…)` keys that style output. Agreement keys (`inflect`, `morphology`…) are
    /// instructions, spent once applied, and never reach the wire.
    static let presentationKeys: Set<String> = ["rainbow", "foregroundColor", "dateField"]

    static let html = HTMLRenderer(attributeKeys: presentationKeys)

    public static func styledText(_ document: RichDocument, html: String = "") -> Caffe_V1_StyledText {
        var text = Caffe_V1_StyledText()
        text.plain = document.plainText
        text.runs = runs(document)
        text.html = html
        return text
    }

    /// The document's runs with presentation attributes only, neighbours that became equal merged.
    static func runs(_ document: RichDocument) -> [Caffe_V1_AttributedRun] {
        var runs: [Caffe_V1_AttributedRun] = []
        runs.reserveCapacity(document.runs.count)
        for run in document.runs where !run.text.isEmpty {
            var attributes: [String: String] = [:]
            if !run.intents.isEmpty {
                attributes["inlinePresentationIntent"] =
                    JSONValue.array(run.intents.names.map(JSONValue.string)).jsonText
            }
            if let link = run.link { attributes["link"] = JSONValue.string(link).jsonText }
            for (key, value) in run.attributes where presentationKeys.contains(key) {
                attributes[key] = value.jsonText
            }
            if let last = runs.last, last.attributes == attributes {
                runs[runs.count - 1].text += run.text
            } else {
                var made = Caffe_V1_AttributedRun()
                made.text = run.text
                made.attributes = attributes
                runs.append(made)
            }
        }
        return runs
    }
}

/// A text rendered once into every form the outputs use: the document (for composing), its wire
/// form and its inline HTML. For the texts that repeat from order to order.
@_spi(Benchmarks)
public struct PreparedText: Sendable {
    public let document: RichDocument
    public let styled: Caffe_V1_StyledText
    public let html: String

    public init(_ document: RichDocument) {
        self.document = document
        styled = StyledOutput.styledText(document)
        html = ReceiptHTML.inline(document)
    }
}

/// Builds one ``Caffe_V1_StyledText`` from texts already in wire form, a separator between them,
/// merging runs across the seams exactly as rendering the joined document would. Pieces that do
/// not change from order to order are converted once and appended as they are.
struct StyledTextBuilder {
    private var text = Caffe_V1_StyledText()
    private var isEmpty = true
    let separator: String

    init(separator: String = "\n") {
        self.separator = separator
    }

    /// Appends `piece` after the separator (none before the first piece).
    mutating func append(_ piece: Caffe_V1_StyledText) {
        if !isEmpty, !separator.isEmpty { appendUnstyled(separator) }
        isEmpty = false
        text.plain += piece.plain
        var runs = piece.runs[...]
        if let first = runs.first, let last = text.runs.last, last.attributes == first.attributes {
            text.runs[text.runs.count - 1].text += first.text
            runs = runs.dropFirst()
        }
        text.runs += runs
    }

    mutating func append(_ document: RichDocument) {
        append(StyledOutput.styledText(document))
    }

    private mutating func appendUnstyled(_ separator: String) {
        text.plain += separator
        if let last = text.runs.last, last.attributes.isEmpty {
            text.runs[text.runs.count - 1].text += separator
        } else {
            var run = Caffe_V1_AttributedRun()
            run.text = separator
            text.runs.append(run)
        }
    }

    /// The whole text, with `html` when there is an HTML form.
    func finish(html: String = "") -> Caffe_V1_StyledText {
        var finished = text
        finished.html = html
        return finished
    }
}
