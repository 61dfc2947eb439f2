import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf
import Testing

/// The worker writes its outputs with ``ProtobufWriter``; real rendered outputs must come out as
/// SwiftProtobuf (with sorted map keys) would write them.
@Suite("Output encoding of rendered orders and complications")
struct OutputEncodingTests {
    static let deterministic: BinaryEncodingOptions = {
        var options = BinaryEncodingOptions()
        options.useDeterministicOrdering = true
        return options
    }()

    @Test("rendered order", arguments: GoldenOutputTests.cases)
    func renderedOrder(name: String, locale: String) throws {
        let market = try #require(CoreFixture.markets.first { $0.locale == locale })
        let make = try #require(GoldenOutputTests.orders.first { $0.name == name }).make
        let rendered = try CoreFixture.core.makeSession().render(make(market))
        let confirmation = rendered.confirmation.singlePassBytes()
        let receipt = rendered.receipt.singlePassBytes()
        #expect(confirmation == (try rendered.confirmation.serializedBytes(options: Self.deterministic)))
        #expect(receipt == (try rendered.receipt.serializedBytes(options: Self.deterministic)))
        #expect(try Caffe_V1_Confirmation(serializedBytes: confirmation) == rendered.confirmation)
        #expect(try Caffe_V1_Receipt(serializedBytes: receipt) == rendered.receipt)
        // Runs with attributes, and a receipt long enough for two-byte length prefixes, are covered.
        #expect(rendered.receipt.text.runs.contains { !$0.attributes.isEmpty })
        #expect(receipt.count > 300)
    }

    @Test func renderedComplications() throws {
        let session = CoreFixture.core.makeSession()
        for market in CoreFixture.markets {
            var request = Caffe_V1_ComplicationRequest()
            request.requestID = "r"
            request.userID = "u"
            request.locale = market.locale
            request.timeZone = market.timeZone
            request.nextFreeCoffee = CoreFixture.timestamp("2026-12-31T23:45:00Z")
            let payload = try session.complication(request)
            let bytes = payload.singlePassBytes()
            #expect(bytes == (try payload.serializedBytes(options: Self.deterministic)), "\(market.locale)")
            #expect(try Caffe_V1_ComplicationPayload(serializedBytes: bytes) == payload)
        }
    }
}
