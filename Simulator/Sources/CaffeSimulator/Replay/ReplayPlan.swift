import CaffeProtocol
import Foundation
import SwiftProtobuf

/// What `caffe-sim replay` will send and when: the journal's records after the filters, each at an
/// offset from the start of the run. Offsets come from the capture times (gaps capped at
/// `maxGap`, divided by the speed) and are anchored to the start, so pacing never drifts: a late
/// send does not delay the ones after it. Pure, so it is tested without sockets.
public struct ReplayPlan: Sendable {
    public enum Speed: Hashable, Sendable, CustomStringConvertible {
        /// Capture-time gaps divided by the factor (`1x`, `10x`, `0.5x`).
        case factor(Double)
        /// As fast as the socket takes them.
        case max

        /// Reads `1x`, `10x`, `0.5x` or `max`.
        public init?(_ text: String) {
            if text == "max" {
                self = .max
                return
            }
            let number = text.hasSuffix("x") ? text.dropLast() : Substring(text)
            guard let factor = Double(number), factor > 0, factor.isFinite else { return nil }
            self = .factor(factor)
        }

        public var description: String {
            switch self {
            case .max: "max"
            case .factor(let factor): "\(factor.formatted(.number.precision(.fractionLength(0...3))))x"
            }
        }
    }

    public struct Options: Sendable {
        public var speed: Speed = .factor(1)
        /// How many times the selection is sent; later passes get new order ids and sequences.
        public var loops: Int = 1
        /// The longest pause kept between two records (before the speed applies).
        public var maxGap: Duration?
        /// Only records captured at or after this time.
        public var fromTime: Date?
        /// Only records captured before this time.
        public var toTime: Date?
        /// Only records starting at or after this byte offset in the file.
        public var fromOffset: Int?

        public init() {}
    }

    /// One send: which entry, in which pass, and when (from the start of the run).
    public struct Step: Hashable, Sendable {
        public var entry: Int
        public var loop: Int
        public var offset: Duration
    }

    public let steps: [Step]
    /// Per source, how many sequences the selection spans (highest − lowest + 1): pass `k` (from
    /// 0) adds `k` times it, so each pass follows on from the last without a gap.
    public let sequenceSpan: [String: UInt64]

    public init(entries: [Journal.Entry], options: Options) {
        var selected: [Int] = []
        for (index, entry) in entries.enumerated() {
            let captured = entry.record.capturedAt.date
            if let from = options.fromOffset, entry.offset < from { continue }
            if let from = options.fromTime, captured < from { continue }
            if let to = options.toTime, captured >= to { continue }
            selected.append(index)
        }
        var bounds: [String: ClosedRange<UInt64>] = [:]
        for index in selected {
            guard let header = try? entries[index].record.eventHeader() else { continue }
            let sequence = header.sequence
            bounds[header.sourceID] =
                bounds[header.sourceID].map {
                    Swift.min($0.lowerBound, sequence)...Swift.max($0.upperBound, sequence)
                } ?? sequence...sequence
        }
        // Each later pass continues right after the previous one's last sequence.
        sequenceSpan = bounds.mapValues { $0.upperBound - $0.lowerBound + 1 }
        var steps: [Step] = []
        var offset = Duration.zero
        for loop in 0..<Swift.max(1, options.loops) {
            var previous: Date?
            for index in selected {
                let captured = entries[index].record.capturedAt.date
                if let previous, case .factor(let factor) = options.speed {
                    var gap = Duration.seconds(Swift.max(0, captured.timeIntervalSince(previous)))
                    if let maxGap = options.maxGap { gap = Swift.min(gap, maxGap) }
                    offset += gap / factor
                }
                previous = captured
                steps.append(Step(entry: index, loop: loop, offset: offset))
            }
        }
        self.steps = steps
    }

    /// How long the run takes at its pace (the last send's offset).
    public var expectedDuration: Duration { steps.last?.offset ?? .zero }

    /// The event of `step` as it is sent: from pass 1 on, the order id gets `#<pass + 1>` and the
    /// sequence moves up by the selection's span, so a worker sees new orders, not duplicates.
    public func frames(
        for step: Step,
        in entries: [Journal.Entry],
        metadata: [String: String] = [:]
    ) throws -> (frames: [[UInt8]], order: Caffe_V1_OrderEvent?) {
        let record = entries[step.entry].record
        guard step.loop > 0 || !metadata.isEmpty else {
            let order =
                record.topic.hasPrefix("order.") ? try? Caffe_V1_OrderEvent(serializedBytes: record.body) : nil
            return (record.frames, order)
        }
        var header = try record.eventHeader()
        header.metadata.merge(metadata) { $1 }
        var body = [UInt8](record.body)
        var order: Caffe_V1_OrderEvent?
        if header.bodyType == Caffe_V1_OrderEvent.protoMessageName {
            var event = try Caffe_V1_OrderEvent(serializedBytes: record.body)
            if step.loop > 0 {
                event.orderID += "#\(step.loop + 1)"
                event.sequence += UInt64(step.loop) * (sequenceSpan[event.sourceID] ?? 0)
                header.orderID = event.orderID
                header.sequence = event.sequence
                body = try event.serializedBytes()
            }
            order = event
        } else if step.loop > 0 {
            header.sequence += UInt64(step.loop) * (sequenceSpan[header.sourceID] ?? 0)
        }
        return ([Array(record.topic.utf8), try header.serializedBytes(), body], order)
    }
}
