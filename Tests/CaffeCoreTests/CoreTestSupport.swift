import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf

/// The repository's `config/` core, loaded once for all tests.
enum CoreFixture {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let configuration = repository.appendingPathComponent("config")
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    /// The tests cannot run without it: a load failure stops them with the reason.
    static let core: RenderingCore = {
        do {
            return try RenderingCore(configurationDirectory: configuration)
        } catch {
            fatalError("config/ does not load: \(error)")
        }
    }()

    /// Where a locale's customers shop: its store, currency and time zone.
    struct Market: Sendable {
        var locale: String
        var store: String
        var currency: String
        var timeZone: String
    }

    static let markets: [Market] = [
        Market(locale: "en-US", store: "store-us-sfo", currency: "USD", timeZone: "America/Los_Angeles"),
        Market(locale: "es-ES", store: "store-es-mad", currency: "EUR", timeZone: "Europe/Madrid"),
        Market(locale: "es-MX", store: "store-mx-cdmx", currency: "MXN", timeZone: "America/Mexico_City"),
        Market(locale: "fr-FR", store: "store-fr-par", currency: "EUR", timeZone: "Europe/Paris"),
        Market(locale: "de-DE", store: "store-de-ber", currency: "EUR", timeZone: "Europe/Berlin"),
        Market(locale: "ja-JP", store: "store-jp-tyo", currency: "JPY", timeZone: "Asia/Tokyo"),
        Market(locale: "ar-EG", store: "store-eg-cai", currency: "EGP", timeZone: "Africa/Cairo"),
        Market(locale: "it-IT", store: "store-it-rom", currency: "EUR", timeZone: "Europe/Rome"),
        Market(locale: "pt-BR", store: "store-br-sao", currency: "BRL", timeZone: "America/Sao_Paulo"),
    ]

    static func timestamp(_ text: String) -> Google_Protobuf_Timestamp {
        guard let date = try? Date(text, strategy: .iso8601) else { fatalError("not ISO 8601: \(text)") }
        return Google_Protobuf_Timestamp(date: date)
    }

    /// A complication request for a user of `locale` in `timeZone`.
    static func request(
        locale: String,
        timeZone: String,
        hourCycle: String = "",
        at date: Google_Protobuf_Timestamp,
        user: String = "u"
    ) -> Caffe_V1_ComplicationRequest {
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "r"
        request.userID = user
        request.locale = locale
        request.timeZone = timeZone
        request.hourCycle = hourCycle
        request.nextFreeCoffee = date
        return request
    }

    static func line(_ item: String, _ size: String, _ quantity: UInt32) -> Caffe_V1_OrderLine {
        var line = Caffe_V1_OrderLine()
        line.itemID = item
        line.size = size
        line.quantity = UInt64(quantity)
        return line
    }

    /// A valid order for a market, ready to be changed by a test.
    static func order(
        id: String = "A-1042",
        market: Market = markets[0],
        name: String = "Ana",
        term: Caffe_V1_TermOfAddress = .feminine,
        lines: [Caffe_V1_OrderLine] = [line("pizza", "large", 2), line("juice", "small", 1)],
        tip: String = "",
        placedAt: String = "2026-11-18T11:06:40Z",
        pickupAt: String? = "2026-11-18T11:25:00Z"
    ) -> Caffe_V1_OrderEvent {
        var event = Caffe_V1_OrderEvent()
        event.orderID = id
        event.sourceID = "pos-1"
        event.sequence = 7
        event.placedAt = timestamp(placedAt)
        event.storeID = market.store
        event.customer.customerID = "c-1"
        event.customer.name = name
        event.customer.locale = market.locale
        event.customer.timeZone = market.timeZone
        event.customer.termOfAddress = term
        event.currencyCode = market.currency
        event.lines = lines
        event.tip = tip
        if let pickupAt { event.pickupAt = timestamp(pickupAt) }
        return event
    }
}

/// Styled text in a stable, reviewable form: the plain text, then one line per run with its
/// attributes sorted (protobuf maps have no order).
enum GoldenText {
    static func runs(_ text: Caffe_V1_StyledText) -> String {
        text.runs.map { run in
            let attributes = run.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "  " + run.text.debugDescription
                + (attributes.isEmpty ? "" : " " + attributes.joined(separator: " "))
        }.joined(separator: "\n")
    }

    static func render(_ rendered: RenderedOrder) -> String {
        var output = ""
        let confirmation = rendered.confirmation
        let receipt = rendered.receipt
        output += "== confirmation (\(confirmation.locale))\n" + confirmation.text.plain + "\n"
        output += "== confirmation runs\n" + runs(confirmation.text) + "\n"
        output += "== summary\n" + confirmation.summary.plain + "\n"
        output += "== receipt (\(receipt.locale), \(receipt.currencyCode))\n" + receipt.text.plain + "\n"
        output += "== receipt amounts\n"
        for line in receipt.lines {
            output +=
                "  \(line.description_p.plain) | \(line.unitPrice) | \(line.linePrice) | \(line.formattedPrice.plain)\n"
        }
        output +=
            "  subtotal \(receipt.subtotal) tax \(receipt.tax) rate \(receipt.taxRate) tip \(receipt.tip) total \(receipt.total)\n"
        output += "== receipt runs\n" + runs(receipt.text) + "\n"
        output += "== receipt html\n" + receipt.text.html
        if !confirmation.notes.isEmpty {
            output +=
                "== notes\n" + confirmation.notes.map { "  \($0.code): \($0.detail)" }.joined(separator: "\n") + "\n"
        }
        return output
    }
}
