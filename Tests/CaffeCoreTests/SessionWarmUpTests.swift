import CaffeCore
import CaffeProtocol
import Localization
import SwiftProtobuf
import Testing

@Suite("Session warm-up")
struct SessionWarmUpTests {
    @Test("ICU's likely region and a region's canonical zones")
    func regionsAndZones() {
        #expect(ICUInventory.likelyRegion(of: "de") == "DE")
        #expect(ICUInventory.likelyRegion(of: "ar") == "EG")
        #expect(ICUInventory.likelyRegion(of: "es-MX") == "MX")
        #expect(ICUInventory.likelyRegion(of: "es-419") == nil)
        #expect(ICUInventory.timeZones(inRegion: "DE") == ["Europe/Berlin", "Europe/Busingen"])
        #expect(ICUInventory.timeZones(inRegion: "US").contains("America/Los_Angeles"))
    }

    @Test("per tag (and a bare language's likely region): an order per term of address, one per zone")
    func ordersPerMarket() {
        let core = CoreFixture.core
        // Orders — de: 4; de-DE: 4 + 2 zones; es-419: 4 (its zones would be a continent's); pt-BR:
        // 4 + Brazil's. Complications — one in the default zone for de and es-419, one per zone
        // (the default and the region's) for de-DE and pt-BR.
        let brazil = min(ICUInventory.timeZones(inRegion: "BR").count, SessionWarmUp.zonesPerRegion)
        let warmUp = SessionWarmUp(core: core, locales: ["de", "es-419", "pt-BR", "not a tag"])
        #expect(warmUp.remaining == (4 + 1) + (6 + 3) + (4 + 1) + (4 + brazil + 1 + brazil))
    }

    @Test("after the warm-up, a real order of the likely market needs no compilation")
    func warmedSessionDefersNothing() throws {
        let core = CoreFixture.core
        let cold = core.makeSession()
        let warm = core.makeSession()
        var warmUp = SessionWarmUp(core: core, locales: ["de"])
        while let item = warmUp.next() { warm.warmUp(with: item) }
        var order = Caffe_V1_OrderEvent()
        order.orderID = "A-1"
        order.sourceID = "pos-1"
        order.sequence = 1
        order.storeID = "store-de-ber"
        order.currencyCode = "EUR"
        order.placedAt = Google_Protobuf_Timestamp(seconds: 1_795_000_000)
        order.customer.customerID = "c-1"
        order.customer.name = "Lena"
        order.customer.locale = "de-DE"
        order.customer.timeZone = "Europe/Berlin"
        var line = Caffe_V1_OrderLine()
        line.itemID = "coffee"
        line.size = "large"
        line.quantity = 2
        order.lines = [line]
        let bytes: [UInt8] = try order.serializedBytes()
        for session in [cold, warm] { session.newLocales = .defer }
        #expect(throws: RenderError.self) { try bytes.withUnsafeBytes { try cold.renderOrder(bytes: $0) } }
        let rendered = try bytes.withUnsafeBytes { try warm.renderOrder(bytes: $0) }
        #expect(rendered.localization == "de")
        // Compiled by the warm-up: de and de-DE; by the real order: nothing more. The cold session
        // compiled nothing, it deferred.
        #expect(warm.localeStatistics.compilations == 2)
        #expect(cold.localeStatistics.compilations == 0)
    }
}
