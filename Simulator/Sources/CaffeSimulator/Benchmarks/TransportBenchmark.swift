import CTransportBaseline
import Foundation
import Synchronization
import ZeroMQ

/// `caffe-sim bench transport`: PUSH/PULL throughput of the Swift binding beside the same loop in C.
///
/// Both loops run in this process, alternating round by round, over `tcp://127.0.0.1` with one
/// libzmq I/O thread: a sender thread copies a buffer into each message (`zmq_send`), the receiver
/// reuses one message object (`zmq_msg_recv`). Throughput is counted from the first message received
/// to the last, so connection set-up is excluded. Each figure is the median over the rounds.
/// With ``ReceiveMode/async`` the binding's receiver is the `async` API in a task instead, which
/// shows what waiting on `ZMQ_FD` costs beside blocking in libzmq.
public struct TransportBenchmark: Sendable {
    /// What to measure.
    public struct Configuration: Sendable {
        /// Message sizes in bytes.
        public var sizes: [Int]
        /// Messages per run.
        public var messages: Int
        /// Runs per implementation and size; the median is reported.
        public var rounds: Int
        /// How the binding's receiver waits.
        public var receiveMode: ReceiveMode

        /// 256 B and 1 KiB, one million messages, three rounds, blocking receives.
        public init(
            sizes: [Int] = [256, 1024],
            messages: Int = 1_000_000,
            rounds: Int = 3,
            receiveMode: ReceiveMode = .blocking
        ) {
            self.sizes = sizes
            self.messages = messages
            self.rounds = rounds
            self.receiveMode = receiveMode
        }
    }

    /// How the binding's receiving side waits for messages.
    public enum ReceiveMode: String, CaseIterable, Sendable {
        /// `zmq_msg_recv` on a dedicated thread, exactly as the C loop does.
        case blocking
        /// The `async` receive in a task: non-blocking attempts, waiting on `ZMQ_FD` when empty.
        case async
    }

    /// Messages per second by size, for both implementations, and their ratio (binding ÷ C).
    public struct Report: Codable, Sendable, Equatable {
        public var bindingMessagesPerSecond: [String: Double]
        public var cMessagesPerSecond: [String: Double]
        public var ratio: [String: Double]

        public init(
            bindingMessagesPerSecond: [String: Double],
            cMessagesPerSecond: [String: Double],
            ratio: [String: Double]
        ) {
            self.bindingMessagesPerSecond = bindingMessagesPerSecond
            self.cMessagesPerSecond = cMessagesPerSecond
            self.ratio = ratio
        }

        enum CodingKeys: String, CodingKey {
            case bindingMessagesPerSecond = "binding_msgs_per_s"
            case cMessagesPerSecond = "c_msgs_per_s"
            case ratio
        }
    }

    /// A run that could not complete.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Runs every size, reporting each finished measurement through `progress`.
    ///
    /// The blocking receiver and the senders run on threads of their own, never on Swift's
    /// cooperative pool; the async receiver runs in the calling task.
    public func run(progress: (String) -> Void = { _ in }) async throws -> Report {
        var report = Report(bindingMessagesPerSecond: [:], cMessagesPerSecond: [:], ratio: [:])
        for size in configuration.sizes {
            var binding: [Double] = []
            var baseline: [Double] = []
            for round in 0..<configuration.rounds {
                // Alternate which goes first so neither always gets the warmer machine.
                if round % 2 == 0 {
                    baseline.append(try await measureC(size: size))
                    binding.append(try await measureBinding(size: size))
                } else {
                    binding.append(try await measureBinding(size: size))
                    baseline.append(try await measureC(size: size))
                }
                progress(
                    "size \(size) B round \(round + 1): binding \(Self.format(binding.last ?? 0)) msg/s, "
                        + "C \(Self.format(baseline.last ?? 0)) msg/s"
                )
            }
            let key = String(size)
            let bindingMedian = Self.median(binding)
            let baselineMedian = Self.median(baseline)
            report.bindingMessagesPerSecond[key] = bindingMedian.rounded()
            report.cMessagesPerSecond[key] = baselineMedian.rounded()
            report.ratio[key] = ((bindingMedian / baselineMedian) * 1000).rounded() / 1000
        }
        return report
    }

