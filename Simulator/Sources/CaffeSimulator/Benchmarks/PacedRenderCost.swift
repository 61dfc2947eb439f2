import CaffeCore
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf

/// What the worker's render step costs per order when orders arrive at a given rate: the same
/// step (the event body's bytes to both outputs' bytes, framed with their headers) on one thread of
/// this process, paced at `rate`, timed with the thread's own CPU clock around each step. At
/// moderate rates caches go cold between orders, so this is well above `bench core`'s figure
/// for back-to-back orders; it is the render term of the pipeline's CPU budget.
public enum PacedRenderCost {
    /// Microseconds of CPU per order at `rate` orders per second, over `seconds`.
    public static func microseconds(
        core: RenderingCore,
        orders: [Caffe_V1_OrderEvent],
        rate: Double,
        seconds: Double
    ) throws -> Double {
        let session = core.makeSession()
        let bodies = try orders.map { try $0.serializedBytes() as [UInt8] }
        let headers = orders.map { EventFrames.header(for: $0) }
        // Warm the per-locale resources once, as a running worker has.
        for (index, body) in bodies.enumerated() { try step(session, body: body, header: headers[index]) }
        let count = max(1, Int(rate * seconds))
        let interval = 1.0 / rate
        let start = ContinuousClock.now
        var total: UInt64 = 0
        for index in 0..<count {
            let due = start + .seconds(Double(index) * interval)
            let wait = ContinuousClock.now.duration(to: due)
            if wait > .zero {
                Thread.sleep(
                    forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds)
                )
            }
            let before = threadCPUNanoseconds()
            try step(session, body: bodies[index % bodies.count], header: headers[index % headers.count])
            total += threadCPUNanoseconds() - before
        }
        return Double(total) / Double(count) / 1000
    }

    /// The render stage's step (`EventRenderer`): the body's bytes to the outputs' bytes, each
    /// output framed with its topic and header as libzmq messages.
    private static func step(_ session: RenderSession, body: [UInt8], header: Caffe_V1_EventHeader) throws {
        try body.withUnsafeBytes { bytes in
            let rendered = try session.renderOrder(bytes: bytes)
            _ = try EventFrames.encode(
                topic: CaffeTopic.confirmation(locale: rendered.customerLocale),
                header: header,
                bodyType: Caffe_V1_Confirmation.protoMessageName,
                body: rendered.confirmation
            )
            _ = try EventFrames.encode(
                topic: CaffeTopic.receipt(store: rendered.storeID),
                header: header,
                bodyType: Caffe_V1_Receipt.protoMessageName,
                body: rendered.receipt
            )
        }
    }

    /// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
