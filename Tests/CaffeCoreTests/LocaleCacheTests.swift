import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf
import Testing

/// Compiled locales per formatting key, bounded in bytes; what a session does with a new locale.
@Suite("Locale cache")
struct LocaleCacheTests {
    static func order(_ locale: String) -> Caffe_V1_OrderEvent {
        var event = Caffe_V1_OrderEvent()
        event.orderID = "O-1"
        event.sourceID = "s"
        event.sequence = 1
        event.placedAt = Google_Protobuf_Timestamp(seconds: 1_795_000_000)
        event.storeID = "store-us-sfo"
        event.customer.customerID = "c"
        event.customer.name = "Ana"
        event.customer.locale = locale
        event.customer.timeZone = "America/Los_Angeles"
        event.currencyCode = "USD"
        var line = Caffe_V1_OrderLine()
        line.itemID = "pizza"
        line.size = "large"
        line.quantity = 2
        event.lines = [line]
        return event
    }

    static func renderBytes(_ session: RenderSession, _ locale: String) throws -> RenderedOrderBytes {
        let bytes: [UInt8] = try order(locale).serializedBytes()
        return try bytes.withUnsafeBytes { try session.renderOrder(bytes: $0) }
    }

    @Test("tags that differ only in what changes no format share one compiled locale; the topic keeps the tag")
    func sharedByKey() throws {
        let session = CoreFixture.core.makeSession()
        let plain = try Self.renderBytes(session, "en-US")
        let confirmation = Array(plain.confirmation)
        let compiled = session.localeStatistics.compilations
        for index in 0..<50 {
            let decorated = try Self.renderBytes(session, "en-US-x-t\(index)")
            #expect(decorated.customerLocale == "en-US-x-t\(index)")
            #expect(Array(decorated.confirmation) == confirmation)
        }
        _ = try Self.renderBytes(session, "en-US-u-nu-bogus")
        #expect(session.localeStatistics.compilations == compiled)
    }

    @Test("told not to compile, a session refuses a new locale, or approximates it and says so")
    func policies() throws {
        let session = CoreFixture.core.makeSession()
        session.prepare(locales: ["en"])
        session.newLocales = .defer
        let error = #expect(throws: RenderError.self) { try session.render(Self.order("en-AU")) }
        #expect(error?.code == .localeNotReady && error?.message == "en-AU")
        session.newLocales = .approximate
        let approximated = try session.render(Self.order("en-AU"))
        #expect(
            approximated.confirmation.notes.map(\.code) == ["locale-approximated"]
                && approximated.confirmation.notes[0].detail == "formatted as en while en-AU is prepared"
        )
        session.newLocales = .compile
        let exact = try session.render(Self.order("en-AU"))
        #expect(exact.confirmation.notes.isEmpty)
    }

    @Test("past its bound the cache evicts the least recently used locales, never the default one")
    func bounded() throws {
        let session = CoreFixture.core.makeSession(localeCacheBytes: 1 << 20)
        for locale in ["en-US", "en-GB", "en-AU", "en-CA", "en-NZ", "en-IE"] { _ = try Self.renderBytes(session, locale) }
        let statistics = session.localeStatistics
        // Each locale takes more than half the bound: every one but the pinned default is evicted
        // as soon as the next is compiled (its own order still renders).
        #expect(statistics.compilations == 6 && statistics.evictions == 5 && statistics.locales == 1)
        // en-US, the default, is still compiled: rendering it again compiles nothing.
        _ = try Self.renderBytes(session, "en-US")
        #expect(session.localeStatistics.compilations == 6)
    }
}
