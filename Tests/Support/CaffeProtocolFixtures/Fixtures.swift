// Caffe — protocol test fixtures, shared by the protocol's and the transport's tests.
import CaffeProtocol
import FoundationEssentials
import SwiftProtobuf

/// Fully populated messages, the same in every test that needs one.
public enum Fixtures {
    /// An order with every field set, two lines, a tip and both timestamps.
    public static func order() -> Caffe_V1_OrderEvent {
        var customer = Caffe_V1_Customer()
        customer.customerID = "cust-42"
        customer.name = "Ana Lucía"
        customer.locale = "es-MX"
        customer.timeZone = "America/Mexico_City"
        customer.termOfAddress = .feminine

        var pizza = Caffe_V1_OrderLine()
        pizza.itemID = "pizza"
        pizza.size = "large"
        pizza.quantity = 2
        var juice = Caffe_V1_OrderLine()
        juice.itemID = "juice"
        juice.size = "small"
        juice.quantity = 1

        var order = Caffe_V1_OrderEvent()
        order.orderID = "ord-0001"
        order.sourceID = "pos-sf-1"
        order.sequence = 17
        order.placedAt = Google_Protobuf_Timestamp(seconds: 1_767_225_600, nanos: 500_000_000)
        order.storeID = "sf-1"
        order.customer = customer
        order.currencyCode = "USD"
        order.lines = [pizza, juice]
        order.tip = "1.50"
        order.pickupAt = Google_Protobuf_Timestamp(seconds: 1_767_226_500, nanos: 0)
        return order
    }

    /// A complication request with every field set.
    public static func complication() -> Caffe_V1_ComplicationRequest {
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "cx-9"
        request.userID = "user-3"
        request.locale = "ar-EG"
        request.timeZone = "Africa/Cairo"
        request.hourCycle = "h12"
        request.nextFreeCoffee = Google_Protobuf_Timestamp(seconds: 1_767_300_000, nanos: 250)
        request.families = [.modularSmall, .graphicRectangular, .circularSmall]
        return request
    }

    /// A dead letter carrying the original header and body bytes (including non-UTF-8 bytes).
    public static func deadLetter() -> Caffe_V1_DeadLetter {
        var ref = Caffe_V1_EventRef()
        ref.sourceID = "pos-sf-1"
        ref.sequence = 18
        ref.orderID = "ord-0002"
        var letter = Caffe_V1_DeadLetter()
        letter.reason = .unrecoverableGap
        letter.detail = "OrderEvent.currency_code must be an ISO 4217 code such as USD, got 'usd'"
        letter.topic = "order.sf-1"
        letter.originalHeader = Data([0x0A, 0x13] + Array("caffe.v1.OrderEvent".utf8))
        letter.originalBody = Data([0x00, 0xFF, 0x80, 0x7F, 0xC3, 0x28, 0x00, 0x01])
        letter.ref = ref
        letter.receivedAt = Google_Protobuf_Timestamp(seconds: 1_767_225_601, nanos: 1)
        letter.gapFrom = 19
        letter.gapTo = 23
        return letter
    }

    public static func styled(_ plain: String, runs: [(String, [String: String])], html: String) -> Caffe_V1_StyledText
    {
        var text = Caffe_V1_StyledText()
        text.plain = plain
        text.html = html
        text.runs = runs.map { run in
            var attributed = Caffe_V1_AttributedRun()
            attributed.text = run.0
            attributed.attributes = run.1
            return attributed
        }
        return text
    }

    /// A receipt with styled text, attributed runs and attribute maps.
    public static func receipt() -> Caffe_V1_Receipt {
        var ref = Caffe_V1_EventRef()
        ref.sourceID = "pos-sf-1"
        ref.sequence = 17
        ref.orderID = "ord-0001"

        var line = Caffe_V1_ReceiptLine()
        line.description_p = styled(
            "2 large pizzas",
            runs: [
                ("2", ["inlinePresentationIntent": "[\"stronglyEmphasized\"]"]),
                (" large pizzas", [:]),
            ],
            html: "<strong>2</strong> large pizzas"
        )
        line.unitPrice = "12.50"
        line.linePrice = "25.00"
        line.formattedPrice = styled("$25.00", runs: [("$25.00", ["rainbow": "\"fun\""])], html: "$25.00")

        var receipt = Caffe_V1_Receipt()
        receipt.ref = ref
        receipt.locale = "en-US"
        receipt.currencyCode = "USD"
        receipt.lines = [line]
        receipt.subtotal = "25.00"
        receipt.tax = "2.16"
        receipt.taxRate = "0.08625"
        receipt.tip = "1.50"
        receipt.total = "28.66"
        receipt.text = styled(
            "Thanks, Ana! Total: $28.66",
            runs: [
                ("Thanks, Ana!", ["link": "\"https://example.com\"", "inlinePresentationIntent": "[\"emphasized\"]"]),
                (" Total: $28.66", [:]),
            ],
            html: "<em><a href=\"https://example.com\">Thanks, Ana!</a></em> Total: $28.66"
        )
        return receipt
    }

    /// A request header for `method` with `requestID`.
    public static func requestHeader(
        method: String = CaffeMethod.renderOrder,
        requestID: String = "req-1"
    ) -> Caffe_V1_RequestHeader {
        Caffe_V1_RequestHeader(method: method, requestID: requestID)
    }

    /// A routing id as libzmq generates them: a zero byte and four more bytes.
    public static let routingA: [UInt8] = [0x00, 0x6B, 0x8B, 0x45, 0x67]
    public static let routingB: [UInt8] = [0x00, 0x80, 0x00, 0x00, 0x2A]
}
