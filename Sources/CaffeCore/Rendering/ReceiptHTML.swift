import Foundation
import RichText

/// The receipt as an e-mail-ready HTML fragment: one `<article>` with the language and direction
/// set, a table of lines and one of totals, every text escaped, links limited to safe schemes,
/// custom attributes as `data-` attributes (`<span data-rainbow="fun">`).
@_spi(Benchmarks)
public struct ReceiptHTML {
    private var html: String
    private var lines = ""
    private var totals = ""

    public init(locale: String, rightToLeft: Bool) {
        html =
            "<article class=\"caffe-receipt\" lang=\"" + HTMLRenderer.escape(locale) + "\" dir=\""
            + (rightToLeft ? "rtl" : "ltr") + "\">\n"
    }

    /// The store's name, the slogan, the order number and when it was placed, each given as
    /// ``inline(_:)`` HTML.
    public mutating func header(store: String, slogan: String, number: String, placedAt: String, at date: Date) {
        html += "<header>\n<h1>" + store + "</h1>\n"
        html += "<p class=\"slogan\">" + slogan + "</p>\n</header>\n"
        html += "<p class=\"order-number\">" + number + "</p>\n"
        html += "<p class=\"placed-at\"><time datetime=\"" + Self.timestamp(date) + "\">" + placedAt
        html += "</time></p>\n"
    }

    /// One row of the lines table: the description as ``inline(_:)`` HTML, the prices as text.
    /// Rows depend only on the line, so callers may keep them.
    public static func lineRow(description: String, unitPrice: String, linePrice: String) -> String {
        "<tr><td class=\"description\">" + description + "</td>" + "<td class=\"unit-price\">"
            + HTMLRenderer.escape(unitPrice) + "</td>" + "<td class=\"line-price\">" + HTMLRenderer.escape(linePrice)
            + "</td></tr>\n"
    }

    /// Appends a row made by ``lineRow(description:unitPrice:linePrice:)``.
    public mutating func line(row: String) {
        lines += row
    }

    /// One row of the totals table: the label as ``inline(_:)`` HTML, the amount as text.
    public mutating func total(label: String, amount: String, isTotal: Bool) {
        totals += isTotal ? "<tr class=\"total\">" : "<tr>"
        totals += "<th scope=\"row\">" + label + "</th><td>" + HTMLRenderer.escape(amount) + "</td></tr>\n"
    }

    /// The two tables, then the ingredient sentences and the thank-you note, as ``inline(_:)`` HTML.
    public mutating func closing(ingredients: [String], thanks: String) {
        html += "<table class=\"lines\">\n" + lines + "</table>\n"
        html += "<table class=\"totals\">\n" + totals + "</table>\n"
        for sentence in ingredients {
            html += "<p class=\"ingredients\">" + sentence + "</p>\n"
        }
        html += "<p class=\"thanks\">" + thanks + "</p>\n"
    }

    public func finish() -> String { html + "</article>\n" }

    /// A document as escaped inline HTML, presentation attributes as `data-` attributes.
    public static func inline(_ document: RichDocument) -> String {
        StyledOutput.html.render(document)
    }

    /// ISO 8601 in UTC to the second ("2026-11-18T11:06:40Z"), for `<time datetime>`.
    static func timestamp(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let hour = Int64(secondOfDay / 3600)
        let minute = Int64(secondOfDay % 3600 / 60)
        let second = Int64(secondOfDay % 60)
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
    }
}
