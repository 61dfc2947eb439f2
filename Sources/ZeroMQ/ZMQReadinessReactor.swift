import CZeroMQ
import Glibc
import Synchronization

/// Waits for sockets' `ZMQ_FD` descriptors with one `epoll` thread per process, so tasks can await
/// socket readiness without blocking Swift's cooperative threads.
///
/// `ZMQ_FD` only says that the socket's state *may* have changed; callers re-read `ZMQ_EVENTS`
/// after every wake-up (see ``ZMQSocket/waitUntil(_:deadline:)``). Each descriptor is armed
/// one-shot and level-triggered, so a signal that arrives between the `ZMQ_EVENTS` check and the
/// arming is still seen. Several waiters may wait on one descriptor (tasks of one actor sharing a
/// socket); a signal wakes them all.
final class ZMQReadinessReactor: Sendable {
    private struct Waiter {
        let continuation: CheckedContinuation<Bool, any Error>
        let deadline: ContinuousClock.Instant?
    }

    private let epoll: Int32
    private let wakeup: ZMQWakeup
    /// Waiters by descriptor, then by wait id.
    private let waiters = Mutex<[Int32: [UInt64: Waiter]]>([:])
    private let nextID = Atomic<UInt64>(0)

    private static let started = Atomic<Bool>(false)
    private static let sharedInstance: Result<ZMQReadinessReactor, ZMQError> = Result { () throws(ZMQError) in
        let reactor = try ZMQReadinessReactor()
        started.store(true, ordering: .releasing)
        return reactor
    }

    /// The process-wide reactor, started on first use.
    static func shared() throws(ZMQError) -> ZMQReadinessReactor {
        try sharedInstance.get()
    }

    /// The reactor if some task has used it, without starting it.
    static var ifStarted: ZMQReadinessReactor? {
        guard started.load(ordering: .acquiring) else { return nil }
        return try? sharedInstance.get()
    }

    private init() throws(ZMQError) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw ZMQError(code: errno, operation: "epoll_create1") }
        self.epoll = epoll
        wakeup = try ZMQWakeup()
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeup.fileDescriptor
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup.fileDescriptor, &event) == 0 else {
            throw ZMQError(code: errno, operation: "epoll_ctl(ADD eventfd)")
        }
        // The reactor lives for the rest of the process; its thread is never joined.
        _ = try ZMQThread(name: "zmq.reactor") { [self] in self.run() }
    }

    /// Suspends until `fileDescriptor` signals or is woken (`true`) or `deadline` passes (`false`).
    ///
    /// - Throws: `CancellationError` when the task is cancelled, or a ``ZMQError`` if `epoll` refuses the descriptor.
    func wait(for fileDescriptor: Int32, deadline: ContinuousClock.Instant?) async throws -> Bool {
        let id = nextID.add(1, ordering: .relaxed).newValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                waiters.withLock { table in
                    table[fileDescriptor, default: [:]][id] = Waiter(continuation: continuation, deadline: deadline)
                }
                if Task.isCancelled {
                    resume(fileDescriptor, id: id, with: .failure(CancellationError()))
                    return
                }
                var event = epoll_event()
                event.events = EPOLLIN.rawValue | EPOLLONESHOT.rawValue
                event.data.fd = fileDescriptor
                var rc = epoll_ctl(epoll, EPOLL_CTL_MOD, fileDescriptor, &event)
                if rc != 0 && errno == ENOENT {
                    rc = epoll_ctl(epoll, EPOLL_CTL_ADD, fileDescriptor, &event)
                }
                if rc != 0 {
                    let error = ZMQError(code: errno, operation: "epoll_ctl(\(fileDescriptor))")
                    resume(fileDescriptor, id: id, with: .failure(error))
                    return
                }
                if deadline != nil { wakeup.signal() }
            }
        } onCancel: {
            resume(fileDescriptor, id: id, with: .failure(CancellationError()))
        }
    }

    /// Wakes every waiter on `fileDescriptor` (the socket was closed, say); each re-checks its socket.
    func wakeAll(_ fileDescriptor: Int32) {
        let woken = waiters.withLock { $0.removeValue(forKey: fileDescriptor) } ?? [:]
        for waiter in woken.values { waiter.continuation.resume(returning: true) }
    }

    /// Resumes the waiter `id` on `fileDescriptor` if it is still waiting.
    private func resume(_ fileDescriptor: Int32, id: UInt64, with result: Result<Bool, any Error>) {
        let waiter = waiters.withLock { table -> Waiter? in
            let waiter = table[fileDescriptor]?.removeValue(forKey: id)
            if table[fileDescriptor]?.isEmpty == true { table[fileDescriptor] = nil }
            return waiter
        }
        waiter?.continuation.resume(with: result)
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let timeout = nearestDeadlineMilliseconds()
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeout)
            }
            var ready: [Waiter] = []
            if count > 0 {
                let signalled = events[..<Int(count)].map(\.data.fd)
                if signalled.contains(wakeup.fileDescriptor) { wakeup.drain() }
                waiters.withLock { table in
                    for descriptor in signalled where descriptor != wakeup.fileDescriptor {
                        if let waiting = table.removeValue(forKey: descriptor) {
                            ready.append(contentsOf: waiting.values)
                        }
                    }
                }
            }
            let now = ContinuousClock.now
            var expired: [Waiter] = []
            waiters.withLock { table in
                for (descriptor, waiting) in table {
                    for (id, waiter) in waiting where waiter.deadline.map({ $0 <= now }) ?? false {
                        expired.append(waiter)
                        table[descriptor]?[id] = nil
                    }
                    if table[descriptor]?.isEmpty == true { table[descriptor] = nil }
                }
            }
            for waiter in ready { waiter.continuation.resume(returning: true) }
            for waiter in expired { waiter.continuation.resume(returning: false) }
        }
    }

    /// Milliseconds until the earliest deadline, rounded up; -1 when no waiter has one.
    private func nearestDeadlineMilliseconds() -> Int32 {
        let nearest = waiters.withLock { table in
            table.values.lazy.flatMap(\.values).compactMap(\.deadline).min()
        }
        guard let nearest else { return -1 }
        return ZMQTimeout(ContinuousClock.now.duration(to: nearest)).rawMilliseconds
    }
}

extension ContinuousClock.Instant {
    /// `now + duration`, clamped to a year so absurd timeouts cannot overflow the clock.
    static func deadline(after duration: Duration) -> ContinuousClock.Instant {
        .now + min(max(duration, .zero), .seconds(365 * 24 * 3600))
    }
}
