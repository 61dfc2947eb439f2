import CaffeBooks

/// Which locales the pipeline thread compiles after all: one it has deferred
/// ``LocalePromotion/threshold`` times, at most one per ``LocalePromotion/interval``. A real
/// market's locale soon qualifies and is rendered here from then on; a flood of one-off locales
/// never does, and costs this thread nothing. With no helper thread, new locales are compiled
/// here from a small budget (``takeSoleThreadBudget(at:)``); past it they are approximated.
struct LocalePromotion {
    static let threshold = 8
    static let interval = Duration.seconds(2)
    private var deferrals: [String: Int] = [:]
    private var next: ContinuousClock.Instant?
    /// With no helper thread: compilations this thread may still do (a bucket of
    /// ``soleThreadBurst``, refilled at one a second).
    private var budget = Double(soleThreadBurst)
    private var budgetAt: ContinuousClock.Instant?
    static let soleThreadBurst = 8

    /// Whether a thread with no helper may compile a new locale now.
    mutating func takeSoleThreadBudget(at now: ContinuousClock.Instant) -> Bool {
        if let last = budgetAt {
            let elapsed = now - last
            budget = min(
                Double(Self.soleThreadBurst),
                budget + Double(elapsed.components.seconds)
                    + Double(elapsed.components.attoseconds) / 1e18
            )
        }
        budgetAt = now
        guard budget >= 1 else { return false }
        budget -= 1
        return true
    }

    mutating func shouldCompile(_ locale: String, at now: ContinuousClock.Instant) -> Bool {
        let seen = (deferrals[locale] ?? 0) + 1
        guard seen >= Self.threshold, next.map({ now >= $0 }) ?? true else {
            if deferrals.count >= 4096 { deferrals.removeAll(keepingCapacity: true) }
            deferrals[locale] = seen
            return false
        }
        deferrals[locale] = nil
        next = now + Self.interval
        return true
    }
}
