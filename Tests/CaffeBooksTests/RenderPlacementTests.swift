// Caffe — CaffeBooks tests.
import Testing

@testable import CaffeBooks

/// Rendering on the pipeline thread while it has time, on the helpers once it has not.
@Suite("Render placement")
struct RenderPlacementTests {
    let start = ContinuousClock.now

    /// One 50 ms window in which the pipeline waited `waited` ms and handed `delegated` events on.
    func window(
        _ placement: inout RenderPlacement,
        _ index: Int,
        waited: Int,
        delegated: Int = 0
    ) -> RenderPlacement.Mode {
        placement.waited(.milliseconds(waited))
        placement.delegated(delegated)
        return placement.tick(at: start + .milliseconds(50 * (index + 1)))
    }

    @Test("a pipeline busy for more than 85 % of a window hands every render to the helpers from the next")
    func delegatesWhenBusy() {
        var placement = RenderPlacement(helpers: 1)
        #expect(placement.tick(at: start) == .inline)
        #expect(window(&placement, 0, waited: 15) == .inline)  // busy 70 %
        #expect(window(&placement, 1, waited: 5) == .delegate)  // busy 90 %
    }

    @Test("a window not yet over changes nothing")
    func windowNotOver() {
        var placement = RenderPlacement(helpers: 1)
        placement.tick(at: start)
        placement.waited(.milliseconds(1))
        #expect(placement.tick(at: start + .milliseconds(49)) == .inline)
        #expect(placement.tick(at: start + .milliseconds(50)) == .delegate)
    }

    @Test("back to inline only when the delegated renders would fit: busy plus their render time under 35 %")
    func returnsWhenTheRendersWouldFit() {
        var placement = RenderPlacement(helpers: 2)
        placement.tick(at: start)
        for _ in 0..<100 { placement.rendered(nanoseconds: 6_000) }
        #expect(window(&placement, 0, waited: 5) == .delegate)
        // Busy 40 % while delegating 2,000 renders of 6 µs (12 ms, 24 %): 64 % inline, so stay.
        #expect(window(&placement, 1, waited: 30, delegated: 2_000) == .delegate)
        // Busy 10 %, 1,000 renders (6 ms, 12 %): 22 % inline.
        #expect(window(&placement, 2, waited: 45, delegated: 1_000) == .inline)
    }

    @Test("without helpers the pipeline renders everything, however busy")
    func noHelpers() {
        var placement = RenderPlacement(helpers: 0)
        placement.tick(at: start)
        #expect(window(&placement, 0, waited: 0) == .inline)
        #expect(placement.mode == .inline)
    }

    @Test(
        "judged by CPU time: time off the core counts neither way, idle work is not busy, a thread that never waits is"
    )
    func cpuTime() {
        var placement = RenderPlacement(helpers: 1)
        placement.tick(at: start, cpu: .milliseconds(1_000))
        // 20 ms of CPU, 5 ms waiting, 25 ms runnable but off its core: 80 % busy (wall time said
        // 90 %), inline.
        placement.waited(.milliseconds(5))
        #expect(placement.tick(at: start + .milliseconds(50), cpu: .milliseconds(1_020)) == .inline)
        // 40 ms of CPU of which 20 ms warming the session up while idle, 10 ms waiting: 50 %.
        placement.idled(.milliseconds(20))
        placement.waited(.milliseconds(10))
        #expect(placement.tick(at: start + .milliseconds(100), cpu: .milliseconds(1_060)) == .inline)
        // Never waiting, though it ran only 20 ms of the 50 (the other core's threads had the
        // rest): its work piles up, so it is busy, and the helpers take every render.
        #expect(placement.tick(at: start + .milliseconds(150), cpu: .milliseconds(1_080)) == .delegate)
    }

    @Test("under 60 % for 4 windows in a row it returns; one busier window starts the count again")
    func returnsAfterCalmWindows() {
        var placement = RenderPlacement(helpers: 1)
        placement.tick(at: start)
        for _ in 0..<100 { placement.rendered(nanoseconds: 10_000) }
        #expect(window(&placement, 0, waited: 0) == .delegate)
        // Busy 30 % plus 1,000 renders of 10 µs (10 ms, 20 %): 50 % inline.
        #expect(window(&placement, 1, waited: 35, delegated: 1_000) == .delegate)
        #expect(window(&placement, 2, waited: 35, delegated: 1_000) == .delegate)
        #expect(window(&placement, 3, waited: 25, delegated: 1_000) == .delegate)  // 70 %: again
        for index in 4..<7 { #expect(window(&placement, index, waited: 35, delegated: 1_000) == .delegate) }
        #expect(window(&placement, 7, waited: 35, delegated: 1_000) == .inline)
        #expect(placement.calmRequired == 4)
    }

    @Test("a window that ends with a backlog is not calm, however the time divides")
    func backlogIsNotCalm() {
        var placement = RenderPlacement(helpers: 1)
        placement.tick(at: start)
        for _ in 0..<100 { placement.rendered(nanoseconds: 10_000) }
        #expect(window(&placement, 0, waited: 0) == .delegate)
        for index in 1..<20 {
            placement.waited(.milliseconds(35))
            placement.delegated(1_000)
            #expect(placement.tick(at: start + .milliseconds(50 * (index + 1)), backlog: 40) == .delegate)
        }
    }

    @Test(
        "a thread that must delegate again within a second of returning waits twice as long next time, up to 64 windows"
    )
    func calmBacksOffWhenItFlips() {
        var placement = RenderPlacement(helpers: 1)
        placement.tick(at: start)
        for _ in 0..<100 { placement.rendered(nanoseconds: 10_000) }
        var index = 0
        func next(waited: Int, delegated: Int = 0) -> RenderPlacement.Mode {
            defer { index += 1 }
            return window(&placement, index, waited: waited, delegated: delegated)
        }
        var required: [Int] = []
        for _ in 0..<6 {
            #expect(next(waited: 0) == .delegate)  // a flood: busy every window inline
            while next(waited: 35, delegated: 1_000) == .delegate {}
            required.append(placement.calmRequired)
        }
        #expect(required == [4, 8, 16, 32, 64, 64])
        // Five seconds inline without a busy window: back to 4.
        for _ in 0..<100 { #expect(next(waited: 40) == .inline) }
        #expect(placement.calmRequired == 4)
    }
}
