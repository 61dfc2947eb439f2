import CaffeCore
import CaffeProtocol
import Foundation
import Synchronization
import Testing

@Suite("Sessions on many threads")
struct ConcurrencyTests {
    @Test("one session per thread renders what one thread renders")
    func parallel() throws {
        let orders = CoreFixture.markets.map { CoreFixture.order(market: $0) }
        let single = CoreFixture.core.makeSession()
        let expected = try orders.map { try single.render($0).receipt.text.plain }
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let session = CoreFixture.core.makeSession()
            for _ in 0..<20 {
                for (order, text) in zip(orders, expected) where (try? session.render(order).receipt.text.plain) != text
                {
                    mismatches.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }
}
