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

    /// Text without styling, as ``styledText(_:html:)`` gives it for `RichDocument(text:)`.
    static func unstyled(_ plain: String) -> Caffe_V1_StyledText {
        var text = Caffe_V1_StyledText()
        text.plain = plain
        if !plain.isEmpty {
            var run = Caffe_V1_AttributedRun()
            run.text = plain
            text.runs = [run]
        }
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
struct PreparedText: Sendable {
    let document: RichDocument
    let styled: Caffe_V1_StyledText
    let html: String

    init(_ document: RichDocument) {
        self.document = document
        styled = StyledOutput.styledText(document)
        html = ReceiptHTML.inline(document)
    }
}

/// Builds one ``Caffe_V1_StyledText`` from texts already in wire form, a separator between them,
/// merging runs across the seams exactly as rendering the joined document would. Pieces that do
/// not change from order to order are converted once and appended as they are.
struct StyledTextBuilder {
    private var plain = ""
    private var runs: [Caffe_V1_AttributedRun] = []
    private var isEmpty = true
    let separator: String

    init(separator: String = "\n") {
        self.separator = separator
        plain.reserveCapacity(512)
        runs.reserveCapacity(16)
    }

    /// Appends `piece` after the separator (none before the first piece).
    mutating func append(_ piece: Caffe_V1_StyledText) {
        if !isEmpty, !separator.isEmpty { appendUnstyled(separator) }
        isEmpty = false
        plain += piece.plain
        let pieceRuns = piece.runs
        guard let first = pieceRuns.first else { return }
        if let last = runs.last, last.attributes == first.attributes {
            runs[runs.count - 1].text += first.text
            runs += pieceRuns.dropFirst()
        } else {
            runs += pieceRuns
        }
    }

    mutating func append(_ document: RichDocument) {
        append(StyledOutput.styledText(document))
    }

    private mutating func appendUnstyled(_ separator: String) {
        plain += separator
        if let last = runs.last, last.attributes.isEmpty {
            runs[runs.count - 1].text += separator
        } else {
            var run = Caffe_V1_AttributedRun()
            run.text = separator
            runs.append(run)
        }
    }

    /// The whole text, with `html` when there is an HTML form.
    func finish(html: String = "") -> Caffe_V1_StyledText {
        var finished = Caffe_V1_StyledText()
        finished.plain = plain
        finished.runs = runs
        finished.html = html
        return finished
    }
}

/// A text rendered once with a hole where per-order plain text goes (an amount, a time, an order
/// number), kept in wire form and as inline HTML, so filling it costs a few string appends. The
/// filled-in text takes the styling of the hole, as an argument takes the styling of its slot, and
/// is escaped for HTML.
struct SlotText {
    /// What a template is rendered with in place of the per-order text (a private-use scalar).
    static let hole: Unicode.Scalar = "\u{E000}"

    private let plain: [String]
    private let runs: [(attributes: [String: String], pieces: [String])]
    private let html: [String]

    init(_ document: RichDocument) {
        let styled = StyledOutput.styledText(document)
        plain = Self.split(styled.plain)
        runs = styled.runs.map { ($0.attributes, Self.split($0.text)) }
        html = Self.split(ReceiptHTML.inline(document))
    }

    /// The text with `text` in its hole (or holes).
    func styled(_ text: String) -> Caffe_V1_StyledText {
        var styled = Caffe_V1_StyledText()
        styled.plain = plain.joined(separator: text)
        styled.runs.reserveCapacity(runs.count)
        for run in runs {
            var made = Caffe_V1_AttributedRun()
            made.text = run.pieces.count == 1 ? run.pieces[0] : run.pieces.joined(separator: text)
            guard !made.text.isEmpty else { continue }
            made.attributes = run.attributes
            styled.runs.append(made)
        }
        return styled
    }

    /// The inline HTML with `text`, escaped, in its hole.
    func html(_ text: String) -> String {
        html.count == 1 ? html[0] : html.joined(separator: HTMLRenderer.escape(text))
    }

    private static func split(_ text: String) -> [String] {
        guard text.unicodeScalars.contains(hole) else { return [text] }
        return text.unicodeScalars.split(separator: hole, omittingEmptySubsequences: false).map { String($0) }
    }
}