    /// One run of the C loop, on a thread of its own.
    func measureC(size: Int) async throws -> Double {
        let count = UInt64(configuration.messages)
        let result = await onThread(name: "bench.c") { caffe_c_push_pull_throughput(size, count) }
        guard result.error == 0 else {
            throw Failure(description: "C baseline failed: \(String(cString: strerror(result.error)))")
        }
        return Self.rate(messages: Int(result.messages), elapsedNanoseconds: result.elapsed_ns)
    }

    /// One run of the same loop through the Swift binding.
    ///
    /// If either side fails, the context is shut down, which ends the other side's blocking call
    /// with `ETERM`; the sender thread is always joined.
    func measureBinding(size: Int) async throws -> Double {
        let context = try ZMQContext()
        let pull = try context.socket(.pull)
        let endpoint = try pull.bind("tcp://127.0.0.1:*")
        let count = configuration.messages
        let sender = SenderThread(context: context, endpoint: endpoint, size: size, count: count)
        do {
            let elapsed: UInt64
            switch configuration.receiveMode {
            case .blocking:
                // The receiving thread becomes the socket's only user from here on.
                nonisolated(unsafe) let receiver = pull
                elapsed = try await onThread(name: "bench.receive") { try Self.receiveBlocking(receiver, count: count) }
            case .async:
                elapsed = try await Self.receiveAsync(pull, count: count)
            }
            await sender.join()
            if let error = sender.error { throw error }
            return Self.rate(messages: count, elapsedNanoseconds: elapsed)
        } catch {
            context.shutdown()
            await sender.join()
            throw sender.error ?? error
        }
    }

    /// Receives `count` frames with the blocking call; nanoseconds from the first to the last.
    static func receiveBlocking(_ pull: ZMQSocket, count: Int) throws -> UInt64 {
        defer { pull.close() }
        let message = ZMQMessage()
        var start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count {
            _ = try pull.receive(into: message)
            if index == 0 { start = DispatchTime.now().uptimeNanoseconds }
        }
        return DispatchTime.now().uptimeNanoseconds - start
    }

    /// Receives `count` frames with the async call; nanoseconds from the first to the last.
    nonisolated(nonsending) static func receiveAsync(_ pull: ZMQSocket, count: Int) async throws -> UInt64 {
        defer { pull.close() }
        let message = ZMQMessage()
        var start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count {
            try await pull.receive(into: message)
            if index == 0 { start = DispatchTime.now().uptimeNanoseconds }
        }
        return DispatchTime.now().uptimeNanoseconds - start
    }

    /// Messages per second, not counting the first (which starts the clock).
    static func rate(messages: Int, elapsedNanoseconds: UInt64) -> Double {
        guard messages > 1, elapsedNanoseconds > 0 else { return 0 }
        return Double(messages - 1) / (Double(elapsedNanoseconds) / 1e9)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ rate: Double) -> String {
        rate >= 1e6 ? String(format: "%.2f M", rate / 1e6) : String(format: "%.0f k", rate / 1e3)
    }
}

/// The benchmark's PUSH side: a thread that sends `count` frames of `size` bytes, then closes.
///
/// On failure it records the error and shuts the context down, so the receiver cannot wait forever.
final class SenderThread: Sendable {
    private let outcome = Mutex<(done: Bool, error: (any Error)?)>((false, nil))
    private let finished = DispatchSemaphore(value: 0)

    init(context: ZMQContext, endpoint: String, size: Int, count: Int) {
        let thread = Thread { [self] in
            var failure: (any Error)?
            do {
                let push = try context.socket(.push)
                try push.set(.linger, to: .infinite)
                try push.connect(endpoint)
                let payload = [UInt8](repeating: UInt8(ascii: "c"), count: size)
                for _ in 0..<count { try push.send(payload) }
                push.close()
            } catch {
                failure = error
                context.shutdown()
            }
            outcome.withLock { $0 = (true, failure) }
            finished.signal()
        }
        thread.name = "bench.send"
        thread.start()
    }

    /// Waits, off the cooperative pool, for the thread to end.
    func join() async {
        let finished = finished
        await onThread(name: "bench.join") {
            finished.wait()
            finished.signal()
        }
    }

    /// The sender's error, if it failed.
    var error: (any Error)? {
        outcome.withLock { $0.error }
    }
}

/// Runs blocking `work` on a new thread and resumes the caller with its result.
func onThread<Result: Sendable>(name: String, _ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Swift.Result { try work() }) }
        thread.name = name
        thread.start()
    }
}

/// Runs blocking `work` on a new thread and resumes the caller with its result.
func onThread<Result: Sendable>(name: String, _ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = name
        thread.start()
    }
}
