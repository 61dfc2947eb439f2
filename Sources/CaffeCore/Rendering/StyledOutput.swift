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
