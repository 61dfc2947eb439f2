import Synchronization

/// Whether the worker takes new work (true once started, false from the start of a drain), and
/// whether it is healthy: serving, with its checkpoint being written. Health checks
/// (`grpc.health.v1`, `/healthz`) report ``isHealthy``; a worker that cannot write its
/// checkpoint still renders, but would render again after a restart everything since its last
/// checkpoint, so it asks to be looked at.
final class WorkerStatus: Sendable {
    private let serving = Atomic<Bool>(false)
    private let checkpointHealthy = Atomic<Bool>(true)
    private let inputsConnected = Atomic<Bool>(false)

    var isServing: Bool { serving.load(ordering: .acquiring) }
    var isCheckpointHealthy: Bool { checkpointHealthy.load(ordering: .acquiring) }
    var isHealthy: Bool { isServing && isCheckpointHealthy }
    /// Every endpoint the input connects to has a connection (bound endpoints need none).
    var areInputsConnected: Bool { inputsConnected.load(ordering: .acquiring) }

    /// What keeps the worker from being ready for traffic, or nil when it is: serving (the
    /// catalog and menu loaded, the stages started), the checkpoint writable, the inputs
    /// connected.
    var notReadyBecause: String? {
        if !isServing { return "not serving (starting or stopping)" }
        if !isCheckpointHealthy { return "the checkpoint cannot be written" }
        if !areInputsConnected { return "an input endpoint it connects to has no connection" }
        return nil
    }

    func set(serving value: Bool) { serving.store(value, ordering: .releasing) }
    func set(checkpointHealthy value: Bool) { checkpointHealthy.store(value, ordering: .releasing) }
    func set(inputsConnected value: Bool) { inputsConnected.store(value, ordering: .releasing) }
}
