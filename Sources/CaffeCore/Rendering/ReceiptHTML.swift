import Foundation
import Localization
import RichText

/// The receipt as an e-mail-ready HTML fragment: one `<article>` with the language and direction
/// set, a table of lines and one of totals, every text escaped, links limited to safe schemes,
/// custom attributes as `data-` attributes (`<span data-rainbow="fun">`).
@_spi(Benchmarks)
public struct ReceiptHTML {
    private var html: String
    private var lines = ""
    private var totals = ""

    /// The fixed markup between the receipt's texts, in the order it appears; the wire writer
    /// copies the same fragments.
    enum Fragment {
        static let headerOpen: StaticString = "<header>\n<h1>"
        static let sloganOpen: StaticString = "</h1>\n<p class=\"slogan\">"
        static let headerClose: StaticString = "</p>\n</header>\n"
        static let numberOpen: StaticString = "<p class=\"order-number\">"
        static let placedAtOpen: StaticString = "</p>\n<p class=\"placed-at\"><time datetime=\""
        static let placedAtText: StaticString = "\">"
        static let placedAtClose: StaticString = "</time></p>\n"
        static let linesOpen: StaticString = "<table class=\"lines\">\n"
        static let tableClose: StaticString = "</table>\n"
        static let totalsOpen: StaticString = "<table class=\"totals\">\n"
        static let row: StaticString = "<tr>"
        static let totalRow: StaticString = "<tr class=\"total\">"
        static let labelOpen: StaticString = "<th scope=\"row\">"
        static let amountOpen: StaticString = "</th><td>"
        static let rowClose: StaticString = "</td></tr>\n"
        static let ingredientsOpen: StaticString = "<p class=\"ingredients\">"
        static let paragraphClose: StaticString = "</p>\n"
        static let thanksOpen: StaticString = "<p class=\"thanks\">"
        static let articleClose: StaticString = "</article>\n"
        static let descriptionOpen: StaticString = "<tr><td class=\"description\">"
        static let unitPriceOpen: StaticString = "</td><td class=\"unit-price\">"
        static let linePriceOpen: StaticString = "</td><td class=\"line-price\">"

        /// The article's opening tag, with the language and direction set.
        static func articleOpen(locale: String, rightToLeft: Bool) -> String {
            "<article class=\"caffe-receipt\" lang=\"" + HTMLRenderer.escape(locale) + "\" dir=\""
                + (rightToLeft ? "rtl" : "ltr") + "\">\n"
        }
    }

    public init(locale: String, rightToLeft: Bool) {
        html = Fragment.articleOpen(locale: locale, rightToLeft: rightToLeft)
    }

    /// The store's name, the slogan, the order number and when it was placed, each given as
    /// ``inline(_:)`` HTML.
    public mutating func header(store: String, slogan: String, number: String, placedAt: String, at date: Date) {
        html += "\(Fragment.headerOpen)\(store)\(Fragment.sloganOpen)\(slogan)\(Fragment.headerClose)"
        html += "\(Fragment.numberOpen)\(number)\(Fragment.placedAtOpen)\(Self.timestamp(date))\(Fragment.placedAtText)"
        html += "\(placedAt)\(Fragment.placedAtClose)"
    }

    /// One row of the lines table: the description as ``inline(_:)`` HTML, the prices as text.
    /// Rows depend only on the line, so callers may keep them.
    public static func lineRow(description: String, unitPrice: String, linePrice: String) -> String {
        "\(Fragment.descriptionOpen)\(description)\(Fragment.unitPriceOpen)\(HTMLRenderer.escape(unitPrice))"
            + "\(Fragment.linePriceOpen)\(HTMLRenderer.escape(linePrice))\(Fragment.rowClose)"
    }

    /// Appends a row made by ``lineRow(description:unitPrice:linePrice:)``.
    public mutating func line(row: String) {
        lines += row
    }

    /// One row of the totals table: the label as ``inline(_:)`` HTML, the amount as text.
    public mutating func total(label: String, amount: String, isTotal: Bool) {
        totals += "\(isTotal ? Fragment.totalRow : Fragment.row)\(Fragment.labelOpen)\(label)\(Fragment.amountOpen)"
        totals += "\(HTMLRenderer.escape(amount))\(Fragment.rowClose)"
    }

    /// The two tables, then the ingredient sentences and the thank-you note, as ``inline(_:)`` HTML.
    public mutating func closing(ingredients: [String], thanks: String) {
        html +=
            "\(Fragment.linesOpen)\(lines)\(Fragment.tableClose)\(Fragment.totalsOpen)\(totals)\(Fragment.tableClose)"
        for sentence in ingredients {
            html += "\(Fragment.ingredientsOpen)\(sentence)\(Fragment.paragraphClose)"
        }
        html += "\(Fragment.thanksOpen)\(thanks)\(Fragment.paragraphClose)"
    }

    public func finish() -> String { html + "\(Fragment.articleClose)" }

    /// A document as escaped inline HTML, presentation attributes as `data-` attributes.
    public static func inline(_ document: RichDocument) -> String {
        StyledOutput.html.render(document)
    }

    /// ISO 8601 in UTC to the second ("2026-11-18T11:06:40Z"), for `<time datetime>`.
    static func timestamp(_ date: Date) -> String {
        String(unsafeUninitializedCapacity: timestampLength) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return writeTimestamp(date, to: base)
        }
    }

    /// The most bytes ``timestamp(_:)`` takes (years of up to 12 digits and a sign).
    static let timestampLength = 36

    /// Writes ``timestamp(_:)`` at `output` (room for ``timestampLength`` bytes); its length.
    static func writeTimestamp(_ date: Date, to output: UnsafeMutablePointer<UInt8>) -> Int {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CompiledDateFormat.civil(daysSince1970: days)
        var written = 0
        // The year as Swift prints it: no padding, a minus sign when negative.
        if year < 0 {
            output[written] = UInt8(ascii: "-")
            written += 1
        }
        let digits = DecimalDigits(year.magnitude)
        var position = digits.count - 1
        while position >= 0 {
            output[written] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: digits[position])
            written += 1
            position -= 1
        }
        let fields: (Int, Int, Int, Int, Int) = (
            month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60
        )
        // "-MM-DDTHH:MM:SSZ": each field two digits after its separator.
        let separators: StaticString = "--T::"
        withUnsafeBytes(of: fields) { values in
            for index in 0..<5 {
                let value = values.load(fromByteOffset: index * MemoryLayout<Int>.stride, as: Int.self)
                output[written] = separators.utf8Start[index]
                output[written + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
                output[written + 2] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                written += 3
            }
        }
        output[written] = UInt8(ascii: "Z")
        written += 1
        return written
    }
}
