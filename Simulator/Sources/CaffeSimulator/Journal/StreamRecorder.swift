import CaffeProtocol
import Foundation
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// Writes what a socket receives into a journal, each event with its capture time: the core of
/// `caffe-sim record`.
public struct StreamRecorder {
    public let subscriber: ZMQSocket

    public init(subscriber: ZMQSocket) {
        self.subscriber = subscriber
    }

    /// Records until `count` events, `duration` seconds, or `stop()`; returns how many.
    /// Messages that are not `[topic][header][body]` are skipped (and counted on standard error).
    /// `progress` gets the events written and the seconds passed, about once a second.
    public func record(
        to url: URL,
        header: Caffe_V1_JournalHeader,
        count: Int? = nil,
        duration: Double? = nil,
        stop: () -> Bool = { false },
        progress: (_ events: Int, _ seconds: Double) -> Void = { _, _ in }
    ) throws -> Int {
        let writer = try JournalWriter(url: url, header: header)
        let started = Date()
        let deadline = duration.map { started.addingTimeInterval($0) }
        var nextProgress = started.addingTimeInterval(1)
        var skipped = 0
        while !stop() {
            let now = Date()
            if now >= nextProgress {
                nextProgress = now.addingTimeInterval(1)
                progress(writer.records, now.timeIntervalSince(started))
            }
            if let count, writer.records >= count { break }
            if let deadline, now >= deadline { break }
            guard let frames = try subscriber.receiveMultipart(timeout: .milliseconds(100)) else { continue }
            guard frames.count == 3 else {
                skipped += 1
                continue
            }
            var record = Caffe_V1_JournalRecord()
            record.capturedAt = Google_Protobuf_Timestamp(date: Date())
            record.topic = frames[0].string
            record.header = frames[1].data
            record.body = frames[2].data
            try writer.append(record)
        }
        try writer.close()
        if skipped > 0 {
            FileHandle.standardError.write(
                Data("caffe-sim record: skipped \(skipped) messages that were not events\n".utf8)
            )
        }
        return writer.records
    }
}

/// Set by SIGINT or SIGTERM. (`@unchecked`: the signal sources are only touched in `init`.)
public final class StopSignal: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)
    private var sources: [any DispatchSourceSignal] = []

    public init() {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.flag.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
    }

    public var requested: Bool { flag.load(ordering: .relaxed) }
}
