import CaffeClient
import CaffeProtocol
import Foundation
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// The chaos suite's consumer: binds where the worker's output connects (DEALER for the
/// acknowledged output, SUB for PUB, PULL for PUSH), processes at most ``rate`` outputs a second
/// (changeable while it runs: a slow consumer, then a fast one), acknowledges what it processed,
/// and keeps the books a user would: the orders delivered, de-duplicated by order (the source's
/// sequence), and how many outputs came again.
public final class ChaosConsumer: @unchecked Sendable {
    public enum Kind: String, Sendable {
        case acked, pub, push
    }

    public let endpoint: String
    public let kind: Kind
    private let sourceBytes: [UInt8]
    private let limit = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let books: Mutex<Books>
    private let socket: SocketBox
    /// The acknowledged output's side of the protocol (with `kind` `.acked`).
    private let acked: UncheckedConsumer?
    /// The window granted while processing at full speed.
    private let fastWindow: UInt32

    struct Books {
        /// Outputs seen per order (bit 0 confirmation, bit 1 receipt).
        var seen: [UInt8]
        /// When each order was complete (uptime nanoseconds; 0: not yet).
        var completedAt: [UInt64]
        var delivered = 0
        var duplicates = 0
        var deadLetters = 0
        /// Dead letters of events that were not the source's (hostile ones).
        var foreignDeadLetters = 0
    }

    /// `rate`: outputs per second processed (0: as fast as they come). `connect`: the worker's
    /// bound output to connect to; by default the consumer binds and the worker connects.
    public init(
        context: ZMQContext,
        kind: Kind,
        source: String,
        count: Int,
        rate: Int,
        connect: String? = nil,
        window: UInt32 = 1000
    ) throws {
        self.kind = kind
        fastWindow = window
        sourceBytes = Array(source.utf8)
        books = Mutex(
            Books(seen: [UInt8](repeating: 0, count: count + 1), completedAt: [UInt64](repeating: 0, count: count + 1))
        )
        let socket: ZMQSocket
        switch kind {
        case .acked:
            let consumer = try AckedConsumer(
                endpoint: connect.map { ">" + $0 } ?? "@tcp://127.0.0.1:*",
                window: window,
                deduplicate: 0,
                context: context
            )
            try consumer.socket.set(.receiveHighWaterMark, to: 100)
            socket = consumer.socket
            endpoint = consumer.address
            acked = UncheckedConsumer(consumer: consumer)
        case .pub, .push:
            socket = try context.socket(kind == .pub ? .sub : .pull)
            if kind == .pub { try socket.subscribe("") }
            try socket.set(.receiveHighWaterMark, to: 100)
            if let connect {
                try socket.connect(connect)
                endpoint = connect
            } else {
                endpoint = try socket.bind("tcp://127.0.0.1:*")
            }
            acked = nil
        }
        self.socket = SocketBox(socket)
        limit.store(rate, ordering: .relaxed)
    }

    /// When order `sequence` was complete, in uptime nanoseconds (0: not yet).
    public func completedAt(_ sequence: Int) -> UInt64 {
        books.withLock { sequence < $0.completedAt.count ? $0.completedAt[sequence] : 0 }
    }

    /// Changes the processing rate (0: unlimited).
    public func setRate(_ rate: Int) { limit.store(rate, ordering: .relaxed) }

    /// Orders with both outputs delivered, outputs that came again, dead letters of the source's
    /// events, and dead letters of anything else.
    public var tally: (delivered: Int, duplicates: Int, deadLetters: Int, foreignDeadLetters: Int) {
        books.withLock { ($0.delivered, $0.duplicates, $0.deadLetters, $0.foreignDeadLetters) }
    }

    public func start() {
        started.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "chaos-consumer"
        thread.start()
    }

    public func stop() {
        stopping.store(true, ordering: .relaxed)
        if started.load(ordering: .relaxed) { finished.wait() }
        socket.socket.close(linger: .milliseconds(0))
    }

    /// The acknowledging consumer, handed to the thread that runs it.
    private struct UncheckedConsumer: @unchecked Sendable {
        let consumer: AckedConsumer
    }

    private func run() {
        let socket = socket.socket
        let consumer = acked?.consumer
        var nextSlot = ContinuousClock.now
        while !stopping.load(ordering: .relaxed) {
            let rate = limit.load(ordering: .relaxed)
            if let consumer {
                // A slow consumer asks for little at a time.
                consumer.window = rate > 0 ? 20 : fastWindow
                try? consumer.acknowledgeIfDue()
            }
            if rate > 0 {
                let wait = ContinuousClock.now.duration(to: nextSlot)
                if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.attoseconds) / 1e18) }
            }
            let timeout = consumer.map { min(.milliseconds(50), ContinuousClock.now.duration(to: $0.nextDue)) }
            guard
                let frames = try? socket.receiveMultipart(timeout: ZMQTimeout(max(.zero, timeout ?? .milliseconds(50))))
            else { continue }
            if rate > 0 { nextSlot = max(nextSlot, .now - .milliseconds(100)) + .seconds(1.0 / Double(rate)) }
            var event = frames[...]
            if let consumer {
                guard let tagFrame = event.first, consumer.accept(tagFrame: tagFrame) else { continue }
                event = event.dropFirst()
            }
            guard event.count == 3 else { continue }
            let topic = event[event.startIndex]
            let header = event[event.startIndex + 1]
            let kind = topic.withUnsafeBytes { OutputScanner.Kind(topic: $0) }
            guard let sequence = header.withUnsafeBytes({ OutputScanner.sequence(inHeader: $0, source: sourceBytes) })
            else {
                if kind == .deadLetter { books.withLock { $0.foreignDeadLetters += 1 } }
                continue
            }
            books.withLock { books in
                guard sequence < UInt64(books.seen.count) else { return }
                let index = Int(sequence)
                let bit: UInt8 =
                    switch kind {
                    case .confirmation: 1
                    case .receipt: 2
                    case .deadLetter: 4
                    default: 8
                    }
                if books.seen[index] & bit != 0 {
                    books.duplicates += 1
                    return
                }
                let before = books.seen[index]
                books.seen[index] |= bit
                if bit == 4 { books.deadLetters += 1 }
                let complete: (UInt8) -> Bool = { $0 & 3 == 3 || $0 & 4 != 0 }
                if !complete(before), complete(books.seen[index]) {
                    books.delivered += 1
                    books.completedAt[index] = DispatchTime.now().uptimeNanoseconds
                }
            }
        }
    }
}
