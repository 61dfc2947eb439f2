import CaffeBooks
import CaffeCore
import Synchronization

/// The rendering core every render thread uses, replaced whole by a reload. Threads compare
/// ``generation`` between two events and take up the new core when it changed, so nothing in
/// flight is dropped.
final class CoreBox: Sendable {
    private let state: Mutex<(core: RenderingCore, generation: Int)>
    private let latest = Atomic<Int>(0)

    init(_ core: RenderingCore) {
        state = Mutex((core, 0))
    }

    /// Bumped by each replacement; cheap to read on every event.
    var generation: Int { latest.load(ordering: .acquiring) }

    /// The current core and its generation.
    var current: (core: RenderingCore, generation: Int) { state.withLock { $0 } }

    /// Makes `core` the one new sessions use.
    func replace(with core: RenderingCore) {
        state.withLock { state in
            state = (core, state.generation + 1)
            latest.store(state.generation, ordering: .releasing)
        }
    }
}
