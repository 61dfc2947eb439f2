import CaffeProtocol
import Foundation
import Synchronization
import ZeroMQ

/// The events a source sent, exactly as they travelled, kept for `caffe.v1.Replay/Fetch`: the
/// `retention` most recent per source (older ones are answered as unavailable, and the worker
/// reports them as lost — keep as many as the source can afford to hold).
public final class ReplayJournal: Sendable {
    /// Events kept per source.
    public let retention: Int
    private let streams = Mutex<[String: Stream]>([:])

    private struct Stream {
        var events: [UInt64: Caffe_V1_ReplayedEvent] = [:]
        var oldest: UInt64 = .max
        var newest: UInt64 = 0
    }

    /// Keeps the `retention` most recent events of each source (at least 1).
    public init(retention: Int = 100_000) {
        self.retention = max(1, retention)
    }

    /// Keeps `frames` (`[topic][header][body]`) as `source`'s event `sequence`. A sequence at or
    /// below the newest kept starts a new run of the source (numbering from 1 again): the last
    /// run's events go, since a worker asks for a run's events only while that run is current.
    public func record(source: String, sequence: UInt64, frames: [ZMQMessage]) {
        guard frames.count == 3 else { return }
        var event = Caffe_V1_ReplayedEvent()
        event.topic = String(decoding: frames[0].bytes, as: UTF8.self)
        event.header = Data(frames[1].bytes)
        event.body = Data(frames[2].bytes)
        streams.withLock { streams in
            var stream = streams[source] ?? Stream()
            if sequence <= stream.newest { stream = Stream() }
            stream.events[sequence] = event
            stream.oldest = min(stream.oldest, sequence)
            stream.newest = sequence
            while stream.events.count > retention {
                stream.events[stream.oldest] = nil
                stream.oldest += 1
            }
            streams[source] = stream
        }
    }

    /// `source`'s event `sequence`, when it is still kept.
    public func event(source: String, sequence: UInt64) -> Caffe_V1_ReplayedEvent? {
        streams.withLock { $0[source]?.events[sequence] }
    }

    /// Whether any event of `source` was recorded.
    public func holds(source: String) -> Bool {
        streams.withLock { $0[source] != nil }
    }
}
