import CaffeCore
import CaffeProtocol
import CaffeTestKit
import Foundation
import SwiftProtobuf
import Testing

/// Once a session has met an order's locale, lines and customer, rendering it from bytes to bytes
/// allocates nothing: the counter stands in for malloc and counts this thread's calls.
@Suite("Warm rendering allocates nothing")
struct WireAllocationTests {
    @Test func ordersAndComplications() throws {
        let session = CoreFixture.core.makeSession()
        var orders: [[UInt8]] = []
        for (index, market) in CoreFixture.markets.enumerated() {
            for make in GoldenOutputTests.orders.map(\.make) {
                var order = make(market)
                order.sequence = UInt64(index + 1)
                orders.append(try order.serializedBytes())
            }
        }
        var requests: [[UInt8]] = []
        for market in CoreFixture.markets {
            for hourCycle in ["", "h12", "h23"] {
                let request = CoreFixture.request(
                    locale: market.locale,
                    timeZone: market.timeZone,
                    hourCycle: hourCycle,
                    at: CoreFixture.timestamp("2026-03-29T00:50:00Z")
                )
                requests.append(try request.serializedBytes())
            }
        }
        // Warm: every locale, line, name, currency and zone met once.
        for body in orders { _ = try body.withUnsafeBytes { try session.renderOrder(bytes: $0) } }
        for body in requests { _ = try body.withUnsafeBytes { try session.renderComplication(bytes: $0) } }

        for body in orders {
            let allocations = try body.withUnsafeBytes { bytes in
                try AllocationCounter.count { _ = try session.renderOrder(bytes: bytes) }
            }
            let order = try Caffe_V1_OrderEvent(serializedBytes: body)
            #expect(allocations == 0, "\(order.customer.locale) \(order.orderID)")
        }
        for body in requests {
            let allocations = try body.withUnsafeBytes { bytes in
                try AllocationCounter.count { _ = try session.renderComplication(bytes: bytes) }
            }
            let request = try Caffe_V1_ComplicationRequest(serializedBytes: body)
            #expect(allocations == 0, "\(request.locale) \(request.hourCycle)")
        }
        #expect(session.wireStatistics.messageRenders == 0)
    }

    @Test func theCounterCounts() {
        let allocations = AllocationCounter.count {
            let array = [Int](repeating: 7, count: Int.random(in: 100...200))
            #expect(array.count >= 100)
        }
        #expect(allocations >= 1)
    }
}
