import CaffeCore
import CaffeProtocol
import CaffeTestKit
import CaffeTransport
import Foundation
import SwiftProtobuf
import Testing
import ZeroMQ

@testable import CaffeWorker

/// The render stage goes from an event's bytes to its outputs' bytes; every frame equals what
/// decoding, rendering the messages and encoding them gives, and every failure keeps its dead
/// letter reason and detail.
@Suite("Event rendering from bytes")
struct EventRendererTests {
    static let core: RenderingCore = {
        do {
            return try RenderingCore(configurationDirectory: ConfigurationDirectory.builtIn)
        } catch {
            fatalError("the built-in configuration does not load: \(error)")
        }
    }()

    static func order(_ id: String, locale: String = "es-MX", item: String = "pizza") -> Caffe_V1_OrderEvent {
        var order = Caffe_V1_OrderEvent()
        order.orderID = id
        order.sourceID = "pos-1"
        order.sequence = 3
        order.placedAt = Google_Protobuf_Timestamp(seconds: 1_795_000_000, nanos: 0)
        order.pickupAt = Google_Protobuf_Timestamp(seconds: 1_795_001_200, nanos: 0)
        order.storeID = "store-mx-cdmx"
        order.currencyCode = "MXN"
        order.customer.name = "Ximena"
        order.customer.locale = locale
        order.customer.timeZone = "America/Mexico_City"
        order.customer.termOfAddress = .feminine
        var line = Caffe_V1_OrderLine()
        line.itemID = item
        line.size = "large"
        line.quantity = 2
        order.lines = [line]
        order.tip = "10.50"
        return order
    }

    static func event(_ body: some SwiftProtobuf.Message, header: Caffe_V1_EventHeader) throws -> InputEvent {
        var header = header
        header.bodyType = type(of: body).protoMessageName
        return InputEvent(
            topic: try ZMQMessage("order.store-mx-cdmx"),
            headerFrame: try ZMQMessage(header.serializedBytes() as [UInt8]),
            body: try ZMQMessage(body.serializedBytes() as [UInt8]),
            header: header
        )
    }

    static func frames(_ rendered: RenderedEvent) -> [[UInt8]] {
        rendered.outputs.flatMap { $0.frames.map(\.bytes) }
    }

    @Test func confirmationTopicsCarryOnlyPlausibleLocaleTags() {
        #expect(EventRenderer.topicLocale("es-MX", used: "es") == "es-MX")
        #expect(EventRenderer.topicLocale("zh_Hant_TW", used: "zh-Hant") == "zh_Hant_TW")
        #expect(EventRenderer.topicLocale("", used: "en") == "en")
        #expect(EventRenderer.topicLocale("not a locale", used: "en") == "en")
        #expect(EventRenderer.topicLocale(String(repeating: "a", count: 36), used: "en") == "en")
        #expect(EventRenderer.topicLocale("es.MX", used: "es") == "es")
    }

    @Test func ordersAndComplicationsAreTheMessagesEncoded() throws {
        var renderer = EventRenderer(cores: CoreBox(Self.core), limits: .standard)
        let session = Self.core.makeSession()
        for locale in ["es-MX", "en-US", "ar-EG", "ja-JP", "", "sv-SE", "not a locale"] {
            let order = Self.order("o-\(locale)", locale: locale)
            let header = EventFrames.header(for: order)
            let rendered = renderer.render(try Self.event(order, header: header))
            let expected = try session.render(order)
            let topic = EventRenderer.topicLocale(order.customer.locale, used: expected.confirmation.locale)
            let frames =
                try EventFrames.encode(
                    topic: CaffeTopic.confirmation(locale: topic),
                    header: header,
                    body: expected.confirmation
                )
                + EventFrames.encode(
                    topic: CaffeTopic.receipt(store: order.storeID),
                    header: header,
                    body: expected.receipt
                )
            #expect(Self.frames(rendered) == frames.map(\.bytes), "\(locale)")
        }
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "r"
        request.userID = "u-1"
        request.locale = "fr-FR"
        request.timeZone = "Europe/Paris"
        request.nextFreeCoffee = Google_Protobuf_Timestamp(seconds: 1_795_000_000, nanos: 0)
        var header = Caffe_V1_EventHeader()
        header.sourceID = "app"
        header.sequence = 1
        let rendered = renderer.render(try Self.event(request, header: header))
        let expected = try EventFrames.encode(
            topic: CaffeTopic.complication(user: "u-1"),
            header: header,
            body: try session.complication(request)
        )
        #expect(Self.frames(rendered) == expected.map(\.bytes))
    }

    @Test func failuresKeepTheirDeadLetters() throws {
        var renderer = EventRenderer(cores: CoreBox(Self.core), limits: .standard)
        func letter(_ event: InputEvent) throws -> Caffe_V1_DeadLetter {
            let rendered = renderer.render(event)
            let body = try #require(rendered.outputs.first?.body.bytes)
            return try Caffe_V1_DeadLetter(serializedBytes: body)
        }
        // The header disagrees with the body: refused before the unknown item is noticed.
        let unknown = Self.order("o-1", item: "caviar")
        var header = EventFrames.header(for: unknown)
        header.orderID = "o-2"
        let disagreeing = try letter(try Self.event(unknown, header: header))
        #expect(disagreeing.reason == .invalid)
        #expect(disagreeing.detail == "the header's order_id 'o-2' differs from the body's 'o-1'")
        // An item not on the menu.
        let missing = try letter(try Self.event(unknown, header: EventFrames.header(for: unknown)))
        #expect(missing.reason == .unknownItem)
        #expect(missing.detail.contains("caviar"))
        // A body that does not decode.
        var event = try Self.event(unknown, header: EventFrames.header(for: unknown))
        event.body = try ZMQMessage([0x0A, 0xFF] as [UInt8])
        let malformed = try letter(event)
        #expect(malformed.reason == .malformed)
        let decoding = #expect(throws: CaffeProtocolError.self) {
            try EventFrames.decodeBody(Caffe_V1_OrderEvent.self, frame: event.body)
        }
        #expect(malformed.detail == decoding?.description)
        #expect(malformed.detail.hasPrefix("malformed: event body is not a valid caffe.v1.OrderEvent"))
    }
}
