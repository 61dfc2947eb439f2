/// Where the pipeline renders an event: on its own thread or on a helper.
///
/// Rendering on the pipeline thread costs no hand-off: at low and moderate rates an order is
/// received, rendered and sent by one thread after one wake-up. But everything that thread does,
/// every order waits for; once it is busy, rendering there caps the whole process at one core.
/// So the pipeline keeps rendering inline while it has time to spare, and delegates every render
/// to the helpers once it has not, leaving itself only the serial work (reading, the books,
/// sending). Decided per window from plain figures — the thread's CPU time (or, without it, the
/// time it waited), time rendered — so it is a pure value, tested with numbers.
///
/// CPU time, not wall time, says how busy the thread is: on a machine whose cores are all taken
/// (the helpers render beside it), a thread that is runnable but not running is not waiting in
/// its poll either, and wall time counted that as work, so the thread kept delegating at rates it
/// could render inline. The busy share is the thread's CPU time over its CPU time plus the time it
/// waited: time it spent off its core counts neither way. (CPU time over the whole window would
/// err the other way: a thread that never waits but gets only part of a core, its work piling up,
/// would look idle.)
package struct RenderPlacement {
    package enum Mode: Equatable {
        /// The pipeline renders what arrives; helpers help only with a backlog.
        case inline
        /// Helpers render everything; the pipeline only reads, books and sends.
        case delegate
    }

    /// The current mode.
    package private(set) var mode = Mode.inline

    /// The share of the window the pipeline may be busy (not waiting) while rendering inline;
    /// above it, renders move to the helpers. High, because delegating is not free: every order
    /// then costs two hand-offs (wake-ups of the helper and of this thread), and on a machine with
    /// few cores a third busy thread. Returning at once needs 35 %: at 60 % a flooded debug build
    /// flipped between modes every window and fell behind (ARCHITECTURE §43); under 60 % it
    /// returns only after calm windows in a row (``calmRequired``).
    package var busyToDelegate = 0.85
    /// The share the pipeline would be busy if it rendered inline again, below which it does.
    package var busyToReturn = 0.35
    /// Below this projected share (but above ``busyToReturn``) it returns too, once it has stayed
    /// there ``calmRequired`` windows in a row: after a burst at a moderate rate the thread goes
    /// back to rendering inline instead of paying two hand-offs per order for good.
    package var busyToReturnWhenCalm = 0.60
    /// A window is calm only if it ends with fewer events than this waiting to be rendered (a
    /// flood keeps a backlog however the time divides).
    package var calmBacklog = 6
    /// Calm windows in a row needed to return; doubled (to at most 64) each time the pipeline has
    /// to delegate again within a second of returning — a flooded thread would otherwise flip every
    /// few windows — and back to 4 after five seconds inline.
    package private(set) var calmRequired = RenderPlacement.fewestCalmWindows
    private static let fewestCalmWindows = 4
    private var calmWindows = 0
    private var returnedAt: ContinuousClock.Instant?
    /// How long a window is.
    package var window = Duration.milliseconds(50)

    private let helpers: Int
    private var windowStart: ContinuousClock.Instant?
    private var waited = Duration.zero
    /// Work done while idle (warming up), not counted as busy.
    private var idleWork = Duration.zero
    /// The thread's CPU time when the window started.
    private var cpuAtStart: Duration?
    private var delegated = 0
    /// A moving average of one render, in nanoseconds.
    private var renderNanoseconds = 0.0

    package init(helpers: Int) {
        self.helpers = helpers
    }

    /// Records time spent waiting for something to do.
    package mutating func waited(_ duration: Duration) {
        waited += duration
    }

    /// Records work done while idle (warming the session up): time neither waited nor busy.
    package mutating func idled(_ duration: Duration) {
        waited += duration
        idleWork += duration
    }

    /// Records what one render took, on any thread.
    package mutating func rendered(nanoseconds: UInt64) {
        let sample = Double(nanoseconds)
        renderNanoseconds = renderNanoseconds == 0 ? sample : renderNanoseconds * 0.95 + sample * 0.05
    }

    /// Records events handed to helpers in delegate mode.
    package mutating func delegated(_ count: Int) {
        delegated += count
    }

    /// Closes the window if it is over, choosing the mode for the next one; returns the mode.
    /// `cpu` is the thread's CPU time so far (read only when a window starts or ends); `nil`
    /// judges by the time waited instead. `backlog`: events waiting to be rendered now.
    @discardableResult
    package mutating func tick(
        at now: ContinuousClock.Instant,
        cpu: @autoclosure () -> Duration? = nil,
        backlog: Int = 0
    ) -> Mode {
        guard helpers > 0 else { return .inline }
        guard let start = windowStart else {
            windowStart = now
            cpuAtStart = cpu()
            return mode
        }
        let elapsed = now - start
        guard elapsed >= window else { return mode }
        let seconds = Self.seconds(elapsed)
        let busy: Double
        let cpuNow = cpu()
        if let cpuNow, let cpuAtStart {
            let working = max(0, Self.seconds(cpuNow - cpuAtStart - idleWork))
            let accounted = working + Self.seconds(waited)
            busy = accounted > 0 ? working / accounted : 0
        } else {
            busy = max(0, 1 - Self.seconds(waited) / seconds)
        }
        switch mode {
        case .inline:
            if busy > busyToDelegate {
                mode = .delegate
                calmWindows = 0
                if let returned = returnedAt, now - returned < .seconds(1) {
                    calmRequired = min(calmRequired * 2, 64)
                }
                returnedAt = nil
            } else if let returned = returnedAt, now - returned >= .seconds(5) {
                calmRequired = Self.fewestCalmWindows
                returnedAt = nil
            }
        case .delegate:
            // What the pipeline would carry with the delegated renders back on its own thread.
            let projected = busy + Double(delegated) * renderNanoseconds / 1e9 / seconds
            calmWindows = projected < busyToReturnWhenCalm && backlog < calmBacklog ? calmWindows + 1 : 0
            if projected < busyToReturn || calmWindows >= calmRequired {
                mode = .inline
                returnedAt = now
                calmWindows = 0
            }
        }
        windowStart = now
        cpuAtStart = cpuNow
        waited = .zero
        idleWork = .zero
        delegated = 0
        return mode
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
