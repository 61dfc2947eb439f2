/// How many lines of one kind may be logged: `burst` at once, then `perSecond` a second. What is
/// held back is counted and said with the next line that goes out, or by ``flush(at:)`` once a
/// line may go out again — a flood of bad input is visible in the log without filling it.
struct LogBudget {
    let perSecond: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant?
    /// Lines held back since the last one logged.
    private(set) var heldBack = 0

    init(perSecond: Double = 10, burst: Double = 20) {
        self.perSecond = perSecond
        self.burst = burst
        tokens = burst
    }

    /// Whether a line may go out at `now`: nil when it is held back, otherwise how many were
    /// held back before it (to say with it).
    mutating func admit(at now: ContinuousClock.Instant) -> Int? {
        refill(at: now)
        guard tokens >= 1 else {
            heldBack += 1
            return nil
        }
        tokens -= 1
        defer { heldBack = 0 }
        return heldBack
    }

    /// Lines held back and not yet said, once a line may go out again (for a summary line);
    /// nil when there are none or the budget is still spent.
    mutating func flush(at now: ContinuousClock.Instant) -> Int? {
        guard heldBack > 0 else { return nil }
        refill(at: now)
        guard tokens >= 1 else { return nil }
        tokens -= 1
        defer { heldBack = 0 }
        return heldBack
    }

    private mutating func refill(at now: ContinuousClock.Instant) {
        if let last {
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(burst, tokens + max(0, seconds) * perSecond)
        }
        last = now
    }
}
