// Caffe — CaffeProtocol tests.
import CaffeProtocol
import CaffeProtocolFixtures
import SwiftProtobuf
import Testing

@Suite("Validation of decoded messages")
struct ValidationTests {
    // MARK: OrderEvent

    @Test func fullOrderIsValid() throws {
        try Fixtures.order().validate()
    }

    /// Each required field removed in turn, with the path the error must name.
    static let missingOrderFields: [(String, @Sendable (inout Caffe_V1_OrderEvent) -> Void)] = [
        ("order_id", { $0.orderID = "" }),
        ("source_id", { $0.sourceID = "" }),
        ("sequence", { $0.sequence = 0 }),
        ("placed_at", { $0.clearPlacedAt() }),
        ("store_id", { $0.storeID = "" }),
        ("customer", { $0.clearCustomer() }),
        ("customer.locale", { $0.customer.locale = "" }),
        ("customer.time_zone", { $0.customer.timeZone = "" }),
        ("currency_code", { $0.currencyCode = "" }),
        ("lines", { $0.lines = [] }),
        ("lines[0].item_id", { $0.lines[0].itemID = "" }),
        ("lines[0].size", { $0.lines[0].size = "" }),
        ("lines[1].item_id", { $0.lines[1].itemID = "" }),
        ("lines[1].size", { $0.lines[1].size = "" }),
    ]

    @Test(arguments: missingOrderFields.indices)
    func orderMissingARequiredFieldNamesIt(index: Int) throws {
        let (field, remove) = Self.missingOrderFields[index]
        var order = Fixtures.order()
        remove(&order)
        let error = try invalidity(of: order)
        #expect(error.code == .missingField)
        #expect(error.field == field)
        #expect(error.message == "OrderEvent is missing required field '\(field)'")
    }

    @Test func emptyOrderReportsTheFirstFieldInDeclarationOrder() throws {
        let error = try invalidity(of: Caffe_V1_OrderEvent())
        #expect(error.code == .missingField)
        #expect(error.field == "order_id")
    }

    @Test func firstBadLineIsReportedByIndex() throws {
        var order = Fixtures.order()
        var third = Caffe_V1_OrderLine()
        third.itemID = "cookie"
        order.lines.append(third)
        order.lines[1].size = ""
        let error = try invalidity(of: order)
        #expect(error.field == "lines[1].size")

        order.lines[1].size = "small"
        let thirdError = try invalidity(of: order)
        #expect(thirdError.code == .missingField)
        #expect(thirdError.field == "lines[2].size")
    }

    @Test func customerPresentButEmptyReportsLocale() throws {
        var order = Fixtures.order()
        order.customer = Caffe_V1_Customer()
        let error = try invalidity(of: order)
        #expect(error.field == "customer.locale")
    }

    @Test(arguments: ["usd", "US", "USDX", "U$D", "€UR", "Usd", " USD"])
    func malformedCurrencyCodeIsInvalid(code: String) throws {
        var order = Fixtures.order()
        order.currencyCode = code
        let error = try invalidity(of: order)
        #expect(error.code == .invalidField)
        #expect(error.field == "currency_code")
        #expect(error.message == "OrderEvent.currency_code must be an ISO 4217 code such as USD, got '\(code)'")
    }

    @Test(arguments: ["USD", "JPY", "BHD", "MXN"])
    func isoCurrencyCodesAreValid(code: String) throws {
        var order = Fixtures.order()
        order.currencyCode = code
        try order.validate()
    }

    @Test(arguments: ["1,50", "abc", "1.", ".5", "-", "+1", "1.5.0", "1e3", " 1", "1 ", "--1", "-.5", "١٫٥"])
    func malformedTipIsInvalid(tip: String) throws {
        var order = Fixtures.order()
        order.tip = tip
        let error = try invalidity(of: order)
        #expect(error.code == .invalidField)
        #expect(error.field == "tip")
        #expect(error.message == "OrderEvent.tip must be a decimal string such as 1.50, got '\(tip)'")
    }

    @Test(arguments: ["1.50", "-0.75", "1500", "0", "0.001", ""])
    func wellFormedOrEmptyTipIsValid(tip: String) throws {
        var order = Fixtures.order()
        order.tip = tip
        try order.validate()
    }

    @Test func zeroQuantityIsValid() throws {
        var order = Fixtures.order()
        order.lines[0].quantity = 0
        order.lines[1].quantity = 0
        try order.validate()
    }

    @Test func optionalFieldsMayBeAbsent() throws {
        var order = Fixtures.order()
        order.clearPickupAt()
        order.customer.customerID = ""
        order.customer.name = ""
        order.customer.termOfAddress = .unspecified
        order.tip = ""
        try order.validate()
    }

    @Test func missingFieldIsReportedBeforeAnInvalidOne() throws {
        var order = Fixtures.order()
        order.tip = "abc"
        order.lines[1].itemID = ""
        let error = try invalidity(of: order)
        #expect(error.code == .missingField)
        #expect(error.field == "lines[1].item_id")
    }

    // MARK: DecimalString

    @Test(arguments: ["1.50", "-0.75", "1500", "0", "-0", "00.10", "12345678901234567890.123456789"])
    func decimalStringAcceptsDigitsWithOptionalSignAndFraction(text: String) {
        #expect(DecimalString.isValid(text))
    }

    @Test(arguments: ["", "1,50", "abc", "1.", ".5", "-", "+1", "1.5.0", "1e3", " 1", "1 ", "--1", "-.5", "١٫٥", "１"])
    func decimalStringRejectsEverythingElse(text: String) {
        #expect(!DecimalString.isValid(text))
    }

    // MARK: ComplicationRequest

    @Test func fullComplicationRequestIsValid() throws {
        try Fixtures.complication().validate()
    }

    static let missingComplicationFields: [(String, @Sendable (inout Caffe_V1_ComplicationRequest) -> Void)] = [
        ("request_id", { $0.requestID = "" }),
        ("user_id", { $0.userID = "" }),
        ("locale", { $0.locale = "" }),
        ("time_zone", { $0.timeZone = "" }),
        ("next_free_coffee", { $0.clearNextFreeCoffee() }),
    ]

    @Test(arguments: missingComplicationFields.indices)
    func complicationMissingARequiredFieldNamesIt(index: Int) throws {
        let (field, remove) = Self.missingComplicationFields[index]
        var request = Fixtures.complication()
        remove(&request)
        let error = try invalidity(of: request)
        #expect(error.code == .missingField)
        #expect(error.field == field)
        #expect(error.message == "ComplicationRequest is missing required field '\(field)'")
    }

    @Test(arguments: ["h13", "H12", "h1", "12", "h23 "])
    func unknownHourCycleIsInvalid(cycle: String) throws {
        var request = Fixtures.complication()
        request.hourCycle = cycle
        let error = try invalidity(of: request)
        #expect(error.code == .invalidField)
        #expect(error.field == "hour_cycle")
        #expect(error.message == "ComplicationRequest.hour_cycle must be h11, h12, h23 or h24, got '\(cycle)'")
    }

    @Test(arguments: ["", "h11", "h12", "h23", "h24"])
    func knownOrEmptyHourCycleIsValid(cycle: String) throws {
        var request = Fixtures.complication()
        request.hourCycle = cycle
        try request.validate()
    }

    @Test func emptyFamiliesAreValid() throws {
        var request = Fixtures.complication()
        request.families = []
        try request.validate()
    }

    // MARK: Headers

    @Test func headersValidateTheirRequiredFields() throws {
        let eventHeaderError = try invalidity(of: Caffe_V1_EventHeader())
        #expect(eventHeaderError.field == "body_type")
        let requestHeaderError = try invalidity(of: Caffe_V1_RequestHeader())
        #expect(requestHeaderError.field == "method")
        try Fixtures.requestHeader().validate()
        try EventFrames.header(for: Fixtures.order()).validate()
    }

    @Test func validationIsUsableThroughTheProtocol() {
        let messages: [any CaffeValidatable] = [
            Fixtures.order(), Fixtures.complication(), Fixtures.requestHeader(), Caffe_V1_OrderEvent(),
        ]
        let fields = messages.map { message in validationError(of: message)?.field }
        #expect(fields == [nil, nil, nil, "order_id"])
    }

    @Test func deadlinesWithOutOfRangeNanosAreInvalid() throws {
        var header = Fixtures.requestHeader()
        header.deadline = Google_Protobuf_Timestamp(seconds: 1000, nanos: 1_500_000_000)
        let error = try invalidity(of: header)
        #expect(error.code == .invalidField)
        #expect(error.field == "deadline")
        #expect(error.message == "RequestHeader.deadline has nanos 1500000000 outside 0..<1000000000")
        header.deadline = Google_Protobuf_Timestamp(seconds: 1000, nanos: 999_999_999)
        try header.validate()
    }

    /// Ids the identifier rule refuses, with the problem it names.
    static let refusedIDs: [(String, String)] = [
        ("pos-9\u{1F}A", "holds the control character U+001F"),
        ("a\u{0}b", "holds the control character U+0000"),
        ("esc\u{1B}[31m", "holds the control character U+001B"),
        ("del\u{7F}", "holds the control character U+007F"),
        ("c1\u{85}", "holds the control character U+0085"),
        ("line\u{2028}", "holds the line or paragraph separator U+2028"),
        ("non" + String(Unicode.Scalar(0xFFFE)!), "holds the noncharacter U+FFFE"),
        ("non" + String(Unicode.Scalar(0xFDD0)!), "holds the noncharacter U+FDD0"),
        ("plane" + String(Unicode.Scalar(0x1FFFF)!), "holds the noncharacter U+1FFFF"),
        (String(repeating: "é", count: 65), "is 130 bytes long; at most 128 are accepted"),
    ]

    @Test("ids: at most 128 bytes, no control character, line separator or noncharacter", arguments: refusedIDs)
    func identifiersRefused(id: String, problem: String) throws {
        #expect(Identifier.problem(id) == problem)
        var order = Fixtures.order()
        order.sourceID = id
        let error = try invalidity(of: order)
        #expect(error.code == .invalidField && error.field == "source_id")
        #expect(error.message == "OrderEvent.source_id \(problem)")
    }

    @Test func identifiersAccepted() throws {
        for id in ["pos-1", "café-Zürich", "店舗-7", "🍩", String(repeating: "x", count: 128), ""] {
            #expect(Identifier.problem(id) == nil, "\(id)")
        }
        var header = Caffe_V1_EventHeader()
        header.bodyType = "caffe.v1.OrderEvent"
        header.sourceID = "pos\u{1F}1"
        #expect(try invalidity(of: header).message == "EventHeader.source_id holds the control character U+001F")
        var complication = Fixtures.complication()
        complication.userID = "u\n2"
        #expect(try invalidity(of: complication).field == "user_id")
        #expect(Identifier.printable("esc\u{1B}[31m-red") == "esc\\u{1B}[31m-red")
        #expect(Identifier.printable("plain") == "plain")
    }
}
